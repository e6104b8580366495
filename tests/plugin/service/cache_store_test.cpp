// The service over the real on-disk cache: hits after a restart, and the background rebuild of
// entries written under another codegen version.

#include "plugin/service/cache_store.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

namespace kiln {
namespace {

using namespace std::chrono_literals;

// A fresh directory under the system temp dir, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("kiln-plugin-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::vector<std::uint8_t> blob(std::uint32_t n) {
  std::vector<std::uint8_t> bytes(12);
  std::memcpy(bytes.data(), "FAKESHDR", 8);
  std::memcpy(bytes.data() + 8, &n, 4);
  return bytes;
}

// SPIR-V = {n, version, target}: what was translated, by which "codegen", for which target.
TranslateFunction fake_translator(std::uint32_t version, std::atomic<int>& calls) {
  return [version, &calls](Translator&, std::span<const std::uint8_t> bytes,
                           const TranslateOptions& options, TranslateResult& out) {
    calls.fetch_add(1);
    if (bytes.size() != 12) return Status::error("not a fake shader");
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + 8, 4);
    out.spirv = {n, version, std::uint32_t(options.target)};
    out.reflection.stage = ShaderStage::Pixel;
    return Status::ok();
  };
}

std::unique_ptr<cache::ShaderCache> open_cache(const std::filesystem::path& dir,
                                               std::uint32_t version) {
  cache::CacheOptions options;
  options.directory = dir;
  options.codegen_version = version;
  options.diagnostics = [](std::string_view) {};
  return cache::ShaderCache::open(options).value();
}

ServiceOptions service_options(ResultStore& store, std::uint32_t version, std::atomic<int>& calls) {
  ServiceOptions options;
  options.threads = 2;
  options.store = &store;
  options.codegen_version = version;
  options.translate = fake_translator(version, calls);
  return options;
}

TEST(CacheStore, ASecondRunHitsWhatTheFirstTranslated) {
  TempDir dir;
  std::atomic<int> calls{0};
  {
    auto cache = open_cache(dir.path, 1);
    ASSERT_TRUE(cache);
    CacheStore store(*cache);
    CompileService service(service_options(store, 1, calls));
    for (std::uint32_t i = 0; i < 20; ++i) {
      JobRef job = service.submit(blob(i), {});
      ASSERT_TRUE(service.wait(job, 10s));
      ASSERT_EQ(job->state.load(), JobState::Done);
    }
    const std::uint8_t garbage[] = {1, 2, 3};
    JobRef bad = service.submit(garbage, {});
    ASSERT_TRUE(service.wait(bad, 10s));
    EXPECT_EQ(bad->state.load(), JobState::Failed);
  }
  EXPECT_EQ(calls.load(), 21);
  auto cache = open_cache(dir.path, 1);
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->stats().entries, 20u); // failures are not cached
  CacheStore store(*cache);
  CompileService service(service_options(store, 1, calls));
  for (std::uint32_t i = 0; i < 20; ++i) {
    JobRef job = service.submit(blob(i), {});
    ASSERT_EQ(job->state.load(), JobState::Done) << "not ready at submit: " << i;
    EXPECT_TRUE(job->from_cache);
    EXPECT_EQ(job->result.spirv, (std::vector<std::uint32_t>{i, 1, 2}));
    EXPECT_EQ(job->result.reflection.stage, ShaderStage::Pixel);
  }
  // Another target is another key: translated, not served from the vulkan1.3 entry.
  TranslateOptions vulkan11;
  vulkan11.target = SpirvTarget::Vulkan11;
  JobRef other = service.submit(blob(0), vulkan11);
  ASSERT_TRUE(service.wait(other, 10s));
  EXPECT_FALSE(other->from_cache);
  EXPECT_EQ(other->result.spirv, (std::vector<std::uint32_t>{0, 1, 0}));
  EXPECT_EQ(service.stats().cache_hits, 20u);
  EXPECT_EQ(calls.load(), 22);
}

TEST(CacheStore, StaleEntriesAreRebuiltAtLowPriority) {
  TempDir dir;
  std::atomic<int> calls{0};
  TranslateOptions vulkan12;
  vulkan12.target = SpirvTarget::Vulkan12;
  {
    auto cache = open_cache(dir.path, 1);
    CacheStore store(*cache);
    CompileService service(service_options(store, 1, calls));
    for (std::uint32_t i = 0; i < 30; ++i)
      ASSERT_TRUE(
          service.wait(service.submit(blob(i), i % 2 ? vulkan12 : TranslateOptions{}), 10s));
  }
  // "kiln update": codegen version 2 sees 30 stale entries and rebuilds them in the background.
  auto cache = open_cache(dir.path, 2);
  ASSERT_EQ(cache->stats().stale_entries, 30u);
  CacheStore store(*cache);
  {
    CompileService service(service_options(store, 2, calls));
    EXPECT_EQ(submit_stale_entries(service, *cache), 30u);
    // Waiting on the same shaders joins the rebuild jobs (or hits what they stored).
    for (std::uint32_t i = 0; i < 30; ++i) {
      JobRef job = service.submit(blob(i), i % 2 ? vulkan12 : TranslateOptions{});
      ASSERT_TRUE(service.wait(job, 10s));
      EXPECT_EQ(job->result.spirv.at(1), 2u) << "served a stale translation";
    }
    EXPECT_EQ(service.stats().translated, 30u); // each rebuilt once, none twice
  }
  const cache::CacheStats stats = cache->stats();
  EXPECT_EQ(stats.entries, 30u);
  EXPECT_EQ(cache->stale_entries().size(), 0u);
  // The rebuilt entries keep their options: the vulkan1.2 ones hit under vulkan1.2 only.
  TranslateResult result;
  EXPECT_TRUE(cache->lookup(cache->key_for(blob(1), vulkan12), result));
  EXPECT_EQ(result.spirv, (std::vector<std::uint32_t>{1, 2, 1}));
  EXPECT_FALSE(cache->lookup(cache->key_for(blob(1), {}), result));
}

TEST(CacheStore, StaleRebuildStopsWhenAsked) {
  TempDir dir;
  std::atomic<int> calls{0};
  {
    auto cache = open_cache(dir.path, 1);
    CacheStore store(*cache);
    CompileService service(service_options(store, 1, calls));
    for (std::uint32_t i = 0; i < 5; ++i)
      ASSERT_TRUE(service.wait(service.submit(blob(i), {}), 10s));
  }
  auto cache = open_cache(dir.path, 2);
  CacheStore store(*cache);
  CompileService service(service_options(store, 2, calls));
  const std::atomic<bool> stop{true};
  EXPECT_EQ(submit_stale_entries(service, *cache, &stop), 0u);
}

} // namespace
} // namespace kiln
