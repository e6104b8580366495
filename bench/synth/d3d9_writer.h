#pragma once
// A writer for D3D9 shader token streams (vs/ps 2.0 and 3.0): version token, instructions with
// their parameter tokens, comment blocks (a CTAB constant table), end token. Reusable by tests
// that need valid SM2/SM3 bytecode.

#include "translator/d3d9/opcodes.h"
#include "translator/d3d9/program.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace kiln::synth::d3d9 {

// Opcodes, register types and usages come from the D3D9 front end's tables (defined once
// there); the writer emits opcode_info(op).number.
using Op = ::kiln::d3d9::Opcode;
using Reg = ::kiln::d3d9::RegisterType;
using Usage = ::kiln::d3d9::Usage;

inline constexpr std::uint32_t kIdentity = 0xe4; // .xyzw
constexpr std::uint32_t swizzle(unsigned x, unsigned y, unsigned z, unsigned w) {
  return x | y << 2 | z << 4 | w << 6;
}

std::uint32_t dst(Reg type, std::uint32_t index, std::uint32_t mask = 0xf);
std::uint32_t src(Reg type, std::uint32_t index, std::uint32_t swz = kIdentity);
std::uint32_t negate(std::uint32_t src_token);
// A source with relative addressing (c[a0.x + index]); the address token follows it.
std::uint32_t relative(std::uint32_t src_token);
std::uint32_t address_token(); // a0.x

class TokenWriter {
 public:
  TokenWriter(bool pixel, std::uint32_t major, std::uint32_t minor);

  // An instruction with its parameter tokens; `controls` go to bits 16-23.
  void emit(Op op, std::initializer_list<std::uint32_t> params, std::uint32_t controls = 0);
  // dcl with a usage (inputs/outputs) and its destination.
  void dcl_usage(Usage usage, std::uint32_t usage_index, std::uint32_t dst_token);
  // dcl_2d sN.
  void dcl_sampler_2d(std::uint32_t index);
  void def(std::uint32_t reg, float x, float y, float z, float w);
  void defi(std::uint32_t reg, std::int32_t count, std::int32_t start, std::int32_t step);
  void defb(std::uint32_t reg, bool value);
  // A comment block holding a CTAB constant table: one float4 array over c0..cN-1 and
  // one sampler2D per sampler register.
  void constant_table(std::uint32_t float4_count, std::uint32_t sampler_count);

  std::size_t token_count() const { return tokens_.size(); }
  std::uint32_t major() const { return major_; }
  bool pixel() const { return pixel_; }
  std::vector<std::uint32_t> finish(); // appends the end token

 private:
  std::vector<std::uint32_t> tokens_;
  bool pixel_;
  std::uint32_t major_, minor_;
};

std::vector<std::uint8_t> to_bytes(const std::vector<std::uint32_t>& tokens);

} // namespace kiln::synth::d3d9
