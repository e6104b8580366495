#pragma once
// Hand-written D3D9 token streams for tests: the encodings of d3d9types.h written out
// independently of the reader, so a wrong reader and a wrong builder do not agree by accident.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace kiln::d3d9::test {

inline std::uint32_t vs_version(unsigned major, unsigned minor) {
  return 0xFFFE0000u | major << 8 | minor;
}
inline std::uint32_t ps_version(unsigned major, unsigned minor) {
  return 0xFFFF0000u | major << 8 | minor;
}

// Instruction token: opcode, operand length (2.0+), control bits.
inline std::uint32_t op(unsigned opcode, unsigned length = 0, unsigned control = 0) {
  return opcode | control << 16 | length << 24;
}
constexpr std::uint32_t kPredicatedToken = 1u << 28;
constexpr std::uint32_t kCoissueToken = 1u << 30;
constexpr std::uint32_t kEnd = 0x0000FFFF;

inline std::uint32_t reg_bits(unsigned type, unsigned index) {
  return 0x80000000u | (type & 7) << 28 | (type & 0x18) << 8 | index;
}
inline std::uint32_t dst(unsigned type, unsigned index, unsigned mask = 0xF, unsigned modifiers = 0,
                         unsigned shift = 0) {
  return reg_bits(type, index) | mask << 16 | modifiers << 20 | (shift & 0xF) << 24;
}
inline std::uint32_t src(unsigned type, unsigned index, unsigned swizzle = 0xE4,
                         unsigned modifier = 0) {
  return reg_bits(type, index) | swizzle << 16 | modifier << 24;
}
constexpr std::uint32_t kRelative = 1u << 13;

// Replicated swizzle of one component (.x = 0x00, .y = 0x55, ...).
constexpr unsigned replicate(unsigned c) {
  return c * 0x55;
}
inline std::uint32_t comment(unsigned length) {
  return 0xFFFE | length << 16;
}
inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Register types used in tests.
enum : unsigned {
  kTemp = 0,
  kInput = 1,
  kConst = 2,
  kAddr = 3, // a0 / t#
  kRastOut = 4,
  kAttrOut = 5,
  kOutput = 6,
  kConstInt = 7,
  kColorOut = 8,
  kSampler = 10,
  kConstBool = 14,
  kLoop = 15,
  kPredicate = 19,
};

inline std::vector<std::uint8_t> to_bytes(const std::vector<std::uint32_t>& tokens) {
  std::vector<std::uint8_t> bytes(tokens.size() * 4);
  if (!tokens.empty()) std::memcpy(bytes.data(), tokens.data(), bytes.size());
  return bytes;
}

} // namespace kiln::d3d9::test
