// Pipeline records through the C ABI and their replay at the next context creation, with a
// substitute translator and no Vulkan device (the callback then gets SPIR-V and no module):
// every record replayed most used first, a waiting layer taking a queued build, unknown tags
// and shaders that no longer translate retired, a codegen bump replayed under the new keys.

#include "cache/shader_cache.h"
#include "plugin/abi/abi_context.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace kiln {
namespace {

constexpr std::uint64_t kTag = (std::uint64_t(0x4c41) << 32) | 1; // layer 0x4c41, format 1

std::vector<std::uint8_t> blob(std::uint32_t n) {
  std::vector<std::uint8_t> bytes(12);
  std::memcpy(bytes.data(), "FAKESHDR", 8);
  std::memcpy(bytes.data() + 8, &n, 4);
  return bytes;
}

// Translates blob(n) to [n, version]; rejects the numbers in `rejected`.
TranslateFunction fake_translator(std::vector<std::uint32_t> rejected = {}) {
  return [rejected](Translator&, std::span<const std::uint8_t> bytes, const TranslateOptions&,
                    TranslateResult& out) {
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + 8, 4);
    for (std::uint32_t r : rejected)
      if (r == n) return Status::error("rejected on purpose");
    out.spirv = {n, kCodegenVersion};
    out.reflection.stage = n % 2 ? ShaderStage::Pixel : ShaderStage::Vertex;
    return Status::ok();
  };
}

struct Built {
  std::vector<std::uint8_t> state;
  std::vector<std::uint32_t> first_words; // of each stage
  std::thread::id thread;
  std::uint64_t use_count = 0;
};

// What the layer's callback saw, in order.
struct Layer {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::pair<kiln_pipeline_key, Built>> built;
  kiln_result answer = KILN_SUCCESS;
  // With block_first, the first call waits inside the callback until `release`.
  bool block_first = false, release = false;
  unsigned delay_us = 0;                           // a slow driver
  std::atomic<kiln_context*> record_into{nullptr}; // records each pipeline it builds there
  std::string blocked_state;

  static kiln_result compile(void* user_data, const kiln_replay_pipeline* pipeline) {
    auto& layer = *static_cast<Layer*>(user_data);
    Built built;
    const auto* state = static_cast<const std::uint8_t*>(pipeline->state);
    built.state.assign(state, state + pipeline->state_size);
    for (std::uint32_t i = 0; i < pipeline->stage_count; ++i) {
      const kiln_replay_stage& stage = pipeline->stages[i];
      built.first_words.push_back(stage.spirv_word_count ? stage.spirv[0] : ~0u);
      EXPECT_EQ(stage.shader_module, 0u); // no device
      EXPECT_EQ(kiln_query(stage.shader), KILN_SUCCESS);
    }
    built.thread = std::this_thread::get_id();
    built.use_count = pipeline->use_count;
    if (layer.delay_us) std::this_thread::sleep_for(std::chrono::microseconds(layer.delay_us));
    if (kiln_context* into = layer.record_into.load()) {
      kiln_shader* shaders[2] = {pipeline->stages[0].shader, pipeline->stages[1].shader};
      const kiln_pipeline_record_info record{KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO,
                                             nullptr,
                                             pipeline->format_tag,
                                             2,
                                             shaders,
                                             pipeline->state,
                                             pipeline->state_size};
      EXPECT_EQ(kiln_record_pipeline(into, &record, nullptr), KILN_SUCCESS);
    }
    std::unique_lock lock(layer.mutex);
    if (layer.block_first && layer.blocked_state.empty()) {
      layer.blocked_state.assign(built.state.begin(), built.state.end());
      layer.cv.notify_all();
      layer.cv.wait(lock, [&] { return layer.release; });
    }
    layer.built.emplace_back(pipeline->key, std::move(built));
    return layer.answer;
  }
};

class PipelineReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kiln-replay-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    path_ = dir_.string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  kiln_context* open(TranslateFunction translate, Layer* layer = nullptr, std::uint64_t tag = kTag,
                     std::uint32_t threads = 1) {
    kiln_context_create_info info{};
    info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    info.thread_count = threads;
    info.cache_path = path_.c_str();
    info.log_callback = [](void*, kiln_log_level, const char*) {};
    replay_ = {
        KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO, nullptr, tag, &Layer::compile, layer, 0, nullptr};
    if (layer) info.next = &replay_;
    kiln_context* context = nullptr;
    EXPECT_EQ(abi::create_context(info, context, std::move(translate)), KILN_SUCCESS);
    return context;
  }

  static kiln_shader* submit(kiln_context* context, std::uint32_t n) {
    kiln_submit_info info{};
    info.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
    const auto bytes = blob(n);
    info.code = bytes.data();
    info.code_size = bytes.size();
    kiln_shader* shader = nullptr;
    EXPECT_EQ(kiln_submit(context, &info, &shader), KILN_SUCCESS);
    return shader;
  }

  // Pipeline i: shaders 2i and 2i+1, state "state-i".
  struct Pipeline {
    kiln_shader* shaders[2] = {};
    std::string state;
    kiln_pipeline_record_info info{};
  };
  static Pipeline pipeline(kiln_context* context, std::uint32_t i, std::uint64_t tag = kTag) {
    Pipeline p;
    p.shaders[0] = submit(context, 2 * i);
    p.shaders[1] = submit(context, 2 * i + 1);
    p.state = "state-" + std::to_string(i);
    p.info = {KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO, nullptr, tag, 2, nullptr, nullptr, 0};
    return p;
  }
  static void fix(Pipeline& p) { // pointers into p, after it stopped moving
    p.info.shaders = p.shaders;
    p.info.state = p.state.data();
    p.info.state_size = p.state.size();
  }
  static void release(Pipeline& p) {
    kiln_shader_release(p.shaders[0]);
    kiln_shader_release(p.shaders[1]);
  }

  // A run of the layer without replay that records pipelines [0, count).
  std::vector<kiln_pipeline_key> record_run(std::uint32_t count, std::uint64_t tag = kTag) {
    kiln_context* context = open(fake_translator());
    std::vector<kiln_pipeline_key> keys;
    for (std::uint32_t i = 0; i < count; ++i) {
      Pipeline p = pipeline(context, i, tag);
      fix(p);
      // As at a draw: the shaders are translated (and so in the cache) before the pipeline.
      EXPECT_EQ(kiln_wait(p.shaders[0], UINT64_MAX), KILN_SUCCESS);
      EXPECT_EQ(kiln_wait(p.shaders[1], UINT64_MAX), KILN_SUCCESS);
      kiln_pipeline_key key{};
      EXPECT_EQ(kiln_record_pipeline(context, &p.info, &key), KILN_SUCCESS);
      EXPECT_EQ(kiln_record_pipeline(context, &p.info, nullptr), KILN_SUCCESS); // idempotent
      keys.push_back(key);
      release(p);
    }
    kiln_context_destroy(context); // writes what is queued
    return keys;
  }

  static kiln_replay_status wait_done(kiln_context* context) {
    kiln_replay_status status{};
    status.type = KILN_STRUCTURE_TYPE_REPLAY_STATUS;
    for (int i = 0; i < 4000; ++i) {
      EXPECT_EQ(kiln_get_replay_status(context, &status), KILN_SUCCESS);
      if (status.done) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return status;
  }

  std::uint64_t pipelines_in_cache() {
    cache::CacheOptions options;
    options.directory = dir_;
    auto cache = cache::ShaderCache::open(options).value();
    return cache ? cache->stats().pipelines : ~0ull;
  }

  std::filesystem::path dir_;
  std::string path_;
  kiln_pipeline_replay_info replay_{};
};

bool same_key(const kiln_pipeline_key& a, const kiln_pipeline_key& b) {
  return a.low == b.low && a.high == b.high;
}

TEST_F(PipelineReplayTest, EveryRecordIsReplayedMostUsedFirst) {
  const std::vector<kiln_pipeline_key> keys = record_run(12);
  record_run(3); // pipelines 0-2 used twice
  record_run(1); // pipeline 0 three times
  EXPECT_EQ(pipelines_in_cache(), 12u);

  Layer layer;
  kiln_context* context = open(fake_translator(), &layer);
  const kiln_replay_status status = wait_done(context);
  EXPECT_TRUE(status.done);
  EXPECT_EQ(status.total, 12u);
  EXPECT_EQ(status.built, 12u);
  EXPECT_EQ(status.retired, 0u);
  ASSERT_EQ(layer.built.size(), 12u);
  // One worker: builds run in record order, most used first.
  EXPECT_TRUE(same_key(layer.built[0].first, keys[0]));
  EXPECT_EQ(layer.built[0].second.use_count, 3u);
  EXPECT_EQ(layer.built[1].second.use_count, 2u);
  EXPECT_EQ(layer.built[2].second.use_count, 2u);
  EXPECT_EQ(layer.built[3].second.use_count, 1u);
  for (const auto& [key, built] : layer.built) {
    std::size_t i = 0;
    while (i < keys.size() && !same_key(keys[i], key)) ++i;
    ASSERT_LT(i, keys.size());
    EXPECT_EQ(std::string(built.state.begin(), built.state.end()), "state-" + std::to_string(i));
    EXPECT_EQ(built.first_words,
              (std::vector<std::uint32_t>{std::uint32_t(2 * i), std::uint32_t(2 * i + 1)}));
    EXPECT_NE(built.thread, std::this_thread::get_id());
  }
  // Asking for a replayed pipeline returns at once; an unknown one is not replayed.
  Pipeline p = pipeline(context, 5);
  fix(p);
  EXPECT_EQ(kiln_wait_pipeline(context, &p.info, 0), KILN_SUCCESS);
  release(p);
  Pipeline unknown = pipeline(context, 40);
  fix(unknown);
  EXPECT_EQ(kiln_wait_pipeline(context, &unknown.info, 0), KILN_NOT_REPLAYED);
  release(unknown);
  kiln_context_destroy(context);
}

TEST_F(PipelineReplayTest, AWaitingLayerBuildsAQueuedPipelineOnItsOwnThread) {
  record_run(4);
  // The only worker blocks inside the first build until released; the others stay queued.
  Layer layer;
  layer.block_first = true;
  kiln_context* context = open(fake_translator(), &layer);
  std::string blocked;
  {
    std::unique_lock lock(layer.mutex);
    ASSERT_TRUE(layer.cv.wait_for(lock, std::chrono::seconds(20),
                                  [&] { return !layer.blocked_state.empty(); }));
    blocked = layer.blocked_state;
  }
  std::uint32_t wanted = 0;
  while ("state-" + std::to_string(wanted) == blocked) ++wanted;
  Pipeline p = pipeline(context, wanted);
  fix(p);
  EXPECT_EQ(kiln_wait_pipeline(context, &p.info, UINT64_MAX), KILN_SUCCESS);
  {
    std::lock_guard lock(layer.mutex);
    bool found = false;
    for (const auto& [key, built] : layer.built)
      if (std::string(built.state.begin(), built.state.end()) == p.state) {
        found = true;
        EXPECT_EQ(built.thread, std::this_thread::get_id());
      }
    EXPECT_TRUE(found);
  }
  kiln_replay_status status{};
  status.type = KILN_STRUCTURE_TYPE_REPLAY_STATUS;
  ASSERT_EQ(kiln_get_replay_status(context, &status), KILN_SUCCESS);
  EXPECT_EQ(status.run_by_waiter, 1u);
  EXPECT_FALSE(status.done);
  // The blocked build is running: a bounded wait for it times out.
  Pipeline running;
  for (std::uint32_t i = 0; i < 4; ++i)
    if ("state-" + std::to_string(i) == blocked) running = pipeline(context, i);
  fix(running);
  EXPECT_EQ(kiln_wait_pipeline(context, &running.info, 1000000), KILN_TIMEOUT);
  {
    std::lock_guard lock(layer.mutex);
    layer.release = true;
  }
  layer.cv.notify_all();
  EXPECT_EQ(kiln_wait_pipeline(context, &running.info, UINT64_MAX), KILN_SUCCESS);
  release(running);
  release(p);
  status = wait_done(context);
  EXPECT_EQ(status.built, 4u);
  kiln_context_destroy(context);
}

TEST_F(PipelineReplayTest, DestroyingTheContextMidReplayStopsItCleanly) {
  record_run(30);
  Layer layer;
  layer.delay_us = 2000;
  kiln_context* context = open(fake_translator(), &layer, kTag, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kiln_context_destroy(context); // running builds finish, queued ones never start
  std::lock_guard lock(layer.mutex);
  EXPECT_LT(layer.built.size(), 30u);
  EXPECT_EQ(pipelines_in_cache(), 30u);
}

TEST_F(PipelineReplayTest, AProcessKilledDuringReplayLosesNoRecord) {
  record_run(30);
  for (int round = 0; round < 5; ++round) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // A layer that records each pipeline as the replay hands it over: kills land in the
      // replay's builds and in the recorder's writes.
      Layer layer;
      layer.delay_us = 1000;
      layer.record_into = open(fake_translator(), &layer);
      ::pause();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + round * 10));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    cache::CacheOptions options;
    options.directory = dir_;
    auto cache = cache::ShaderCache::open(options).value();
    ASSERT_TRUE(cache);
    // Every record is still there, retired or not; nothing is corrupt once compacted.
    EXPECT_EQ(cache->stats().pipelines, 30u) << round;
    for (const cache::PipelineRecord& record : cache->pipeline_records())
      EXPECT_EQ(record.stages.size(), 2u);
    if (round == 4) {
      ASSERT_TRUE(cache->compact());
      EXPECT_TRUE(cache->verify().ok());
    }
  }
}

TEST_F(PipelineReplayTest, AnOlderFormatOfTheLayerIsRetiredAndCompactedAway) {
  record_run(3, kTag);                              // format 1 of layer 0x4c41
  record_run(2, (std::uint64_t(0x9999) << 32) | 1); // another layer
  EXPECT_EQ(pipelines_in_cache(), 5u);
  Layer layer;
  kiln_context* context = open(fake_translator(), &layer, kTag + 1); // format 2
  const kiln_replay_status status = wait_done(context);
  EXPECT_EQ(status.total, 0u);
  EXPECT_EQ(status.retired, 3u);
  EXPECT_TRUE(layer.built.empty());
  kiln_context_destroy(context);
  cache::CacheOptions options;
  options.directory = dir_;
  auto cache = cache::ShaderCache::open(options).value();
  ASSERT_TRUE(cache->compact());
  EXPECT_EQ(cache->stats().pipelines, 2u); // the other layer's records are untouched
}

TEST_F(PipelineReplayTest, ACodegenBumpReplaysUnderTheRebuiltKeysAndRetiresWhatNoLongerTranslates) {
  // Records and shaders an older kiln wrote (its own codegen version).
  constexpr std::uint32_t kOld = kCodegenVersion + 1000;
  {
    cache::CacheOptions options;
    options.directory = dir_;
    options.codegen_version = kOld;
    auto old_cache = cache::ShaderCache::open(options).value();
    for (std::uint32_t i = 0; i < 6; ++i) {
      cache::PipelineRecord record;
      record.tag = kTag;
      for (std::uint32_t n : {2 * i, 2 * i + 1}) {
        TranslateResult result;
        result.spirv = {n, kOld};
        const TranslationKey key = old_cache->key_for(blob(n), {});
        ASSERT_TRUE(old_cache->insert(key, blob(n), {}, result));
        record.stages.push_back({ShaderStage::Count, kOld, key});
      }
      const std::string state = "state-" + std::to_string(i);
      record.state.assign(state.begin(), state.end());
      record.key = cache::pipeline_record_key(record.stages, record.state, record.tag);
      ASSERT_TRUE(old_cache->record_pipeline_use(record));
    }
  }
  // Shader 5 (pipeline 2) no longer translates under this version.
  Layer layer;
  kiln_context* context = open(fake_translator({5}), &layer);
  const kiln_replay_status status = wait_done(context);
  EXPECT_EQ(status.total, 6u);
  EXPECT_EQ(status.built, 5u);
  EXPECT_GE(status.retired, 6u); // pipeline 2, and the five re-keyed records' old keys
  // The keys handed to the callback are what recording the pipeline now gives.
  for (std::uint32_t i : {0u, 1u, 3u, 4u, 5u}) {
    Pipeline p = pipeline(context, i);
    fix(p);
    kiln_pipeline_key key{};
    ASSERT_EQ(kiln_record_pipeline(context, &p.info, &key), KILN_SUCCESS);
    bool found = false;
    for (const auto& [built_key, built] : layer.built)
      if (same_key(built_key, key)) {
        found = true;
        EXPECT_EQ(built.first_words[0], 2 * i); // translated under the new version
      }
    EXPECT_TRUE(found) << i;
    EXPECT_EQ(kiln_wait_pipeline(context, &p.info, 0), KILN_SUCCESS);
    release(p);
  }
  kiln_context_destroy(context);
  cache::CacheOptions options;
  options.directory = dir_;
  auto cache = cache::ShaderCache::open(options).value();
  ASSERT_TRUE(cache->compact());
  EXPECT_EQ(cache->stats().pipelines, 5u);
  for (const cache::PipelineRecord& record : cache->pipeline_records())
    for (const cache::PipelineStage& stage : record.stages)
      EXPECT_EQ(stage.codegen_version, kCodegenVersion);
}

} // namespace
} // namespace kiln
