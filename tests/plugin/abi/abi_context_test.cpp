// A context opened on a cache written by another codegen version rebuilds those entries in the
// background at Low priority (with a substitute translator, so it runs whatever the real one
// can do), and the rebuilt entries are then served as cache hits.

#include "cache/shader_cache.h"
#include "plugin/abi/abi_context.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

namespace kiln {
namespace {

std::vector<std::uint8_t> blob(std::uint32_t n) {
  std::vector<std::uint8_t> bytes(12);
  std::memcpy(bytes.data(), "FAKESHDR", 8);
  std::memcpy(bytes.data() + 8, &n, 4);
  return bytes;
}

TEST(AbiContext, StaleCacheEntriesAreRebuiltAfterCreate) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kiln-abi-stale-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  constexpr std::uint32_t kEntries = 25;
  {
    // What an older kiln left behind.
    cache::CacheOptions options;
    options.directory = dir;
    options.codegen_version = kCodegenVersion + 1000;
    auto old_cache = cache::ShaderCache::open(options).value();
    ASSERT_TRUE(old_cache);
    for (std::uint32_t i = 0; i < kEntries; ++i) {
      TranslateResult result;
      result.spirv = {i, 0xdead};
      ASSERT_TRUE(old_cache->insert(old_cache->key_for(blob(i), {}), blob(i), {}, result));
    }
  }
  std::atomic<int> calls{0};
  const TranslateFunction translate = [&calls](Translator&, std::span<const std::uint8_t> bytes,
                                               const TranslateOptions&, TranslateResult& out) {
    calls.fetch_add(1);
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + 8, 4);
    out.spirv = {n, kCodegenVersion};
    return Status::ok();
  };
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.thread_count = 1;
  const std::string path = dir.string();
  info.cache_path = path.c_str();
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = nullptr;
  ASSERT_EQ(abi::create_context(info, context, translate), KILN_SUCCESS);
  // The rebuild runs in the background: wait for it to finish translating (bounded).
  kiln_stats stats{};
  stats.type = KILN_STRUCTURE_TYPE_STATS;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(kiln_get_stats(context, &stats), KILN_SUCCESS);
    if (stats.stale_entries_submitted == kEntries && stats.translated == kEntries) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(stats.stale_entries_submitted, kEntries);
  EXPECT_EQ(stats.translated, kEntries);
  // Each shader is now a current entry, with the new translation.
  for (std::uint32_t i = 0; i < kEntries; ++i) {
    kiln_submit_info submit{};
    submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
    const auto bytes = blob(i);
    submit.code = bytes.data();
    submit.code_size = bytes.size();
    kiln_shader* shader = nullptr;
    ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
    // A hit, or the last rebuild job still being published: either way no new translation.
    EXPECT_EQ(kiln_wait(shader, UINT64_MAX), KILN_SUCCESS) << i;
    const std::uint32_t* words = nullptr;
    std::size_t count = 0;
    ASSERT_EQ(kiln_get_spirv(shader, &words, &count), KILN_SUCCESS);
    EXPECT_EQ(std::vector<std::uint32_t>(words, words + count),
              (std::vector<std::uint32_t>{i, kCodegenVersion}));
    kiln_shader_release(shader);
  }
  kiln_context_destroy(context);
  EXPECT_EQ(calls.load(), int(kEntries));
  std::filesystem::remove_all(dir);
}

TEST(AbiContext, EveryTargetEnvironmentReachesTheTranslator) {
  const std::pair<kiln_target_environment, SpirvTarget> targets[] = {
      {KILN_TARGET_VULKAN_1_0, SpirvTarget::Vulkan10},
      {KILN_TARGET_VULKAN_1_1, SpirvTarget::Vulkan11},
      {KILN_TARGET_VULKAN_1_2, SpirvTarget::Vulkan12},
      {KILN_TARGET_VULKAN_1_3, SpirvTarget::Vulkan13}};
  for (auto [c_target, target] : targets) {
    const TranslateFunction translate = [](Translator&, std::span<const std::uint8_t>,
                                           const TranslateOptions& options, TranslateResult& out) {
      out.spirv = {spirv_version_word(options.target)};
      return Status::ok();
    };
    kiln_context_create_info info{};
    info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    info.thread_count = 1;
    info.flags = KILN_CONTEXT_DISABLE_CACHE;
    info.target = c_target;
    info.log_callback = [](void*, kiln_log_level, const char*) {};
    kiln_context* context = nullptr;
    ASSERT_EQ(abi::create_context(info, context, translate), KILN_SUCCESS) << int(c_target);
    kiln_submit_info submit{};
    submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
    const auto bytes = blob(1);
    submit.code = bytes.data();
    submit.code_size = bytes.size();
    kiln_shader* shader = nullptr;
    ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
    ASSERT_EQ(kiln_wait(shader, UINT64_MAX), KILN_SUCCESS);
    const std::uint32_t* words = nullptr;
    std::size_t count = 0;
    ASSERT_EQ(kiln_get_spirv(shader, &words, &count), KILN_SUCCESS);
    ASSERT_EQ(count, 1u);
    EXPECT_EQ(words[0], spirv_version_word(target)) << spirv_target_name(target);
    kiln_shader_release(shader);
    kiln_context_destroy(context);
  }
}

} // namespace
} // namespace kiln
