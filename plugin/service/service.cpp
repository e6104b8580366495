#include "plugin/service/service.h"

#include "translator/version.h"

#include <bit>
#include <concurrentqueue/concurrentqueue.h>
#include <concurrentqueue/lightweightsemaphore.h>
#include <cstdlib>
#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace kiln {

struct CompileService::Queues {
  std::array<moodycamel::ConcurrentQueue<Job*>, std::size_t(Priority::Count)> by_priority;
  moodycamel::ConcurrentQueue<std::function<void()>*> tasks; // post(): after every job
  // One count per queued job or task (plus stop wakeups): High and Normal jobs for the
  // foreground workers, Low jobs and posted tasks for the background workers.
  moodycamel::LightweightSemaphore foreground_available, background_available;

  moodycamel::LightweightSemaphore& available(Priority priority) {
    return priority == Priority::Low ? background_available : foreground_available;
  }
};

namespace {

// Set on background workers: their own waits (a posted replay build waiting on its shaders) are
// background work too, and must not park the other background workers.
thread_local bool t_background_worker = false;

// Lowers the calling thread's scheduling priority by `nice` steps and, with `idle_policy`, moves
// it to SCHED_IDLE. On Linux both act on the calling thread alone (setpriority() with a thread
// id, sched_setscheduler() with 0). The nice value is set either way: it is what applies where
// SCHED_IDLE is refused (a seccomp filter, a kernel without it), and what tools such as top
// show. On Windows any lowering puts the thread at THREAD_PRIORITY_LOWEST and the idle policy
// at THREAD_PRIORITY_IDLE, after asking for background mode (lower I/O and memory priority too;
// Wine refuses it, and keeps thread priorities within the process unless configured
// otherwise). Elsewhere, and where the calls fail, the thread stays as it is (background work
// then merely competes as an equal).
void lower_this_thread_priority(int nice, bool idle_policy) {
#if defined(__linux__)
  if (nice > 0)
    (void)::setpriority(PRIO_PROCESS, id_t(::gettid()), ::getpriority(PRIO_PROCESS, 0) + nice);
  if (idle_policy) {
    const sched_param param{}; // SCHED_IDLE takes priority 0
    (void)::sched_setscheduler(0, SCHED_IDLE, &param);
  }
#elif defined(_WIN32)
  if (nice <= 0 && !idle_policy) return;
  HANDLE self = ::GetCurrentThread();
  if (idle_policy) (void)::SetThreadPriority(self, THREAD_MODE_BACKGROUND_BEGIN);
  (void)::SetThreadPriority(self, idle_policy ? THREAD_PRIORITY_IDLE : THREAD_PRIORITY_LOWEST);
#else
  (void)nice;
  (void)idle_policy;
#endif
}

} // namespace

struct CompileService::Counters {
  std::atomic<std::uint64_t> submitted{0}, deduplicated{0}, cache_hits{0}, translated{0}, failed{0},
      cancelled{0}, run_by_waiter{0}, background_yields{0};
  std::array<std::atomic<std::uint64_t>, 24> time_histogram_us{};
};

unsigned default_worker_count() {
  if (const char* value = std::getenv("KILN_THREADS"); value && *value) {
    const long n = std::strtol(value, nullptr, 10);
    if (n >= 1 && n <= 256) return unsigned(n);
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 1 ? cores - 1 : 1;
}

CompileService::CompileService(const ServiceOptions& options)
    : store_(options.store), translate_(options.translate), on_finished_(options.on_finished),
      cleanup_(options.cleanup), codegen_version_(options.codegen_version),
      queues_(std::make_unique<Queues>()), counters_(std::make_unique<Counters>()),
      yield_to_waiters_(options.background_yields_to_waiters) {
  const unsigned threads = options.threads ? options.threads : default_worker_count();
  workers_.reserve(2 * threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { worker_main(false); });
  const int background_nice = options.background_nice;
  const bool idle_policy = options.background_idle_policy;
  for (unsigned i = 0; i < threads; ++i)
    workers_.emplace_back([this, background_nice, idle_policy] {
      lower_this_thread_priority(background_nice, idle_policy);
      worker_main(true);
    });
}

CompileService::~CompileService() {
  stopping_.store(true);
  {
    // Under the mutex: a worker that checked stopping_ before the store is parked by now.
    std::lock_guard lock(yield_mutex_);
  }
  yield_cv_.notify_all();
  queues_->foreground_available.signal(int(workers_.size()));
  queues_->background_available.signal(int(workers_.size()));
  for (std::thread& worker : workers_) worker.join();
  // Whatever is still queued never runs: fail it as cancelled so no waiter hangs.
  for (auto& queue : queues_->by_priority) {
    Job* job;
    while (queue.try_dequeue(job)) {
      if (claim(*job)) {
        job->status = Status::error("cancelled: the compile service shut down");
        publish(*job, JobState::Cancelled);
      }
      job->release();
    }
  }
  std::function<void()>* task = nullptr;
  while (queues_->tasks.try_dequeue(task)) delete task;
}

void CompileService::post(std::function<void()> task) {
  queues_->tasks.enqueue(new std::function<void()>(std::move(task)));
  queues_->background_available.signal();
}

JobRef CompileService::submit(std::span<const std::uint8_t> bytecode,
                              const TranslateOptions& options, Priority priority) {
  return submit(read_shader_input(bytecode), options, priority);
}

JobRef CompileService::submit(const ShaderInput& input, const TranslateOptions& options,
                              Priority priority) {
  bool queue = false;
  JobRef job = make_job(input, options, priority, queue);
  if (queue) {
    job->retain(); // the queue's reference
    queues_->by_priority[std::size_t(priority)].enqueue(job.get());
    queues_->available(priority).signal();
  }
  return job;
}

JobRef CompileService::translate_now(std::span<const std::uint8_t> bytecode,
                                     const TranslateOptions& options, Priority priority) {
  return translate_now(read_shader_input(bytecode), options, priority);
}

JobRef CompileService::translate_now(const ShaderInput& input, const TranslateOptions& options,
                                     Priority priority) {
  bool is_new = false; // not queued either way: the wait below claims a new job
  JobRef job = make_job(input, options, priority, is_new);
  // A new job is claimed by the wait (unless a thread that joined it meanwhile claimed it
  // first: then the wait blocks until that thread publishes it); a job in flight elsewhere is
  // waited for, or run here if it is still queued.
  wait(job, std::chrono::nanoseconds::max());
  return job;
}

JobRef CompileService::make_job(const ShaderInput& input, const TranslateOptions& options,
                                Priority priority, bool& queue) {
  queue = false;
  counters_->submitted.fetch_add(1, std::memory_order_relaxed);
  const TranslationKey key = translation_key(input.bytes, options, codegen_version_);
  {
    std::lock_guard lock(in_flight_mutex_);
    if (auto it = in_flight_.find(key); it != in_flight_.end()) {
      counters_->deduplicated.fetch_add(1, std::memory_order_relaxed);
      return JobRef::share(it->second);
    }
  }
  JobRef job = JobRef::adopt(new Job(input, options, key, priority));
  job->cleanup = cleanup_;
  if (store_ && store_->lookup(key, job->result)) {
    counters_->cache_hits.fetch_add(1, std::memory_order_relaxed);
    job->from_cache = true;
    job->state.store(JobState::Done, std::memory_order_release);
    return job;
  }
  if (stopping_.load(std::memory_order_relaxed)) {
    job->status = Status::error("cancelled: the compile service is shutting down");
    job->state.store(JobState::Cancelled, std::memory_order_release);
    counters_->cancelled.fetch_add(1, std::memory_order_relaxed);
    return job;
  }
  {
    std::lock_guard lock(in_flight_mutex_);
    // A racing identical submit may have won; join it rather than translating twice.
    auto [it, inserted] = in_flight_.try_emplace(key, job.get());
    if (!inserted) {
      counters_->deduplicated.fetch_add(1, std::memory_order_relaxed);
      return JobRef::share(it->second);
    }
  }
  queue = true;
  return job;
}

bool CompileService::claim(Job& job) {
  JobState expected = JobState::Queued;
  return job.state.compare_exchange_strong(expected, JobState::Running, std::memory_order_acq_rel);
}

void CompileService::publish(Job& job, JobState state) {
  {
    std::lock_guard lock(in_flight_mutex_);
    if (auto it = in_flight_.find(job.key); it != in_flight_.end() && it->second == &job)
      in_flight_.erase(it);
  }
  if (state == JobState::Cancelled) counters_->cancelled.fetch_add(1, std::memory_order_relaxed);
  job.state.store(state, std::memory_order_seq_cst);
  // Pairs with the seq_cst increment in wait(): either the waiter sees the final state, or we
  // see the waiter and wake it under the mutex.
  if (waiters_.load(std::memory_order_seq_cst) > 0) {
    { std::lock_guard lock(wait_mutex_); }
    wait_cv_.notify_all();
  }
}

void CompileService::translate_job(Job& job, Translator& translator) {
  const auto start = std::chrono::steady_clock::now();
  job.status = translate_ ? translate_(translator, job.bytecode, job.options, job.result)
                          : translator.translate(job.input, job.options, job.result);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  const std::size_t bucket = std::min<std::size_t>(std::bit_width(std::uint64_t(micros)),
                                                   counters_->time_histogram_us.size() - 1);
  counters_->time_histogram_us[bucket].fetch_add(1, std::memory_order_relaxed);
}

void CompileService::finish_job(Job& job) {
  if (job.status) {
    counters_->translated.fetch_add(1, std::memory_order_relaxed);
    if (store_) store_->store(job.key, job);
    if (on_finished_) on_finished_(job);
    publish(job, JobState::Done);
  } else {
    counters_->failed.fetch_add(1, std::memory_order_relaxed);
    if (on_finished_) on_finished_(job);
    publish(job, JobState::Failed);
  }
}

// A translator from the pool for the lifetime of the lease, returned on the back of the pool
// (the next one handed out) when the lease ends.
class CompileService::TranslatorLease {
 public:
  explicit TranslatorLease(CompileService& service) : service_(service) {
    {
      std::lock_guard lock(service_.translator_pool_mutex_);
      if (!service_.translator_pool_.empty()) {
        translator_ = std::move(service_.translator_pool_.back());
        service_.translator_pool_.pop_back();
      }
    }
    if (!translator_) translator_ = std::make_unique<Translator>();
  }
  ~TranslatorLease() {
    std::lock_guard lock(service_.translator_pool_mutex_);
    service_.translator_pool_.push_back(std::move(translator_));
  }
  TranslatorLease(const TranslatorLease&) = delete;
  TranslatorLease& operator=(const TranslatorLease&) = delete;

  Translator& translator() { return *translator_; }

 private:
  CompileService& service_;
  std::unique_ptr<Translator> translator_;
};

void CompileService::run_with_pooled_translator(Job& job) {
  {
    TranslatorLease lease(*this);
    translate_job(job, lease.translator());
  } // back in the pool before the job is published: a thread the job wakes may need it next
  finish_job(job);
}

void CompileService::worker_main(bool background) {
  // A background worker keeps one translator (per-worker pools, reused across jobs); foreground
  // workers take the pool's warmest for each job and give it back after.
  const std::unique_ptr<Translator> own = background ? std::make_unique<Translator>() : nullptr;
  auto& available = background ? queues_->background_available : queues_->foreground_available;
  t_background_worker = background;
  for (;;) {
    available.wait();
    if (background) yield_to_waiters();
    if (stopping_.load(std::memory_order_acquire)) return;
    Job* job = nullptr;
    if (background) {
      (void)queues_->by_priority[std::size_t(Priority::Low)].try_dequeue(job);
    } else {
      for (Priority priority : {Priority::High, Priority::Normal})
        if (queues_->by_priority[std::size_t(priority)].try_dequeue(job)) break;
    }
    if (!job) {
      std::function<void()>* task = nullptr;
      if (background && queues_->tasks.try_dequeue(task)) {
        const std::unique_ptr<std::function<void()>> owned(task);
        (*owned)();
      }
      continue; // else its count was consumed by a job a waiter ran
    }
    if (claim(*job)) {
      if (own) {
        translate_job(*job, *own);
        finish_job(*job);
      } else {
        run_with_pooled_translator(*job);
      }
    }
    job->release(); // the queue's reference
  }
}

void CompileService::yield_to_waiters() {
  if (urgent_waiters_.load(std::memory_order_seq_cst) == 0) return;
  std::unique_lock lock(yield_mutex_);
  // Pairs with UrgentWait's seq_cst decrement and load of yield_parked_: either the last waiter
  // sees this worker parked and notifies under the mutex (which it cannot take before the wait
  // below releases it), or this worker sees the count at zero and does not wait.
  yield_parked_.fetch_add(1, std::memory_order_seq_cst);
  bool parked = false;
  yield_cv_.wait(lock, [&] {
    if (urgent_waiters_.load(std::memory_order_seq_cst) == 0 ||
        stopping_.load(std::memory_order_acquire))
      return true;
    if (!parked) counters_->background_yields.fetch_add(1, std::memory_order_relaxed);
    parked = true;
    return false;
  });
  yield_parked_.fetch_sub(1, std::memory_order_relaxed);
}

// Counts the calling thread as waiting on an unfinished job for its lifetime (see
// urgent_waiters_). Background workers are not counted.
class CompileService::UrgentWait {
 public:
  explicit UrgentWait(CompileService& service)
      : service_(service.yield_to_waiters_ && !t_background_worker ? &service : nullptr) {
    if (service_) service_->urgent_waiters_.fetch_add(1, std::memory_order_seq_cst);
  }
  ~UrgentWait() {
    if (!service_) return;
    if (service_->urgent_waiters_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
        service_->yield_parked_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard lock(service_->yield_mutex_); }
      service_->yield_cv_.notify_all();
    }
  }
  UrgentWait(const UrgentWait&) = delete;
  UrgentWait& operator=(const UrgentWait&) = delete;

 private:
  CompileService* service_;
};

bool CompileService::wait(const JobRef& job, std::chrono::nanoseconds timeout) {
  if (!job) return false;
  if (is_final(job->state.load(std::memory_order_acquire))) return true;
  // From here until this returns, background workers start nothing new: the job runs here or
  // on another worker with the machine to itself.
  const UrgentWait urgent(*this);
  // Not started: run it here instead of waiting behind the queues. The queue entry stays and
  // is dropped by the worker that finds it already claimed.
  if (claim(*job)) {
    counters_->run_by_waiter.fetch_add(1, std::memory_order_relaxed);
    run_with_pooled_translator(*job);
    return true;
  }
  // A timeout beyond what steady_clock can represent from now (nanoseconds::max() for
  // "forever") waits without a deadline: now + timeout would overflow into the past.
  const auto now = std::chrono::steady_clock::now();
  const bool forever = timeout >= std::chrono::steady_clock::time_point::max() - now;
  const auto done = [&] { return is_final(job->state.load(std::memory_order_acquire)); };
  waiters_.fetch_add(1, std::memory_order_seq_cst);
  bool finished = true;
  {
    std::unique_lock lock(wait_mutex_);
    if (forever)
      wait_cv_.wait(lock, done);
    else
      finished = wait_cv_.wait_until(lock, now + timeout, done);
  }
  waiters_.fetch_sub(1, std::memory_order_relaxed);
  return finished;
}

ServiceStats CompileService::stats() const {
  ServiceStats s;
  const Counters& c = *counters_;
  s.submitted = c.submitted.load(std::memory_order_relaxed);
  s.deduplicated = c.deduplicated.load(std::memory_order_relaxed);
  s.cache_hits = c.cache_hits.load(std::memory_order_relaxed);
  s.translated = c.translated.load(std::memory_order_relaxed);
  s.failed = c.failed.load(std::memory_order_relaxed);
  s.cancelled = c.cancelled.load(std::memory_order_relaxed);
  s.run_by_waiter = c.run_by_waiter.load(std::memory_order_relaxed);
  s.background_yields = c.background_yields.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < s.queued.size(); ++i)
    s.queued[i] = queues_->by_priority[i].size_approx();
  for (std::size_t i = 0; i < s.time_histogram_us.size(); ++i)
    s.time_histogram_us[i] = c.time_histogram_us[i].load(std::memory_order_relaxed);
  return s;
}

} // namespace kiln
