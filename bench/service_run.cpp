#include "bench/service_run.h"

#include "bench/stats.h"
#include "cache/shader_cache.h"
#include "plugin/cache_store.h"
#include "plugin/service.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
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

// A private directory under $TMPDIR for a bench run without --cache; removed afterwards.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kiln-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

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
    // Cold passes start from an empty cache (a temporary one, emptied before each pass) and fill
    // it; warm passes then find every translation there. A --cache DIR is used as found: its
    // existing entries make the cold passes partly warm.
    TemporaryDirectory scratch;
    cache::CacheOptions cache_options;
    cache_options.directory =
        options.cache_dir.empty() ? scratch.path() : std::filesystem::path(options.cache_dir);
    Status error;
    auto cache = cache::ShaderCache::open(cache_options, &error);
    if (!cache) {
      note = "cache not opened (" + error.message() + "); measured without one";
      figures.one_thread_cold_per_s = throughput(translatable, 1, nullptr, failed);
      figures.all_threads_cold_per_s =
          throughput(translatable, figures.all_threads, nullptr, failed);
      return figures;
    }
    CacheStore store(*cache);
    const bool temporary = options.cache_dir.empty();
    if (temporary) (void)cache->clear();
    figures.one_thread_cold_per_s = throughput(translatable, 1, &store, failed);
    if (temporary) (void)cache->clear();
    figures.all_threads_cold_per_s = throughput(translatable, figures.all_threads, &store, failed);
    figures.one_thread_warm_per_s = throughput(translatable, 1, &store, failed);
    figures.all_threads_warm_per_s = throughput(translatable, figures.all_threads, &store, failed);
    note = temporary ? "cold = empty disk cache (temporary directory), warm = the cache the cold "
                       "passes filled"
                     : "cold and warm passes used --cache " + options.cache_dir + " as found";
  }
  if (failed == translatable.size())
    note += "; every job failed, so these figures measure rejection, not translation";
  return figures;
}

std::optional<CacheFigures> measure_cache(const std::vector<BenchInput>& inputs,
                                          const ServiceRunOptions& options, std::string& note) {
  TemporaryDirectory scratch;
  cache::CacheOptions cache_options;
  cache_options.directory =
      options.cache_dir.empty() ? scratch.path() : std::filesystem::path(options.cache_dir);
  cache_options.diagnostics = [&note](std::string_view message) { note = message; };
  if (cache_options.directory.empty()) {
    note = "no temporary directory for the cache";
    return std::nullopt;
  }
  Status error;
  auto cache = cache::ShaderCache::open(cache_options, &error);
  if (!cache) {
    note = "cache not opened: " + error.message();
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
  cache = cache::ShaderCache::open(cache_options, &error);
  figures.open_ms = std::chrono::duration<double, std::milli>(Clock::now() - open_start).count();
  if (!cache) {
    note = "cache not reopened: " + error.message();
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
