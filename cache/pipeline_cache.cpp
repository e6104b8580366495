// The pipeline-record half of ShaderCache (cache/pipeline_record.h, docs/cache.md "Pipeline
// records"): records share the file, its append protocol and its rewrite with shader entries.

#include "cache/cache_format.h"
#include "cache/pipeline_record.h"
#include "cache/shader_cache.h"

#include <chrono>

namespace kiln::cache {

namespace {

std::uint64_t now_unix_seconds() {
  return std::uint64_t(std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count());
}

} // namespace

Status ShaderCache::put_pipeline(const PipelineRecord& record) {
  if (!writable()) return not_writable();
  try {
    std::vector<std::uint8_t> bytes;
    encode_pipeline_record(record, bytes);
    return append_record(record.key, bytes, true);
  } catch (...) {
    return status_caught("put_pipeline");
  }
}

Status ShaderCache::record_pipeline_use(const PipelineRecord& record) {
  try {
    PipelineRecord stored;
    PipelineRecord updated = record;
    updated.use_count = read_pipeline(record.key, stored) ? stored.use_count + 1 : 1;
    updated.flags &= ~kPipelineRetired;
    updated.last_use_unix_seconds = now_unix_seconds();
    return put_pipeline(updated);
  } catch (...) {
    return status_caught("record_pipeline_use");
  }
}

Status ShaderCache::read_pipeline(const TranslationKey& key, PipelineRecord& out) {
  try {
    std::vector<std::uint8_t> bytes;
    std::uint64_t offset = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      {
        std::shared_lock state(state_mutex_);
        if (const IndexEntry* entry = pipelines_.find(key)) {
          offset = entry->offset;
          bytes.resize(entry->record_size);
          if (read_at(fd_.get(), offset, bytes) != 0)
            return Status::error("pipeline record at offset " + std::to_string(offset) +
                                 ": unreadable");
          break;
        }
      }
      if (attempt == 0)
        refresh();
      else
        return Status::error("no pipeline record with this key");
    }
    const auto damaged = [offset](const std::string& why) {
      return Status::error("pipeline record at offset " + std::to_string(offset) + ": " + why);
    };
    RecordView view;
    if (Status decoded = decode_record(bytes, view); !decoded) return damaged(decoded.message());
    if (!(view.header.key() == key) || view.header.codegen_version != kPipelineRecordMarker)
      return damaged("not the record indexed");
    if (!decode_pipeline_payload(view.source, out)) return damaged("its payload does not decode");
    out.key = key;
    return Status::ok();
  } catch (...) {
    return status_caught("read_pipeline");
  }
}

std::vector<PipelineRecord> ShaderCache::pipeline_records() {
  std::vector<PipelineRecord> records;
  try {
    refresh();
    std::vector<TranslationKey> keys;
    {
      std::shared_lock state(state_mutex_);
      keys.reserve(pipelines_.size());
      pipelines_.for_each([&](const IndexEntry& entry) { keys.push_back(entry.key); });
    }
    records.reserve(keys.size());
    for (const TranslationKey& key : keys) {
      PipelineRecord record;
      if (read_pipeline(key, record)) records.push_back(std::move(record));
    }
  } catch (...) {
    warn_caught("pipeline_records");
  }
  return records;
}

Status ShaderCache::read_stage_source(const PipelineStage& stage, std::vector<std::uint8_t>& source,
                                      TranslateOptions& options) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    StaleEntry where;
    bool found = false;
    {
      std::shared_lock state(state_mutex_);
      if (stage.codegen_version == options_.codegen_version) {
        if (IndexEntry* entry = index_.find(stage.key)) {
          where = {entry->key, entry->codegen_version, entry->offset, entry->record_size};
          found = true;
        }
      } else {
        for (const StaleEntry& entry : stale_) {
          if (entry.key == stage.key && entry.codegen_version == stage.codegen_version) {
            where = entry;
            found = true;
            break;
          }
        }
      }
    }
    if (found) return read_source(where, source, options);
    if (attempt == 0) refresh();
  }
  return Status::error("the shader is no longer in the cache");
}

} // namespace kiln::cache
