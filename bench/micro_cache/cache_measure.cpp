// cache_measure [ENTRIES...]: builds a cache of each size (default 10000 and 100000) with
// shader-sized entries and prints write throughput, open time (median of 5, page cache warm)
// and hit latency percentiles (every lookup timed on its own).

#include "bench/micro_cache/synthetic_entries.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace kiln::cache::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void measure(std::size_t entries) {
  ScratchDirectory dir;
  const CacheOptions options = bench_options(dir.path());
  std::vector<TranslationKey> keys;
  keys.reserve(entries);
  std::uint64_t payload_bytes = 0;
  double write_seconds = 0;
  {
    auto cache = ShaderCache::open(options).value();
    // Sizes vary like real shaders: 1-6 KB of bytecode.
    for (std::size_t i = 0; i < entries; ++i) {
      const SyntheticEntry entry = synthetic_entry(i, 1000 + (i * 2654435761u) % 5000);
      keys.push_back(cache->key_for(entry.source, {}));
      const auto start = Clock::now();
      if (!cache->insert(keys.back(), entry.source, {}, entry.result)) {
        std::fprintf(stderr, "insert %zu failed\n", i);
        std::exit(1);
      }
      write_seconds += seconds_since(start);
      payload_bytes += entry.source.size() + entry.result.spirv.size() * 4;
    }
  }
  const auto file_bytes = std::filesystem::file_size(dir.path() / kCacheFileName);

  std::vector<double> open_ms;
  std::unique_ptr<ShaderCache> cache;
  for (int i = 0; i < 5; ++i) {
    cache.reset();
    const auto start = Clock::now();
    cache = ShaderCache::open(options).value();
    open_ms.push_back(seconds_since(start) * 1e3);
  }
  std::sort(open_ms.begin(), open_ms.end());

  // Without the index snapshot (first open after a crash before any save): a full scan.
  std::vector<double> scan_ms;
  {
    std::error_code ec;
    std::filesystem::remove(dir.path() / (std::string(kCacheFileName) + ".index"), ec);
    CacheOptions read_only = options;
    read_only.read_only = true; // a read-only handle never saves a snapshot
    for (int i = 0; i < 5; ++i) {
      const auto start = Clock::now();
      auto scanned = ShaderCache::open(read_only).value();
      scan_ms.push_back(seconds_since(start) * 1e3);
    }
    std::sort(scan_ms.begin(), scan_ms.end());
  }

  std::vector<double> hit_us;
  const std::size_t lookups = std::min<std::size_t>(entries, 50000);
  hit_us.reserve(lookups);
  TranslateResult out;
  for (std::size_t i = 0; i < lookups; ++i) {
    const TranslationKey& key = keys[(i * 7919) % keys.size()];
    const auto start = Clock::now();
    const bool hit = cache->lookup(key, out);
    hit_us.push_back(seconds_since(start) * 1e6);
    if (!hit) {
      std::fprintf(stderr, "lookup %zu missed\n", i);
      std::exit(1);
    }
  }
  std::sort(hit_us.begin(), hit_us.end());
  auto percentile = [&](double p) { return hit_us[std::size_t(p * double(hit_us.size() - 1))]; };

  std::printf("entries: %zu\n", entries);
  std::printf("file_mib: %.1f\n", double(file_bytes) / (1 << 20));
  std::printf("write_entries_per_s: %.0f\n", double(entries) / write_seconds);
  std::printf("write_mib_per_s: %.1f\n", double(file_bytes) / (1 << 20) / write_seconds);
  std::printf("payload_mib_per_s: %.1f\n", double(payload_bytes) / (1 << 20) / write_seconds);
  std::printf("open_ms_median: %.2f\n", open_ms[open_ms.size() / 2]);
  std::printf("open_ms_min: %.2f\n", open_ms.front());
  std::printf("open_without_snapshot_ms_median: %.2f\n", scan_ms[scan_ms.size() / 2]);
  std::printf("hit_us_p50: %.2f\n", percentile(0.50));
  std::printf("hit_us_p99: %.2f\n", percentile(0.99));
  std::printf("hit_us_max: %.2f\n\n", hit_us.back());
}

} // namespace
} // namespace kiln::cache::bench

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {10000, 100000};
  for (std::size_t entries : sizes) kiln::cache::bench::measure(entries);
  return 0;
}
