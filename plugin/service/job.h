#pragma once
// One shader translation handled by the compile service: the copied bytecode as read on its
// way in (translator/shader_input.h, over the copy), its options, and, once finished, the
// result. Reference counted: the submitter's handle, the queue and
// the in-flight table each hold a reference.

#include "translator/translate.h"
#include "translator/translation_key.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace kiln {

enum class Priority : std::uint8_t { High, Normal, Low, Count };

enum class JobState : std::uint8_t {
  Queued,    // waiting in a priority queue
  Running,   // claimed by a worker or by a waiting thread
  Done,      // result holds SPIR-V and reflection
  Failed,    // status says why (a bad shader fails only its own job)
  Cancelled, // the service shut down before the job ran
};

inline bool is_final(JobState state) {
  return state >= JobState::Done;
}

class Job;

// Runs when the last reference to a job goes away, before it is freed: the C ABI destroys the
// job's VkShaderModule there. The object it points to must outlive every job.
struct JobCleanup {
  void (*function)(Job& job, void* context) = nullptr;
  void* context = nullptr;
};

class Job {
 public:
  Job(const ShaderInput& input_in, const TranslateOptions& options_in, const TranslationKey& key_in,
      Priority priority_in)
      : bytecode(input_in.bytes.begin(), input_in.bytes.end()),
        input(rebased_shader_input(input_in, bytecode)), options(options_in), key(key_in),
        priority(priority_in) {}

  // Immutable after submit.
  const std::vector<std::uint8_t> bytecode;
  const ShaderInput input; // over `bytecode`
  const TranslateOptions options;
  const TranslationKey key;
  const Priority priority;

  // Written by whoever runs the job, then published by storing a final state (release);
  // readers load the state (acquire) before touching these.
  Status status;
  TranslateResult result;
  bool from_cache = false;
  std::atomic<JobState> state{JobState::Queued};
  // A VkShaderModule made from the SPIR-V by the C ABI (0: none yet); freed by `cleanup`.
  std::atomic<std::uint64_t> shader_module{0};
  const JobCleanup* cleanup = nullptr; // set once at creation, before the job is shared

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      if (cleanup && cleanup->function) cleanup->function(*this, cleanup->context);
      delete this;
    }
  }

 private:
  ~Job() = default;
  std::atomic<std::uint32_t> refs_{1};
};

// An owning handle to a Job.
class JobRef {
 public:
  JobRef() = default;
  static JobRef adopt(Job* job) {
    JobRef ref;
    ref.job_ = job;
    return ref;
  }
  static JobRef share(Job* job) {
    job->retain();
    return adopt(job);
  }
  JobRef(const JobRef& other) : job_(other.job_) {
    if (job_) job_->retain();
  }
  JobRef(JobRef&& other) noexcept : job_(other.job_) { other.job_ = nullptr; }
  JobRef& operator=(JobRef other) noexcept {
    std::swap(job_, other.job_);
    return *this;
  }
  ~JobRef() {
    if (job_) job_->release();
  }

  Job* get() const { return job_; }
  Job* operator->() const { return job_; }
  Job& operator*() const { return *job_; }
  explicit operator bool() const { return job_ != nullptr; }

 private:
  Job* job_ = nullptr;
};

} // namespace kiln
