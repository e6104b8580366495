// service_measure: the compile service's latencies and throughput (issue 9's closing figures).
//
//   submit        submit() of a shader not seen before (copy, key, enqueue): p50/p99
//   cache hit     submit() of a shader the disk cache holds (ready at return): p50/p99
//   hot wait      wait() on a shader submitted behind 10,000 queued background jobs (submit
//                 included), next to the same shader's own translation time outside the
//                 service. Both sides are warm alike: the service has translated the largest
//                 shaders and this one (under another salt) first, as in a running game, and
//                 `own` runs on a translator warmed with this shader; both are timed on the
//                 same thread after the same work (5,000 submits, background workers busy).
//                 The figure is wait/own (of the medians over the 45 largest shaders, and the
//                 median of each shader's own ratio); the line also gives `own` repeated back
//                 to back (caches and branch predictors trained on this very shader: a best
//                 case no service translation sees) and wait/that. Each shader is measured
//                 twice, in separate rounds: submit() + wait(), and translate_now() (the call
//                 for a caller that needs the shader at once: no worker is woken).
//                 Against an idle machine too: `idle` is the same shader translated back to back
//                 (the second of two, on a translator of its own) before the backlog is queued,
//                 with every worker asleep; the figure is the median of each shader's wait/idle.
//                 Also `idle` after the memory traffic of 5,000 submits (copies and keys, no
//                 backlog): what cold caches alone cost the waited translation; and the floor:
//                 the shader's first translation after the same traffic, on a translator another
//                 large shader has just warmed (kiln's code, tables and scratch in cache), the
//                 least any change to kiln's footprint or scheduling could make of a wait.
//   backlog       the hot-wait backlog (10,000 Low jobs of at least --busy-us each) drained
//                 completely, Low jobs/s, alternately without waits and with this thread
//                 calling translate_now() on one of the 45 largest shaders every 16 ms (a shader
//                 created at draw time each frame): the throughput the waits cost the backlog,
//                 next to the share of the time a thread was waiting. Medians of 5 pairs.
//   throughput    every input through 1 worker and through all cores, shaders/s
//
// Inputs: the DXBC/D3D9 files under PATH (default ../shared/corpus/{dxbc,d3d9}), else the
// synthetic corpus. Real translation throughout, except where noted: background jobs of the
// hot-wait run cost at least --busy-us each (so the backlog lasts whatever the translator can do
// today), and the cache is filled with stand-in results sized like real SPIR-V.
// Options: --only SECTION (submit, cache-hit, hot-wait, backlog, throughput), --busy-us N
// (default 100), --yield 0|1 (background workers yield to waiters; default 1, the service's).

#include "bench/synth/synthetic_corpus.h"
#include "plugin/service/cache_store.h"
#include "translator/translation_key.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_set>

namespace {

using namespace kiln;
using Clock = std::chrono::steady_clock;

volatile std::uint64_t g_sink; // keeps computed keys from being optimised away

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, std::size_t(p * double(values.size())))];
}

std::vector<std::vector<std::uint8_t>> load_inputs(int argc, char** argv) {
  std::vector<std::filesystem::path> roots;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') {
      ++i; // every option takes a value (--busy-us N, --only SECTION)
      continue;
    }
    roots.emplace_back(argv[i]);
  }
  if (roots.empty())
    for (const char* sub : {"dxbc", "d3d9"})
      roots.push_back(std::filesystem::path(KILN_SHARED_DIR) / "corpus" / sub);
  std::vector<std::vector<std::uint8_t>> inputs;
  for (const auto& root : roots) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file()) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
      const InputKind kind = detect_input_kind(bytes).kind;
      if (kind == InputKind::Dxbc || kind == InputKind::D3D9) inputs.push_back(std::move(bytes));
    }
  }
  if (inputs.empty()) {
    std::printf("inputs: synthetic corpus (no shader files found)\n");
    for (auto& shader : synth::generate_corpus({.seed = 1, .count = 2000, .d3d9_share = 0.33}))
      inputs.push_back(std::move(shader.bytes));
  }
  return inputs;
}

unsigned flag(int argc, char** argv, const char* name, unsigned fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return unsigned(std::strtoul(argv[i + 1], nullptr, 10));
  return fallback;
}

// A copy of `bytes` that keys differently (a new shader to the service and the cache).
std::vector<std::uint8_t> variant(const std::vector<std::uint8_t>& bytes, std::uint32_t n) {
  std::vector<std::uint8_t> copy = bytes;
  copy.resize(copy.size() + 4);
  std::memcpy(copy.data() + copy.size() - 4, &n, 4);
  return copy;
}

void measure_submit(const std::vector<std::vector<std::uint8_t>>& inputs) {
  ServiceOptions options;
  options.threads = 1;
  CompileService service(options);
  std::vector<double> latencies;
  std::vector<JobRef> jobs;
  jobs.reserve(inputs.size());
  for (const auto& bytes : inputs) {
    const auto start = Clock::now();
    JobRef job = service.submit(bytes, {}, Priority::Low);
    latencies.push_back(micros(Clock::now() - start));
    jobs.push_back(std::move(job));
  }
  std::size_t total = 0;
  for (const auto& bytes : inputs) total += bytes.size();
  std::printf("submit_us: p50 %.2f p99 %.2f max %.1f (%zu shaders, mean %zu bytes, no cache)\n",
              percentile(latencies, 0.5), percentile(latencies, 0.99), percentile(latencies, 1.0),
              inputs.size(), total / inputs.size());
}

void measure_cache_hits(const std::vector<std::vector<std::uint8_t>>& inputs) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kiln-service-measure-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  // Stand-in results sized like real SPIR-V (1.3x the bytecode), so the figure does not
  // depend on which shaders the translator handles today.
  ServiceOptions fill;
  fill.threads = 1;
  fill.translate = [](Translator&, std::span<const std::uint8_t> bytes, const TranslateOptions&,
                      TranslateResult& out) {
    out.spirv.assign(bytes.size() * 13 / 40 + 5, 0x07230203u);
    return Status::ok();
  };
  cache::CacheOptions cache_options;
  cache_options.directory = dir;
  {
    auto cache = cache::ShaderCache::open(cache_options).value();
    CacheStore store(*cache);
    fill.store = &store;
    CompileService service(fill);
    for (const auto& bytes : inputs) service.wait(service.submit(bytes, {}), std::chrono::hours(1));
  }
  auto cache = cache::ShaderCache::open(cache_options).value(); // a new run: index from disk
  CacheStore store(*cache);
  ServiceOptions options;
  options.threads = 1;
  options.store = &store;
  CompileService service(options);
  std::vector<double> latencies;
  std::size_t hits = 0;
  for (int round = 0; round < 3; ++round) {
    for (const auto& bytes : inputs) {
      const auto start = Clock::now();
      JobRef job = service.submit(bytes, {});
      latencies.push_back(micros(Clock::now() - start));
      hits += job->from_cache;
    }
  }
  std::printf("cache_hit_us: p50 %.2f p99 %.2f (%zu of %zu submits ready at return)\n",
              percentile(latencies, 0.5), percentile(latencies, 0.99), hits, latencies.size());
  cache.reset();
  std::filesystem::remove_all(dir);
}

// How the urgent shader reaches the service: submit() then wait() (a shader created earlier
// and waited for at draw time: the submit is timed too, and wakes a worker the waiter then
// beats to the job), or translate_now() (a caller that needs it at once).
enum class Urgent { SubmitWait, TranslateNow };

struct HotWaitFigures {
  std::vector<double> waits, own, back_to_back, depth, submits, ratios, idle, idle_ratios,
      idle_after_traffic, first_after_traffic, first_ratios;
  std::uint64_t run_by_waiter = 0;
  std::uint64_t started_during_wait = 0; // background jobs started while the waiter waited
};

void hot_wait_round(const std::vector<std::vector<std::uint8_t>>& inputs,
                    const std::vector<std::uint8_t>& urgent, std::uint32_t round, unsigned busy_us,
                    Urgent mode, const std::vector<const std::vector<std::uint8_t>*>& by_size,
                    bool yield, HotWaitFigures& out) {
  constexpr std::size_t kBacklog = 10000;
  ServiceOptions options;
  options.threads = std::max(1u, std::thread::hardware_concurrency());
  options.background_yields_to_waiters = yield;
  std::atomic<bool> waiting{false};
  std::atomic<std::uint64_t> started_during_wait{0};
  options.translate = [&urgent, busy_us, &waiting, &started_during_wait](
                          Translator& translator, std::span<const std::uint8_t> bytes,
                          const TranslateOptions& o, TranslateResult& result) {
    const bool background =
        bytes.size() != urgent.size() || std::memcmp(bytes.data(), urgent.data(), bytes.size());
    if (background) { // at least busy_us per background job
      if (waiting.load(std::memory_order_relaxed))
        started_during_wait.fetch_add(1, std::memory_order_relaxed);
      const auto until = Clock::now() + std::chrono::microseconds(busy_us);
      Status status = translator.translate(bytes, o, result);
      while (Clock::now() < until) {
      }
      return status;
    }
    return translator.translate(bytes, o, result);
  };
  CompileService service(options);
  // Warm-up, as a game's service has before a draw waits: the largest shaders once, then the
  // urgent shader itself, all under other salts (none is the urgent job). A first translation
  // grows its translator's scratch storage, which is not what this figure is about; the
  // urgent shader goes last so that the translator it warmed is the one the service's pool
  // hands out next, as warm as the one `own` uses below.
  const std::uint32_t warm_salt = 1u << 30;
  std::vector<JobRef> warm_up;
  for (std::size_t i = 0; i < 4 * options.threads && i < by_size.size(); ++i)
    warm_up.push_back(service.submit(variant(*by_size[i], warm_salt), {}, Priority::Normal));
  for (const JobRef& job : warm_up) service.wait(job, std::chrono::hours(1));
  service.wait(service.submit(variant(urgent, warm_salt + 1), {}, Priority::Normal),
               std::chrono::hours(1));
  // The same shader's own translation on this thread, outside the service, on a translator
  // warmed with it. It is timed half-way through queuing the backlog and the wait after the
  // rest, so that each follows 5,000 submits on this thread with the background workers busy:
  // a translation repeated right after itself runs on caches and branch predictors it just
  // trained, which no translation in the service gets (it translates a shader once).
  Translator translator;
  TranslateResult result;
  (void)translator.translate(variant(urgent, warm_salt + 1), {}, result);
  {
    // On an idle machine (every worker asleep, no backlog yet): the same shader back to back, on
    // a translator of its own so that `own` below stays as it was.
    Translator idle_translator;
    TranslateResult idle_result;
    (void)idle_translator.translate(urgent, {}, idle_result);
    const auto idle_start = Clock::now();
    (void)idle_translator.translate(urgent, {}, idle_result);
    out.idle.push_back(micros(Clock::now() - idle_start));
    // Still idle, but after the memory traffic of 5,000 submits on this thread (each a copy of
    // a shader, another copy for the job, and its key), kept alive as the jobs are: how much of
    // the waited shader's cost is caches the submits evicted rather than sharing the machine.
    std::vector<std::vector<std::uint8_t>> traffic;
    traffic.reserve(kBacklog);
    std::uint64_t keys = 0;
    for (std::size_t i = 0; i < kBacklog / 2; ++i) {
      traffic.push_back(variant(inputs[i % inputs.size()], std::uint32_t(round * kBacklog + i)));
      traffic.push_back(traffic.back());
      keys += translation_key(traffic.back(), {}, kCodegenVersion).low;
    }
    g_sink = keys;
    const auto traffic_start = Clock::now();
    (void)idle_translator.translate(urgent, {}, idle_result);
    out.idle_after_traffic.push_back(micros(Clock::now() - traffic_start));
    // The best any change to kiln could make of this shader's first translation: a translator
    // whose scratch storage the largest shaders sized, the same traffic again (fresh copies,
    // so this shader's input is as cold as before), then another of the largest shaders on it
    // (kiln's code, tables and scratch storage warm), then this shader, which the caches and
    // branch predictors last saw before the two rounds of traffic.
    Translator first_translator;
    TranslateResult first_result;
    for (std::size_t i = 0; i < 4 && i < by_size.size(); ++i)
      (void)first_translator.translate(*by_size[i], {}, first_result);
    for (std::size_t i = 0; i < kBacklog / 2; ++i) {
      traffic[2 * i] =
          variant(inputs[i % inputs.size()], std::uint32_t((round + 1) * kBacklog + i));
      traffic[2 * i + 1] = traffic[2 * i];
      keys += translation_key(traffic[2 * i + 1], {}, kCodegenVersion).low;
    }
    g_sink = keys;
    (void)first_translator.translate(*by_size[(round / 2 + 1) % by_size.size()], {}, first_result);
    const auto first_start = Clock::now();
    (void)first_translator.translate(urgent, {}, first_result);
    out.first_after_traffic.push_back(micros(Clock::now() - first_start));
    out.first_ratios.push_back(out.first_after_traffic.back() / out.idle.back());
  }
  std::vector<JobRef> backlog;
  backlog.reserve(kBacklog);
  for (std::size_t i = 0; i < kBacklog; ++i) {
    if (i == kBacklog / 2) {
      const auto own_start = Clock::now();
      (void)translator.translate(urgent, {}, result);
      out.own.push_back(micros(Clock::now() - own_start));
    }
    backlog.push_back(
        service.submit(variant(inputs[i % inputs.size()], std::uint32_t(round * kBacklog + i)), {},
                       Priority::Low));
  }
  const ServiceStats before = service.stats();
  out.depth.push_back(double(before.queued[std::size_t(Priority::Low)]));
  waiting.store(true, std::memory_order_relaxed);
  const auto start = Clock::now();
  if (mode == Urgent::SubmitWait) {
    JobRef job = service.submit(urgent, {}, Priority::Normal);
    out.submits.push_back(micros(Clock::now() - start));
    service.wait(job, std::chrono::hours(1));
  } else {
    (void)service.translate_now(urgent, {}, Priority::High);
  }
  out.waits.push_back(micros(Clock::now() - start));
  waiting.store(false, std::memory_order_relaxed);
  out.started_during_wait += started_during_wait.load(std::memory_order_relaxed);
  out.ratios.push_back(out.waits.back() / out.own.back());
  out.idle_ratios.push_back(out.waits.back() / out.idle.back());
  out.run_by_waiter += service.stats().run_by_waiter - before.run_by_waiter;
  // For comparison only: the same translation repeated back to back (the best case).
  (void)translator.translate(urgent, {}, result);
  const auto repeat_start = Clock::now();
  (void)translator.translate(urgent, {}, result);
  out.back_to_back.push_back(micros(Clock::now() - repeat_start));
}

void measure_hot_wait(const std::vector<std::vector<std::uint8_t>>& inputs, unsigned busy_us,
                      bool yield) {
  // The urgent shaders: the largest inputs (the worst case for "about its own translation
  // time"), each measured both ways, in alternate rounds.
  constexpr std::size_t kShaders = 45;
  std::vector<const std::vector<std::uint8_t>*> by_size;
  for (const auto& bytes : inputs) by_size.push_back(&bytes);
  std::sort(by_size.begin(), by_size.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
  HotWaitFigures figures[2];
  std::uint32_t round = 0;
  for (std::size_t i = 0; i < kShaders; ++i) {
    const std::vector<std::uint8_t> urgent = variant(*by_size[i % by_size.size()], 1u << 31);
    for (Urgent mode : {Urgent::SubmitWait, Urgent::TranslateNow})
      hot_wait_round(inputs, urgent, round++, busy_us, mode, by_size, yield,
                     figures[std::size_t(mode)]);
  }
  for (Urgent mode : {Urgent::SubmitWait, Urgent::TranslateNow}) {
    const HotWaitFigures& f = figures[std::size_t(mode)];
    const double wait_p50 = percentile(f.waits, 0.5), own_p50 = percentile(f.own, 0.5);
    std::printf("%s: p50 %.1f max %.1f behind a backlog of %.0f queued Low jobs (%u us each); "
                "own translation p50 %.1f max %.1f; wait/own %.2f, per shader p50 %.2f "
                "(own repeated back to back: p50 %.1f, wait/that %.2f); run by the waiting "
                "thread in %llu of %zu",
                mode == Urgent::SubmitWait ? "hot_wait_us" : "translate_now_us", wait_p50,
                percentile(f.waits, 1.0), percentile(f.depth, 0.5), busy_us, own_p50,
                percentile(f.own, 1.0), wait_p50 / own_p50, percentile(f.ratios, 0.5),
                percentile(f.back_to_back, 0.5), wait_p50 / percentile(f.back_to_back, 0.5),
                static_cast<unsigned long long>(f.run_by_waiter), f.waits.size());
    if (mode == Urgent::SubmitWait) std::printf("; submit p50 %.1f", percentile(f.submits, 0.5));
    std::printf("\n  %s against an idle machine (the shader back to back, no backlog): idle p50 "
                "%.1f; wait/idle %.2f, per shader p50 %.2f; background jobs started during "
                "the waits: %llu (background workers %s); idle after the memory traffic of "
                "5,000 submits: p50 %.1f, wait/that %.2f; the floor, a first translation after "
                "that traffic on a translator another large shader just warmed: p50 %.1f, "
                "that/idle %.2f, per shader p50 %.2f\n",
                mode == Urgent::SubmitWait ? "hot_wait" : "translate_now", percentile(f.idle, 0.5),
                wait_p50 / percentile(f.idle, 0.5), percentile(f.idle_ratios, 0.5),
                static_cast<unsigned long long>(f.started_during_wait),
                yield ? "yield to waiters" : "do not yield", percentile(f.idle_after_traffic, 0.5),
                wait_p50 / percentile(f.idle_after_traffic, 0.5),
                percentile(f.first_after_traffic, 0.5),
                percentile(f.first_after_traffic, 0.5) / percentile(f.idle, 0.5),
                percentile(f.first_ratios, 0.5));
  }
}

// The hot-wait backlog drained completely, without and with a translate_now() every 16 ms.
void measure_backlog(const std::vector<std::vector<std::uint8_t>>& inputs, unsigned busy_us,
                     bool yield) {
  constexpr std::size_t kBacklog = 10000, kShaders = 45;
  constexpr auto kPeriod = std::chrono::milliseconds(16);
  std::vector<const std::vector<std::uint8_t>*> by_size;
  for (const auto& bytes : inputs) by_size.push_back(&bytes);
  std::sort(by_size.begin(), by_size.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
  const std::thread::id measuring_thread = std::this_thread::get_id();
  std::vector<double> rates[2], duty, waits;
  std::uint32_t salt = 0;
  constexpr int kPairs = 5;
  for (int run = 0; run < 2 * kPairs; ++run) {
    const bool with_waits = run % 2;
    std::mutex mutex;
    std::condition_variable drained;
    std::size_t finished = 0;
    ServiceOptions options;
    options.threads = std::max(1u, std::thread::hardware_concurrency());
    options.background_yields_to_waiters = yield;
    options.translate = [measuring_thread,
                         busy_us](Translator& translator, std::span<const std::uint8_t> bytes,
                                  const TranslateOptions& o, TranslateResult& result) {
      if (std::this_thread::get_id() == measuring_thread) // a waited shader: as it is
        return translator.translate(bytes, o, result);
      const auto until = Clock::now() + std::chrono::microseconds(busy_us);
      Status status = translator.translate(bytes, o, result);
      while (Clock::now() < until) {
      }
      return status;
    };
    options.on_finished = [&](Job& job) {
      if (job.priority != Priority::Low) return;
      std::lock_guard lock(mutex);
      if (++finished == kBacklog) drained.notify_one();
    };
    CompileService service(options);
    std::vector<std::vector<std::uint8_t>> backlog;
    backlog.reserve(kBacklog);
    for (std::size_t i = 0; i < kBacklog; ++i)
      backlog.push_back(variant(inputs[i % inputs.size()], (1u << 29) + salt++));
    std::vector<JobRef> jobs;
    jobs.reserve(kBacklog);
    const auto start = Clock::now();
    for (const auto& bytes : backlog) jobs.push_back(service.submit(bytes, {}, Priority::Low));
    double waited = 0;
    std::size_t shader = 0;
    {
      std::unique_lock lock(mutex);
      while (finished < kBacklog) {
        if (!with_waits) {
          drained.wait(lock);
          continue;
        }
        if (drained.wait_for(lock, kPeriod, [&] { return finished >= kBacklog; })) break;
        lock.unlock();
        const auto urgent =
            variant(*by_size[shader++ % std::min(kShaders, by_size.size())], (1u << 28) + salt++);
        const auto wait_start = Clock::now();
        (void)service.translate_now(urgent, {}, Priority::High);
        waited += micros(Clock::now() - wait_start);
        lock.lock();
      }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    rates[with_waits].push_back(double(kBacklog) / seconds);
    if (with_waits) {
      duty.push_back(waited * 1e-6 / seconds);
      waits.push_back(double(shader));
    }
  }
  // The loss of each pair of neighbouring drains, so that load from other processes that comes
  // and goes (the background workers get only what it leaves) cancels within a pair.
  std::vector<double> losses;
  for (std::size_t i = 0; i < rates[1].size(); ++i)
    losses.push_back(100 * (1 - rates[1][i] / rates[0][i]));
  std::printf("backlog_jobs_per_s: %.0f without waits, %.0f with a translate_now every %lld ms "
              "(%.0f waits, a thread waiting %.1f%% of the time): %.1f%% lost (pairs %.1f to "
              "%.1f; background workers %s; %zu Low jobs of at least %u us, medians of %d "
              "pairs)\n",
              percentile(rates[0], 0.5), percentile(rates[1], 0.5),
              static_cast<long long>(kPeriod.count()), percentile(waits, 0.5),
              100 * percentile(duty, 0.5), percentile(losses, 0.5), percentile(losses, 0.0),
              percentile(losses, 1.0), yield ? "yield to waiters" : "do not yield", kBacklog,
              busy_us, kPairs);
}

// Counts finished jobs (FinishFunction) and wakes the measuring thread once `expected` have
// finished, so that it sleeps meanwhile instead of taking CPU time from the workers.
struct FinishedJobs {
  std::mutex mutex;
  std::condition_variable all_done;
  std::size_t finished = 0;
  std::size_t expected = SIZE_MAX; // set once every job is submitted

  void count() {
    std::lock_guard lock(mutex);
    if (++finished >= expected) all_done.notify_one();
  }
  void wait_for(std::size_t jobs) {
    std::unique_lock lock(mutex);
    expected = jobs;
    all_done.wait(lock, [&] { return finished >= expected; });
  }
};

void measure_throughput(const std::vector<std::vector<std::uint8_t>>& inputs) {
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned threads : {1u, all}) {
    double best = 0;
    std::uint64_t translated = 0, failed = 0;
    for (int run = 0; run < 3; ++run) {
      FinishedJobs finished;
      ServiceOptions options;
      options.threads = threads;
      options.on_finished = [&finished](Job&) { finished.count(); };
      CompileService service(options);
      std::vector<JobRef> jobs;
      jobs.reserve(inputs.size());
      std::unordered_set<const Job*> distinct; // identical inputs share one job
      const auto start = Clock::now();
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        jobs.push_back(service.submit(inputs[i], {}, Priority::Low));
        distinct.insert(jobs.back().get());
      }
      // Only the workers translate: this thread sleeps until the last job has finished. (It
      // used to poll with yield(), which at nice 0 takes CPU time from SCHED_IDLE workers.)
      finished.wait_for(distinct.size());
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      best = std::max(best, double(inputs.size()) / seconds);
      translated = service.stats().translated;
      failed = service.stats().failed;
    }
    std::printf("throughput_%u_threads: %.0f shaders/s (%llu translated, %llu rejected)\n", threads,
                best, (unsigned long long)translated, (unsigned long long)failed);
  }
}

} // namespace

int main(int argc, char** argv) {
  const auto inputs = load_inputs(argc, argv);
  if (inputs.empty()) return 1;
  std::printf("inputs: %zu shaders; cores: %u\n", inputs.size(),
              std::thread::hardware_concurrency());
  // --only SECTION (submit, cache-hit, hot-wait, backlog, throughput) runs one section.
  const char* only = nullptr;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
  const auto wanted = [only](const char* section) {
    return only == nullptr || std::strcmp(only, section) == 0;
  };
  if (wanted("submit")) measure_submit(inputs);
  if (wanted("cache-hit")) measure_cache_hits(inputs);
  const bool yield = flag(argc, argv, "--yield", 1) != 0;
  if (wanted("hot-wait")) measure_hot_wait(inputs, flag(argc, argv, "--busy-us", 100), yield);
  if (wanted("backlog")) measure_backlog(inputs, flag(argc, argv, "--busy-us", 100), yield);
  if (wanted("throughput")) measure_throughput(inputs);
  return 0;
}
