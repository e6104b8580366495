#include "bench/service_run.h"

#include "plugin/service.h"

#include <chrono>
#include <thread>

namespace kiln::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Shaders per second through a service with `threads` workers and no cache.
double throughput(const std::vector<const BenchInput*>& inputs, unsigned threads,
                  std::size_t& failed) {
  ServiceOptions options;
  options.threads = threads;
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
  figures.one_thread_cold_per_s = throughput(translatable, 1, failed);
  figures.all_threads_cold_per_s = throughput(translatable, figures.all_threads, failed);
  note = "cold = no disk cache; warm-cache passes: not available yet (cache/ not wired into the "
         "service)";
  if (failed == translatable.size())
    note += "; every job failed, so these figures measure rejection, not translation";
  return figures;
}

std::optional<CacheFigures> measure_cache(const std::vector<BenchInput>&, const ServiceRunOptions&,
                                          std::string& note) {
  note = "not available yet (the on-disk cache, cache/, does not exist yet)";
  return std::nullopt;
}

} // namespace kiln::bench
