#pragma once
// The async compile service: submit() returns a handle at once and translation happens on
// worker threads fed from one moodycamel queue per priority (the queue has no priorities of its
// own). wait() on a job that has not started runs it on the waiting thread, so a shader a draw
// waits for never sits behind a backlog. High and Normal jobs run on foreground workers; Low
// jobs (prefill, rebuilds after a version bump) only on background workers that run at the
// lowest OS scheduling priority there is (Linux: SCHED_IDLE, else nice +10), so that background
// work gets little more than the CPU time other threads leave and never preempts one. While any
// other thread is inside wait() or translate_now() for a job not yet final, background workers
// start no new Low job or posted task: they park between jobs until the last such waiter leaves,
// so a shader something is blocked on runs as on an idle machine (a low OS priority alone still
// shares caches, memory bandwidth and SMT siblings with it).
//
// Foreground workers and waiters share one pool of translators, handed out most recently used
// first: a translator's pools grow to what the shaders it ran needed, and a fresh one pays for
// that growth (and for cold caches) on its first large shader, so a wait() that runs a job
// itself takes the warmest translator rather than one of its own.

#include "plugin/service/job.h"
#include "translator/version.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace kiln {

// Where finished translations persist. Implemented over cache/ by the plugin; tests may
// substitute their own. Both calls may come from several threads at once.
class ResultStore {
 public:
  virtual ~ResultStore() = default;
  // Fills `out` and returns true on a hit.
  virtual bool lookup(const TranslationKey& key, TranslateResult& out) = 0;
  virtual void store(const TranslationKey& key, const Job& job) = 0;
};

// How a job is translated. The default calls Translator::translate with the job's read input;
// tests and benchmarks of the service itself substitute their own (a slow or blocking one, to
// pin down scheduling), which get the job's bytes.
using TranslateFunction = std::function<Status(Translator&, std::span<const std::uint8_t>,
                                               const TranslateOptions&, TranslateResult&)>;

// Runs on the thread that translated a job (successfully or not: see job.status), before the
// job is published, so no other thread touches it meanwhile: the C ABI creates the
// VkShaderModule, logs failures and writes dumps here. Not called for cache hits.
using FinishFunction = std::function<void(Job&)>;

struct ServiceOptions {
  // Foreground worker threads (High and Normal jobs); 0 = $KILN_THREADS, else cores - 1, at
  // least 1. As many background workers run the Low jobs.
  unsigned threads = 0;
  // Nice increment of the background workers (Linux: per thread; clamped to 19 by the kernel).
  // An unprivileged thread cannot take it back, which is why Low jobs have their own threads.
  int background_nice = 10;
  // Background workers also switch to SCHED_IDLE (Linux; an unprivileged thread may): the
  // smallest CPU share there is (weight 3, against 110 at nice +10 and 1,024 at nice 0), they
  // never preempt another thread on waking, and a core running only them counts as idle where
  // the kernel places a waking thread. Where the switch fails, or with false, the nice
  // increment alone applies. A wait() on a job a background worker is running blocks, which
  // frees a core for that worker; only where other threads keep every core busy does the job
  // crawl (as at nice +10, with a smaller share).
  bool background_idle_policy = true;
  // Background workers park between jobs while any thread other than a background worker waits
  // in wait() / translate_now() on a job that is not final, and resume as soon as the last such
  // waiter leaves. Only between jobs: a Low job already running finishes (the translator has no
  // safe point to pause at, and one job is at most about a millisecond). false: they do not
  // (benchmarks compare both).
  bool background_yields_to_waiters = true;
  ResultStore* store = nullptr;        // not owned; may be null (no cache)
  TranslateFunction translate;         // empty: Translator::translate
  FinishFunction on_finished;          // empty: nothing
  const JobCleanup* cleanup = nullptr; // given to every job; must outlive them all
  // The codegen version keys are computed under: the store's (a cache opened with an injected
  // version in tests), kCodegenVersion otherwise.
  std::uint32_t codegen_version = kCodegenVersion;
};

struct ServiceStats {
  std::uint64_t submitted = 0;
  std::uint64_t deduplicated = 0; // submissions that joined an identical job in flight
  std::uint64_t cache_hits = 0;
  std::uint64_t translated = 0;
  std::uint64_t failed = 0;
  std::uint64_t cancelled = 0;
  std::uint64_t run_by_waiter = 0;     // jobs a wait() or translate_now() ran on its own thread
  std::uint64_t background_yields = 0; // times a background worker parked for a waiter
  std::array<std::uint64_t, std::size_t(Priority::Count)> queued{}; // approximate depths
  // Translation time histogram: bucket i counts jobs of [2^i, 2^(i+1)) microseconds.
  std::array<std::uint64_t, 24> time_histogram_us{};
};

class CompileService {
 public:
  explicit CompileService(const ServiceOptions& options = {});
  // Cancels queued jobs, lets running ones finish, joins the workers.
  ~CompileService();
  CompileService(const CompileService&) = delete;
  CompileService& operator=(const CompileService&) = delete;

  // Copies the bytecode and returns at once. Identical submissions still in flight share one
  // job; a cache hit returns a finished job. The job translates `input` as read (the copy's
  // container views are rebased), without classifying or parsing it again.
  JobRef submit(const ShaderInput& input, const TranslateOptions& options,
                Priority priority = Priority::Normal);
  // For bytes not read yet: read_shader_input(bytecode), then the above.
  JobRef submit(std::span<const std::uint8_t> bytecode, const TranslateOptions& options,
                Priority priority = Priority::Normal);

  // Waits until the job is final or `timeout` passes; returns whether it is final. A job still
  // queued is run right here on the calling thread. nanoseconds::max() waits without a limit.
  bool wait(const JobRef& job, std::chrono::nanoseconds timeout);

  // submit() and wait() for a caller that needs the result at once (a synchronous API, a
  // shader created at draw time): the same cache lookup and sharing of identical jobs in
  // flight, but a new job is translated on the calling thread without being queued, so no
  // worker is woken for it (a wake-up costs the caller a system call, ~10 us on a VM) and none
  // can take it first. Returns a final job (counted in run_by_waiter when run here).
  JobRef translate_now(const ShaderInput& input, const TranslateOptions& options,
                       Priority priority = Priority::High);
  JobRef translate_now(std::span<const std::uint8_t> bytecode, const TranslateOptions& options,
                       Priority priority = Priority::High);

  // Runs `task` on a background worker once no Low job is queued there: the lowest priority of
  // all (the pipeline replay's builds), at the background workers' OS priority. Tasks still queued
  // when the service shuts down are destroyed without running; whoever posts them must not rely on
  // them running.
  void post(std::function<void()> task);

  ServiceStats stats() const;
  // Foreground plus background workers.
  unsigned thread_count() const { return unsigned(workers_.size()); }

 private:
  struct Queues;
  struct Counters;

  class TranslatorLease;

  // submit()'s first half: a cache hit or an identical job in flight (`queue` stays false), or
  // a new job, in the in-flight table but not yet queued (`queue` true).
  JobRef make_job(const ShaderInput& input, const TranslateOptions& options, Priority priority,
                  bool& queue);
  void worker_main(bool background);
  // Background workers: returns once no thread waits on an unfinished job (or at shutdown).
  void yield_to_waiters();
  class UrgentWait;
  bool claim(Job& job);
  // Translates a claimed job into job.status and job.result.
  void translate_job(Job& job, Translator& translator);
  // Stores, reports and publishes a translated job.
  void finish_job(Job& job);
  void run_with_pooled_translator(Job& job);
  void publish(Job& job, JobState state);

  ResultStore* store_;
  TranslateFunction translate_;
  FinishFunction on_finished_;
  const JobCleanup* cleanup_;
  std::uint32_t codegen_version_;
  std::unique_ptr<Queues> queues_;
  std::unique_ptr<Counters> counters_;
  std::vector<std::thread> workers_;
  std::atomic<bool> stopping_{false};

  std::mutex in_flight_mutex_;
  std::unordered_map<TranslationKey, Job*, TranslationKeyHash> in_flight_;

  // Waiters on running jobs sleep here; publish() notifies only when someone waits.
  std::mutex wait_mutex_;
  std::condition_variable wait_cv_;
  std::atomic<std::uint32_t> waiters_{0};

  // Threads (other than background workers) inside wait() on a job not yet final; background
  // workers park on yield_cv_ between jobs while it is non-zero. The last waiter to leave
  // notifies only when a worker is parked (yield_parked_), as publish() does for waiters_.
  const bool yield_to_waiters_;
  std::atomic<std::uint32_t> urgent_waiters_{0};
  std::atomic<std::uint32_t> yield_parked_{0};
  std::mutex yield_mutex_;
  std::condition_variable yield_cv_;

  // Translators of foreground work (foreground workers and wait() callers that run a job
  // themselves), idle ones only; the back is the one returned last. Background workers keep
  // their own.
  std::mutex translator_pool_mutex_;
  std::vector<std::unique_ptr<Translator>> translator_pool_;
};

// The default worker count: $KILN_THREADS when set, else cores - 1, at least 1.
unsigned default_worker_count();

} // namespace kiln
