#pragma once
// The DXBC container: header, checksum, chunk directory, and the chunks the translator reads.
//
// Parsing the container only bounds-checks the directory and remembers where the interesting
// chunks are (views into the caller's bytes); signatures and RDEF are read on demand by
// signature.h, so a translation that needs only the program pays only for the directory.

#include "translator/common/status.h"

#include <cstdint>
#include <span>

namespace kiln::dxbc {

constexpr std::uint32_t fourcc(char a, char b, char c, char d) {
  return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
         std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

// Which signature layout a chunk uses (element sizes 24, 28 and 32 bytes).
enum class SignatureFormat : std::uint8_t { None, Basic, WithStream, WithStreamAndPrecision };

struct SignatureChunk {
  std::span<const std::uint8_t> data;
  SignatureFormat format = SignatureFormat::None;
  bool present() const { return format != SignatureFormat::None; }
};

struct Container {
  std::span<const std::uint8_t> bytes;
  std::uint32_t chunk_count = 0;
  bool checksum_checked = false;
  bool checksum_ok = false;

  std::span<const std::uint8_t> program; // SHDR or SHEX payload; empty when absent
  bool program_is_shex = false;
  SignatureChunk input, output, patch_constant;
  std::span<const std::uint8_t> rdef, sfi0, ifce;
  bool has_dxil = false;           // a DXIL chunk: SM6, not for this front end
  bool has_class_linkage = false;  // an IFCE chunk (interfaces / class instances)
  std::uint64_t feature_flags = 0; // SFI0

  bool has_program() const { return !program.empty(); }
};

struct ContainerOptions {
  // MD5 over the whole blob costs about as much as decoding its program; the cache key
  // already covers the bytes, so translation can skip it.
  bool verify_checksum = true;
};

// Parses the header and chunk directory. A checksum mismatch is not an error (the runtime
// accepts such blobs): it shows as checksum_checked && !checksum_ok.
Status parse_container(std::span<const std::uint8_t> bytes, Container& out,
                       ContainerOptions options = {});

// The DXBC checksum (MD5 compression with DXBC's padding) over bytes[20..].
void compute_checksum(std::span<const std::uint8_t> bytes, std::uint32_t out[4]);

// Calls visit(fourcc, payload) for each chunk of an already parsed container, in order.
template <typename Visit>
void for_each_chunk(const Container& container, Visit&& visit);

namespace detail {
inline std::uint32_t load_u32(const std::uint8_t* p) {
  std::uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}
} // namespace detail

template <typename Visit>
void for_each_chunk(const Container& container, Visit&& visit) {
  const std::uint8_t* base = container.bytes.data();
  for (std::uint32_t i = 0; i < container.chunk_count; ++i) {
    const std::uint32_t offset = detail::load_u32(base + 32 + 4 * i);
    const std::uint32_t size = detail::load_u32(base + offset + 4);
    visit(detail::load_u32(base + offset), container.bytes.subspan(offset + 8, size));
  }
}

} // namespace kiln::dxbc
