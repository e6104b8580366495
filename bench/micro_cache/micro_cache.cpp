// Google Benchmark: one cache hit, one miss, one insert, with shader-sized entries.

#include "bench/micro_cache/synthetic_entries.h"

#include <benchmark/benchmark.h>

namespace kiln::cache::bench {
namespace {

constexpr std::size_t kSourceBytes = 3000;

void BM_CacheHit(benchmark::State& state) {
  ScratchDirectory dir;
  auto cache = ShaderCache::open(bench_options(dir.path())).value();
  const std::size_t entries = std::size_t(state.range(0));
  std::vector<TranslationKey> keys;
  for (std::size_t i = 0; i < entries; ++i) {
    const SyntheticEntry entry = synthetic_entry(i, kSourceBytes);
    keys.push_back(cache->key_for(entry.source, {}));
    cache->insert(keys.back(), entry.source, {}, entry.result);
  }
  TranslateResult out;
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    hits += cache->lookup(keys[(i++ * 7919) % keys.size()], out);
    benchmark::DoNotOptimize(out.spirv.data());
  }
  if (hits != std::size_t(state.iterations())) state.SkipWithError("a lookup missed");
  state.SetBytesProcessed(std::int64_t(state.iterations() * out.spirv.size() * 4));
}
BENCHMARK(BM_CacheHit)->Arg(1000)->Arg(10000)->Threads(1)->Threads(2)->UseRealTime();

void BM_CacheMiss(benchmark::State& state) {
  ScratchDirectory dir;
  auto cache = ShaderCache::open(bench_options(dir.path())).value();
  for (std::size_t i = 0; i < 1000; ++i) {
    const SyntheticEntry entry = synthetic_entry(i, kSourceBytes);
    cache->insert(cache->key_for(entry.source, {}), entry.source, {}, entry.result);
  }
  TranslateResult out;
  std::uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(cache->lookup({++i, i * 3}, out));
}
BENCHMARK(BM_CacheMiss);

void BM_CacheInsert(benchmark::State& state) {
  ScratchDirectory dir;
  auto cache = ShaderCache::open(bench_options(dir.path())).value();
  std::vector<SyntheticEntry> entries;
  for (std::size_t i = 0; i < 256; ++i) entries.push_back(synthetic_entry(i, kSourceBytes));
  std::uint64_t i = 0, bytes = 0;
  for (auto _ : state) {
    const SyntheticEntry& entry = entries[i % entries.size()];
    // A distinct key per iteration, so every insert appends.
    cache->insert({i, ~i}, entry.source, {}, entry.result);
    bytes += entry.source.size() + entry.result.spirv.size() * 4;
    ++i;
  }
  state.SetBytesProcessed(std::int64_t(bytes));
}
BENCHMARK(BM_CacheInsert);

} // namespace
} // namespace kiln::cache::bench
