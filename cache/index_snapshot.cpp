#include "cache/index_snapshot.h"

#include "cache/file_io.h"

#include <cerrno>
#include <cstring>
#include <xxhash.h>

namespace kiln::cache {

namespace {

constexpr std::uint64_t kSnapshotMagic = 0x3130584449'4e4c4bULL; // "KLNIDX01"

struct SnapshotHeader {
  std::uint64_t magic = kSnapshotMagic;
  std::uint64_t file_id = 0;
  std::uint64_t covered_end = 0;
  std::uint64_t count = 0;
  std::uint64_t entries_checksum = 0;
  std::uint64_t header_checksum = 0; // of the 40 bytes before it
};

} // namespace

bool load_index_snapshot(const std::string& path, IndexSnapshot& out) {
  FileDescriptor fd = open_file_descriptor(path, OpenMode::Read);
  if (!fd.valid()) return false;
  SnapshotHeader header;
  if (read_at(fd.get(), 0, {reinterpret_cast<std::uint8_t*>(&header), sizeof header}) != 0 ||
      header.magic != kSnapshotMagic ||
      header.header_checksum != XXH3_64bits(&header, sizeof header - 8))
    return false;
  std::uint64_t size = 0;
  FileIdentity ignored;
  if (identity_of_fd(fd.get(), ignored, &size) != 0 ||
      size != sizeof header + header.count * sizeof(SnapshotEntry))
    return false;
  out.entries.resize(header.count);
  const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(out.entries.data()),
                                      out.entries.size() * sizeof(SnapshotEntry));
  if (read_at(fd.get(), sizeof header, bytes) != 0 ||
      XXH3_64bits(bytes.data(), bytes.size()) != header.entries_checksum) {
    out.entries.clear();
    return false;
  }
  out.file_id = header.file_id;
  out.covered_end = header.covered_end;
  return true;
}

int save_index_snapshot(const std::string& path, const std::string& temporary,
                        const IndexSnapshot& snapshot) {
  static_assert(sizeof(SnapshotHeader) == 48);
  SnapshotHeader header;
  header.file_id = snapshot.file_id;
  header.covered_end = snapshot.covered_end;
  header.count = snapshot.entries.size();
  const std::span<const std::uint8_t> bytes(
      reinterpret_cast<const std::uint8_t*>(snapshot.entries.data()),
      snapshot.entries.size() * sizeof(SnapshotEntry));
  header.entries_checksum = XXH3_64bits(bytes.data(), bytes.size());
  header.header_checksum = XXH3_64bits(&header, sizeof header - 8);

  FileDescriptor fd = open_file_descriptor(temporary, OpenMode::Truncate);
  if (!fd.valid()) return errno;
  int error = write_all(fd.get(), {reinterpret_cast<const std::uint8_t*>(&header), sizeof header});
  if (error == 0) error = write_all(fd.get(), bytes);
  if (error == 0) error = replace_file(temporary, path);
  if (error != 0) remove_file(temporary);
  return error;
}

} // namespace kiln::cache
