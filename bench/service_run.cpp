#include "bench/service_run.h"

#include "bench/stats.h"
#include "cache/scratch_directory.h"
#include "cache/shader_cache.h"
#include "plugin/service/cache_store.h"
#include "plugin/service/service.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

namespace kiln::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Shaders per second through a service with `threads` workers, with `store` as its cache (null:
// none).
double throughput(const std::vector<const BenchInput*>& inputs, unsigned threads,
                  ResultStore* store, std::size_t& failed) {
  ServiceOptions options;
  options.threads = threads;
  options.store = store;
  CompileService service(options);
  std::vector<JobRef> jobs;
  jobs.reserve(inputs.size());
  const Clock::time_point start = Clock::now();
  for (const BenchInput* input : inputs)
    jobs.push_back(service.submit(input->bytes, TranslateOptions{}, Priority::Normal));
  failed = 0;
  for (const JobRef& job : jobs) {
    // Poll rather than wait(): wait() would run queued jobs on this thread and add a worker.
    JobState state;
    while (!is_final(state = job->state.load(std::memory_order_acquire)))
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    if (state != JobState::Done) ++failed;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return seconds > 0 ? double(inputs.size()) / seconds : 0;
}

} // namespace

std::optional<ServiceFigures> measure_service(const std::vector<BenchInput>& inputs,
                                              const ServiceRunOptions& options, std::string& note) {
  std::vector<const BenchInput*> translatable;
  for (const BenchInput& input : inputs)
    if (input.kind == InputKind::Dxbc || input.kind == InputKind::D3D9)
      translatable.push_back(&input);
  if (translatable.empty()) {
    note = "no DXBC or D3D9 input: service not measured";
    return std::nullopt;
  }
  ServiceFigures figures;
  figures.shaders = translatable.size();
  figures.all_threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  std::size_t failed = 0;
  if (options.cache_dir.empty() && options.no_cache) {
    figures.one_thread_cold_per_s = throughput(translatable, 1, nullptr, failed);
    figures.all_threads_cold_per_s = throughput(translatable, figures.all_threads, nullptr, failed);
    note = "--no-cache: the service ran without a disk cache";
  } else {
    // Cold passes always start from an empty cache: a temporary one, emptied before each pass,
    // whatever --cache says, so that "cold" never includes hits left by an earlier run. Warm
    // passes use --cache DIR when given (after an untimed pass that fills it with whatever it
    // lacks) or else the temporary cache the cold passes filled: either way every job hits.
    cache::ScratchDirectory scratch("kiln-bench");
    cache::CacheOptions cold_options;
    cold_options.directory = scratch.path();
    auto opened = cache::ShaderCache::open(cold_options);
    if (!opened) {
      note = "cache not opened (" + opened.status().message() + "); measured without one";
      figures.one_thread_cold_per_s = throughput(translatable, 1, nullptr, failed);
      figures.all_threads_cold_per_s =
          throughput(translatable, figures.all_threads, nullptr, failed);
      return figures;
    }
    const std::unique_ptr<cache::ShaderCache> cold_cache = std::move(opened).value();
    {
      CacheStore cold_store(*cold_cache);
      (void)cold_cache->clear();
      figures.one_thread_cold_per_s = throughput(translatable, 1, &cold_store, failed);
      (void)cold_cache->clear();
      figures.all_threads_cold_per_s =
          throughput(translatable, figures.all_threads, &cold_store, failed);
    }
    std::unique_ptr<cache::ShaderCache> named_cache;
    if (!options.cache_dir.empty()) {
      cache::CacheOptions warm_options;
      warm_options.directory = options.cache_dir;
      auto named = cache::ShaderCache::open(warm_options);
      named_cache = std::move(named).value();
      if (!named_cache) {
        note = "cold = empty disk cache (temporary directory); warm not measured: --cache " +
               options.cache_dir + " not opened (" + named.status().message() + ")";
        return figures;
      }
    }
    cache::ShaderCache& warm_cache = named_cache ? *named_cache : *cold_cache;
    CacheStore warm_store(warm_cache);
    std::size_t unused_failures = 0;
    if (named_cache)
      (void)throughput(translatable, figures.all_threads, &warm_store, unused_failures);
    figures.one_thread_warm_per_s = throughput(translatable, 1, &warm_store, failed);
    figures.all_threads_warm_per_s =
        throughput(translatable, figures.all_threads, &warm_store, failed);
    note = named_cache ? "cold = empty disk cache (temporary directory), warm = --cache " +
                             options.cache_dir + " after an untimed pass filled what it lacked"
                       : "cold = empty disk cache (temporary directory), warm = the cache the "
                         "cold passes filled";
  }
  if (failed == translatable.size())
    note += "; every job failed, so these figures measure rejection, not translation";
  return figures;
}

std::optional<CacheFigures> measure_cache(const std::vector<BenchInput>& inputs,
                                          const ServiceRunOptions& options, std::string& note) {
  cache::ScratchDirectory scratch("kiln-bench");
  cache::CacheOptions cache_options;
  cache_options.directory =
      options.cache_dir.empty() ? scratch.path() : std::filesystem::path(options.cache_dir);
  cache_options.diagnostics = [&note](std::string_view message) { note = message; };
  if (cache_options.directory.empty()) {
    note = "no temporary directory for the cache";
    return std::nullopt;
  }
  auto opened = cache::ShaderCache::open(cache_options);
  std::unique_ptr<cache::ShaderCache> cache = std::move(opened).value();
  if (!cache) {
    note = "cache not opened: " + opened.status().message();
    return std::nullopt;
  }

  // Fill the cache with every translatable input, then time hits on exactly those keys.
  Translator translator;
  TranslateResult result;
  const TranslateOptions translate_options;
  std::vector<TranslationKey> keys;
  for (const BenchInput& input : inputs) {
    if (input.kind != InputKind::Dxbc && input.kind != InputKind::D3D9) continue;
    if (!translator.translate(input.bytes, translate_options, result)) continue;
    TranslationKey key = cache->key_for(input.bytes, translate_options);
    cache->insert(key, input.bytes, translate_options, result);
    keys.push_back(key);
  }
  if (keys.empty()) {
    note = "no shader translated, so there is nothing to cache";
    return std::nullopt;
  }
  cache.reset();

  CacheFigures figures;
  const auto open_start = Clock::now();
  opened = cache::ShaderCache::open(cache_options);
  figures.open_ms = std::chrono::duration<double, std::milli>(Clock::now() - open_start).count();
  cache = std::move(opened).value();
  if (!cache) {
    note = "cache not reopened: " + opened.status().message();
    return std::nullopt;
  }
  constexpr int kRounds = 3;
  std::vector<double> hit_us;
  hit_us.reserve(keys.size() * kRounds);
  std::size_t misses = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (const TranslationKey& key : keys) {
      const auto start = Clock::now();
      const bool hit = cache->lookup(key, result);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
      if (hit)
        hit_us.push_back(us);
      else
        ++misses;
    }
  }
  figures.hit_p50_us = percentile(hit_us, 50);
  figures.hit_p99_us = percentile(hit_us, 99);
  figures.bytes_on_disk = cache->stats().file_bytes;
  note = std::to_string(keys.size()) + " entries, " + std::to_string(kRounds) +
         " lookups each after reopening" +
         (options.cache_dir.empty() ? std::string(" (temporary directory)")
                                    : " in " + options.cache_dir);
  if (misses) note += "; " + std::to_string(misses) + " lookups missed";
  return figures;
}

} // namespace kiln::bench
