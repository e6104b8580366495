#pragma once
// A decoded D3D9 token stream: compact POD instructions in the order of the stream.
//
// Everything the D3D9 -> IR converter needs is here without looking at tokens again:
// registers, swizzles, masks, modifiers, relative addressing, predication, declarations and
// def literals. A Program keeps its vectors between decodes (clear() keeps capacity), so a
// worker that reuses one stops allocating after its largest shader.

#include "translator/common/shader_stage.h"
#include "translator/common/status.h"
#include "translator/d3d9/opcodes.h"

#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kiln::d3d9 {

namespace detail {
// The value tables below number their rows 0, 1, 2... in order, so a decoded value below the row
// count names a row (what the reader checks).
template <std::size_t N>
constexpr bool numbered_in_order(const std::uint32_t (&values)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (values[i] != i) return false;
  return true;
}
} // namespace detail

// Register files, D3DSPR_* values. Columns: X(Name, value, vertex prefix, pixel prefix).
// The number is split across parameter-token bits 28-30 (low) and 11-12 (high).
#define KILN_D3D9_REGISTER_TYPES(X)                                                                \
  X(Temp, 0, "r", "r")                                                                             \
  X(Input, 1, "v", "v")                                                                            \
  X(Const, 2, "c", "c")                                                                            \
  X(Address, 3, "a", "t")       /* a0 in vertex shaders, t# (texture) in pixel shaders */          \
  X(RastOut, 4, "oPos", "oPos") /* oPos, oFog, oPts by index */                                    \
  X(AttrOut, 5, "oD", "oD")                                                                        \
  X(TexCrdOut, 6, "oT", "oT") /* "o#" (D3DSPR_OUTPUT) in vs_3_0 */                                 \
  X(ConstInt, 7, "i", "i")                                                                         \
  X(ColorOut, 8, "oC", "oC")                                                                       \
  X(DepthOut, 9, "oDepth", "oDepth")                                                               \
  X(Sampler, 10, "s", "s")                                                                         \
  X(Const2, 11, "c", "c") /* c2048-c4095 */                                                        \
  X(Const3, 12, "c", "c") /* c4096-c6143 */                                                        \
  X(Const4, 13, "c", "c") /* c6144-c8191 */                                                        \
  X(ConstBool, 14, "b", "b")                                                                       \
  X(Loop, 15, "aL", "aL")                                                                          \
  X(TempFloat16, 16, "half", "half")                                                               \
  X(MiscType, 17, "vPos", "vPos") /* vPos (0), vFace (1) */                                        \
  X(Label, 18, "l", "l")                                                                           \
  X(Predicate, 19, "p", "p")

enum class RegisterType : std::uint8_t {
#define KILN_X(name, value, vs, ps) name = value,
  KILN_D3D9_REGISTER_TYPES(KILN_X)
#undef KILN_X
};
inline constexpr std::uint32_t kRegisterTypeValues[] = {
#define KILN_X(name, value, ...) value,
    KILN_D3D9_REGISTER_TYPES(KILN_X)
#undef KILN_X
};
constexpr std::uint32_t kRegisterTypeCount = std::uint32_t(std::size(kRegisterTypeValues));
static_assert(detail::numbered_in_order(kRegisterTypeValues));

// Source modifiers, bits 24-27. Columns: X(Name, value, prefix, suffix) as written in assembly.
#define KILN_D3D9_SOURCE_MODIFIERS(X)                                                              \
  X(None, 0, "", "")                                                                               \
  X(Neg, 1, "-", "")                                                                               \
  X(Bias, 2, "", "_bias")                                                                          \
  X(BiasNeg, 3, "-", "_bias")                                                                      \
  X(Sign, 4, "", "_bx2")                                                                           \
  X(SignNeg, 5, "-", "_bx2")                                                                       \
  X(Comp, 6, "1-", "")                                                                             \
  X(X2, 7, "", "_x2")                                                                              \
  X(X2Neg, 8, "-", "_x2")                                                                          \
  X(Dz, 9, "", "_dz")                                                                              \
  X(Dw, 10, "", "_dw")                                                                             \
  X(Abs, 11, "", "_abs")                                                                           \
  X(AbsNeg, 12, "-", "_abs")                                                                       \
  X(Not, 13, "!", "")

enum class SourceModifier : std::uint8_t {
#define KILN_X(name, value, prefix, suffix) name = value,
  KILN_D3D9_SOURCE_MODIFIERS(KILN_X)
#undef KILN_X
};
inline constexpr std::uint32_t kSourceModifierValues[] = {
#define KILN_X(name, value, ...) value,
    KILN_D3D9_SOURCE_MODIFIERS(KILN_X)
#undef KILN_X
};
constexpr std::uint32_t kSourceModifierCount = std::uint32_t(std::size(kSourceModifierValues));
static_assert(detail::numbered_in_order(kSourceModifierValues));

// Declaration usages (D3DDECLUSAGE_*), dcl token bits 0-4.
#define KILN_D3D9_USAGES(X)                                                                        \
  X(Position, 0, "position")                                                                       \
  X(BlendWeight, 1, "blendweight")                                                                 \
  X(BlendIndices, 2, "blendindices")                                                               \
  X(Normal, 3, "normal")                                                                           \
  X(PSize, 4, "psize")                                                                             \
  X(TexCoord, 5, "texcoord")                                                                       \
  X(Tangent, 6, "tangent")                                                                         \
  X(Binormal, 7, "binormal")                                                                       \
  X(TessFactor, 8, "tessfactor")                                                                   \
  X(PositionT, 9, "positiont")                                                                     \
  X(Color, 10, "color")                                                                            \
  X(Fog, 11, "fog")                                                                                \
  X(Depth, 12, "depth")                                                                            \
  X(Sample, 13, "sample")

enum class Usage : std::uint8_t {
#define KILN_X(name, value, text) name = value,
  KILN_D3D9_USAGES(KILN_X)
#undef KILN_X
};
inline constexpr std::uint32_t kUsageValues[] = {
#define KILN_X(name, value, ...) value,
    KILN_D3D9_USAGES(KILN_X)
#undef KILN_X
};
constexpr std::uint32_t kUsageCount = std::uint32_t(std::size(kUsageValues));
static_assert(detail::numbered_in_order(kUsageValues));

// Sampler texture types (D3DSTT_*), dcl token bits 27-30.
#define KILN_D3D9_TEXTURE_TYPES(X)                                                                 \
  X(Unknown, 0, "")                                                                                \
  X(Tex1D, 1, "1d")                                                                                \
  X(Tex2D, 2, "2d")                                                                                \
  X(Cube, 3, "cube")                                                                               \
  X(Volume, 4, "volume")

enum class TextureType : std::uint8_t {
#define KILN_X(name, value, text) name = value,
  KILN_D3D9_TEXTURE_TYPES(KILN_X)
#undef KILN_X
};
inline constexpr std::uint32_t kTextureTypeValues[] = {
#define KILN_X(name, value, ...) value,
    KILN_D3D9_TEXTURE_TYPES(KILN_X)
#undef KILN_X
};
constexpr std::uint32_t kTextureTypeCount = std::uint32_t(std::size(kTextureTypeValues));
static_assert(detail::numbered_in_order(kTextureTypeValues));

// Comparisons of ifc/breakc/setp (instruction control bits 16-18).
#define KILN_D3D9_COMPARISONS(X)                                                                   \
  X(Gt, 1, "gt")                                                                                   \
  X(Eq, 2, "eq")                                                                                   \
  X(Ge, 3, "ge")                                                                                   \
  X(Lt, 4, "lt")                                                                                   \
  X(Ne, 5, "ne")                                                                                   \
  X(Le, 6, "le")

enum class Comparison : std::uint8_t {
#define KILN_X(name, value, text) name = value,
  KILN_D3D9_COMPARISONS(KILN_X)
#undef KILN_X
};

// texld variants (instruction control bits 16-17 of D3DSIO_TEX in ps_2_0+).
#define KILN_D3D9_SAMPLE_VARIANTS(X)                                                               \
  X(Plain, 0, "texld")                                                                             \
  X(Project, 1, "texldp")                                                                          \
  X(Bias, 2, "texldb")

enum class SampleVariant : std::uint8_t {
#define KILN_X(name, value, text) name = value,
  KILN_D3D9_SAMPLE_VARIANTS(KILN_X)
#undef KILN_X
};

// Result modifiers, destination bits 20-23.
enum ResultModifier : std::uint8_t {
  kSaturate = 1,
  kPartialPrecision = 2,
  kCentroid = 4,
};

constexpr std::uint8_t kIdentitySwizzle = 0xE4; // .xyzw, two bits per component
constexpr std::uint8_t kFullWriteMask = 0xF;

// The component (0-3) that swizzle position `i` reads.
constexpr unsigned swizzle_component(std::uint8_t swizzle, unsigned i) {
  return (swizzle >> (2 * i)) & 3u;
}

struct SourceParam {
  std::uint16_t index;
  RegisterType type;
  SourceModifier modifier;
  std::uint8_t swizzle;  // component i comes from (swizzle >> 2i) & 3
  bool relative;         // indexed by rel_type[0].rel_component
  RegisterType rel_type; // Address (a0) or Loop (aL)
  std::uint8_t rel_component;
};

// The float constant files: c# (Const) and the banks of 2048 registers above it that
// vs_2_x/vs_3_0 tokens name as Const2..Const4.
constexpr bool is_float_const(RegisterType t) {
  return t == RegisterType::Const || t == RegisterType::Const2 || t == RegisterType::Const3 ||
         t == RegisterType::Const4;
}

// A float constant operand's index in the one flat c# file the banks make up.
constexpr unsigned float_register(RegisterType type, unsigned index) {
  switch (type) {
  case RegisterType::Const2:
    return index + 2048u;
  case RegisterType::Const3:
    return index + 4096u;
  case RegisterType::Const4:
    return index + 6144u;
  default:
    return index;
  }
}
constexpr unsigned float_register(const SourceParam& s) {
  return float_register(s.type, s.index);
}

struct DestParam {
  std::uint16_t index;
  RegisterType type;
  std::uint8_t write_mask; // bit i: component i
  std::uint8_t modifiers;  // ResultModifier bits
  std::int8_t shift;       // ps_1_x result shift: 1 = _x2 ... 3 = _x8, -1 = _d2 ... -3 = _d8
  bool relative;           // vs_3_0 o[aL]
  RegisterType rel_type;
  std::uint8_t rel_component;
};

struct Declaration {
  Usage usage;
  std::uint8_t usage_index;
  TextureType texture_type; // samplers only
};

enum InstructionFlag : std::uint8_t {
  kCoissue = 1,    // ps_1_x '+' pairing with the previous instruction
  kPredicated = 2, // `predicate` is valid
};

struct Instruction {
  std::uint32_t offset; // token index of the instruction token (the version token is 0)
  Opcode opcode;
  std::uint8_t control; // Comparison (Layout::Compare), SampleVariant (Layout::Sample), else raw
  std::uint8_t flags;   // InstructionFlag bits
  std::uint8_t src_count;
  DestParam dst;         // valid when opcode_info(opcode).dst_count == 1
  SourceParam predicate; // valid with kPredicated
  union {
    SourceParam src[4];      // Layout::Plain / Compare / Sample
    std::uint32_t value[4];  // Layout::Def (float bits), DefI (int32), DefB (value[0] != 0)
    Declaration declaration; // Layout::Dcl
  };

  const OpcodeInfo& info() const { return opcode_info(opcode); }
  // Where an error about this instruction points: its token, its mnemonic.
  operator Where() const { return {offset, info().mnemonic}; }
  // The source operands (empty for dcl/def/defi/defb, whose payload is not sources).
  std::span<const SourceParam> sources() const { return {src, src_count}; }
  bool has_dst() const { return info().dst_count != 0; }
  bool coissued() const { return flags & kCoissue; }
  bool predicated() const { return flags & kPredicated; }
};

// One cache line per instruction; the converter walks these linearly.
static_assert(sizeof(Instruction) <= 64, "keep Instruction compact");
static_assert(std::is_trivially_copyable_v<Instruction>);

struct ShaderVersion {
  ShaderStage stage = ShaderStage::Vertex; // Vertex or Pixel
  std::uint8_t major = 0;
  std::uint8_t minor = 0; // 1 for 2_x, 0xFF for the software models (2_sw, 3_sw)
  Model model = Model::Vs1;
};

struct Comment {
  std::uint32_t offset; // token index of the comment token
  std::uint32_t length; // payload tokens after it
  std::uint32_t fourcc; // first payload token ('CTAB', ...), 0 when empty
};

constexpr std::uint32_t kCtabFourcc = 0x42415443; // "CTAB"

struct Program {
  ShaderVersion version;
  std::uint32_t token_count = 0; // up to and including the end token
  std::vector<Instruction> instructions;
  std::vector<Comment> comments;

  void clear() {
    version = {};
    token_count = 0;
    instructions.clear();
    comments.clear();
  }
  // The CTAB comment, or null.
  const Comment* constant_table() const {
    for (const Comment& c : comments)
      if (c.fourcc == kCtabFourcc) return &c;
    return nullptr;
  }
};

} // namespace kiln::d3d9
