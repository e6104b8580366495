#pragma once
// kiln's on-disk shader cache: translation key -> SPIR-V + reflection, with the source bytecode
// kept beside them so entries of another codegen version can be re-translated, not lost.
//
// One append-only file per directory, shared by every process that opens it (docs/cache.md has
// the protocol). A ShaderCache is thread-safe: lookups take a shared lock on the in-memory
// index and read one record with pread(); inserts append one record under an exclusive
// flock(). No call throws; failures come back as Status or false, and the cache reports
// "stopped writing" conditions once through the diagnostics callback.

#include "cache/cache_format.h"
#include "cache/file_io.h"
#include "cache/flat_index.h"
#include "cache/pipeline_record.h"
#include "translator/common/result.h"
#include "translator/translate.h"
#include "translator/translation_key.h"
#include "translator/version.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::cache {

using DiagnosticFunction = std::function<void(std::string_view message)>;

inline constexpr std::uint64_t kDefaultMaxBytes = 1ull << 30;
inline constexpr const char* kCacheFileName = "kiln-shaders.v1.cache";

struct CacheOptions {
  std::filesystem::path directory; // empty: default_cache_directory()
  std::uint64_t max_bytes = kDefaultMaxBytes;
  // Entries written by another codegen version are never served. Injectable for tests.
  std::uint32_t codegen_version = kCodegenVersion;
  // One line per message, no trailing newline. Empty: "kiln: cache: MESSAGE" on stderr.
  DiagnosticFunction diagnostics;
  bool read_only = false;
};

// $KILN_CACHE_PATH, else $XDG_CACHE_HOME/kiln, else $HOME/.cache/kiln; on Windows
// %LOCALAPPDATA%\kiln (user_cache_base()). Empty if none is set.
std::filesystem::path default_cache_directory();
// False when KILN_CACHE=0.
bool cache_enabled_by_environment();

struct CacheStats {
  std::uint64_t entries = 0;       // servable by this codegen version
  std::uint64_t stale_entries = 0; // written by another codegen version
  std::uint64_t pipelines = 0;     // pipeline records (retired ones included until compacted)
  std::uint64_t file_bytes = 0;
  std::uint64_t live_bytes = 0; // records still indexed (current and stale)
  std::uint64_t dead_bytes = 0; // duplicates, torn/corrupt spans: reclaimed by compaction
  std::uint64_t max_bytes = 0;
  std::uint32_t codegen_version = 0;
  bool writable = false;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> versions; // codegen version -> entries
  // Counters since open.
  std::uint64_t hits = 0, misses = 0, inserts = 0, compactions = 0;
};

struct VerifyReport {
  std::uint64_t records = 0;
  std::uint64_t pipelines = 0; // of the records, pipeline records (their payloads decode)
  std::uint64_t corrupt_spans = 0;
  std::uint64_t corrupt_bytes = 0;
  bool file_header_ok = true;
  bool ok() const { return file_header_ok && corrupt_spans == 0; }
};

// A record written by another codegen version, found by stale_entries().
struct StaleEntry {
  TranslationKey key; // under its own codegen version
  std::uint32_t codegen_version = 0;
  std::uint64_t offset = 0;
  std::uint32_t record_size = 0;
};

class ShaderCache {
 public:
  // Opens (creating if needed) the cache in options.directory. Never fails to produce a cache
  // object unless the directory cannot even be read: a read-only directory gives a read-only
  // cache, a damaged file opens with what is intact (one warning). Fails, saying why, when
  // nothing usable exists.
  static Result<std::unique_ptr<ShaderCache>> open(const CacheOptions& options);

  ~ShaderCache();
  ShaderCache(const ShaderCache&) = delete;
  ShaderCache& operator=(const ShaderCache&) = delete;

  // The key this cache stores a translation under (its codegen version included).
  TranslationKey key_for(std::span<const std::uint8_t> source,
                         const TranslateOptions& options) const;

  // Fills out.spirv and out.reflection on a hit (reusing their capacity); on a miss both are
  // left empty. A miss first picks up records other processes appended. Thread-safe.
  bool lookup(const TranslationKey& key, TranslateResult& out);

  // Stores a successful translation. Returns false when it was not written (already present,
  // writing stopped, or an I/O error, reported once). Thread-safe.
  bool insert(const TranslationKey& key, std::span<const std::uint8_t> source,
              const TranslateOptions& options, const TranslateResult& result);

  // Entries of other codegen versions whose re-translation is not yet in the cache: what the
  // service re-translates at low priority after opening.
  std::vector<StaleEntry> stale_entries();
  // Reads a stale entry's stored source and options (checksum verified).
  Status read_source(const StaleEntry& entry, std::vector<std::uint8_t>& source,
                     TranslateOptions& options);

  // Pipeline records (cache/pipeline_record.h). put_pipeline appends `record` as the newest
  // version of its key (it supersedes older ones, unlike insert()); a failure says why it was
  // not written.
  Status put_pipeline(const PipelineRecord& record);
  // Counts one use of a pipeline: stores it with the stored record's use count + 1 (1 when new,
  // the retired flag cleared) and the current time as last use.
  Status record_pipeline_use(const PipelineRecord& record);
  // A failure says why there is no record: none with this key, or one that does not read.
  Status read_pipeline(const TranslationKey& key, PipelineRecord& out);
  // Every pipeline record (after picking up other processes' appends), retired ones included.
  std::vector<PipelineRecord> pipeline_records();
  // The stored source and options of the shader a pipeline stage names, whether its entry is
  // of this codegen version or a stale one.
  Status read_stage_source(const PipelineStage& stage, std::vector<std::uint8_t>& source,
                           TranslateOptions& options);

  // Re-reads the file tail (and the whole file if another process replaced it).
  void refresh();
  // Rewrites the file without dead records, evicting least-recently-used entries above
  // `target_bytes` (default: 3/4 of max_bytes when over it, else no eviction).
  Status compact(std::uint64_t target_bytes = 0);
  Status clear();
  CacheStats stats();
  // Checks every record's checksums in the file as it is now.
  VerifyReport verify();

  bool writable() const { return writable_.load(std::memory_order_relaxed); }
  std::uint32_t codegen_version() const { return options_.codegen_version; }
  const std::string& file_path() const { return path_; }

 private:
  explicit ShaderCache(const CacheOptions& options);
  // What a scan of the file produced, before it replaces or extends the in-memory state.
  struct Scanned {
    std::vector<ScannedRecord> records;
    ScanResult result;
    bool header_ok = true;
    std::uint64_t file_id = 0;
    std::uint64_t snapshot_covered = 0; // records before this came from the index snapshot
  };

  Status open_file();
  void remove_orphaned_temporaries();
  // Opens the path and takes `mode` on it, retrying until the locked file is the one the path
  // names (a compaction may have replaced it meanwhile).
  // With wait=false, gives up at once when another process holds the lock.
  Status lock_current(FileDescriptor& fd, FileLock& lock, FileLock::Mode mode, bool wait = true);
  // Builds an index from `fd` starting at `from`; caller holds at least a shared flock.
  Status scan(int fd, std::uint64_t from, Scanned& out, bool use_snapshot = false);
  // Saves the index snapshot when `min_new_bytes` of records are not yet covered by one.
  void save_snapshot_locked(std::uint64_t min_new_bytes);
  void adopt(FileDescriptor fd, Scanned&& scanned, bool replace);
  // Caller holds file_mutex_. wait=false (lookups) skips the refresh rather than wait on
  // another process's lock, so a hot-path miss never waits for a compaction.
  void refresh_locked(bool wait = true);
  bool file_replaced();
  Status rewrite_locked(std::uint64_t target_bytes, bool drop_everything);
  // Appends one encoded record under the append lock. A shader record is skipped when its key
  // is indexed already; a pipeline record supersedes the indexed one.
  Status append_record(const TranslationKey& key, std::span<const std::uint8_t> record,
                       bool pipeline);
  void maybe_compact_after_insert();
  void stop_writing(const std::string& why);
  void warn(const std::string& message);
  // The catch-everything of a public member: one warning naming the member and what it caught
  // (translator/common/caught.h); true when that was std::bad_alloc.
  bool warn_caught(const char* entry) noexcept;
  // warn_caught(), and what it caught as the member's Status.
  Status status_caught(const char* entry) noexcept;
  Status not_writable() const;

  CacheOptions options_;
  std::string directory_;
  std::string path_;
  std::string snapshot_path_;

  // Serializes this process's file-level work: appends, tail scans, rewrites.
  std::mutex file_mutex_;
  // Guards the index, stale list, file descriptor and byte counters. Lookups hold it shared.
  mutable std::shared_mutex state_mutex_;
  FileDescriptor fd_;
  FileIdentity identity_;
  FlatIndex index_;
  FlatIndex pipelines_; // pipeline records by record key
  std::vector<StaleEntry> stale_;
  std::uint64_t scanned_end_ = 0; // file offset up to which records are indexed
  std::uint64_t live_bytes_ = 0;
  std::uint64_t dead_bytes_ = 0;
  std::uint64_t file_id_ = 0;
  std::uint64_t snapshot_covered_ = 0; // file offset the saved index snapshot reaches
  std::uint64_t snapshot_saves_ = 0;   // makes this object's temporary names unique

  std::atomic<bool> writable_{false};
  std::atomic<bool> write_failure_reported_{false};
  std::atomic<std::uint64_t> clock_{1};
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, inserts_{0}, compactions_{0};
};

// How a rebuild translates one stored source: injectable so tests can pass a fake translator.
using TranslateFunction = std::function<Status(
    std::span<const std::uint8_t> source, const TranslateOptions& options, TranslateResult& out)>;
// kiln::Translator, one per calling thread.
TranslateFunction default_translate_function();

struct RebuildReport {
  std::uint64_t stale = 0;
  std::uint64_t translated = 0;
  std::uint64_t rejected = 0;
  std::uint64_t unreadable = 0;
};

// Re-translates every stale entry with `translate` under the cache's codegen version and
// inserts the results. `progress(done, total)` is called after each entry when set.
RebuildReport
rebuild_stale_entries(ShaderCache& cache, const TranslateFunction& translate,
                      const std::function<void(std::size_t, std::size_t)>& progress = {});

} // namespace kiln::cache
