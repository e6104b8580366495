#pragma once
// The on-disk format of the shader cache file, defined once here (docs/cache.md explains it).
//
// A cache file is a 64-byte file header followed by append-only records. A record is a 64-byte
// header, the payload (source bytecode, SPIR-V, serialized reflection) padded to 8 bytes, and
// a 16-byte trailer repeating the header checksum. The trailer lets a scan tell a complete
// record from one torn by a killed writer without reading the payload; the payload checksum is
// verified on every read, so a hit never returns damaged bytes.

#include "translator/translate.h"
#include "translator/translation_key.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace kiln::cache {

static_assert(std::endian::native == std::endian::little, "the cache format is little-endian");

inline constexpr std::uint64_t kFileMagic = 0x3148434143'4e4c4bULL;    // "KLNCACH1"
inline constexpr std::uint64_t kRecordMagic = 0x3143455243'4e4c4bULL;  // "KLNCREC1"
inline constexpr std::uint64_t kTrailerMagic = 0x31444e4552'4e4c4bULL; // "KLNREND1"
inline constexpr std::uint32_t kFormatVersion = 1;
// 2: resources carry flags, offset and size (push-constant constant buffers).
// 3: resources carry dimension, data type and structure stride; signature elements their
//    system value, component type, register, masks and stream.
inline constexpr std::uint32_t kReflectionFormatVersion = 3;
inline constexpr std::size_t kFileHeaderSize = 64;
inline constexpr std::size_t kRecordHeaderSize = 64;
inline constexpr std::size_t kRecordTrailerSize = 16;
// Larger records are rejected as corrupt: no real shader comes near this.
inline constexpr std::uint32_t kMaxRecordSize = 256u << 20;

struct FileHeader {
  std::uint64_t magic = kFileMagic;
  std::uint32_t format_version = kFormatVersion;
  std::uint32_t header_size = kFileHeaderSize;
  std::uint64_t file_id = 0; // random per file: tells a rewritten file from the old one
  std::uint64_t created_unix_seconds = 0;
  std::uint64_t reserved[3] = {};
  std::uint64_t checksum = 0; // XXH3-64 of the 56 bytes before it
};
static_assert(sizeof(FileHeader) == kFileHeaderSize);

struct RecordHeader {
  std::uint64_t magic = kRecordMagic;
  std::uint64_t key_low = 0;
  std::uint64_t key_high = 0;
  std::uint32_t codegen_version = 0;
  std::uint32_t options_bits = 0; // encode_options()
  std::uint32_t source_size = 0;
  std::uint32_t spirv_size = 0; // bytes, a multiple of 4
  std::uint32_t reflection_size = 0;
  std::uint32_t record_size = 0;      // header + padded payload + trailer
  std::uint64_t payload_checksum = 0; // XXH3-64 of the unpadded payload
  std::uint64_t header_checksum = 0;  // XXH3-64 of the 56 bytes before it
  TranslationKey key() const { return {key_low, key_high}; }
};
static_assert(sizeof(RecordHeader) == kRecordHeaderSize);

struct RecordTrailer {
  std::uint64_t magic = kTrailerMagic;
  std::uint64_t header_checksum = 0;
};
static_assert(sizeof(RecordTrailer) == kRecordTrailerSize);

// The translation options, as stored with each record so a stale entry can be re-translated:
// the encoding the translation key hashes (translator/translation_key.h), defined there once.
inline std::uint32_t encode_options(const TranslateOptions& options) {
  return encode_translate_options(options);
}
inline bool decode_options(std::uint32_t bits, TranslateOptions& out) {
  return decode_translate_options(bits, out);
}

FileHeader make_file_header(std::uint64_t file_id, std::uint64_t created_unix_seconds);
bool file_header_valid(std::span<const std::uint8_t> bytes);

std::uint64_t record_header_checksum(const RecordHeader& header);
// Checks magic, header checksum and size fields (not the payload).
bool record_header_valid(const RecordHeader& header);
bool record_trailer_matches(const RecordHeader& header, std::span<const std::uint8_t> trailer);

// Finishes a record whose payload `out` holds after kRecordHeaderSize bytes up to `payload_end`
// (padding after it included): the record size, both checksums, the header written at the front
// and the trailer appended. `header` comes with its key, version and size fields filled.
void seal_record(RecordHeader& header, std::size_t payload_end, std::vector<std::uint8_t>& out);

// Serializes one complete record (header, payload, trailer) into `out` (cleared first).
void encode_record(const TranslationKey& key, std::uint32_t codegen_version,
                   std::span<const std::uint8_t> source, const TranslateOptions& options,
                   const TranslateResult& result, std::vector<std::uint8_t>& out);

// A decoded record payload; views point into the record bytes.
struct RecordView {
  RecordHeader header;
  std::span<const std::uint8_t> source;
  std::span<const std::uint8_t> spirv;
  std::span<const std::uint8_t> reflection;
  // The interface's canonical encoding (ShaderInterface::encode), when the options had one: it
  // is stored after the reflection as bytes then a u32 length (kOptionsInterfaceBit set).
  std::span<const std::uint8_t> interface;
};

// The record's translation options, its interface included: what re-translating its source
// takes. False when the bits or the interface bytes do not decode.
bool decode_record_options(const RecordView& view, TranslateOptions& out);

// Checks a whole record (header, trailer, payload checksum). A failure names what is wrong in
// one line.
Status decode_record(std::span<const std::uint8_t> record, RecordView& out);

void serialize_reflection(const Reflection& reflection, std::vector<std::uint8_t>& out);
bool deserialize_reflection(std::span<const std::uint8_t> bytes, Reflection& out);

// Where a scan found a structurally sound record (header and trailer agree).
struct ScannedRecord {
  std::uint64_t offset = 0;
  RecordHeader header;
};

struct ScanResult {
  std::uint64_t end = 0;           // where the scan stopped (the file end)
  std::uint64_t corrupt_bytes = 0; // bytes skipped as torn or corrupt
  std::uint64_t corrupt_spans = 0;
  // Start of a torn or corrupt span that runs to the end of the file (a torn tail), else end.
  std::uint64_t valid_end = 0;
};

// Walks the records of `file` (the whole file mapped or read) from `from` to its end, calling
// `on_record` for each sound one; corrupt spans are skipped by searching for the next record
// magic. With `verify_payloads`, payload checksums are checked too.
template <typename OnRecord>
ScanResult scan_records(std::span<const std::uint8_t> file, std::uint64_t from,
                        bool verify_payloads, OnRecord&& on_record);

// Implementation detail of scan_records: the sound record at `offset`, if there is one.
bool probe_record(std::span<const std::uint8_t> file, std::uint64_t offset, bool verify_payload,
                  RecordHeader& out);

template <typename OnRecord>
ScanResult scan_records(std::span<const std::uint8_t> file, std::uint64_t from,
                        bool verify_payloads, OnRecord&& on_record) {
  ScanResult result;
  std::uint64_t pos = from;
  std::uint64_t corrupt_start = UINT64_MAX;
  const std::uint64_t size = file.size();
  while (pos < size) {
    RecordHeader header;
    if (probe_record(file, pos, verify_payloads, header)) {
      if (corrupt_start != UINT64_MAX) {
        result.corrupt_bytes += pos - corrupt_start;
        ++result.corrupt_spans;
        corrupt_start = UINT64_MAX;
      }
      on_record(ScannedRecord{pos, header});
      pos += header.record_size;
      continue;
    }
    if (corrupt_start == UINT64_MAX) corrupt_start = pos;
    // Resynchronize at the next record magic after this position.
    const std::uint8_t* base = file.data();
    std::uint8_t magic[sizeof kRecordMagic];
    std::memcpy(magic, &kRecordMagic, sizeof magic);
    const std::uint8_t* hit = std::search(base + pos + 1, base + size, magic, magic + sizeof magic);
    pos = std::uint64_t(hit - base); // `size` when there is none
  }
  result.end = size;
  result.valid_end = size;
  if (corrupt_start != UINT64_MAX) {
    result.corrupt_bytes += size - corrupt_start;
    ++result.corrupt_spans;
    result.valid_end = corrupt_start;
  }
  return result;
}

} // namespace kiln::cache
