#include "cache/shader_cache.h"

#include "cache/cache_format.h"
#include "cache/index_snapshot.h"
#include "translator/common/caught.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <xxhash.h>

namespace kiln::cache {

namespace {

// Dead bytes above this share of the file (and above kCompactMinimumBytes) trigger a rewrite.
constexpr std::uint64_t kCompactMinimumBytes = 1u << 20;
// Damage found at open is reclaimed at once in files up to this size (larger ones wait for
// the dead share to trigger a compaction, or `kiln cache compact`).
constexpr std::uint64_t kCompactDamageAtOpenBytes = 64u << 20;
// Records not yet covered by the index snapshot before it is saved again.
constexpr std::uint64_t kSnapshotAfterOpenBytes = 4u << 20;
// While running: every 8 MiB, or every 1/16 of the file once larger, so a crash leaves at most
// that much to scan at the next open and the snapshot rewrites cost a few percent of the I/O.
constexpr std::uint64_t kSnapshotWhileRunningBytes = 8u << 20;
constexpr std::uint64_t kSnapshotAtCloseBytes = 256u << 10;

std::uint64_t unix_seconds() {
  return std::uint64_t(std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count());
}

std::uint64_t fresh_file_id(const void* salt) {
  const std::uint64_t words[] = {
      std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()),
      current_process_id(), std::uint64_t(reinterpret_cast<std::uintptr_t>(salt))};
  return XXH3_64bits(words, sizeof words);
}

} // namespace

std::filesystem::path default_cache_directory() {
  if (const char* path = std::getenv("KILN_CACHE_PATH"); path && *path) return path;
  if (std::filesystem::path base = user_cache_base(); !base.empty()) return base / "kiln";
  return {};
}

bool cache_enabled_by_environment() {
  const char* value = std::getenv("KILN_CACHE");
  return !(value && std::string_view(value) == "0");
}

ShaderCache::ShaderCache(const CacheOptions& options) : options_(options) {}

ShaderCache::~ShaderCache() {
  try {
    std::lock_guard guard(file_mutex_);
    save_snapshot_locked(kSnapshotAtCloseBytes);
  } catch (...) {
    warn_caught("closing the cache");
  }
}

Result<std::unique_ptr<ShaderCache>> ShaderCache::open(const CacheOptions& options) {
  try {
    std::unique_ptr<ShaderCache> cache(new ShaderCache(options));
    if (cache->options_.directory.empty()) cache->options_.directory = default_cache_directory();
    if (cache->options_.directory.empty())
      return Status::error("no cache directory: set KILN_CACHE_PATH or HOME");
    cache->directory_ = cache->options_.directory.string();
    cache->path_ = (cache->options_.directory / kCacheFileName).string();
    cache->snapshot_path_ = cache->path_ + ".index";
    if (Status status = cache->open_file(); !status) return status;
    return cache;
  } catch (...) {
    // The boundary of open(): what it caught is the result's message.
    const Caught what = caught();
    return Status::error(what.out_of_memory ? std::string("out of memory opening the cache")
                                            : std::string("opening the cache: ") + what.what);
  }
}

void ShaderCache::warn(const std::string& message) {
  if (options_.diagnostics)
    options_.diagnostics(message);
  else
    std::fprintf(stderr, "kiln: cache: %s\n", message.c_str());
}

bool ShaderCache::warn_caught(const char* entry) noexcept {
  const Caught what = caught();
  try {
    warn(std::string(entry) + ": " + what.what);
  } catch (...) {
    // The diagnostics callback or the message itself failed: stderr still gets the line.
    std::fprintf(stderr, "kiln: cache: %s: %s\n", entry, what.what);
  }
  return what.out_of_memory;
}

Status ShaderCache::status_caught(const char* entry) noexcept {
  const bool out_of_memory = warn_caught(entry);
  // Short texts (no heap: they fit a std::string's own buffer) where building one could fail.
  if (out_of_memory) return Status::error("out of memory");
  try {
    return Status::error(std::string(entry) + ": " + caught().what);
  } catch (const std::exception&) { // building the text failed; warn_caught() logged the cause
    return Status::error("out of memory");
  }
}

Status ShaderCache::not_writable() const {
  return Status::error("cache " + directory_ + " is not writable");
}

void ShaderCache::stop_writing(const std::string& why) {
  writable_.store(false, std::memory_order_relaxed);
  if (!write_failure_reported_.exchange(true))
    warn(why + "; the cache stops writing (translation is unaffected)");
}

void ShaderCache::remove_orphaned_temporaries() {
  // "<cache file>[.index].tmp.PID[...]" left by a process killed during a rewrite or snapshot
  // save. A temporary of a live process is left alone.
  const std::string prefix = kCacheFileName;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(options_.directory, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t tmp = name.find(".tmp.");
    if (name.rfind(prefix, 0) != 0 || tmp == std::string::npos) continue;
    const long pid = std::strtol(name.c_str() + tmp + 5, nullptr, 10);
    if (pid > 0 && process_is_gone(std::uint64_t(pid))) {
      std::error_code ignored;
      std::filesystem::remove(it->path(), ignored);
    }
  }
}

Status ShaderCache::open_file() {
  bool want_write = !options_.read_only;
  if (want_write) {
    std::error_code ec;
    std::filesystem::create_directories(options_.directory, ec);
    FileDescriptor probe = open_file_descriptor(path_, OpenMode::Append);
    if (!probe.valid()) {
      // Read-only media, permissions, a file where the directory should be: run without
      // writing (reading whatever is there), and say so once.
      const int error = errno;
      want_write = false;
      stop_writing("cache " + directory_ + " is not writable (" + errno_text(error) + ")");
    }
  }

  FileDescriptor fd;
  FileLock lock;
  const FileLock::Mode mode = want_write ? FileLock::Mode::Exclusive : FileLock::Mode::Shared;
  if (!want_write) {
    fd = open_file_descriptor(path_, OpenMode::Read);
    if (!fd.valid()) return Status::ok(); // nothing cached and nothing can be: an empty cache
  }
  if (Status status = lock_current(fd, lock, mode); !status) {
    // Unreadable, or no header could be written: run as an empty cache that does not write.
    if (want_write)
      stop_writing(status.message());
    else
      warn(status.message());
    return Status::ok();
  }

  Scanned scanned;
  if (Status status = scan(fd.get(), kFileHeaderSize, scanned, true); !status) return status;
  if (!scanned.header_ok) {
    warn(path_ + " is not a kiln cache file; starting with an empty cache");
    if (!want_write) return Status::ok();
    // Replace it with a fresh file; processes holding the old one notice the new inode.
    lock.unlock();
    fd.reset();
    writable_.store(true, std::memory_order_relaxed);
    if (Status status = clear(); !status) warn(status.message());
    return Status::ok();
  }
  if (scanned.result.corrupt_spans != 0) {
    warn(path_ + ": skipped " + std::to_string(scanned.result.corrupt_bytes) +
         " bytes of torn or corrupt records in " + std::to_string(scanned.result.corrupt_spans) +
         " place(s)");
  }
  if (want_write) {
    writable_.store(true, std::memory_order_relaxed);
    remove_orphaned_temporaries();
  }
  lock.unlock();
  adopt(std::move(fd), std::move(scanned), true);

  // Torn or corrupt spans are never cut out in place (another process's index snapshot may
  // reach past them); a rewrite reclaims them.
  std::lock_guard guard(file_mutex_);
  const bool damaged = scanned_end_ <= kCompactDamageAtOpenBytes && dead_bytes_ > 0 &&
                       scanned.result.corrupt_spans != 0;
  if (writable() && (damaged || dead_bytes_ * 4 > scanned_end_)) {
    if (Status status = rewrite_locked(0, false); !status) warn(status.message());
  } else {
    save_snapshot_locked(kSnapshotAfterOpenBytes);
  }
  return Status::ok();
}

Status ShaderCache::lock_current(FileDescriptor& fd, FileLock& lock, FileLock::Mode mode,
                                 bool wait) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (!fd.valid()) {
      fd = open_file_descriptor(path_, mode == FileLock::Mode::Exclusive ? OpenMode::Append
                                                                         : OpenMode::Read);
      if (!fd.valid()) return Status::error(path_ + ": " + errno_text(errno));
    }
    if (!lock.lock(fd.get(), mode, wait))
      return Status::error(path_ + ": lock: " + errno_text(errno));
    // Whoever replaces the file holds the exclusive lock on it while renaming, so once we hold
    // a lock on the file the path names, it stays the current file until we let go.
    FileIdentity locked, named;
    std::uint64_t size = 0;
    if (identity_of_fd(fd.get(), locked, &size) == 0 && identity_of_path(path_, named) == 0 &&
        locked == named) {
      if (mode == FileLock::Mode::Exclusive && size == 0) {
        // A new file (first use, or deleted under us): it starts with its header.
        const FileHeader header = make_file_header(fresh_file_id(this), unix_seconds());
        if (int error = write_all(fd.get(),
                                  {reinterpret_cast<const std::uint8_t*>(&header), sizeof header});
            error != 0) {
          if (truncate_file(fd.get(), 0) != 0) { /* an empty file is still valid */
          }
          lock.unlock();
          return Status::error("cannot write " + path_ + " (" + errno_text(error) + ")");
        }
      }
      return Status::ok();
    }
    lock.unlock();
    fd.reset(); // replaced by a compaction or clear: take the new file
  }
  return Status::error(path_ + ": the cache file keeps being replaced");
}

Status ShaderCache::scan(int fd, std::uint64_t from, Scanned& out, bool use_snapshot) {
  std::uint64_t size = 0;
  FileIdentity ignored;
  if (int error = identity_of_fd(fd, ignored, &size); error != 0)
    return Status::error(path_ + ": " + errno_text(error));
  Mapping mapping;
  if (int error = mapping.map(fd, size); error != 0)
    return Status::error(path_ + ": mmap: " + errno_text(error));
  const std::span<const std::uint8_t> bytes = mapping.bytes();
  if (size != 0 && !file_header_valid(bytes)) {
    out.header_ok = false;
    return Status::ok();
  }
  if (size == 0) {
    out.result.end = out.result.valid_end = 0;
    return Status::ok();
  }
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  out.file_id = header.file_id;
  from = std::max<std::uint64_t>(from, kFileHeaderSize);
  IndexSnapshot snapshot;
  if (use_snapshot && load_index_snapshot(snapshot_path_, snapshot) &&
      snapshot.file_id == header.file_id && snapshot.covered_end >= kFileHeaderSize &&
      snapshot.covered_end <= size) {
    out.records.reserve(snapshot.entries.size());
    for (const SnapshotEntry& entry : snapshot.entries) {
      // Entries must name plausible records inside the covered part; else scan everything.
      if (entry.record_size < kRecordHeaderSize + kRecordTrailerSize ||
          entry.record_size > kMaxRecordSize || entry.record_size > snapshot.covered_end ||
          entry.offset < kFileHeaderSize ||
          entry.offset > snapshot.covered_end - entry.record_size) {
        out.records.clear();
        break;
      }
      ScannedRecord record;
      record.offset = entry.offset;
      record.header.key_low = entry.key_low;
      record.header.key_high = entry.key_high;
      record.header.record_size = entry.record_size;
      record.header.codegen_version = entry.codegen_version;
      out.records.push_back(record);
    }
    if (out.records.size() == snapshot.entries.size()) {
      from = snapshot.covered_end;
      out.snapshot_covered = snapshot.covered_end;
    }
  }
  out.result = scan_records(bytes, from, false,
                            [&](const ScannedRecord& record) { out.records.push_back(record); });
  return Status::ok();
}

void ShaderCache::adopt(FileDescriptor fd, Scanned&& scanned, bool replace) {
  std::vector<StaleEntry> stale;
  std::unique_lock state(state_mutex_);
  if (replace) {
    index_.clear();
    pipelines_.clear();
    stale_.clear();
    live_bytes_ = 0;
    dead_bytes_ = 0;
    index_.reserve(scanned.records.size());
  }
  for (const ScannedRecord& record : scanned.records) {
    const RecordHeader& h = record.header;
    live_bytes_ += h.record_size;
    if (h.codegen_version == kPipelineRecordMarker) {
      const IndexEntry entry{h.key(), record.offset, clock_.fetch_add(1, std::memory_order_relaxed),
                             h.record_size, h.codegen_version};
      if (const std::uint32_t previous = pipelines_.upsert(entry); previous != 0)
        live_bytes_ -= previous;
      continue;
    }
    if (h.codegen_version != options_.codegen_version) {
      stale_.push_back({h.key(), h.codegen_version, record.offset, h.record_size});
      continue;
    }
    const IndexEntry entry{h.key(), record.offset, clock_.fetch_add(1, std::memory_order_relaxed),
                           h.record_size, h.codegen_version};
    if (const std::uint32_t previous = index_.upsert(entry); previous != 0) {
      live_bytes_ -= previous;
      dead_bytes_ += previous;
    }
  }
  if (replace) {
    fd_ = std::move(fd);
    if (fd_.valid()) identity_of_fd(fd_.get(), identity_);
    file_id_ = scanned.file_id;
    snapshot_covered_ = scanned.snapshot_covered;
  }
  scanned_end_ = std::max(scanned.result.end, std::uint64_t(kFileHeaderSize));
  // Whatever is not an indexed record is dead: duplicates, torn and corrupt spans.
  dead_bytes_ =
      scanned_end_ - kFileHeaderSize - std::min(live_bytes_, scanned_end_ - kFileHeaderSize);
}

bool ShaderCache::file_replaced() {
  if (!fd_.valid()) {
    std::error_code ec;
    return std::filesystem::exists(path_, ec);
  }
  FileIdentity named;
  return identity_of_path(path_, named) != 0 || !(named == identity_);
}

void ShaderCache::refresh_locked(bool wait) {
  if (file_replaced()) {
    FileDescriptor fd;
    FileLock lock;
    const FileLock::Mode mode = writable() ? FileLock::Mode::Exclusive : FileLock::Mode::Shared;
    if (!lock_current(fd, lock, mode, wait)) return;
    Scanned scanned;
    if (!scan(fd.get(), kFileHeaderSize, scanned, true) || !scanned.header_ok) return;
    lock.unlock();
    adopt(std::move(fd), std::move(scanned), true);
    return;
  }
  std::uint64_t size = 0;
  FileIdentity ignored;
  if (identity_of_fd(fd_.get(), ignored, &size) != 0 || size <= scanned_end_) return;
  // Records appended by other processes: scan them under a shared lock, so none is half-written.
  FileLock lock;
  if (!lock.lock(fd_.get(), FileLock::Mode::Shared, wait)) return;
  Scanned scanned;
  if (!scan(fd_.get(), scanned_end_, scanned) || !scanned.header_ok) return;
  adopt(FileDescriptor(), std::move(scanned), false);
}

void ShaderCache::refresh() {
  try {
    std::lock_guard guard(file_mutex_);
    refresh_locked();
  } catch (...) {
    warn_caught("refresh");
  }
}

TranslationKey ShaderCache::key_for(std::span<const std::uint8_t> source,
                                    const TranslateOptions& options) const {
  return translation_key(source, options, options_.codegen_version);
}

bool ShaderCache::lookup(const TranslationKey& key, TranslateResult& out) {
  try {
    // The record is read into out.spirv's storage and the SPIR-V moved to its front: a caller
    // that reuses its TranslateResult gets hits without touching the heap for the words.
    std::vector<std::uint32_t>& words = out.spirv;
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::size_t record_size = 0;
      {
        std::shared_lock state(state_mutex_);
        IndexEntry* entry = index_.find(key);
        if (entry) {
          touch(*entry, clock_.fetch_add(1, std::memory_order_relaxed));
          words.resize((entry->record_size + 3) / 4);
          const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(words.data()),
                                              entry->record_size);
          if (read_at(fd_.get(), entry->offset, bytes) == 0) record_size = entry->record_size;
        }
      }
      if (record_size != 0) {
        auto* bytes = reinterpret_cast<std::uint8_t*>(words.data());
        RecordView view;
        if (decode_record({bytes, record_size}, view) && view.header.key() == key &&
            view.header.codegen_version == options_.codegen_version &&
            deserialize_reflection(view.reflection, out.reflection)) {
          std::memmove(bytes, view.spirv.data(), view.spirv.size());
          words.resize(view.spirv.size() / 4);
          hits_.fetch_add(1, std::memory_order_relaxed);
          return true;
        }
        // Damaged on disk since it was indexed: a miss; compaction drops it.
        break;
      }
      if (attempt == 0) {
        // A miss: pick up what other processes appended, unless another thread already is.
        std::unique_lock guard(file_mutex_, std::try_to_lock);
        if (!guard.owns_lock()) break;
        refresh_locked(false);
      }
    }
  } catch (...) {
    warn_caught("lookup");
  }
  out.spirv.clear();
  out.reflection = {};
  misses_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

bool ShaderCache::insert(const TranslationKey& key, std::span<const std::uint8_t> source,
                         const TranslateOptions& options, const TranslateResult& result) {
  if (!writable()) return false;
  try {
    std::vector<std::uint8_t> record;
    encode_record(key, options_.codegen_version, source, options, result, record);
    return append_record(key, record, false).is_ok();
  } catch (...) {
    warn_caught("insert");
    return false;
  }
}

Status ShaderCache::append_record(const TranslationKey& key, std::span<const std::uint8_t> record,
                                  bool pipeline) {
  if (record.size() > kMaxRecordSize)
    return Status::error("a record of " + std::to_string(record.size()) +
                         " bytes is larger than the cache takes");
  std::lock_guard guard(file_mutex_);
  if (!writable() || !fd_.valid()) return not_writable();
  // Take the append lock on the file the path names; a rewrite by another process may
  // replace it while we wait, in which case we load the new file and try again.
  FileLock lock;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 100)
      return Status::error(path_ + " kept being replaced by other processes while appending");
    if (file_replaced()) refresh_locked();
    if (!lock.lock(fd_.get(), FileLock::Mode::Exclusive))
      return Status::error("cannot lock " + path_ + " to append");
    if (!file_replaced()) break;
    lock.unlock();
  }
  // Index what others appended first: the key may be there already, and our offset is the end.
  std::uint64_t size = 0;
  FileIdentity ignored;
  if (identity_of_fd(fd_.get(), ignored, &size) != 0)
    return Status::error("cannot read the size of " + path_);
  if (size > scanned_end_) {
    Scanned scanned;
    if (scan(fd_.get(), scanned_end_, scanned) && scanned.header_ok)
      adopt(FileDescriptor(), std::move(scanned), false);
  }
  if (!pipeline) {
    std::shared_lock state(state_mutex_);
    if (index_.find(key)) return Status::error("already in the cache");
  }
  if (int error = write_all(fd_.get(), record); error != 0) {
    // Take back what part of the record made it, so the file ends on a whole record.
    if (truncate_file(fd_.get(), size) != 0) { /* reclaimed at the next open */
    }
    Status failed = Status::error("cannot append to " + path_ + " (" + errno_text(error) + ")");
    stop_writing(failed.message());
    return failed;
  }
  {
    std::unique_lock state(state_mutex_);
    const IndexEntry entry{key, size, clock_.fetch_add(1, std::memory_order_relaxed),
                           std::uint32_t(record.size()),
                           pipeline ? kPipelineRecordMarker : options_.codegen_version};
    const std::uint32_t previous = (pipeline ? pipelines_ : index_).upsert(entry);
    live_bytes_ += record.size() - previous;
    dead_bytes_ += previous;
    scanned_end_ = size + record.size();
  }
  lock.unlock();
  inserts_.fetch_add(1, std::memory_order_relaxed);
  maybe_compact_after_insert();
  save_snapshot_locked(std::max(kSnapshotWhileRunningBytes, scanned_end_ / 16));
  return Status::ok();
}

void ShaderCache::maybe_compact_after_insert() {
  // Caller holds file_mutex_.
  const std::uint64_t end = scanned_end_;
  if (end > options_.max_bytes) {
    if (Status status = rewrite_locked(options_.max_bytes / 4 * 3, false); !status)
      warn(status.message());
  } else if (end > kCompactMinimumBytes && dead_bytes_ * 2 > end) {
    if (Status status = rewrite_locked(0, false); !status) warn(status.message());
  }
}

std::vector<StaleEntry> ShaderCache::stale_entries() {
  std::vector<StaleEntry> result;
  try {
    refresh();
    std::vector<StaleEntry> candidates;
    {
      std::shared_lock state(state_mutex_);
      candidates = stale_;
    }
    std::vector<std::uint8_t> source;
    for (const StaleEntry& entry : candidates) {
      TranslateOptions options;
      if (!read_source(entry, source, options)) continue;
      const TranslationKey current = key_for(source, options);
      std::shared_lock state(state_mutex_);
      if (!index_.find(current)) result.push_back(entry);
    }
  } catch (...) {
    warn_caught("stale_entries");
  }
  return result;
}

Status ShaderCache::read_source(const StaleEntry& entry, std::vector<std::uint8_t>& source,
                                TranslateOptions& options) {
  try {
    std::vector<std::uint8_t> record(entry.record_size);
    {
      std::shared_lock state(state_mutex_);
      if (read_at(fd_.get(), entry.offset, record) != 0)
        return Status::error("offset " + std::to_string(entry.offset) + ": unreadable");
    }
    RecordView view;
    Status decoded = decode_record(record, view);
    if (!decoded || !(view.header.key() == entry.key))
      return Status::error("offset " + std::to_string(entry.offset) + ": " +
                           (decoded ? "record moved" : decoded.message()));
    if (!decode_record_options(view, options))
      return Status::error("offset " + std::to_string(entry.offset) + ": unknown options");
    source.assign(view.source.begin(), view.source.end());
    return Status::ok();
  } catch (...) {
    return Status::error(caught().what);
  }
}

Status ShaderCache::compact(std::uint64_t target_bytes) {
  try {
    std::lock_guard guard(file_mutex_);
    if (!writable()) return not_writable();
    if (target_bytes == 0 && scanned_end_ > options_.max_bytes)
      target_bytes = options_.max_bytes / 4 * 3;
    return rewrite_locked(target_bytes, false);
  } catch (...) {
    return Status::error(std::string(caught().what) + " while compacting");
  }
}

Status ShaderCache::clear() {
  try {
    std::lock_guard guard(file_mutex_);
    if (options_.read_only) return Status::error("cache opened read-only");
    return rewrite_locked(0, true);
  } catch (...) {
    return Status::error(std::string(caught().what) + " while clearing");
  }
}

CacheStats ShaderCache::stats() {
  refresh();
  CacheStats s;
  std::map<std::uint32_t, std::uint64_t> versions;
  {
    std::shared_lock state(state_mutex_);
    s.entries = index_.size();
    s.stale_entries = stale_.size();
    s.pipelines = pipelines_.size();
    s.file_bytes = scanned_end_;
    s.live_bytes = live_bytes_;
    s.dead_bytes = dead_bytes_;
    if (s.entries) versions[options_.codegen_version] = s.entries;
    for (const StaleEntry& entry : stale_) ++versions[entry.codegen_version];
  }
  s.versions.assign(versions.begin(), versions.end());
  s.max_bytes = options_.max_bytes;
  s.codegen_version = options_.codegen_version;
  s.writable = writable();
  s.hits = hits_.load();
  s.misses = misses_.load();
  s.inserts = inserts_.load();
  s.compactions = compactions_.load();
  return s;
}

VerifyReport ShaderCache::verify() {
  VerifyReport report;
  FileDescriptor fd = open_file_descriptor(path_, OpenMode::Read);
  if (!fd.valid()) return report; // no file: nothing to be wrong
  FileLock lock(fd.get(), FileLock::Mode::Shared);
  std::uint64_t size = 0;
  FileIdentity ignored;
  Mapping mapping;
  if (identity_of_fd(fd.get(), ignored, &size) != 0 || mapping.map(fd.get(), size) != 0) {
    report.file_header_ok = false;
    return report;
  }
  if (size == 0) return report;
  if (!file_header_valid(mapping.bytes())) {
    report.file_header_ok = false;
    return report;
  }
  std::uint64_t bad_pipelines = 0;
  const ScanResult result =
      scan_records(mapping.bytes(), kFileHeaderSize, true, [&](const ScannedRecord& record) {
        ++report.records;
        if (record.header.codegen_version != kPipelineRecordMarker) return;
        PipelineRecord pipeline;
        const auto payload =
            mapping.bytes().subspan(record.offset + kRecordHeaderSize, record.header.source_size);
        if (decode_pipeline_payload(payload, pipeline))
          ++report.pipelines;
        else
          ++bad_pipelines;
      });
  // A pipeline record whose checksums hold but whose payload does not decode was written by
  // something that is not kiln: counted as a corrupt span.
  report.corrupt_spans = result.corrupt_spans + bad_pipelines;
  report.corrupt_bytes = result.corrupt_bytes;
  return report;
}

} // namespace kiln::cache

namespace kiln::cache {

void ShaderCache::save_snapshot_locked(std::uint64_t min_new_bytes) {
  if (!writable() || !fd_.valid()) return;
  IndexSnapshot snapshot;
  std::vector<std::uint64_t> ages;
  {
    std::shared_lock state(state_mutex_);
    if (scanned_end_ < snapshot_covered_ + min_new_bytes) return;
    snapshot.file_id = file_id_;
    snapshot.covered_end = scanned_end_;
    snapshot.entries.reserve(index_.size() + pipelines_.size() + stale_.size());
    for (const StaleEntry& entry : stale_) {
      snapshot.entries.push_back(
          {entry.key.low, entry.key.high, entry.offset, entry.record_size, entry.codegen_version});
      ages.push_back(0);
    }
    const auto add = [&](const IndexEntry& entry) {
      snapshot.entries.push_back(
          {entry.key.low, entry.key.high, entry.offset, entry.record_size, entry.codegen_version});
      ages.push_back(last_use_of(entry));
    };
    index_.for_each(add);
    pipelines_.for_each(add);
  }
  // Least recently used first: loading in this order restores the LRU ranking.
  std::vector<std::uint32_t> order(snapshot.entries.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return ages[a] != ages[b] ? ages[a] < ages[b]
                              : snapshot.entries[a].offset < snapshot.entries[b].offset;
  });
  std::vector<SnapshotEntry> sorted(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = snapshot.entries[order[i]];
  snapshot.entries = std::move(sorted);
  const std::string temporary = snapshot_path_ + ".tmp." + std::to_string(current_process_id()) +
                                "." + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + "." +
                                std::to_string(snapshot_saves_++);
  if (save_index_snapshot(snapshot_path_, temporary, snapshot) == 0)
    snapshot_covered_ = snapshot.covered_end;
}

} // namespace kiln::cache
