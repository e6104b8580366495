// Compaction, eviction and clearing: the cache file is rewritten to a temporary file beside it
// and renamed over it while the old file is held under an exclusive lock, so appenders wait
// and then find the new file; readers keep reading the old one until they notice.

#include "cache/cache_format.h"
#include "cache/shader_cache.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <unordered_map>
#include <unordered_set>
#include <xxhash.h>

namespace kiln::cache {

namespace {

struct Survivor {
  std::uint64_t offset = 0;
  std::uint32_t record_size = 0;
  std::uint64_t last_use = 0;
  TranslationKey key;
  std::uint32_t codegen_version = 0;
};

struct StageKeyHash {
  std::size_t operator()(const std::pair<TranslationKey, std::uint32_t>& key) const {
    return std::size_t(key.first.low ^ key.second);
  }
};
using StageKeySet = std::unordered_set<std::pair<TranslationKey, std::uint32_t>, StageKeyHash>;
using KeyMap = std::unordered_map<TranslationKey, TranslationKey, TranslationKeyHash>;

// Points a pipeline record's stages at the shader entries the rewrite keeps: stages whose
// stale entry was rebuilt (and is dropped now) take the rebuilt key, and the record its new
// key. False when a stage's shader is gone (evicted, or never stored): the record is dropped.
bool remap_pipeline_stages(PipelineRecord& record, const StageKeySet& kept, const KeyMap& rebuilt,
                           std::uint32_t codegen_version) {
  bool changed = false;
  for (PipelineStage& stage : record.stages) {
    if (stage.codegen_version != codegen_version) {
      if (auto it = rebuilt.find(stage.key); it != rebuilt.end()) {
        stage.key = it->second;
        stage.codegen_version = codegen_version;
        changed = true;
      }
    }
    if (!kept.count({stage.key, stage.codegen_version})) return false;
  }
  if (changed) record.key = pipeline_record_key(record.stages, record.state, record.tag);
  return true;
}

// Buffers records into large writes; remembers the first error.
class BufferedWriter {
 public:
  explicit BufferedWriter(int fd) : fd_(fd) { buffer_.reserve(kFlushBytes); }
  void write(std::span<const std::uint8_t> bytes) {
    if (error_ != 0) return;
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    if (buffer_.size() >= kFlushBytes) flush();
  }
  int flush() {
    if (error_ == 0 && !buffer_.empty()) error_ = write_all(fd_, buffer_);
    buffer_.clear();
    return error_;
  }

 private:
  static constexpr std::size_t kFlushBytes = 1u << 20;
  int fd_;
  int error_ = 0;
  std::vector<std::uint8_t> buffer_;
};

} // namespace

Status ShaderCache::rewrite_locked(std::uint64_t target_bytes, bool drop_everything) {
  FileDescriptor old_fd;
  FileLock lock;
  if (Status status = lock_current(old_fd, lock, FileLock::Mode::Exclusive); !status) return status;

  // Everything intact in the file as it is now, other processes' appends included.
  Scanned scanned;
  if (Status status = scan(old_fd.get(), kFileHeaderSize, scanned); !status) return status;
  if (!scanned.header_ok || drop_everything) scanned.records.clear();

  // The newest record per current-version key; stale records kept unless rebuilt.
  FlatIndex newest;
  FlatIndex newest_pipelines;
  std::vector<Survivor> survivors;
  std::vector<const ScannedRecord*> stale;
  for (const ScannedRecord& record : scanned.records) {
    if (record.header.codegen_version == kPipelineRecordMarker) {
      newest_pipelines.upsert({record.header.key(), record.offset, 0, record.header.record_size,
                               record.header.codegen_version});
      continue;
    }
    if (record.header.codegen_version != options_.codegen_version) {
      stale.push_back(&record);
      continue;
    }
    newest.upsert({record.header.key(), record.offset, 0, record.header.record_size,
                   record.header.codegen_version});
  }
  {
    const std::uint64_t now = clock_.load(std::memory_order_relaxed);
    std::shared_lock state(state_mutex_);
    newest.for_each([&](const IndexEntry& entry) {
      const IndexEntry* known = index_.find(entry.key);
      // Entries other processes appended since our last look are the newest of all; among
      // themselves they keep their file order (the offset breaks ties).
      const std::uint64_t last_use = known ? last_use_of(*known) : now;
      survivors.push_back(
          {entry.offset, entry.record_size, last_use, entry.key, entry.codegen_version});
    });
  }
  std::vector<std::uint8_t> record;
  KeyMap rebuilt; // stale key -> the current key that supersedes it
  for (const ScannedRecord* entry : stale) {
    record.resize(entry->header.record_size);
    RecordView view;
    TranslateOptions options;
    if (read_at(old_fd.get(), entry->offset, record) != 0 || !decode_record(record, view) ||
        !decode_record_options(view, options))
      continue;
    const TranslationKey current = key_for(view.source, options);
    if (newest.find(current)) { // rebuilt: superseded
      rebuilt[entry->header.key()] = current;
      continue;
    }
    survivors.push_back({entry->offset, entry->header.record_size, 0, entry->header.key(),
                         entry->header.codegen_version});
  }

  // Least recently used first; ties (never used here) by position in the old file.
  std::sort(survivors.begin(), survivors.end(), [](const Survivor& a, const Survivor& b) {
    return a.last_use != b.last_use ? a.last_use < b.last_use : a.offset < b.offset;
  });
  std::size_t first_kept = 0;
  if (target_bytes != 0) {
    std::uint64_t total = kFileHeaderSize;
    for (const Survivor& survivor : survivors) total += survivor.record_size;
    while (first_kept < survivors.size() && total > target_bytes)
      total -= survivors[first_kept++].record_size;
  }

  // Pipeline records survive while every shader they name does; retired ones are dropped.
  StageKeySet kept;
  for (std::size_t i = first_kept; i < survivors.size(); ++i)
    kept.insert({survivors[i].key, survivors[i].codegen_version});
  std::unordered_map<TranslationKey, PipelineRecord, TranslationKeyHash> pipelines;
  newest_pipelines.for_each([&](const IndexEntry& entry) {
    record.resize(entry.record_size);
    RecordView view;
    PipelineRecord pipeline;
    if (read_at(old_fd.get(), entry.offset, record) != 0 || !decode_record(record, view) ||
        !decode_pipeline_payload(view.source, pipeline) || (pipeline.flags & kPipelineRetired))
      return;
    pipeline.key = entry.key;
    if (!remap_pipeline_stages(pipeline, kept, rebuilt, options_.codegen_version)) return;
    // A re-keyed record may meet the same pipeline recorded again under the new keys.
    auto [it, inserted] = pipelines.try_emplace(pipeline.key, pipeline);
    if (!inserted) {
      it->second.use_count = std::max(it->second.use_count, pipeline.use_count);
      it->second.last_use_unix_seconds =
          std::max(it->second.last_use_unix_seconds, pipeline.last_use_unix_seconds);
    }
  });

  const std::string temporary = path_ + ".tmp." + std::to_string(current_process_id());
  FileDescriptor new_fd = open_file_descriptor(temporary, OpenMode::Truncate);
  if (!new_fd.valid()) {
    const int error = errno;
    stop_writing("cannot create " + temporary + " (" + errno_text(error) + ")");
    return Status::error(temporary + ": " + errno_text(error));
  }
  BufferedWriter writer(new_fd.get());
  // A new identity per rewrite: index snapshots of the old file must not match the new one.
  const std::uint64_t id_words[] = {
      file_id_, current_process_id(),
      std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()),
      compactions_.load()};
  const FileHeader header =
      make_file_header(XXH3_64bits(id_words, sizeof id_words), std::uint64_t(::time(nullptr)));
  writer.write({reinterpret_cast<const std::uint8_t*>(&header), sizeof header});
  for (std::size_t i = first_kept; i < survivors.size(); ++i) {
    record.resize(survivors[i].record_size);
    RecordView view;
    if (read_at(old_fd.get(), survivors[i].offset, record) != 0 || !decode_record(record, view))
      continue; // damaged since the scan: dropped
    writer.write(record);
  }
  for (const auto& [key, pipeline] : pipelines) {
    encode_pipeline_record(pipeline, record);
    writer.write(record);
  }
  int error = writer.flush();
  if (error == 0) error = sync_file(new_fd.get());
  // Lock the new file before it becomes visible: others who open it wait until we have
  // scanned it, so our view (and the index snapshot we save) never ends inside their append.
  FileLock new_lock;
  if (error == 0 && !new_lock.lock(new_fd.get(), FileLock::Mode::Exclusive)) error = errno;
  if (error == 0) error = replace_file(temporary, path_);
  if (error != 0) {
    remove_file(temporary);
    stop_writing("cannot rewrite " + path_ + " (" + errno_text(error) + ")");
    return Status::error(path_ + ": rewrite failed: " + errno_text(error));
  }
  sync_directory(directory_);

  Scanned rewritten;
  if (Status status = scan(new_fd.get(), kFileHeaderSize, rewritten); !status) return status;
  adopt(std::move(new_fd), std::move(rewritten), true);
  compactions_.fetch_add(1, std::memory_order_relaxed);
  save_snapshot_locked(0);
  new_lock.unlock();
  lock.unlock();
  return Status::ok();
}

TranslateFunction default_translate_function() {
  // One Translator per function object: rebuilds run on one thread per function copy.
  auto translator = std::make_shared<Translator>();
  return [translator](std::span<const std::uint8_t> source, const TranslateOptions& options,
                      TranslateResult& out) { return translator->translate(source, options, out); };
}

RebuildReport rebuild_stale_entries(ShaderCache& cache, const TranslateFunction& translate,
                                    const std::function<void(std::size_t, std::size_t)>& progress) {
  RebuildReport report;
  const std::vector<StaleEntry> stale = cache.stale_entries();
  report.stale = stale.size();
  std::vector<std::uint8_t> source;
  for (std::size_t i = 0; i < stale.size(); ++i) {
    TranslateOptions options;
    if (!cache.read_source(stale[i], source, options)) {
      ++report.unreadable;
    } else {
      TranslateResult result;
      const TranslationKey key = cache.key_for(source, options);
      if (translate(source, options, result)) {
        cache.insert(key, source, options, result);
        ++report.translated;
      } else {
        ++report.rejected;
      }
    }
    if (progress) progress(i + 1, stale.size());
  }
  // The rebuilt entries supersede the stale ones: drop those now rather than carry them.
  if (report.translated != 0 && cache.writable()) {
    if (Status status = cache.compact(); !status) { /* reported through diagnostics */
    }
  }
  return report;
}

} // namespace kiln::cache
