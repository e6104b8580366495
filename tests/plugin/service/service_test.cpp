// The compile service's scheduling contract: handles at once, deduplication, failures confined
// to their job, waits that run queued jobs on the waiting thread, clean shutdown.

#include "plugin/service/service.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>
#include <unordered_map>
#if defined(__linux__)
#include <cerrno>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace kiln {
namespace {

using namespace std::chrono_literals;

std::vector<std::uint8_t> blob(std::uint32_t n) {
  std::vector<std::uint8_t> bytes(8);
  std::memcpy(bytes.data(), "FAKE", 4);
  std::memcpy(bytes.data() + 4, &n, 4);
  return bytes;
}

// A translator stand-in: succeeds on "FAKE" blobs (SPIR-V = the blob's number), fails on
// anything else, and waits at a gate while it is closed, to keep workers busy on demand.
struct FakeTranslator {
  std::atomic<bool> gate_open{true};
  std::atomic<int> calls{0};

  TranslateFunction function() {
    return [this](Translator&, std::span<const std::uint8_t> bytes, const TranslateOptions&,
                  TranslateResult& out) {
      calls.fetch_add(1); // counts entries, so a test sees a worker arrive at the gate
      while (!gate_open.load()) std::this_thread::sleep_for(100us);
      if (bytes.size() != 8 || std::memcmp(bytes.data(), "FAKE", 4) != 0)
        return Status::error("not a fake shader");
      std::uint32_t n;
      std::memcpy(&n, bytes.data() + 4, 4);
      out.spirv.assign(1, n);
      return Status::ok();
    };
  }
};

ServiceOptions options(unsigned threads, FakeTranslator* fake, ResultStore* store = nullptr) {
  ServiceOptions o;
  o.threads = threads;
  o.store = store;
  if (fake) o.translate = fake->function();
  return o;
}

TEST(CompileService, TranslatesAndReportsFailures) {
  FakeTranslator fake;
  CompileService service(options(2, &fake));
  JobRef good = service.submit(blob(7), {});
  const std::uint8_t garbage[] = {1, 2, 3};
  JobRef bad = service.submit(garbage, {});
  ASSERT_TRUE(service.wait(good, 10s));
  ASSERT_TRUE(service.wait(bad, 10s));
  EXPECT_EQ(good->state.load(), JobState::Done);
  ASSERT_EQ(good->result.spirv.size(), 1u);
  EXPECT_EQ(good->result.spirv[0], 7u);
  EXPECT_EQ(bad->state.load(), JobState::Failed);
  EXPECT_EQ(bad->status.message(), "not a fake shader");
  // The service survives the failure.
  JobRef again = service.submit(blob(8), {});
  ASSERT_TRUE(service.wait(again, 10s));
  EXPECT_EQ(again->result.spirv.at(0), 8u);
  EXPECT_EQ(service.stats().failed, 1u);
}

TEST(CompileService, RealTranslatorRejectsGarbageCleanly) {
  CompileService service(options(1, nullptr));
  const std::uint8_t garbage[] = {'D', 'X', 'B', 'C', 0, 0};
  JobRef job = service.submit(garbage, {});
  ASSERT_TRUE(service.wait(job, 10s));
  EXPECT_EQ(job->state.load(), JobState::Failed);
  EXPECT_FALSE(job->status.message().empty());
}

TEST(CompileService, IdenticalSubmissionsShareOneJob) {
  FakeTranslator fake;
  fake.gate_open = false; // keep the worker from finishing anything
  CompileService service(options(1, &fake));
  JobRef first = service.submit(blob(1), {});
  JobRef second = service.submit(blob(1), {});
  TranslateOptions vulkan11;
  vulkan11.target = SpirvTarget::Vulkan11;
  JobRef other_target = service.submit(blob(1), vulkan11);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_NE(first.get(), other_target.get());
  fake.gate_open = true;
  ASSERT_TRUE(service.wait(first, 10s));
  ASSERT_TRUE(service.wait(other_target, 10s));
  EXPECT_EQ(service.stats().deduplicated, 1u);
  EXPECT_EQ(service.stats().translated, 2u);
}

TEST(CompileService, WaitRunsAQueuedJobOnTheWaitingThread) {
  FakeTranslator fake;
  fake.gate_open = false;
  CompileService service(options(1, &fake));
  // Both workers get stuck at the gate: the foreground one in a Normal job, the background one in
  // the first of a Low backlog; the rest stays queued.
  JobRef blocker = service.submit(blob(100000), {}, Priority::Normal);
  std::vector<JobRef> backlog;
  for (std::uint32_t i = 0; i < 10000; ++i)
    backlog.push_back(service.submit(blob(i), {}, Priority::Low));
  while (fake.calls.load() < 2) std::this_thread::yield();
  JobRef urgent = service.submit(blob(99999), {}, Priority::Normal);
  // Only the waiter can claim `urgent` now; open the gate once it has.
  std::thread opener([&] {
    while (urgent->state.load() == JobState::Queued) std::this_thread::yield();
    fake.gate_open = true;
  });
  ASSERT_TRUE(service.wait(urgent, 10s));
  opener.join();
  EXPECT_EQ(urgent->state.load(), JobState::Done);
  EXPECT_EQ(urgent->result.spirv.at(0), 99999u);
  EXPECT_EQ(service.stats().run_by_waiter, 1u);
}

// translate_now() runs a new job on the calling thread and never queues it: with the only
// foreground worker stuck at the gate, it still finishes (here, once the gate opens), and the
// translation ran on this thread.
TEST(CompileService, TranslateNowRunsOnTheCallingThread) {
  FakeTranslator fake;
  std::mutex mutex;
  std::unordered_map<std::uint32_t, std::thread::id> ran_on;
  ServiceOptions o = options(1, &fake);
  o.translate = [&, inner = fake.function()](Translator& t, std::span<const std::uint8_t> bytes,
                                             const TranslateOptions& opts, TranslateResult& out) {
    Status status = inner(t, bytes, opts, out);
    std::lock_guard lock(mutex);
    if (!out.spirv.empty()) ran_on[out.spirv[0]] = std::this_thread::get_id();
    return status;
  };
  CompileService service(o);
  fake.gate_open = false;
  JobRef blocker = service.submit(blob(1), {}, Priority::High);
  while (fake.calls.load() < 1) std::this_thread::yield();
  std::thread opener([&] {
    while (fake.calls.load() < 2) std::this_thread::yield(); // translate_now reached the gate
    fake.gate_open = true;
  });
  JobRef now = service.translate_now(blob(2), {});
  opener.join();
  ASSERT_TRUE(now);
  EXPECT_EQ(now->state.load(), JobState::Done);
  EXPECT_EQ(now->result.spirv.at(0), 2u);
  ASSERT_TRUE(service.wait(blocker, 10s));
  std::lock_guard lock(mutex);
  EXPECT_EQ(ran_on.at(2), std::this_thread::get_id());
  EXPECT_NE(ran_on.at(1), std::this_thread::get_id());
  EXPECT_EQ(service.stats().run_by_waiter, 1u);
  EXPECT_EQ(service.stats().queued[std::size_t(Priority::High)], 0u);
}

// translate_now() of a shader already in flight joins that job and waits for it; a failure is
// final and confined to its job.
TEST(CompileService, TranslateNowJoinsAJobInFlightAndReportsFailures) {
  FakeTranslator fake;
  fake.gate_open = false;
  CompileService service(options(1, &fake));
  JobRef running = service.submit(blob(4), {});
  while (fake.calls.load() == 0) std::this_thread::yield(); // the worker holds it at the gate
  std::thread opener([&] {
    std::this_thread::sleep_for(20ms);
    fake.gate_open = true;
  });
  JobRef joined = service.translate_now(blob(4), {});
  opener.join();
  EXPECT_EQ(joined.get(), running.get());
  EXPECT_EQ(joined->state.load(), JobState::Done);
  EXPECT_EQ(fake.calls.load(), 1);
  EXPECT_EQ(service.stats().deduplicated, 1u);
  const std::uint8_t garbage[] = {1, 2, 3};
  JobRef bad = service.translate_now(garbage, {});
  EXPECT_EQ(bad->state.load(), JobState::Failed);
  EXPECT_EQ(bad->status.message(), "not a fake shader");
}

// Low jobs never occupy a foreground worker: with the background worker stuck in a Low job and
// a Low backlog queued, a Normal job still runs at once on the foreground worker.
TEST(CompileService, LowJobsLeaveForegroundWorkersFree) {
  FakeTranslator fake;
  fake.gate_open = false;
  CompileService service(options(1, &fake));
  EXPECT_EQ(service.thread_count(), 2u);
  std::vector<JobRef> backlog;
  for (std::uint32_t i = 0; i < 100; ++i)
    backlog.push_back(service.submit(blob(i), {}, Priority::Low));
  while (fake.calls.load() < 1) std::this_thread::yield();
  std::this_thread::sleep_for(20ms); // a foreground worker that took Low work would arrive now
  EXPECT_EQ(fake.calls.load(), 1);
  JobRef normal = service.submit(blob(5000), {}, Priority::Normal);
  while (fake.calls.load() < 2) std::this_thread::yield(); // the foreground worker took it
  EXPECT_EQ(normal->state.load(), JobState::Running);
  EXPECT_EQ(service.stats().run_by_waiter, 0u);
  fake.gate_open = true;
  ASSERT_TRUE(service.wait(normal, 10s));
  for (const JobRef& job : backlog) ASSERT_TRUE(service.wait(job, 10s));
}

// What the background worker did with a Low job submitted while a thread was inside
// translate_now() (so inside wait(), on a job not yet final): started it, or parked.
struct LowJobDuringWait {
  bool started_during_wait = false;
  std::uint64_t yields = 0;           // stats().background_yields once the wait returned
  bool ran_on_waiting_thread = false; // the Low job ran on the thread that had waited
};

LowJobDuringWait low_job_during_translate_now(bool yield_to_waiters) {
  std::atomic<bool> low_started{false};
  std::thread::id low_ran_on; // written before the Low job is published, read after
  bool started_during_wait = false;
  CompileService* service = nullptr;
  JobRef low;
  ServiceOptions o = options(1, nullptr);
  o.background_yields_to_waiters = yield_to_waiters;
  o.translate = [&](Translator&, std::span<const std::uint8_t> bytes, const TranslateOptions&,
                    TranslateResult& out) {
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + 4, 4);
    out.spirv.assign(1, n);
    if (n == 2) { // the Low job, on whichever thread runs it
      low_ran_on = std::this_thread::get_id();
      low_started = true;
      return Status::ok();
    }
    // The urgent job, run by translate_now() on the test's thread: a Low job queued now finds
    // the background worker idle. It either starts the job or parks (counted before it sleeps);
    // no timing decides which.
    low = service->submit(blob(2), {}, Priority::Low);
    while (!low_started.load() && service->stats().background_yields == 0)
      std::this_thread::yield();
    started_during_wait = low_started.load();
    return Status::ok();
  };
  CompileService instance(o);
  service = &instance;
  JobRef urgent = instance.translate_now(blob(1), {});
  EXPECT_EQ(urgent->state.load(), JobState::Done);
  // The worker resumes once the wait has returned. Poll rather than wait(): wait() would run a
  // still-queued job on this thread.
  while (!is_final(low->state.load())) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(low->state.load(), JobState::Done);
  return {started_during_wait, instance.stats().background_yields,
          low_ran_on == std::this_thread::get_id()};
}

// While a thread waits on an unfinished job, background workers start no Low job: the worker
// that finds one queued parks until the wait returns, then runs it at once.
TEST(CompileService, BackgroundWorkersYieldWhileAThreadWaits) {
  const LowJobDuringWait seen = low_job_during_translate_now(true);
  EXPECT_FALSE(seen.started_during_wait);
  EXPECT_EQ(seen.yields, 1u);
  EXPECT_FALSE(seen.ran_on_waiting_thread); // the background worker ran it, after the wait
}

// The same with yielding turned off: the worker starts the Low job during the wait (so the test
// above can tell the two apart).
TEST(CompileService, BackgroundWorkersNeedNotYield) {
  const LowJobDuringWait seen = low_job_during_translate_now(false);
  EXPECT_TRUE(seen.started_during_wait);
  EXPECT_EQ(seen.yields, 0u);
  EXPECT_FALSE(seen.ran_on_waiting_thread);
}

#if defined(__linux__)
// What `probe()` read on the worker thread that ran a Low job and on the one that ran a Normal
// job, under `o` (one worker each).
struct LowAndNormal {
  int low = -100, normal = -100;
};
LowAndNormal probe_low_and_normal(ServiceOptions o, int (*probe)()) {
  std::mutex mutex;
  LowAndNormal seen;
  o.threads = 1;
  o.translate = [&](Translator&, std::span<const std::uint8_t> bytes, const TranslateOptions&,
                    TranslateResult& out) {
    const int value = probe();
    std::lock_guard lock(mutex);
    (bytes[4] == 1 ? seen.low : seen.normal) = value;
    out.spirv.assign(1, 1);
    return Status::ok();
  };
  CompileService service(o);
  JobRef low = service.submit(blob(1), {}, Priority::Low);
  JobRef normal = service.submit(blob(2), {}, Priority::Normal);
  // Poll rather than wait(): wait() could run a job on this thread.
  while (!is_final(low->state.load()) || !is_final(normal->state.load()))
    std::this_thread::sleep_for(1ms);
  std::lock_guard lock(mutex);
  return seen;
}

int thread_nice() {
  return ::getpriority(PRIO_PROCESS, id_t(::gettid()));
}
int thread_policy() {
  return ::sched_getscheduler(0);
}

// Background workers run Low jobs at a higher nice value than the foreground workers' Normal
// jobs (setpriority() per thread on Linux).
TEST(CompileService, BackgroundWorkersRunAtLowerOsPriority) {
  ServiceOptions o;
  o.background_nice = 5;
  const int own_nice = thread_nice();
  const LowAndNormal nice = probe_low_and_normal(o, thread_nice);
  EXPECT_EQ(nice.normal, own_nice);
  EXPECT_EQ(nice.low, std::min(own_nice + 5, 19));
}

// Whether this process may move a thread to SCHED_IDLE (a seccomp filter may refuse it).
bool idle_policy_allowed() {
  bool allowed = false;
  std::thread([&] {
    const sched_param param{};
    allowed = ::sched_setscheduler(0, SCHED_IDLE, &param) == 0;
  }).join();
  return allowed;
}

// The scheduling policy a Low and a Normal job ran under.
LowAndNormal job_policies(bool background_idle_policy) {
  ServiceOptions o;
  o.background_idle_policy = background_idle_policy;
  return probe_low_and_normal(o, thread_policy);
}

// Background workers run Low jobs under SCHED_IDLE (never preempting the game's threads or a
// waiter); foreground workers stay under the policy the process runs at.
TEST(CompileService, BackgroundWorkersRunUnderTheIdlePolicy) {
  if (!idle_policy_allowed()) GTEST_SKIP() << "this process may not use SCHED_IDLE";
  const LowAndNormal policies = job_policies(true);
  EXPECT_EQ(policies.low, SCHED_IDLE);
  EXPECT_EQ(policies.normal, ::sched_getscheduler(0));
  EXPECT_EQ(job_policies(false).low, ::sched_getscheduler(0)); // the nice increment alone
}
#endif

// A wait() that runs a queued job itself takes the translator a foreground worker warmed, not a
// fresh one: the pool hands out the one returned last.
TEST(CompileService, WaiterRunsAJobOnTheTranslatorAForegroundWorkerWarmed) {
  std::mutex mutex;
  std::unordered_map<std::uint32_t, const Translator*> translator_of; // by blob number
  std::atomic<bool> gate_open{false};
  std::atomic<bool> blocker_started{false};
  ServiceOptions o;
  o.threads = 1;
  o.translate = [&](Translator& translator, std::span<const std::uint8_t> bytes,
                    const TranslateOptions&, TranslateResult& out) {
    std::uint32_t n;
    std::memcpy(&n, bytes.data() + 4, 4);
    {
      std::lock_guard lock(mutex);
      translator_of[n] = &translator;
    }
    if (n == 1) { // holds the background worker
      blocker_started = true;
      while (!gate_open.load()) std::this_thread::sleep_for(100us);
    }
    out.spirv.assign(1, n);
    return Status::ok();
  };
  CompileService service(o);
  JobRef warm_up = service.submit(blob(2), {}, Priority::Normal);
  while (!is_final(warm_up->state.load())) std::this_thread::sleep_for(1ms); // the worker ran it
  JobRef blocker = service.submit(blob(1), {}, Priority::Low);
  while (!blocker_started.load()) std::this_thread::yield();
  JobRef queued = service.submit(blob(3), {}, Priority::Low); // stays queued behind the blocker
  ASSERT_TRUE(service.wait(queued, 10s));
  EXPECT_EQ(service.stats().run_by_waiter, 1u);
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(translator_of.at(3), translator_of.at(2));
    EXPECT_NE(translator_of.at(3), translator_of.at(1)); // background workers keep their own
  }
  gate_open = true;
  ASSERT_TRUE(service.wait(blocker, 10s));
}

TEST(CompileService, WaitTimesOutOnARunningJob) {
  FakeTranslator fake;
  fake.gate_open = false;
  CompileService service(options(1, &fake));
  JobRef job = service.submit(blob(5), {});
  while (fake.calls.load() == 0) std::this_thread::yield();
  EXPECT_EQ(job->state.load(), JobState::Running); // claimed by the worker, stuck at the gate
  EXPECT_FALSE(service.wait(job, 20ms));
  fake.gate_open = true;
  EXPECT_TRUE(service.wait(job, 10s));
  EXPECT_EQ(job->state.load(), JobState::Done);
}

// nanoseconds::max() is "forever" (the drop-in libvkd3d-shader waits so): the deadline must not
// overflow into the past and return at once while a worker still runs the job.
TEST(CompileService, WaitWithoutDeadlineOnARunningJob) {
  FakeTranslator fake;
  fake.gate_open = false;
  CompileService service(options(1, &fake));
  JobRef job = service.submit(blob(6), {});
  while (fake.calls.load() == 0) std::this_thread::yield();
  std::thread opener([&] {
    std::this_thread::sleep_for(50ms);
    fake.gate_open = true;
  });
  EXPECT_TRUE(service.wait(job, std::chrono::nanoseconds::max()));
  EXPECT_EQ(job->state.load(), JobState::Done);
  opener.join();
}

TEST(CompileService, ShutdownCancelsQueuedJobs) {
  FakeTranslator fake;
  fake.gate_open = false;
  std::vector<JobRef> jobs;
  std::thread opener;
  {
    CompileService service(options(1, &fake));
    for (std::uint32_t i = 0; i < 100; ++i) jobs.push_back(service.submit(blob(i), {}));
    while (fake.calls.load() == 0) std::this_thread::yield();
    // The destructor must wait for the running job; open the gate a little later.
    opener = std::thread([&] {
      std::this_thread::sleep_for(50ms);
      fake.gate_open = true;
    });
  }
  opener.join();
  std::size_t done = 0, cancelled = 0;
  for (const JobRef& job : jobs) {
    done += job->state.load() == JobState::Done;
    cancelled += job->state.load() == JobState::Cancelled;
  }
  EXPECT_EQ(done, 1u);
  EXPECT_EQ(cancelled, 99u);
}

struct MemoryStore : ResultStore {
  std::mutex mutex;
  std::unordered_map<TranslationKey, std::vector<std::uint32_t>, TranslationKeyHash> entries;
  bool lookup(const TranslationKey& key, TranslateResult& out) override {
    std::lock_guard lock(mutex);
    auto it = entries.find(key);
    if (it == entries.end()) return false;
    out.spirv = it->second;
    return true;
  }
  void store(const TranslationKey& key, const Job& job) override {
    std::lock_guard lock(mutex);
    entries[key] = job.result.spirv;
  }
};

TEST(CompileService, CacheHitsAreReadyAtSubmit) {
  FakeTranslator fake;
  MemoryStore store;
  CompileService service(options(1, &fake, &store));
  JobRef first = service.submit(blob(3), {});
  ASSERT_TRUE(service.wait(first, 10s));
  JobRef second = service.submit(blob(3), {});
  EXPECT_EQ(second->state.load(), JobState::Done);
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->result.spirv.at(0), 3u);
  EXPECT_EQ(fake.calls.load(), 1);
  EXPECT_EQ(service.stats().cache_hits, 1u);
}

TEST(CompileService, ManySubmittersAndWaiters) {
  FakeTranslator fake;
  CompileService service(options(2, &fake));
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::uint32_t i = 0; i < 500; ++i) {
        const std::uint32_t n = (i * 4 + t) % 700; // overlapping keys exercise deduplication
        JobRef job = service.submit(blob(n), {}, Priority(i % 3));
        if (i % 2 == 0) {
          if (!service.wait(job, 10s) || job->result.spirv.at(0) != n) wrong.fetch_add(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(service.stats().submitted, 2000u);
}

} // namespace
} // namespace kiln
