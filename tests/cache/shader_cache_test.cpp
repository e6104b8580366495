// The cache in one process: round trips, reopening, damaged files, eviction, version bumps.

#include "tests/cache/cache_test_support.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <thread>

namespace kiln::cache {
namespace {

using test::fake_translate;
using test::make_source;
using test::matches_fake;
using test::quiet_options;
using test::ScratchDirectory;

struct Stored {
  std::vector<std::uint8_t> source;
  TranslateOptions options;
  TranslationKey key;
};

std::vector<Stored> fill(ShaderCache& cache, int count, std::uint64_t seed = 0,
                         std::size_t size = 200) {
  std::vector<Stored> stored;
  for (int i = 0; i < count; ++i) {
    Stored entry{make_source(seed + i, size + i), {}, {}};
    entry.options.debug_names = i % 2;
    entry.key = cache.key_for(entry.source, entry.options);
    TranslateResult result;
    EXPECT_TRUE(fake_translate(cache.codegen_version(), entry.source, entry.options, result));
    EXPECT_TRUE(cache.insert(entry.key, entry.source, entry.options, result));
    stored.push_back(std::move(entry));
  }
  return stored;
}

std::size_t count_hits(ShaderCache& cache, const std::vector<Stored>& stored) {
  std::size_t hits = 0;
  for (const Stored& entry : stored) {
    TranslateResult result;
    if (cache.lookup(entry.key, result)) {
      EXPECT_TRUE(matches_fake(cache.codegen_version(), entry.source, entry.options, result));
      ++hits;
    }
  }
  return hits;
}

std::vector<std::uint8_t> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_all_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

TEST(ShaderCache, RoundTripAndReopen) {
  ScratchDirectory dir;
  std::vector<std::string> messages;
  std::vector<Stored> stored;
  {
    auto cache = test::open_cache(quiet_options(dir.path(), &messages));
    ASSERT_TRUE(cache);
    EXPECT_TRUE(cache->writable());
    stored = fill(*cache, 100);
    EXPECT_EQ(count_hits(*cache, stored), 100u);
    // A second insert of the same key is not written twice.
    TranslateResult result;
    ASSERT_TRUE(
        fake_translate(cache->codegen_version(), stored[0].source, stored[0].options, result));
    EXPECT_FALSE(cache->insert(stored[0].key, stored[0].source, stored[0].options, result));
    TranslateResult missing;
    EXPECT_FALSE(cache->lookup(cache->key_for(make_source(999, 10), {}), missing));
    EXPECT_EQ(cache->stats().entries, 100u);
  }
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  ASSERT_TRUE(cache);
  EXPECT_EQ(count_hits(*cache, stored), 100u);
  const CacheStats stats = cache->stats();
  EXPECT_EQ(stats.entries, 100u);
  EXPECT_EQ(stats.dead_bytes, 0u);
  EXPECT_TRUE(cache->verify().ok());
  EXPECT_TRUE(messages.empty());
}

TEST(ShaderCache, SecondHandleSeesAppendsOfTheFirstOnAMiss) {
  ScratchDirectory dir;
  auto writer = test::open_cache(quiet_options(dir.path()));
  auto reader = test::open_cache(quiet_options(dir.path()));
  ASSERT_TRUE(writer && reader);
  const std::vector<Stored> stored = fill(*writer, 20);
  EXPECT_EQ(count_hits(*reader, stored), 20u);
  // After the writer compacts (replacing the file), the reader still finds everything.
  ASSERT_TRUE(writer->compact());
  const std::vector<Stored> more = fill(*writer, 5, 1000);
  EXPECT_EQ(count_hits(*reader, more), 5u);
  EXPECT_EQ(count_hits(*reader, stored), 20u);
  // The reader can append to the new file too.
  const std::vector<Stored> from_reader = fill(*reader, 5, 2000);
  EXPECT_EQ(count_hits(*writer, from_reader), 5u);
}

TEST(ShaderCache, TruncatedFileKeepsEveryWholeRecord) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    stored = fill(*cache, 30);
  }
  const std::vector<std::uint8_t> full = read_all(dir.file());
  // Cut inside the last record: the first 29 survive, the torn tail is reclaimed.
  std::vector<std::uint8_t> cut(full.begin(), full.end() - 40);
  write_all_bytes(dir.file(), cut);
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  ASSERT_TRUE(cache);
  EXPECT_EQ(messages.size(), 1u);
  EXPECT_EQ(count_hits(*cache, stored), 29u);
  EXPECT_LT(std::filesystem::file_size(dir.file()), cut.size()); // torn tail truncated
  EXPECT_TRUE(cache->verify().ok());
  // Writing goes on after the tail.
  const std::vector<Stored> more = fill(*cache, 3, 500);
  EXPECT_EQ(count_hits(*cache, more), 3u);
}

TEST(ShaderCache, BitFlipsCostOnlyTheDamagedRecords) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    stored = fill(*cache, 40, 0, 1000);
  }
  std::vector<std::uint8_t> bytes = read_all(dir.file());
  // Flip one bit in the middle of records 10 and 25 (each ~1.2 KB).
  std::mt19937 random(7);
  const std::size_t record = (bytes.size() - kFileHeaderSize) / 40;
  for (std::size_t victim : {10u, 25u})
    bytes[kFileHeaderSize + victim * record + record / 2] ^= 0x10;
  write_all_bytes(dir.file(), bytes);
  {
    // A handle opened before the flip would still answer: verify must see the damage.
    auto cache = test::open_cache(quiet_options(dir.path()));
    const VerifyReport report = cache->verify();
    EXPECT_FALSE(report.ok());
    EXPECT_GE(report.corrupt_spans, 1u);
  }
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  std::size_t hits = count_hits(*cache, stored);
  EXPECT_EQ(hits, 38u);
  // Compaction reclaims the damage.
  ASSERT_TRUE(cache->compact());
  EXPECT_TRUE(cache->verify().ok());
  EXPECT_EQ(count_hits(*cache, stored), 38u);
}

TEST(ShaderCache, RecordDamagedAfterItWasIndexedIsAMissNotWrongCode) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  const std::vector<Stored> stored = fill(*cache, 3, 0, 2000);
  std::vector<std::uint8_t> bytes = read_all(dir.file());
  bytes[bytes.size() - 100] ^= 0x01; // inside the last record's payload
  {
    std::ofstream out(dir.file(), std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(std::streamoff(bytes.size() - 100));
    out.put(char(bytes[bytes.size() - 100]));
  }
  TranslateResult result;
  result.spirv = {1, 2, 3};
  EXPECT_FALSE(cache->lookup(stored[2].key, result));
  EXPECT_TRUE(result.spirv.empty());
  EXPECT_EQ(count_hits(*cache, stored), 2u);
}

TEST(ShaderCache, RandomlyMangledFilesNeverServeWrongCode) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    stored = fill(*cache, 20, 0, 700);
  }
  const std::vector<std::uint8_t> pristine = read_all(dir.file());
  std::mt19937 random(99);
  std::size_t total_hits = 0;
  for (int round = 0; round < 150; ++round) {
    std::vector<std::uint8_t> bytes = pristine;
    const int mutations = 1 + int(random() % 4);
    for (int m = 0; m < mutations; ++m) {
      const std::size_t at = random() % bytes.size();
      switch (random() % 4) {
      case 0:
        bytes[at] ^= std::uint8_t(1u << (random() % 8));
        break;
      case 1:
        bytes.resize(std::max<std::size_t>(at, 1));
        break;
      case 2: // overwrite a span with noise
        for (std::size_t i = at; i < std::min(bytes.size(), at + random() % 300); ++i)
          bytes[i] = std::uint8_t(random());
        break;
      default: { // duplicate a span somewhere else (records appear twice or cut in half)
        const std::size_t length = std::min<std::size_t>(random() % 2000, bytes.size() - at);
        const std::vector<std::uint8_t> copy(bytes.begin() + at, bytes.begin() + at + length);
        bytes.insert(bytes.begin() + random() % bytes.size(), copy.begin(), copy.end());
      }
      }
    }
    write_all_bytes(dir.file(), bytes);
    std::filesystem::remove(dir.path() / (std::string(kCacheFileName) + ".index"));
    CacheOptions options = quiet_options(dir.path());
    options.read_only = round % 2; // read-only handles see the damage as it is
    auto cache = test::open_cache(options);
    ASSERT_TRUE(cache);
    // count_hits checks every hit against the fake translation: a wrong hit fails the test.
    total_hits += count_hits(*cache, stored);
  }
  EXPECT_GT(total_hits, 150u * 10);
}

TEST(ShaderCache, RandomBytesOpenAsAnEmptyCacheWithOneWarning) {
  ScratchDirectory dir;
  write_all_bytes(dir.file(), make_source(5, 100000));
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  ASSERT_TRUE(cache);
  EXPECT_EQ(messages.size(), 1u);
  EXPECT_EQ(cache->stats().entries, 0u);
  EXPECT_TRUE(cache->writable());
  const std::vector<Stored> stored = fill(*cache, 5);
  EXPECT_EQ(count_hits(*cache, stored), 5u);
  EXPECT_TRUE(cache->verify().ok());
}

TEST(ShaderCache, ValidHeaderFollowedByRandomBytesOpensEmpty) {
  ScratchDirectory dir;
  { auto cache = test::open_cache(quiet_options(dir.path())); }
  std::vector<std::uint8_t> bytes = read_all(dir.file());
  const std::vector<std::uint8_t> garbage = make_source(6, 50000);
  bytes.insert(bytes.end(), garbage.begin(), garbage.end());
  write_all_bytes(dir.file(), bytes);
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  ASSERT_TRUE(cache);
  EXPECT_EQ(messages.size(), 1u);
  EXPECT_EQ(cache->stats().entries, 0u);
  EXPECT_LE(std::filesystem::file_size(dir.file()), 64u); // reclaimed
}

TEST(ShaderCache, EvictionKeepsTheRecentlyUsedUnderASmallCap) {
  ScratchDirectory dir;
  CacheOptions options = quiet_options(dir.path());
  options.max_bytes = 256 * 1024;
  auto cache = test::open_cache(options);
  ASSERT_TRUE(cache);
  std::vector<Stored> stored;
  for (int i = 0; i < 200; ++i) {
    std::vector<Stored> one = fill(*cache, 1, i, 4000);
    stored.push_back(std::move(one[0]));
    TranslateResult result;
    EXPECT_TRUE(cache->lookup(stored[0].key, result)); // keep the first one hot
    EXPECT_LE(std::filesystem::file_size(dir.file()), options.max_bytes);
  }
  const CacheStats stats = cache->stats();
  EXPECT_GT(stats.compactions, 0u);
  EXPECT_LT(stats.entries, 200u);
  EXPECT_GT(stats.entries, 20u);
  TranslateResult result;
  EXPECT_TRUE(cache->lookup(stored[0].key, result));     // hot: kept
  EXPECT_TRUE(cache->lookup(stored.back().key, result)); // newest: kept
  EXPECT_FALSE(cache->lookup(stored[1].key, result));    // oldest cold: evicted
  EXPECT_EQ(count_hits(*cache, stored), stats.entries);
}

TEST(ShaderCache, EvictionKeepsEntriesAnotherHandleJustAppended) {
  ScratchDirectory dir;
  auto first = test::open_cache(quiet_options(dir.path()));
  const std::vector<Stored> old_entries = fill(*first, 50, 0, 2000);
  auto second = test::open_cache(quiet_options(dir.path()));
  const std::vector<Stored> new_entries = fill(*second, 10, 1000, 2000);
  const std::uint64_t record = std::filesystem::file_size(dir.file()) / 60;
  // `first` has not seen the new entries yet: they must still rank as the most recent.
  ASSERT_TRUE(first->compact(20 * record));
  EXPECT_EQ(count_hits(*first, new_entries), 10u);
  const std::size_t old_kept = count_hits(*first, old_entries);
  EXPECT_GT(old_kept, 0u);
  EXPECT_LT(old_kept, 20u);
  EXPECT_EQ(count_hits(*second, new_entries), 10u);
}

TEST(ShaderCache, CodegenBumpServesNothingStaleAndRebuildRestoresEverything) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  {
    CacheOptions options = quiet_options(dir.path());
    options.codegen_version = 1;
    auto cache = test::open_cache(options);
    stored = fill(*cache, 60);
  }
  // A shader the new version rejects keeps its stale entry (nothing else can re-create it).
  CacheOptions options = quiet_options(dir.path());
  options.codegen_version = 2;
  auto cache = test::open_cache(options);
  ASSERT_TRUE(cache);
  for (const Stored& entry : stored) {
    TranslateResult result;
    EXPECT_FALSE(cache->lookup(entry.key, result)); // version-1 key: never served
    EXPECT_FALSE(cache->lookup(cache->key_for(entry.source, entry.options), result));
  }
  EXPECT_EQ(cache->stats().entries, 0u);
  EXPECT_EQ(cache->stats().stale_entries, 60u);
  ASSERT_EQ(cache->stale_entries().size(), 60u);

  const TranslateFunction translate_v2 = [](std::span<const std::uint8_t> source,
                                            const TranslateOptions& opts, TranslateResult& out) {
    return fake_translate(2, source, opts, out);
  };
  const RebuildReport report = rebuild_stale_entries(*cache, translate_v2);
  EXPECT_EQ(report.stale, 60u);
  EXPECT_EQ(report.translated, 60u);
  EXPECT_EQ(report.rejected, 0u);
  std::vector<Stored> rebuilt = stored;
  for (Stored& entry : rebuilt) entry.key = cache->key_for(entry.source, entry.options);
  EXPECT_EQ(count_hits(*cache, rebuilt), 60u);
  EXPECT_EQ(cache->stats().stale_entries, 0u); // superseded records dropped
  EXPECT_TRUE(cache->stale_entries().empty());

  cache.reset();
  cache = test::open_cache(options);
  EXPECT_EQ(count_hits(*cache, rebuilt), 60u);
}

// The same bytecode under no interface and under two interfaces is three entries; each keeps
// its interface, so a codegen bump rebuilds each under the interface it was made for.
TEST(ShaderCache, TwoInterfacesAreTwoEntriesAndRebuildUnderTheirOwnInterface) {
  ScratchDirectory dir;
  const std::vector<std::uint8_t> source = make_source(77, 300);
  std::vector<Stored> stored;
  for (std::uint32_t set : {0u, 1u, 2u}) {
    Stored entry{source, {}, {}};
    if (set) {
      auto interface = std::make_shared<ShaderInterface>();
      BindingRange range;
      range.set = set;
      interface->bindings.push_back(range);
      entry.options.interface = interface;
    }
    stored.push_back(entry);
  }
  {
    CacheOptions options = quiet_options(dir.path());
    options.codegen_version = 1;
    auto cache = test::open_cache(options);
    ASSERT_TRUE(cache);
    for (Stored& entry : stored) {
      entry.key = cache->key_for(entry.source, entry.options);
      TranslateResult result;
      ASSERT_TRUE(fake_translate(1, entry.source, entry.options, result));
      EXPECT_TRUE(cache->insert(entry.key, entry.source, entry.options, result));
    }
    EXPECT_FALSE(stored[0].key == stored[1].key);
    EXPECT_FALSE(stored[1].key == stored[2].key);
    EXPECT_EQ(cache->stats().entries, 3u);
    EXPECT_EQ(count_hits(*cache, stored), 3u);
  }
  CacheOptions options = quiet_options(dir.path());
  options.codegen_version = 2;
  auto cache = test::open_cache(options);
  ASSERT_TRUE(cache);
  const std::vector<StaleEntry> stale = cache->stale_entries();
  ASSERT_EQ(stale.size(), 3u);
  std::vector<std::uint32_t> sets;
  for (const StaleEntry& entry : stale) {
    std::vector<std::uint8_t> read;
    TranslateOptions read_options;
    ASSERT_TRUE(cache->read_source(entry, read, read_options));
    EXPECT_EQ(read, source);
    sets.push_back(read_options.interface ? read_options.interface->bindings.at(0).set : 0);
  }
  std::sort(sets.begin(), sets.end());
  EXPECT_EQ(sets, (std::vector<std::uint32_t>{0, 1, 2}));
  const TranslateFunction translate_v2 = [](std::span<const std::uint8_t> src,
                                            const TranslateOptions& opts, TranslateResult& out) {
    return fake_translate(2, src, opts, out);
  };
  const RebuildReport report = rebuild_stale_entries(*cache, translate_v2);
  EXPECT_EQ(report.translated, 3u);
  for (Stored& entry : stored) entry.key = cache->key_for(entry.source, entry.options);
  EXPECT_EQ(count_hits(*cache, stored), 3u);
  EXPECT_TRUE(cache->stale_entries().empty());
}

TEST(ShaderCache, RejectedRebuildsKeepTheirStaleSource) {
  ScratchDirectory dir;
  {
    CacheOptions options = quiet_options(dir.path());
    options.codegen_version = 1;
    auto cache = test::open_cache(options);
    std::vector<std::uint8_t> source = make_source(1, 64);
    source[0] = 0xEE; // fake_translate rejects it now, but version 1 "accepted" it
    TranslateResult result;
    result.spirv = {1, 2, 3};
    ASSERT_TRUE(cache->insert(cache->key_for(source, {}), source, {}, result));
  }
  CacheOptions options = quiet_options(dir.path());
  options.codegen_version = 2;
  auto cache = test::open_cache(options);
  const RebuildReport report = rebuild_stale_entries(
      *cache, [](std::span<const std::uint8_t> source, const TranslateOptions& opts,
                 TranslateResult& out) { return fake_translate(2, source, opts, out); });
  EXPECT_EQ(report.rejected, 1u);
  ASSERT_TRUE(cache->compact());
  EXPECT_EQ(cache->stats().stale_entries, 1u);
}

TEST(ShaderCache, FileDeletedUnderAnOpenCacheIsRecreatedWithAHeader) {
  ScratchDirectory dir;
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path(), &messages));
  fill(*cache, 5);
  std::filesystem::remove(dir.file());
  const std::vector<Stored> after = fill(*cache, 5, 100);
  EXPECT_EQ(count_hits(*cache, after), 5u);
  cache.reset();
  cache = test::open_cache(quiet_options(dir.path(), &messages));
  EXPECT_EQ(count_hits(*cache, after), 5u);
  EXPECT_TRUE(messages.empty());
  EXPECT_TRUE(cache->verify().ok());
}

TEST(ShaderCache, IndexSnapshotIsOnlyAHint) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  std::filesystem::path snapshot = dir.file();
  snapshot += ".index";
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    stored = fill(*cache, 300, 0, 1500); // > 256 KiB: the snapshot is saved on close
  }
  ASSERT_TRUE(std::filesystem::exists(snapshot));
  {
    // Entries appended after the snapshot (by a process that died before saving) are found.
    auto cache = test::open_cache(quiet_options(dir.path()));
    EXPECT_EQ(count_hits(*cache, stored), 300u);
    const std::vector<Stored> more = fill(*cache, 3, 5000);
    stored.insert(stored.end(), more.begin(), more.end());
    const std::vector<std::uint8_t> saved = read_all(snapshot);
    cache.reset();
    write_all_bytes(snapshot, saved); // as it was before the 3 appends
  }
  auto cache = test::open_cache(quiet_options(dir.path()));
  EXPECT_EQ(count_hits(*cache, stored), 303u);
  cache.reset();
  // A damaged snapshot means a full scan, not lost entries.
  std::vector<std::uint8_t> bytes = read_all(snapshot);
  bytes[bytes.size() / 2] ^= 1;
  write_all_bytes(snapshot, bytes);
  cache = test::open_cache(quiet_options(dir.path()));
  EXPECT_EQ(count_hits(*cache, stored), 303u);
  cache.reset();
  write_all_bytes(snapshot, make_source(3, 777));
  cache = test::open_cache(quiet_options(dir.path()));
  EXPECT_EQ(count_hits(*cache, stored), 303u);
}

TEST(ShaderCache, ClearRemovesEverything) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  const std::vector<Stored> stored = fill(*cache, 10);
  auto other = test::open_cache(quiet_options(dir.path()));
  ASSERT_TRUE(cache->clear());
  EXPECT_EQ(count_hits(*cache, stored), 0u);
  EXPECT_EQ(cache->stats().entries, 0u);
  EXPECT_EQ(other->stats().entries, 0u); // the other handle notices the new file
}

TEST(ShaderCache, UnwritableLocationRunsWithoutWritingAndSaysSoOnce) {
  ScratchDirectory dir;
  // A regular file where the directory should be: nothing can be created under it.
  write_all_bytes(dir.path() / "blocker", {1, 2, 3});
  std::vector<std::string> messages;
  auto cache = test::open_cache(quiet_options(dir.path() / "blocker" / "kiln", &messages));
  ASSERT_TRUE(cache);
  EXPECT_FALSE(cache->writable());
  const std::vector<std::uint8_t> source = make_source(1, 100);
  TranslateResult result;
  ASSERT_TRUE(fake_translate(cache->codegen_version(), source, {}, result));
  EXPECT_FALSE(cache->insert(cache->key_for(source, {}), source, {}, result));
  EXPECT_FALSE(cache->insert(cache->key_for(source, {}), source, {}, result));
  TranslateResult out;
  EXPECT_FALSE(cache->lookup(cache->key_for(source, {}), out));
  EXPECT_EQ(messages.size(), 1u);
}

TEST(ShaderCache, ReadOnlyHandleServesButNeverWrites) {
  ScratchDirectory dir;
  std::vector<Stored> stored;
  {
    auto cache = test::open_cache(quiet_options(dir.path()));
    stored = fill(*cache, 10);
  }
  CacheOptions options = quiet_options(dir.path());
  options.read_only = true;
  auto cache = test::open_cache(options);
  EXPECT_FALSE(cache->writable());
  EXPECT_EQ(count_hits(*cache, stored), 10u);
  const auto size = std::filesystem::file_size(dir.file());
  fill(*cache, 0);
  TranslateResult result;
  ASSERT_TRUE(fake_translate(cache->codegen_version(), stored[0].source, {}, result));
  EXPECT_FALSE(
      cache->insert(cache->key_for(make_source(77, 5), {}), make_source(77, 5), {}, result));
  EXPECT_EQ(std::filesystem::file_size(dir.file()), size);
}

TEST(ShaderCache, ThreadsInsertLookUpAndCompactConcurrently) {
  ScratchDirectory dir;
  auto cache = test::open_cache(quiet_options(dir.path()));
  ASSERT_TRUE(cache);
  constexpr int kThreads = 4, kPerThread = 150;
  std::atomic<int> wrong{0}, missing{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::vector<std::uint8_t> source = make_source(t * 10000 + i, 500 + i);
        TranslateResult result;
        if (!fake_translate(cache->codegen_version(), source, {}, result)) ++wrong;
        const TranslationKey key = cache->key_for(source, {});
        if (!cache->insert(key, source, {}, result)) ++missing;
        TranslateResult out;
        if (!cache->lookup(key, out))
          ++missing;
        else if (!matches_fake(cache->codegen_version(), source, {}, out))
          ++wrong;
      }
    });
  std::thread compactor([&] {
    while (!done.load()) {
      if (!cache->compact()) ++wrong;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  for (std::thread& thread : threads) thread.join();
  done = true;
  compactor.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(missing.load(), 0);
  EXPECT_EQ(cache->stats().entries, std::size_t(kThreads * kPerThread));
  EXPECT_TRUE(cache->verify().ok());
}

TEST(ShaderCacheLocation, EnvironmentDecidesTheDirectory) {
  ::setenv("KILN_CACHE_PATH", "/tmp/kiln-a", 1);
  EXPECT_EQ(default_cache_directory(), "/tmp/kiln-a");
  ::unsetenv("KILN_CACHE_PATH");
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(default_cache_directory(), "/tmp/xdg/kiln");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(default_cache_directory(), "/home/someone/.cache/kiln");
  ::setenv("KILN_CACHE", "0", 1);
  EXPECT_FALSE(cache_enabled_by_environment());
  ::setenv("KILN_CACHE", "1", 1);
  EXPECT_TRUE(cache_enabled_by_environment());
  ::unsetenv("KILN_CACHE");
}

// open() returns its result: without any directory to use it fails, and says why.
TEST(ShaderCache, OpenWithoutADirectoryFailsSayingWhy) {
  std::vector<std::pair<const char*, std::string>> saved;
  for (const char* name : {"KILN_CACHE_PATH", "XDG_CACHE_HOME", "HOME"}) {
    if (const char* value = std::getenv(name)) saved.emplace_back(name, value);
    unsetenv(name);
  }
  const auto opened = ShaderCache::open(CacheOptions{});
  for (const auto& [name, value] : saved) setenv(name, value.c_str(), 1);
  EXPECT_FALSE(opened);
  EXPECT_EQ(opened.value(), nullptr);
  EXPECT_NE(opened.status().message().find("no cache directory"), std::string::npos)
      << opened.status().message();
}

// open()'s exception boundary: what it caught (here the diagnostics callback throwing while
// open() warns about a file that is not a cache) is the failure's message, not an escape.
TEST(ShaderCache, OpenReturnsWhatItCaught) {
  ScratchDirectory dir;
  write_all_bytes(dir.file(), std::vector<std::uint8_t>(64, 0x5a));
  CacheOptions options;
  options.directory = dir.path();
  options.read_only = true;
  options.diagnostics = [](std::string_view) { throw std::runtime_error("callback failed"); };
  const auto opened = ShaderCache::open(options);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.status().message(), "opening the cache: callback failed");
}

} // namespace
} // namespace kiln::cache
