#include "plugin/abi/pipeline_replay.h"

#include "plugin/abi/abi_context.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace kiln::abi {

namespace {

// The recorder's writer wakes this often, or when this many records are queued.
constexpr auto kWritePeriod = std::chrono::milliseconds(20);
constexpr std::size_t kWakeBatch = 256;

std::string key_text(const TranslationKey& key) {
  char text[33];
  std::snprintf(text, sizeof text, "%016" PRIx64 "%016" PRIx64, key.high, key.low);
  return text;
}

} // namespace

TranslationKey pipeline_key_of(std::span<const JobRef> shaders, std::span<const std::uint8_t> state,
                               std::uint64_t tag) {
  cache::PipelineStage stages[8];
  const std::size_t count = std::min<std::size_t>(shaders.size(), 8);
  for (std::size_t i = 0; i < count; ++i) stages[i].key = shaders[i]->key;
  return cache::pipeline_record_key({stages, count}, state, tag);
}

// ---- Recording ----

PipelineRecorder::PipelineRecorder(cache::ShaderCache& cache, const Logger& logger)
    : cache_(cache), logger_(logger), writer_([this] { writer_main(); }) {}

PipelineRecorder::~PipelineRecorder() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  writer_.join();
}

bool PipelineRecorder::record(const TranslationKey& key, std::span<kiln_shader_t* const> shaders,
                              std::span<const std::uint8_t> state, std::uint64_t tag) {
  Pending pending{key, {}, {state.begin(), state.end()}, tag};
  pending.shaders.reserve(shaders.size());
  for (kiln_shader_t* shader : shaders) pending.shaders.push_back(shader->job);
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (!seen_.insert(key).second) return false;
    queue_.push_back(std::move(pending));
    wake = queue_.size() >= kWakeBatch;
  }
  // The writer polls; waking it costs the caller a syscall (and, on a busy machine, its core).
  if (wake) wake_.notify_one();
  return true;
}

void PipelineRecorder::writer_main() {
  std::vector<Pending> batch;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, kWritePeriod, [&] { return stopping_ || queue_.size() >= kWakeBatch; });
    if (queue_.empty()) {
      if (stopping_) return; // everything is written
      continue;
    }
    batch.swap(queue_);
    lock.unlock();
    for (Pending& pending : batch) write(pending);
    batch.clear();
    lock.lock();
  }
}

void PipelineRecorder::write(Pending& pending) {
  try {
    cache::PipelineRecord record;
    record.key = pending.key;
    record.tag = pending.tag;
    record.state = std::move(pending.state);
    for (const JobRef& job : pending.shaders) {
      // The stage is information for the callback; Count (KILN_STAGE_ANY) when unknown.
      ShaderStage stage = ShaderStage::Count;
      if (job->state.load(std::memory_order_acquire) == JobState::Done)
        stage = job->result.reflection.stage;
      else if (!declared_stage(job->input, stage))
        stage = ShaderStage::Count;
      record.stages.push_back({stage, cache_.codegen_version(), job->key});
    }
    // Not written: a write failure the cache reports once itself (its diagnostics); the use
    // of a pipeline is only counted, so nothing else is lost.
    (void)cache_.record_pipeline_use(record);
  } catch (...) {
    log_caught(logger_, "pipeline recorder");
  }
}

// ---- Replay ----

PipelineReplay::PipelineReplay(kiln_context_t& context, const kiln_pipeline_replay_info& info)
    : context_(context), service_(*context.service), compile_(info.compile),
      user_data_(info.user_data), tag_(info.format_tag) {
  cache::ShaderCache& cache = *context.cache;
  std::vector<cache::PipelineRecord> records = cache.pipeline_records();
  std::vector<std::uint8_t> source;
  for (cache::PipelineRecord& record : records) {
    if (record.flags & cache::kPipelineRetired) continue;
    if (record.tag != tag_) {
      if (cache::pipeline_tag_layer(record.tag) == cache::pipeline_tag_layer(tag_)) {
        retire(record, "its format tag is not the layer's current one");
        ++retired_at_start_;
      }
      continue; // another layer's record
    }
    auto task = std::make_unique<Task>();
    // Stages recorded under another codegen version are named by their rebuilt key.
    std::vector<cache::PipelineStage> current = record.stages;
    bool resolved = true;
    for (cache::PipelineStage& stage : current) {
      if (stage.codegen_version == cache.codegen_version()) continue;
      TranslateOptions options;
      if (!cache.read_stage_source(stage, source, options)) {
        resolved = false;
        break;
      }
      stage.key = cache.key_for(source, options);
      stage.codegen_version = cache.codegen_version();
    }
    if (!resolved) {
      retire(record, "a shader of it is no longer in the cache");
      ++retired_at_start_;
      continue;
    }
    task->current_key = cache::pipeline_record_key(current, record.state, record.tag);
    task->record = std::move(record);
    tasks_.push_back(std::move(task));
  }
  std::stable_sort(tasks_.begin(), tasks_.end(), [](const auto& a, const auto& b) {
    return a->record.use_count != b->record.use_count
               ? a->record.use_count > b->record.use_count
               : a->record.last_use_unix_seconds > b->record.last_use_unix_seconds;
  });
  for (const auto& task : tasks_) {
    by_key_.emplace(task->current_key, task.get());
    by_key_.emplace(task->record.key, task.get());
  }
  for (const auto& task : tasks_) {
    Task* raw = task.get();
    service_.post([this, raw] {
      TaskState expected = TaskState::Queued;
      if (raw->state.compare_exchange_strong(expected, TaskState::Running)) run(*raw);
    });
  }
  context_.logger.log(KILN_LOG_INFO, "pipeline replay: " + std::to_string(tasks_.size()) +
                                         " records queued, " + std::to_string(retired_at_start_) +
                                         " retired");
}

void PipelineReplay::retire(const cache::PipelineRecord& record, const std::string& why) {
  context_.logger.log(KILN_LOG_INFO,
                      "pipeline replay: retiring record " + key_text(record.key) + ": " + why);
  cache::PipelineRecord retired = record;
  retired.flags |= cache::kPipelineRetired;
  (void)context_.cache->put_pipeline(retired);
  retired_.fetch_add(1, std::memory_order_relaxed);
}

void PipelineReplay::run(Task& task) {
  kiln_result result = KILN_ERROR_CANCELLED;
  if (!stopping_.load(std::memory_order_relaxed)) {
    try {
      result = build(task);
    } catch (...) {
      result = log_caught(context_.logger, "pipeline replay");
    }
  }
  finish(task, result);
}

void PipelineReplay::finish(Task& task, kiln_result result) {
  task.result = result;
  {
    std::lock_guard lock(wait_mutex_);
    task.state.store(TaskState::Final, std::memory_order_release);
  }
  finished_.fetch_add(1, std::memory_order_release);
  wait_cv_.notify_all();
}

kiln_result PipelineReplay::build(Task& task) {
  const cache::PipelineRecord& record = task.record;
  cache::ShaderCache& cache = *context_.cache;
  // Submit every stage first (cache hits finish at once), then wait: a wait runs a queued job
  // on this thread, so a replay build never sits behind the queues either.
  std::vector<JobRef> jobs;
  std::vector<std::uint8_t> source;
  for (const cache::PipelineStage& stage : record.stages) {
    TranslateOptions options;
    if (!cache.read_stage_source(stage, source, options)) {
      retire(record, "a shader of it is no longer in the cache");
      return KILN_ERROR_TRANSLATION_FAILED;
    }
    jobs.push_back(service_.submit(source, options, Priority::Low));
  }
  for (const JobRef& job : jobs) {
    service_.wait(job, std::chrono::nanoseconds::max());
    const JobState state = job->state.load(std::memory_order_acquire);
    if (state == JobState::Cancelled) return KILN_ERROR_CANCELLED;
    if (state != JobState::Done) {
      retire(record, "a shader of it no longer translates (" + job->status.message() + ")");
      return KILN_ERROR_TRANSLATION_FAILED;
    }
  }

  std::vector<kiln_shader_t*> handles;
  std::vector<kiln_replay_stage> stages;
  kiln_result result = KILN_SUCCESS;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    kiln_shader_t* shader = make_shader_handle(context_, jobs[i]);
    handles.push_back(shader);
    std::uint64_t module = 0;
    if (context_.vulkan && get_shader_module(*shader, module) != KILN_SUCCESS)
      result = KILN_ERROR_VULKAN;
    const TranslateResult& translated = jobs[i]->result;
    stages.push_back({stage_to_c(record.stages[i].stage), shader, module, translated.spirv.data(),
                      translated.spirv.size()});
  }
  if (result == KILN_SUCCESS) {
    const kiln_replay_pipeline pipeline{{task.current_key.low, task.current_key.high},
                                        record.tag,
                                        std::uint32_t(stages.size()),
                                        stages.data(),
                                        record.state.data(),
                                        record.state.size(),
                                        record.use_count,
                                        std::uint64_t(context_.driver_cache)};
    result = compile_(user_data_, &pipeline);
  }
  for (kiln_shader_t* shader : handles) release_shader(shader);

  if (result == KILN_SUCCESS) {
    built_.fetch_add(1, std::memory_order_relaxed);
    if (!(task.current_key == record.key)) {
      // Built from rebuilt shaders: store it under its new key and retire the old one.
      cache::PipelineRecord rekeyed = record;
      rekeyed.key = task.current_key;
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        rekeyed.stages[i].key = jobs[i]->key;
        rekeyed.stages[i].codegen_version = cache.codegen_version();
      }
      if (cache.put_pipeline(rekeyed)) retire(record, "re-keyed to the rebuilt shaders");
    }
  } else if (result == KILN_ERROR_UNSUPPORTED) {
    retire(record, "the layer cannot build it any more");
  } else {
    failed_.fetch_add(1, std::memory_order_relaxed);
    context_.logger.log(KILN_LOG_WARNING, "pipeline replay: record " + key_text(record.key) +
                                              ": the compile callback returned " +
                                              abi::result_name(result));
  }
  return result;
}

kiln_result PipelineReplay::wait(const TranslationKey& key, std::uint64_t timeout_ns) {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return KILN_NOT_REPLAYED;
  Task& task = *it->second;
  TaskState expected = TaskState::Queued;
  if (task.state.compare_exchange_strong(expected, TaskState::Running)) {
    run_by_waiter_.fetch_add(1, std::memory_order_relaxed);
    run(task);
    return task.result;
  }
  const auto done = [&] { return task.state.load(std::memory_order_acquire) == TaskState::Final; };
  std::unique_lock lock(wait_mutex_);
  const std::uint64_t limit = 365ull * 24 * 3600 * 1000000000ull; // beyond a year: forever
  if (timeout_ns >= limit)
    wait_cv_.wait(lock, done);
  else if (!wait_cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), done))
    return KILN_TIMEOUT;
  return task.result;
}

void PipelineReplay::status(kiln_replay_status& out) const {
  out.total = tasks_.size();
  out.done = finished_.load(std::memory_order_acquire) == tasks_.size();
  out.built = built_.load(std::memory_order_relaxed);
  out.failed = failed_.load(std::memory_order_relaxed);
  out.retired = retired_.load(std::memory_order_relaxed);
  out.run_by_waiter = run_by_waiter_.load(std::memory_order_relaxed);
}

} // namespace kiln::abi
