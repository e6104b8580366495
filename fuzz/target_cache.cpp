// The cache file readers: file header, the record scan (resynchronizing after damage), the
// record decoder and the reflection reader behind it.
//
// Records carry XXH3 checksums that random bytes never match, so the harness can seal the
// input first: it writes the magics, the trailer and both checksums the record's own size
// fields call for. The fuzzer then reaches the decoders with any sizes and payloads.
#include "cache/cache_format.h"
#include "fuzz/targets.h"

#include <cstring>
#include <string>
#include <vector>
#include <xxhash.h>

namespace kiln::fuzz {
namespace {

// Seals the record at `offset` in place when its size fields leave room for it; returns the
// record size (0 when it does not fit).
std::size_t seal_record(std::vector<std::uint8_t>& file, std::size_t offset) {
  if (file.size() - offset < cache::kRecordHeaderSize + cache::kRecordTrailerSize) return 0;
  cache::RecordHeader header;
  std::memcpy(&header, file.data() + offset, sizeof header);
  header.magic = cache::kRecordMagic;
  const std::uint64_t payload =
      std::uint64_t(header.source_size) + header.spirv_size + header.reflection_size;
  if (header.record_size < cache::kRecordHeaderSize + cache::kRecordTrailerSize ||
      header.record_size > file.size() - offset)
    return 0;
  if (payload <= header.record_size - cache::kRecordHeaderSize - cache::kRecordTrailerSize)
    header.payload_checksum =
        XXH3_64bits(file.data() + offset + cache::kRecordHeaderSize, std::size_t(payload));
  header.header_checksum = cache::record_header_checksum(header);
  std::memcpy(file.data() + offset, &header, sizeof header);
  const cache::RecordTrailer trailer{cache::kTrailerMagic, header.header_checksum};
  std::memcpy(file.data() + offset + header.record_size - sizeof trailer, &trailer, sizeof trailer);
  return header.record_size;
}

void read_file(std::span<const std::uint8_t> file, std::size_t from) {
  (void)cache::file_header_valid(file);
  cache::scan_records(file, from, true, [&](const cache::ScannedRecord& scanned) {
    cache::RecordView view;
    // The scan vouches for checksums and sizes only; decoding also checks the sections inside
    // the payload (the interface length), so a re-sealed mutant may still be rejected here.
    if (!cache::decode_record(file.subspan(scanned.offset, scanned.header.record_size), view))
      return;
    Reflection reflection;
    (void)cache::deserialize_reflection(view.reflection, reflection);
    TranslateOptions options;
    (void)cache::decode_options(view.header.options_bits, options);
  });
}

} // namespace

void run_cache(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  // The first byte picks the mode; the rest is the input.
  const std::uint8_t mode = data[0];
  std::vector<std::uint8_t> file(data + 1, data + size);
  switch (mode % 3) {
  case 0: // raw bytes as a cache file
    read_file(file, mode & 0x80 ? cache::kFileHeaderSize : 0);
    break;
  case 1: { // sealed records back to back
    for (std::size_t at = 0; at < file.size();) {
      const std::size_t sealed = seal_record(file, at);
      if (!sealed) break;
      at += sealed;
    }
    read_file(file, 0);
    break;
  }
  default: { // the reflection reader alone
    Reflection reflection;
    (void)cache::deserialize_reflection(file, reflection);
    break;
  }
  }
}

} // namespace kiln::fuzz
