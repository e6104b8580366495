#pragma once
// The D3D9 shader instruction set (vs_1_0 ... vs_3_0, ps_1_0 ... ps_3_0), defined once.
//
// One row per (opcode number, operand layout): where the same opcode number means a different
// instruction in different shader models (tex/texld, texcoord/texcrd, sincos, sgn), there is one
// row per meaning, each valid in its own models, so a decoded instruction names exactly what it
// does. Shader models 1.x have no length field in the instruction token, so the operand counts
// here are what the reader uses to walk them; for 2.0 and later they are checked against the
// length field.
//
// Columns: X(Name, mnemonic, opcode number, dst count, src count, operand layout, models,
//             converter handler, doc)
// The handler column names the detail::State member function (translator/d3d9/converter_*.cpp)
// that converts the instruction: State::emit_instruction is a switch generated from this table,
// so a row naming a handler that does not exist fails to compile. The comment and end tokens
// and the reserved opcode numbers (49-63, 75, 97-0xFFFC) are not rows: the reader consumes the
// first two and rejects the others ("opcode N is not an instruction of vs_3_0").

#include <array>
#include <cstdint>
#include <string_view>

namespace kiln::d3d9 {

// Shader models grouped by what they allow. 2_sw/3_sw decode like 2_x/3_0.
enum class Model : std::uint8_t {
  Vs1,  // vs_1_0, vs_1_1
  Vs2,  // vs_2_0
  Vs2x, // vs_2_x, vs_2_sw
  Vs3,  // vs_3_0, vs_3_sw
  Ps11, // ps_1_0, ps_1_1
  Ps12, // ps_1_2
  Ps13, // ps_1_3
  Ps14, // ps_1_4
  Ps2,  // ps_2_0
  Ps2x, // ps_2_x, ps_2_sw
  Ps3,  // ps_3_0, ps_3_sw
  Count,
};

using ModelMask = std::uint16_t;
constexpr ModelMask model_bit(Model m) {
  return ModelMask(1u << unsigned(m));
}

namespace models {
constexpr ModelMask Vs1 = model_bit(Model::Vs1), Vs2 = model_bit(Model::Vs2),
                    Vs2x = model_bit(Model::Vs2x), Vs3 = model_bit(Model::Vs3);
constexpr ModelMask Ps11 = model_bit(Model::Ps11), Ps12 = model_bit(Model::Ps12),
                    Ps13 = model_bit(Model::Ps13), Ps14 = model_bit(Model::Ps14),
                    Ps2 = model_bit(Model::Ps2), Ps2x = model_bit(Model::Ps2x),
                    Ps3 = model_bit(Model::Ps3);
constexpr ModelMask VsAll = Vs1 | Vs2 | Vs2x | Vs3;
constexpr ModelMask VsFrom2 = Vs2 | Vs2x | Vs3;
constexpr ModelMask VsFrom2x = Vs2x | Vs3;
constexpr ModelMask Ps1Tex = Ps11 | Ps12 | Ps13; // the ps_1_0-1_3 texture-address model
constexpr ModelMask Ps1All = Ps1Tex | Ps14;
constexpr ModelMask PsFrom2 = Ps2 | Ps2x | Ps3;
constexpr ModelMask PsFrom2x = Ps2x | Ps3;
constexpr ModelMask PsAll = Ps1All | PsFrom2;
constexpr ModelMask All = VsAll | PsAll;
// Static flow control (if b#, rep i#, call): documented for ps_2_x, but the runtime accepts it
// in ps_2_0 too and shaders rely on that.
constexpr ModelMask StaticFlow = VsFrom2 | PsFrom2;
} // namespace models

// How the tokens after the instruction token are laid out, and what `control` means.
enum class Layout : std::uint8_t {
  Plain,   // [dst] [predicate] src...
  Dcl,     // declaration token, dst
  Def,     // dst, 4 float literals
  DefI,    // dst, 4 integer literals
  DefB,    // dst, 1 boolean literal
  Compare, // like Plain; control (bits 16-23) is a Comparison
  Sample,  // like Plain; control is a SampleVariant (texld / texldp / texldb)
};

#define KILN_D3D9_OPCODES(X)                                                                       \
  X(Nop, "nop", 0, 0, 0, Plain, All, emit_nothing, "no operation")                                 \
  X(Mov, "mov", 1, 1, 1, Plain, All, emit_mov, "copy (to a0 in vs_1_1: round to integer)")         \
  X(Add, "add", 2, 1, 2, Plain, All, emit_add, "component-wise add")                               \
  X(Sub, "sub", 3, 1, 2, Plain, All, emit_sub, "component-wise subtract")                          \
  X(Mad, "mad", 4, 1, 3, Plain, All, emit_mad, "multiply-add src0*src1+src2")                      \
  X(Mul, "mul", 5, 1, 2, Plain, All, emit_mul, "component-wise multiply")                          \
  X(Rcp, "rcp", 6, 1, 1, Plain, VsAll | PsFrom2, emit_rcp, "scalar reciprocal, replicated")        \
  X(Rsq, "rsq", 7, 1, 1, Plain, VsAll | PsFrom2, emit_rsq, "scalar reciprocal square root of |x|") \
  X(Dp3, "dp3", 8, 1, 2, Plain, All, emit_dp, "3-component dot product")                           \
  X(Dp4, "dp4", 9, 1, 2, Plain, All, emit_dp, "4-component dot product")                           \
  X(Min, "min", 10, 1, 2, Plain, VsAll | PsFrom2, emit_min, "component-wise minimum")              \
  X(Max, "max", 11, 1, 2, Plain, VsAll | PsFrom2, emit_max, "component-wise maximum")              \
  X(Slt, "slt", 12, 1, 2, Plain, VsAll | PsFrom2, emit_slt, "1.0 where src0 < src1, else 0.0")     \
  X(Sge, "sge", 13, 1, 2, Plain, VsAll | PsFrom2, emit_sge, "1.0 where src0 >= src1, else 0.0")    \
  X(Exp, "exp", 14, 1, 1, Plain, VsAll | PsFrom2, emit_exp, "full-precision 2^x")                  \
  X(Log, "log", 15, 1, 1, Plain, VsAll | PsFrom2, emit_log, "full-precision log2(|x|)")            \
  X(Lit, "lit", 16, 1, 1, Plain, VsAll | PsFrom2, emit_lit, "lighting coefficients")               \
  X(Dst, "dst", 17, 1, 2, Plain, VsAll | PsFrom2, emit_dst, "distance vector")                     \
  X(Lrp, "lrp", 18, 1, 3, Plain, All, emit_lrp, "src0*src1 + (1-src0)*src2")                       \
  X(Frc, "frc", 19, 1, 1, Plain, VsAll | PsFrom2, emit_frc, "fractional part")                     \
  X(M4x4, "m4x4", 20, 1, 2, Plain, VsAll | PsFrom2, emit_matrix,                                   \
    "vector * 4x4 matrix (4 registers)")                                                           \
  X(M4x3, "m4x3", 21, 1, 2, Plain, VsAll | PsFrom2, emit_matrix,                                   \
    "vector * 4x3 matrix (3 registers)")                                                           \
  X(M3x4, "m3x4", 22, 1, 2, Plain, VsAll | PsFrom2, emit_matrix,                                   \
    "vector * 3x4 matrix (4 registers)")                                                           \
  X(M3x3, "m3x3", 23, 1, 2, Plain, VsAll | PsFrom2, emit_matrix,                                   \
    "vector * 3x3 matrix (3 registers)")                                                           \
  X(M3x2, "m3x2", 24, 1, 2, Plain, VsAll | PsFrom2, emit_matrix,                                   \
    "vector * 3x2 matrix (2 registers)")                                                           \
  X(Call, "call", 25, 0, 1, Plain, StaticFlow, emit_call, "call subroutine at label")              \
  X(CallNz, "callnz", 26, 0, 2, Plain, StaticFlow, emit_call, "call label if bool/predicate set")  \
  X(Loop, "loop", 27, 0, 2, Plain, StaticFlow, emit_loop, "loop aL over integer constant i#")      \
  X(Ret, "ret", 28, 0, 0, Plain, StaticFlow, emit_ret, "return from subroutine / end of main")     \
  X(EndLoop, "endloop", 29, 0, 0, Plain, StaticFlow, emit_end_loop, "end of loop block")           \
  X(Label, "label", 30, 0, 1, Plain, StaticFlow, emit_label, "start of subroutine l#")             \
  X(Dcl, "dcl", 31, 1, 0, Dcl, VsAll | PsFrom2, emit_declaration,                                  \
    "declare an input, output or sampler")                                                         \
  X(Pow, "pow", 32, 1, 2, Plain, VsFrom2 | PsFrom2, emit_pow, "scalar |src0|^src1")                \
  X(Crs, "crs", 33, 1, 2, Plain, VsFrom2 | PsFrom2, emit_crs, "cross product")                     \
  X(SgnSm2, "sgn", 34, 1, 3, Plain, models::Vs2 | models::Vs2x, emit_sgn,                          \
    "sign; src1/src2 are scratch")                                                                 \
  X(Sgn, "sgn", 34, 1, 1, Plain, models::Vs3 | models::Ps3, emit_sgn, "sign (-1, 0, 1)")           \
  X(Abs, "abs", 35, 1, 1, Plain, VsFrom2 | PsFrom2, emit_abs, "absolute value")                    \
  X(Nrm, "nrm", 36, 1, 1, Plain, VsFrom2 | PsFrom2, emit_nrm, "normalize 3-component vector")      \
  X(SinCosSm2, "sincos", 37, 1, 3, Plain, models::Vs2 | models::Vs2x | models::Ps2 | models::Ps2x, \
    emit_sincos, "sine/cosine; src1/src2 are the Taylor constants")                                \
  X(SinCos, "sincos", 37, 1, 1, Plain, models::Vs3 | models::Ps3, emit_sincos,                     \
    "sine to .y, cosine to .x")                                                                    \
  X(Rep, "rep", 38, 0, 1, Plain, StaticFlow, emit_loop, "repeat i#.x times")                       \
  X(EndRep, "endrep", 39, 0, 0, Plain, StaticFlow, emit_end_loop, "end of rep block")              \
  X(If, "if", 40, 0, 1, Plain, StaticFlow, emit_if, "if boolean constant or predicate")            \
  X(IfC, "if", 41, 0, 2, Compare, VsFrom2x | PsFrom2x, emit_if, "if src0 <cmp> src1")              \
  X(Else, "else", 42, 0, 0, Plain, StaticFlow, emit_else, "else branch")                           \
  X(EndIf, "endif", 43, 0, 0, Plain, StaticFlow, emit_endif, "end of if block")                    \
  X(Break, "break", 44, 0, 0, Plain, VsFrom2x | PsFrom2x, emit_break, "leave loop/rep")            \
  X(BreakC, "break", 45, 0, 2, Compare, VsFrom2x | PsFrom2x, emit_break,                           \
    "leave loop/rep if src0 <cmp> src1")                                                           \
  X(MovA, "mova", 46, 1, 1, Plain, VsFrom2, emit_mov, "move to address register, rounding")        \
  X(DefB, "defb", 47, 1, 0, DefB, VsFrom2 | PsFrom2, emit_declaration,                             \
    "define boolean constant b#")                                                                  \
  X(DefI, "defi", 48, 1, 0, DefI, VsFrom2 | PsFrom2, emit_declaration,                             \
    "define integer constant i#")                                                                  \
  X(TexCoord, "texcoord", 64, 1, 0, Plain, Ps1Tex, emit_texcoord,                                  \
    "texture coordinate t# as color")                                                              \
  X(TexCrd, "texcrd", 64, 1, 1, Plain, models::Ps14, emit_texcrd,                                  \
    "copy texture coordinate (ps_1_4)")                                                            \
  X(TexKill, "texkill", 65, 1, 0, Plain, PsAll, emit_texkill,                                      \
    "discard if any of xyz < 0 (dst names the value)")                                             \
  X(Tex, "tex", 66, 1, 0, Plain, Ps1Tex, emit_tex, "sample texture stage # at t#")                 \
  X(TexLdPs14, "texld", 66, 1, 1, Plain, models::Ps14, emit_texld_ps14,                            \
    "sample texture stage dst# at src0")                                                           \
  X(TexLd, "texld", 66, 1, 2, Sample, PsFrom2, emit_texld,                                         \
    "sample s# at src0 (texldp: projected, texldb: bias)")                                         \
  X(TexBem, "texbem", 67, 1, 1, Plain, Ps1Tex, emit_bump, "bump environment map")                  \
  X(TexBemL, "texbeml", 68, 1, 1, Plain, Ps1Tex, emit_bump, "bump environment map with luminance") \
  X(TexReg2Ar, "texreg2ar", 69, 1, 1, Plain, Ps1Tex, emit_texreg2, "sample at (src.a, src.r)")     \
  X(TexReg2Gb, "texreg2gb", 70, 1, 1, Plain, Ps1Tex, emit_texreg2, "sample at (src.g, src.b)")     \
  X(TexM3x2Pad, "texm3x2pad", 71, 1, 1, Plain, Ps1Tex, emit_texm_pad,                              \
    "first row of a 3x2 texture transform")                                                        \
  X(TexM3x2Tex, "texm3x2tex", 72, 1, 1, Plain, Ps1Tex, emit_texm3x2,                               \
    "last row of 3x2 transform, then sample")                                                      \
  X(TexM3x3Pad, "texm3x3pad", 73, 1, 1, Plain, Ps1Tex, emit_texm_pad,                              \
    "row of a 3x3 texture transform")                                                              \
  X(TexM3x3Tex, "texm3x3tex", 74, 1, 1, Plain, Ps1Tex, emit_texm3x3,                               \
    "last row of 3x3 transform, then sample")                                                      \
  X(TexM3x3Spec, "texm3x3spec", 76, 1, 2, Plain, Ps1Tex, emit_texm3x3,                             \
    "3x3 transform, reflect about eye, sample")                                                    \
  X(TexM3x3VSpec, "texm3x3vspec", 77, 1, 1, Plain, Ps1Tex, emit_texm3x3,                           \
    "3x3 transform, reflect, eye in q")                                                            \
  X(ExpP, "expp", 78, 1, 1, Plain, VsAll | PsFrom2, emit_expp, "partial-precision 2^x")            \
  X(LogP, "logp", 79, 1, 1, Plain, VsAll | PsFrom2, emit_logp, "partial-precision log2(|x|)")      \
  X(Cnd, "cnd", 80, 1, 3, Plain, Ps1All, emit_cnd, "src1 where src0 > 0.5, else src2")             \
  X(Def, "def", 81, 1, 0, Def, All, emit_declaration, "define float constant c#")                  \
  X(TexReg2Rgb, "texreg2rgb", 82, 1, 1, Plain, models::Ps12 | models::Ps13, emit_texreg2,          \
    "sample at src.rgb")                                                                           \
  X(TexDp3Tex, "texdp3tex", 83, 1, 1, Plain, models::Ps12 | models::Ps13, emit_texdp3,             \
    "dot product, sample")                                                                         \
  X(TexM3x2Depth, "texm3x2depth", 84, 1, 1, Plain, models::Ps13, emit_texm3x2,                     \
    "3x2 transform to depth")                                                                      \
  X(TexDp3, "texdp3", 85, 1, 1, Plain, models::Ps12 | models::Ps13, emit_texdp3,                   \
    "dot product with t#")                                                                         \
  X(TexM3x3, "texm3x3", 86, 1, 1, Plain, models::Ps12 | models::Ps13, emit_texm3x3,                \
    "last row of 3x3 transform")                                                                   \
  X(TexDepth, "texdepth", 87, 1, 0, Plain, models::Ps14, emit_texdepth, "r5.r/r5.g to depth")      \
  X(Cmp, "cmp", 88, 1, 3, Plain, models::Ps12 | models::Ps13 | models::Ps14 | PsFrom2, emit_cmp,   \
    "src1 where src0 >= 0, else src2")                                                             \
  X(Bem, "bem", 89, 1, 2, Plain, models::Ps14, emit_bump,                                          \
    "bump environment map transform (ps_1_4)")                                                     \
  X(Dp2Add, "dp2add", 90, 1, 3, Plain, PsFrom2, emit_dp2add,                                       \
    "2-component dot product plus scalar")                                                         \
  X(Dsx, "dsx", 91, 1, 1, Plain, PsFrom2x, emit_dsx, "rate of change in x")                        \
  X(Dsy, "dsy", 92, 1, 1, Plain, PsFrom2x, emit_dsy, "rate of change in y")                        \
  X(TexLdd, "texldd", 93, 1, 4, Plain, PsFrom2x, emit_texld, "sample with explicit gradients")     \
  X(SetP, "setp", 94, 1, 2, Compare, VsFrom2x | PsFrom2x, emit_setp,                               \
    "predicate = src0 <cmp> src1")                                                                 \
  X(TexLdl, "texldl", 95, 1, 2, Plain, models::Vs3 | models::Ps3, emit_texld,                      \
    "sample at explicit lod (src0.w)")                                                             \
  X(BreakP, "breakp", 96, 0, 1, Plain, VsFrom2x | PsFrom2x, emit_break,                            \
    "leave loop/rep if predicate set")                                                             \
  X(Phase, "phase", 0xFFFD, 0, 0, Plain, models::Ps14, emit_nothing, "ps_1_4 phase marker")

enum class Opcode : std::uint8_t {
#define KILN_X(name, ...) name,
  KILN_D3D9_OPCODES(KILN_X)
#undef KILN_X
      Count,
};

struct OpcodeInfo {
  std::string_view mnemonic;
  std::uint16_t number; // D3DSIO_* value
  std::uint8_t dst_count;
  std::uint8_t src_count;
  Layout layout;
  ModelMask models;
  std::string_view doc;
};

inline constexpr OpcodeInfo kOpcodeInfo[] = {
#define KILN_X(name, mnemonic, number, dst, src, layout, model_mask, handler, doc)                 \
  {mnemonic,                                                                                       \
   number,                                                                                         \
   dst,                                                                                            \
   src,                                                                                            \
   Layout::layout,                                                                                 \
   [] {                                                                                            \
     using namespace models;                                                                       \
     return ModelMask(model_mask);                                                                 \
   }(),                                                                                            \
   doc},
    KILN_D3D9_OPCODES(KILN_X)
#undef KILN_X
};
static_assert(std::size(kOpcodeInfo) == std::size_t(Opcode::Count));

constexpr const OpcodeInfo& opcode_info(Opcode op) {
  return kOpcodeInfo[std::size_t(op)];
}

// Special instruction tokens (low 16 bits) that are not in the table.
constexpr std::uint16_t kCommentOpcode = 0xFFFE;
constexpr std::uint16_t kEndOpcode = 0xFFFF;
constexpr std::uint32_t kEndToken = 0x0000FFFF;
constexpr std::uint16_t kPhaseOpcode = 0xFFFD;

// Opcode numbers map to a dense slot: the table's numbers below phase as they are, phase after
// them. Both bounds come from the table.
namespace detail {
constexpr std::size_t highest_numbered_slot() {
  std::size_t highest = 0;
  for (const OpcodeInfo& info : kOpcodeInfo)
    if (info.number != kPhaseOpcode) highest = info.number > highest ? info.number : highest;
  return highest;
}
} // namespace detail
constexpr std::size_t kPhaseSlot = detail::highest_numbered_slot() + 1;
constexpr std::size_t kOpcodeSlots = kPhaseSlot + 1;
constexpr std::size_t opcode_slot(std::uint32_t number) {
  return number < kPhaseSlot ? number : number == kPhaseOpcode ? kPhaseSlot : kOpcodeSlots;
}
static_assert(opcode_info(Opcode::Phase).number == kPhaseOpcode);

namespace detail {
// [model][slot] -> Opcode + 1 (0: not an instruction of that model). Built from the table.
using OpcodeLookup = std::array<std::array<std::uint8_t, kOpcodeSlots>, std::size_t(Model::Count)>;
constexpr OpcodeLookup build_opcode_lookup() {
  OpcodeLookup lookup{};
  for (std::size_t row = 0; row < std::size_t(Opcode::Count); ++row) {
    const OpcodeInfo& info = kOpcodeInfo[row];
    for (std::size_t m = 0; m < std::size_t(Model::Count); ++m) {
      if (!(info.models & (1u << m))) continue;
      auto& slot = lookup[m][opcode_slot(info.number)];
      if (slot == 0) slot = std::uint8_t(row + 1);
    }
  }
  return lookup;
}
inline constexpr OpcodeLookup kOpcodeLookup = build_opcode_lookup();

// Every row must own its (model, number) pairs: the lookup keeps the first claim only.
constexpr bool every_row_reachable() {
  for (std::size_t row = 0; row < std::size_t(Opcode::Count); ++row)
    for (std::size_t m = 0; m < std::size_t(Model::Count); ++m)
      if ((kOpcodeInfo[row].models & (1u << m)) &&
          kOpcodeLookup[m][opcode_slot(kOpcodeInfo[row].number)] != row + 1)
        return false;
  return true;
}
static_assert(every_row_reachable(), "two opcode rows claim the same number in one model");
} // namespace detail

// The row for opcode `number` in `model`, or false when that model has no such instruction.
constexpr bool find_opcode(Model model, std::uint32_t number, Opcode& out) {
  const std::size_t slot = opcode_slot(number);
  if (slot >= kOpcodeSlots) return false;
  const std::uint8_t row = detail::kOpcodeLookup[std::size_t(model)][slot];
  if (row == 0) return false;
  out = Opcode(row - 1);
  return true;
}

} // namespace kiln::d3d9
