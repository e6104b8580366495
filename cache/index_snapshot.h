#pragma once
// A snapshot of the in-memory index, saved beside the cache file so that opening a large cache
// reads one small file instead of touching every record. It is only a hint: it names the cache
// file it describes (file_id) and how far (covered_end); records past that are scanned, and a
// missing, stale or damaged snapshot just means a full scan. Entries are stored least recently
// used first, which carries the LRU order across runs.

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::cache {

struct SnapshotEntry {
  std::uint64_t key_low = 0;
  std::uint64_t key_high = 0;
  std::uint64_t offset = 0;
  std::uint32_t record_size = 0;
  std::uint32_t codegen_version = 0;
};
static_assert(sizeof(SnapshotEntry) == 32);

struct IndexSnapshot {
  std::uint64_t file_id = 0;
  std::uint64_t covered_end = 0;
  std::vector<SnapshotEntry> entries;
};

// Reads `path`; false when absent or damaged (checksums cover header and entries).
bool load_index_snapshot(const std::string& path, IndexSnapshot& out);
// Writes `temporary` (a name unique to the caller) and renames it to `path`; returns errno.
int save_index_snapshot(const std::string& path, const std::string& temporary,
                        const IndexSnapshot& snapshot);

} // namespace kiln::cache
