#pragma once
// Pipeline records and their replay, behind kiln_record_pipeline, kiln_wait_pipeline and the
// kiln_pipeline_replay_info of a context (docs/abi.md "Pipeline records", docs/cache.md).
//
// PipelineRecorder takes the layer's record calls: a hash, a set lookup and a copy on the
// calling thread; the cache writes happen on the recorder's own thread, which wakes every
// 20 ms (or at 256 queued records) rather than at every call. PipelineReplay builds
// the records of the layer's tag at context creation: one task per record, posted to the
// compile service (after every shader job), most used first; a layer that waits for one runs
// it on its own thread if no worker has started it.

#include "cache/shader_cache.h"
#include "kiln/kiln.h"
#include "plugin/abi/abi_log.h"
#include "plugin/service/service.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

struct kiln_context_t;

namespace kiln::abi {

// The identity of a pipeline made of `shaders` (their translation keys, in order).
TranslationKey pipeline_key_of(std::span<const JobRef> shaders, std::span<const std::uint8_t> state,
                               std::uint64_t tag);

class PipelineRecorder {
 public:
  // `logger` (the context's) outlives the recorder; it names what a failed write caught.
  PipelineRecorder(cache::ShaderCache& cache, const Logger& logger);
  // Writes whatever is still queued, then joins the writer.
  ~PipelineRecorder();
  PipelineRecorder(const PipelineRecorder&) = delete;
  PipelineRecorder& operator=(const PipelineRecorder&) = delete;

  // Queues one use of the pipeline `key` (pipeline_key_of the same inputs); a key this recorder
  // has seen is dropped at once. Returns whether it was queued.
  bool record(const TranslationKey& key, std::span<kiln_shader_t* const> shaders,
              std::span<const std::uint8_t> state, std::uint64_t tag);

 private:
  struct Pending {
    TranslationKey key;
    std::vector<JobRef> shaders;
    std::vector<std::uint8_t> state;
    std::uint64_t tag = 0;
  };
  void writer_main();
  void write(Pending& pending);

  cache::ShaderCache& cache_;
  const Logger& logger_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Pending> queue_;
  std::unordered_set<TranslationKey, TranslationKeyHash> seen_;
  bool stopping_ = false;
  std::thread writer_;
};

class PipelineReplay {
 public:
  // Lists the records of info.format_tag (retiring those of the same layer with another format
  // version, or whose shaders are gone) and posts one build per record, most used first.
  PipelineReplay(kiln_context_t& context, const kiln_pipeline_replay_info& info);
  PipelineReplay(const PipelineReplay&) = delete;
  PipelineReplay& operator=(const PipelineReplay&) = delete;

  kiln_result wait(const TranslationKey& key, std::uint64_t timeout_ns);
  void status(kiln_replay_status& out) const;
  // Builds not started yet never start (the context is being destroyed).
  void stop() { stopping_.store(true); }

 private:
  enum class TaskState : int { Queued, Running, Final };
  struct Task {
    cache::PipelineRecord record; // as stored
    TranslationKey current_key;   // after re-keying stages of another codegen version
    std::atomic<TaskState> state{TaskState::Queued};
    kiln_result result = KILN_SUCCESS;
  };

  void run(Task& task);
  kiln_result build(Task& task);
  void retire(const cache::PipelineRecord& record, const std::string& why);
  void finish(Task& task, kiln_result result);

  kiln_context_t& context_;
  // Not through context_.service: kiln_context_destroy resets that pointer before the service's
  // destructor lets running builds finish.
  CompileService& service_;
  kiln_pipeline_compile_callback compile_;
  void* user_data_;
  std::uint64_t tag_;
  std::vector<std::unique_ptr<Task>> tasks_; // fixed after construction
  std::unordered_map<TranslationKey, Task*, TranslationKeyHash> by_key_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> finished_{0}, built_{0}, failed_{0}, retired_{0}, run_by_waiter_{0};
  std::uint64_t retired_at_start_ = 0;
  mutable std::mutex wait_mutex_;
  std::condition_variable wait_cv_;
};

} // namespace kiln::abi
