#pragma once
// A writer for D3D9 shader token streams (vs/ps 2.0 and 3.0): version token, instructions with
// their parameter tokens, comment blocks (a CTAB constant table), end token. Reusable by tests
// that need valid SM2/SM3 bytecode.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace kiln::synth::d3d9 {

// The opcodes the generator emits (D3DSHADER_INSTRUCTION_OPCODE_TYPE values).
enum class Op : std::uint32_t {
  Mov = 1,
  Add = 2,
  Sub = 3,
  Mad = 4,
  Mul = 5,
  Rcp = 6,
  Rsq = 7,
  Dp3 = 8,
  Dp4 = 9,
  Min = 10,
  Max = 11,
  Slt = 12,
  Sge = 13,
  Exp = 14,
  Log = 15,
  Lrp = 18,
  Frc = 19,
  M4x4 = 20,
  Loop = 27,
  EndLoop = 29,
  Dcl = 31,
  Pow = 32,
  Nrm = 36,
  Rep = 38,
  EndRep = 39,
  If = 40,
  Ifc = 41,
  Else = 42,
  EndIf = 43,
  Mova = 46,
  DefB = 47,
  DefI = 48,
  Texld = 66,
  Def = 81,
  Cmp = 88,
  Dp2Add = 90,
};

// D3DSHADER_PARAM_REGISTER_TYPE values.
enum class Reg : std::uint32_t {
  Temp = 0,
  Input = 1,
  Const = 2,
  AddrOrTexture = 3,
  RastOut = 4,
  AttrOut = 5,
  Output = 6,
  ConstInt = 7,
  ColorOut = 8,
  Sampler = 10,
  ConstBool = 14,
  Loop = 15,
};

// Usages for dcl (D3DDECLUSAGE).
enum class Usage : std::uint32_t { Position = 0, Normal = 3, Texcoord = 5, Color = 10 };

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
