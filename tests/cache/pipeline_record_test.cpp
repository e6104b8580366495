// Pipeline records in the cache file: format, reopening, a second process, a codegen version
// bump (the records are re-keyed to the rebuilt shaders), pruning, and a writer killed while
// recording.

#include "tests/cache/cache_test_support.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::cache {
namespace {

using test::fake_translate;
using test::make_source;
using test::quiet_options;
using test::ScratchDirectory;

// Stores a fake shader and returns the stage that names it.
PipelineStage store_shader(ShaderCache& cache, std::uint64_t seed, ShaderStage stage) {
  const std::vector<std::uint8_t> source = make_source(seed, 300 + seed % 500);
  TranslateResult result;
  EXPECT_TRUE(fake_translate(cache.codegen_version(), source, {}, result));
  const TranslationKey key = cache.key_for(source, {});
  cache.insert(key, source, {}, result);
  return {stage, cache.codegen_version(), key};
}

PipelineRecord make_pipeline(ShaderCache& cache, std::uint64_t seed, std::uint64_t tag = 7) {
  PipelineRecord record;
  record.tag = tag;
  record.stages = {store_shader(cache, seed * 2, ShaderStage::Vertex),
                   store_shader(cache, seed * 2 + 1, ShaderStage::Pixel)};
  record.state.resize(40 + seed % 20);
  for (std::size_t i = 0; i < record.state.size(); ++i)
    record.state[i] = std::uint8_t(seed * 31 + i);
  record.key = pipeline_record_key(record.stages, record.state, record.tag);
  return record;
}

bool same_pipeline(const PipelineRecord& a, const PipelineRecord& b) {
  if (!(a.key == b.key) || a.tag != b.tag || a.state != b.state ||
      a.stages.size() != b.stages.size())
    return false;
  for (std::size_t i = 0; i < a.stages.size(); ++i)
    if (!(a.stages[i].key == b.stages[i].key) || a.stages[i].stage != b.stages[i].stage ||
        a.stages[i].codegen_version != b.stages[i].codegen_version)
      return false;
  return true;
}

const PipelineRecord* find_record(const std::vector<PipelineRecord>& records,
                                  const TranslationKey& key) {
  for (const PipelineRecord& record : records)
    if (record.key == key) return &record;
  return nullptr;
}

TEST(PipelineRecords, FormatRoundTripsAndTheKeyCoversEveryInput) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  const PipelineRecord record = make_pipeline(*cache, 1);
  std::vector<std::uint8_t> bytes;
  encode_pipeline_record(record, bytes);
  RecordView view;
  const Status read = decode_record(bytes, view);
  ASSERT_TRUE(read) << read.message();
  EXPECT_EQ(view.header.codegen_version, kPipelineRecordMarker);
  PipelineRecord decoded;
  ASSERT_TRUE(decode_pipeline_payload(view.source, decoded));
  decoded.key = view.header.key();
  EXPECT_TRUE(same_pipeline(record, decoded));
  // A kiln without pipeline records cannot mistake one for a shader's options.
  TranslateOptions options;
  EXPECT_FALSE(decode_record_options(view, options));

  PipelineRecord other = record;
  other.tag = 8;
  EXPECT_FALSE(pipeline_record_key(other.stages, other.state, other.tag) == record.key);
  other = record;
  other.state.back() ^= 1;
  EXPECT_FALSE(pipeline_record_key(other.stages, other.state, other.tag) == record.key);
  other = record;
  std::swap(other.stages[0], other.stages[1]);
  EXPECT_FALSE(pipeline_record_key(other.stages, other.state, other.tag) == record.key);

  // Truncated or padded payloads do not decode.
  std::vector<std::uint8_t> payload(view.source.begin(), view.source.end());
  payload.pop_back();
  EXPECT_FALSE(decode_pipeline_payload(payload, decoded));
  payload.push_back(0);
  payload.push_back(0);
  EXPECT_FALSE(decode_pipeline_payload(payload, decoded));
}

// The pipeline half reports through Status: what is missing or not written says why.
TEST(PipelineRecords, FailuresSayWhy) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  ASSERT_TRUE(cache);
  const PipelineRecord record = make_pipeline(*cache, 7);
  PipelineRecord read;
  const Status missing = cache->read_pipeline(record.key, read);
  EXPECT_FALSE(missing);
  EXPECT_EQ(missing.message(), "no pipeline record with this key");
  ASSERT_TRUE(cache->put_pipeline(record));
  const Status found = cache->read_pipeline(record.key, read);
  EXPECT_TRUE(found) << found.message();

  CacheOptions read_only = quiet_options(dir.path());
  read_only.read_only = true;
  auto reader = test::open_cache(read_only);
  ASSERT_TRUE(reader);
  const Status refused = reader->put_pipeline(record);
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.message().find("is not writable"), std::string::npos) << refused.message();
}

TEST(PipelineRecords, SurviveReopeningWithUseCountsAndStayIdempotent) {
  ScratchDirectory dir;
  std::vector<PipelineRecord> made;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    for (std::uint64_t i = 0; i < 20; ++i) {
      made.push_back(make_pipeline(*cache, i));
      ASSERT_TRUE(cache->record_pipeline_use(made.back()));
      if (i % 4 == 0) { // used twice
        ASSERT_TRUE(cache->record_pipeline_use(made.back()));
      }
    }
    EXPECT_EQ(cache->stats().pipelines, 20u);
  }
  auto cache = test::open_cache(quiet_options(dir.path()));
  const std::vector<PipelineRecord> records = cache->pipeline_records();
  ASSERT_EQ(records.size(), 20u);
  EXPECT_EQ(cache->stats().pipelines, 20u);
  EXPECT_EQ(cache->stats().entries, 40u); // the shaders are not counted as pipelines
  for (std::size_t i = 0; i < made.size(); ++i) {
    const PipelineRecord* found = find_record(records, made[i].key);
    ASSERT_TRUE(found);
    EXPECT_TRUE(same_pipeline(*found, made[i]));
    EXPECT_EQ(found->use_count, i % 4 == 0 ? 2u : 1u);
    EXPECT_GT(found->last_use_unix_seconds, 0u);
    std::vector<std::uint8_t> source;
    TranslateOptions options;
    EXPECT_TRUE(cache->read_stage_source(found->stages[0], source, options));
    EXPECT_EQ(source, make_source(i * 2, 300 + (i * 2) % 500));
  }
  const VerifyReport report = cache->verify();
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.pipelines, 25u); // 20 records + 5 superseded by their second use
  ASSERT_TRUE(cache->compact());
  EXPECT_EQ(cache->verify().pipelines, 20u);
  EXPECT_EQ(cache->pipeline_records().size(), 20u);
  ASSERT_TRUE(cache->clear());
  EXPECT_EQ(cache->stats().pipelines, 0u);
}

TEST(PipelineRecords, ASecondProcessSeesAndAddsRecords) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  std::vector<PipelineRecord> made;
  for (std::uint64_t i = 0; i < 10; ++i) {
    made.push_back(make_pipeline(*cache, i));
    ASSERT_TRUE(cache->record_pipeline_use(made.back()));
  }
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Its own records, and one more use of the parent's records.
    auto other = test::open_cache(quiet_options(dir.path()));
    int failures = !other || other->pipeline_records().size() != 10;
    for (std::uint64_t i = 100; other && i < 110; ++i)
      failures += !other->record_pipeline_use(make_pipeline(*other, i));
    for (std::uint64_t i = 0; other && i < 10; ++i)
      failures += !other->record_pipeline_use(make_pipeline(*other, i));
    ::_exit(failures);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const std::vector<PipelineRecord> records = cache->pipeline_records();
  ASSERT_EQ(records.size(), 20u);
  for (const PipelineRecord& record : made) {
    const PipelineRecord* found = find_record(records, record.key);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->use_count, 2u);
  }
  EXPECT_TRUE(cache->verify().ok());
}

TEST(PipelineRecords, ACodegenBumpKeepsThemAndTheRebuildReKeysThem) {
  ScratchDirectory dir;
  std::vector<PipelineRecord> made;
  {
    CacheOptions options = quiet_options(dir.path());
    options.codegen_version = 1;
    auto cache = test::open_cache(options);
    for (std::uint64_t i = 0; i < 12; ++i) {
      made.push_back(make_pipeline(*cache, i));
      ASSERT_TRUE(cache->record_pipeline_use(made.back()));
    }
  }
  CacheOptions options = quiet_options(dir.path());
  options.codegen_version = 2;
  auto cache = test::open_cache(options);
  ASSERT_EQ(cache->stats().entries, 0u);
  std::vector<PipelineRecord> records = cache->pipeline_records();
  ASSERT_EQ(records.size(), 12u);
  // Before the rebuild the stages still lead to their (stale) sources.
  for (const PipelineRecord& record : records) {
    std::vector<std::uint8_t> source;
    TranslateOptions stage_options;
    EXPECT_TRUE(cache->read_stage_source(record.stages[1], source, stage_options));
  }
  const TranslateFunction translate_v2 = [](std::span<const std::uint8_t> source,
                                            const TranslateOptions& opts, TranslateResult& out) {
    return fake_translate(2, source, opts, out);
  };
  ASSERT_EQ(rebuild_stale_entries(*cache, translate_v2).translated, 24u);
  EXPECT_EQ(cache->stats().stale_entries, 0u); // the rebuild compacted the stale ones away
  cache.reset();
  cache = test::open_cache(options);
  records = cache->pipeline_records();
  ASSERT_EQ(records.size(), 12u);
  for (std::uint64_t i = 0; i < made.size(); ++i) {
    // What the layer would record now, under the new keys, is the record the rebuild kept.
    PipelineRecord now = made[i];
    for (PipelineStage& stage : now.stages) {
      const std::uint64_t seed = i * 2 + (stage.stage == ShaderStage::Pixel);
      stage.key = cache->key_for(make_source(seed, 300 + seed % 500), {});
      stage.codegen_version = 2;
    }
    now.key = pipeline_record_key(now.stages, now.state, now.tag);
    const PipelineRecord* found = find_record(records, now.key);
    ASSERT_TRUE(found) << i;
    EXPECT_TRUE(same_pipeline(*found, now));
    EXPECT_EQ(found->use_count, 1u);
    TranslateResult result;
    EXPECT_TRUE(cache->lookup(found->stages[0].key, result));
  }
}

TEST(PipelineRecords, CompactDropsRetiredRecordsAndThoseWhoseShadersAreGone) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  PipelineRecord kept = make_pipeline(*cache, 1);
  PipelineRecord retired = make_pipeline(*cache, 2);
  PipelineRecord orphan = make_pipeline(*cache, 3);
  orphan.stages[1].key.low ^= 1; // names a shader the cache never stored
  orphan.key = pipeline_record_key(orphan.stages, orphan.state, orphan.tag);
  ASSERT_TRUE(cache->record_pipeline_use(kept));
  ASSERT_TRUE(cache->record_pipeline_use(retired));
  ASSERT_TRUE(cache->record_pipeline_use(orphan));
  retired.flags = kPipelineRetired;
  ASSERT_TRUE(cache->put_pipeline(retired));
  EXPECT_EQ(cache->stats().pipelines, 3u);
  ASSERT_TRUE(cache->compact());
  const std::vector<PipelineRecord> records = cache->pipeline_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(records[0].key == kept.key);
}

TEST(PipelineRecords, AWriterKilledWhileRecordingLosesOnlyTheRecordItWasWriting) {
  ScratchDirectory dir;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    for (std::uint64_t i = 0; i < 400; ++i) make_pipeline(*cache, i); // the shaders
  }
  std::size_t committed_total = 0;
  for (int round = 0; round < 10; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      auto cache = test::open_cache(quiet_options(dir.path()));
      for (std::uint64_t i = 0;; i = (i + 1) % 400) {
        if (!cache->record_pipeline_use(make_pipeline(*cache, i))) ::_exit(3);
        if (::write(fds[1], &i, sizeof i) != sizeof i) ::_exit(4);
      }
    }
    ::close(fds[1]);
    std::vector<std::uint64_t> committed;
    std::uint64_t seed = 0;
    const std::size_t wanted = 5 + std::size_t(round) * 13;
    while (committed.size() < wanted && ::read(fds[0], &seed, sizeof seed) == sizeof seed)
      committed.push_back(seed);
    ::kill(child, SIGKILL);
    while (::read(fds[0], &seed, sizeof seed) == sizeof seed) committed.push_back(seed);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    auto cache = test::open_cache(quiet_options(dir.path()));
    const std::vector<PipelineRecord> records = cache->pipeline_records();
    for (std::uint64_t i : committed) {
      const PipelineRecord expected = make_pipeline(*cache, i);
      const PipelineRecord* found = find_record(records, expected.key);
      ASSERT_TRUE(found) << "round " << round << " lost pipeline " << i;
      EXPECT_TRUE(same_pipeline(*found, expected));
    }
    committed_total += committed.size();
    ASSERT_TRUE(cache->compact());
    EXPECT_TRUE(cache->verify().ok());
  }
  EXPECT_GE(committed_total, 500u);
}

} // namespace
} // namespace kiln::cache
