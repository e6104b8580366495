#include "translator/dxbc/container.h"

#include <cstdio>
#include <cstring>

namespace kiln::dxbc {
namespace {

constexpr std::uint32_t kHeaderBytes = 32;

constexpr std::uint32_t kShift[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                      5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                      4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                      6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

// The MD5 round constants, floor(|sin(i + 1)| * 2^32).
constexpr std::uint32_t kConstant[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

inline std::uint32_t rotate_left(std::uint32_t v, std::uint32_t s) {
  return v << s | v >> (32 - s);
}

// One MD5 compression; the four rounds are separate loops so each has a fixed mixing function.
void md5_block(std::uint32_t state[4], const std::uint8_t* block) {
  std::uint32_t m[16];
  std::memcpy(m, block, 64);
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  auto step = [&](std::uint32_t f, std::uint32_t i, std::uint32_t g) {
    const std::uint32_t sum = a + f + kConstant[i] + m[g];
    a = d;
    d = c;
    c = b;
    b = b + rotate_left(sum, kShift[i]);
  };
  for (std::uint32_t i = 0; i < 16; ++i) step((b & c) | (~b & d), i, i);
  for (std::uint32_t i = 16; i < 32; ++i) step((d & b) | (~d & c), i, (5 * i + 1) & 15);
  for (std::uint32_t i = 32; i < 48; ++i) step(b ^ c ^ d, i, (3 * i + 5) & 15);
  for (std::uint32_t i = 48; i < 64; ++i) step(c ^ (b | ~d), i, (7 * i) & 15);
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

// "DXBC container: what (offset N)".
std::string spell_error(const Where& where, std::string_view what) {
  return "DXBC container: " + std::string(what) + " (offset " + std::to_string(where.position) +
         ")";
}

bool read_container(std::span<const std::uint8_t> bytes, Container& out, ContainerOptions options,
                    ErrorSink& errors);

} // namespace

void compute_checksum(std::span<const std::uint8_t> bytes, std::uint32_t out[4]) {
  std::uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const std::uint8_t* data = bytes.data() + 20;
  const std::size_t size = bytes.size() - 20;
  const std::uint32_t bits = std::uint32_t(size * 8);
  const std::size_t full = size / 64 * 64;
  for (std::size_t i = 0; i < full; i += 64) md5_block(state, data + i);
  const std::size_t left = size - full;
  std::uint8_t block[64] = {};
  const std::uint32_t tail = (bits >> 2) | 1u;
  if (left >= 56) {
    std::memcpy(block, data + full, left);
    block[left] = 0x80;
    md5_block(state, block);
    std::memset(block, 0, sizeof block);
    std::memcpy(block, &bits, 4);
  } else {
    std::memcpy(block, &bits, 4);
    std::memcpy(block + 4, data + full, left);
    block[4 + left] = 0x80;
  }
  std::memcpy(block + 60, &tail, 4);
  md5_block(state, block);
  std::memcpy(out, state, 16);
}

Status parse_container(std::span<const std::uint8_t> bytes, Container& out,
                       ContainerOptions options) {
  out = Container{};
  ErrorSink errors{&spell_error};
  return errors.outcome(read_container(bytes, out, options, errors));
}

namespace {

bool read_container(std::span<const std::uint8_t> bytes, Container& out, ContainerOptions options,
                    ErrorSink& errors) {
  if (bytes.size() < kHeaderBytes)
    return errors.fail(bytes.size(), "shorter than the 32-byte header");
  const std::uint8_t* base = bytes.data();
  if (detail::load_u32(base) != fourcc('D', 'X', 'B', 'C')) return errors.fail(0, "no DXBC magic");
  const std::uint32_t total = detail::load_u32(base + 24);
  if (total > bytes.size()) return errors.fail(24, "size field larger than the blob");
  if (total < kHeaderBytes) return errors.fail(24, "size field smaller than the header");
  bytes = bytes.first(total); // trailing bytes after the container are not part of it
  const std::uint32_t count = detail::load_u32(base + 28);
  if (count > (total - kHeaderBytes) / 4) return errors.fail(28, "chunk count exceeds the blob");
  out.bytes = bytes;
  out.chunk_count = count;

  if (options.verify_checksum) {
    std::uint32_t sum[4];
    compute_checksum(bytes, sum);
    out.checksum_checked = true;
    out.checksum_ok = std::memcmp(sum, base + 4, 16) == 0;
  }

  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t offset = detail::load_u32(base + kHeaderBytes + 4 * i);
    if (offset < kHeaderBytes + 4 * count || offset > total || total - offset < 8)
      return errors.fail(kHeaderBytes + 4 * i, "chunk header out of range");
    if (offset % 4 != 0) return errors.fail(offset, "chunk not 4-byte aligned");
    const std::uint32_t tag = detail::load_u32(base + offset);
    const std::uint32_t size = detail::load_u32(base + offset + 4);
    if (size > total - offset - 8) return errors.fail(offset, "chunk runs past the end");
    const auto payload = bytes.subspan(offset + 8, size);
    switch (tag) {
    case fourcc('S', 'H', 'D', 'R'):
    case fourcc('S', 'H', 'E', 'X'):
      out.program = payload;
      out.program_is_shex = tag == fourcc('S', 'H', 'E', 'X');
      break;
    case fourcc('I', 'S', 'G', 'N'):
      out.input = {payload, SignatureFormat::Basic};
      break;
    case fourcc('I', 'S', 'G', '1'):
      out.input = {payload, SignatureFormat::WithStreamAndPrecision};
      break;
    case fourcc('O', 'S', 'G', 'N'):
      out.output = {payload, SignatureFormat::Basic};
      break;
    case fourcc('O', 'S', 'G', '5'):
      out.output = {payload, SignatureFormat::WithStream};
      break;
    case fourcc('O', 'S', 'G', '1'):
      out.output = {payload, SignatureFormat::WithStreamAndPrecision};
      break;
    case fourcc('P', 'C', 'S', 'G'):
      out.patch_constant = {payload, SignatureFormat::Basic};
      break;
    case fourcc('P', 'S', 'G', '1'):
      out.patch_constant = {payload, SignatureFormat::WithStreamAndPrecision};
      break;
    case fourcc('R', 'D', 'E', 'F'):
      out.rdef = payload;
      break;
    case fourcc('S', 'F', 'I', '0'):
      out.sfi0 = payload;
      if (size >= 8) {
        out.feature_flags = detail::load_u32(payload.data()) |
                            std::uint64_t(detail::load_u32(payload.data() + 4)) << 32;
      }
      break;
    case fourcc('I', 'F', 'C', 'E'):
      out.ifce = payload;
      out.has_class_linkage = true;
      break;
    case fourcc('D', 'X', 'I', 'L'):
      out.has_dxil = true;
      break;
    default:
      break; // STAT, Aon9, SDBG, PRIV, ... are not needed
    }
  }
  return true;
}

} // namespace
} // namespace kiln::dxbc
