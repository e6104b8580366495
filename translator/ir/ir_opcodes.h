#pragma once
// The opcode table: every ir::OpCode of ir-reference.md, declared once. The enum, the names,
// the operand shapes, the generated Op::Name(...) helpers, the printer, the parser, the
// serializer and the validator all derive from KILN_IR_OPCODES.
//
// X(Name, Category, ReturnClass, "shape")
//
// Shape letters, one per operand, in the reference's order. Lower case = an SSA reference:
//   d  a value (an op returning data)   n  a value or null (an optional operand)
//   x  any op (debug target, the UAV
//      counter of CounterAtomic: a DclUavCounter or a descriptor)
//   e  the EntryPoint     f  a Function      l  a Label     p  a DclParam
//   v  a declaration (Dcl*)   i  a DclInput*   o  a DclOutput*   q  a DclUav
//   b  a bool value       k  a Scoped* control-flow op (may be a forward reference)
// Literals (always after the references):
//   0  a number   #  constant values flattened from the return type (variadic)
//   $  a null-terminated string, 8 bytes per literal (variadic)
//   upper case: an enum literal, the letter of KILN_IR_ENUMS (P, W, T, R, N, I, B, M, K, F, A,
//   V, Y, O, S, C, G)
// `[..]` repeats a group of references zero or more times (Phi: `[ld]`).
//
// Expanding the table: write `#define X(Name, ...)` and read every other fact through
// op_info(OpCode::Name), so that adding a column changes kOpInfo alone, not the expansions.

#include <cstdint>
#include <string_view>

namespace kiln::ir {

// Where an op may appear and what it is (layout rules of the reference).
enum class OpCategory : std::uint8_t {
  Declaration, // EntryPoint, Set*, Dcl*, Semantic: before any code, not a value
  Constant,    // Constant, Undef, DclSpecConstant: declarations that are values
  Debug,       // Debug*: declarations that may reference anything
  Anywhere,    // MinValue, MaxValue: values allowed among declarations and in code
  Function,    // Function
  FunctionEnd, // FunctionEnd (outside any block)
  Label,       // starts a block
  Terminator,  // Branch*, Switch, Return, Unreachable: ends a block
  Code,        // everything else: inside a block
};

// The return types the reference fixes.
enum class ReturnClass : std::uint8_t {
  Any,
  Void,
  Bool,    // scalar bool
  Float,   // float scalar or vector
  Int,     // integer scalar or vector
  Scalar,  // any scalar
  U32,     // scalar u32
  F32,     // f32 scalar or vector
  Vec2F32, // vec2<f32>
  Vec2U32, // vec2<u32>
  Vec2I32, // vec2<i32>
  VoidOrScalar,
  Composite, // vector, struct or array
};

#define KILN_IR_OPCODES(X)                                                                         \
  /* Debug */                                                                                      \
  X(DebugName, Debug, Void, "x$")                                                                  \
  X(DebugMemberName, Debug, Void, "x0$")                                                           \
  X(Drain, Code, Any, "x")                                                                         \
  /* Constants */                                                                                  \
  X(Constant, Constant, Any, "#")                                                                  \
  X(Undef, Constant, Any, "")                                                                      \
  X(MinValue, Anywhere, Scalar, "")                                                                \
  X(MaxValue, Anywhere, Scalar, "")                                                                \
  /* Mode setting */                                                                               \
  X(SetCsWorkgroupSize, Declaration, Void, "e000")                                                 \
  X(SetGsInstances, Declaration, Void, "e0")                                                       \
  X(SetGsInputPrimitive, Declaration, Void, "eP")                                                  \
  X(SetGsOutputVertices, Declaration, Void, "e0")                                                  \
  X(SetGsOutputPrimitive, Declaration, Void, "eP0")                                                \
  X(SetPsEarlyFragmentTest, Declaration, Void, "e")                                                \
  X(SetPsDepthGreaterEqual, Declaration, Void, "e")                                                \
  X(SetPsDepthLessEqual, Declaration, Void, "e")                                                   \
  X(SetTessPrimitive, Declaration, Void, "ePWT")                                                   \
  X(SetTessDomain, Declaration, Void, "eP")                                                        \
  X(SetTessControlPoints, Declaration, Void, "e00")                                                \
  X(SetFpMode, Declaration, Float, "eRN")                                                          \
  /* Type conversion */                                                                            \
  X(ConvertFtoF, Code, Any, "d")                                                                   \
  X(ConvertFtoI, Code, Any, "d")                                                                   \
  X(ConvertItoF, Code, Any, "d")                                                                   \
  X(ConvertItoI, Code, Any, "d")                                                                   \
  X(ConvertF32toPackedF16, Code, U32, "d")                                                         \
  X(ConvertPackedF16toF32, Code, Vec2F32, "d")                                                     \
  X(Cast, Code, Any, "d")                                                                          \
  X(ConsumeAs, Code, Any, "d")                                                                     \
  /* Variable declarations */                                                                      \
  X(DclInput, Declaration, Any, "e00I")                                                            \
  X(DclInputBuiltIn, Declaration, Any, "eBI")                                                      \
  X(DclOutput, Declaration, Any, "e000")                                                           \
  X(DclOutputBuiltIn, Declaration, Any, "eB0")                                                     \
  X(DclSpecConstant, Constant, Any, "e0#") /* aggregates take one spec id per scalar */            \
  X(DclPushData, Declaration, Any, "e0M")                                                          \
  X(DclSampler, Declaration, Void, "e000")                                                         \
  X(DclCbv, Declaration, Any, "e000")                                                              \
  X(DclSrv, Declaration, Any, "e000K")                                                             \
  X(DclUav, Declaration, Any, "e000KF")                                                            \
  X(DclUavCounter, Declaration, U32, "eq")                                                         \
  X(DclLds, Declaration, Any, "e")                                                                 \
  X(DclScratch, Declaration, Any, "e")                                                             \
  X(DclTmp, Declaration, Any, "e")                                                                 \
  X(DclXfb, Declaration, Void, "o000")                                                             \
  X(DclParam, Declaration, Scalar, "")                                                             \
  X(Semantic, Declaration, Void, "v0$")                                                            \
  /* Composites and sparse feedback */                                                             \
  X(CompositeInsert, Code, Any, "ddd")                                                             \
  X(CompositeExtract, Code, Any, "dd")                                                             \
  X(CompositeConstruct, Code, Composite, "[d]")                                                    \
  X(CheckSparseAccess, Code, Bool, "d")                                                            \
  /* Load / store */                                                                               \
  X(ParamLoad, Code, Any, "fp")                                                                    \
  X(TmpLoad, Code, Any, "v")                                                                       \
  X(TmpStore, Code, Void, "vd")                                                                    \
  X(ScratchLoad, Code, Any, "vn")                                                                  \
  X(ScratchStore, Code, Void, "vnd")                                                               \
  X(LdsLoad, Code, Any, "vn")                                                                      \
  X(LdsStore, Code, Void, "vnd")                                                                   \
  X(PushDataLoad, Code, Any, "vn")                                                                 \
  X(InputLoad, Code, Any, "in")                                                                    \
  X(OutputLoad, Code, Any, "on")                                                                   \
  X(OutputStore, Code, Any, "ond")                                                                 \
  X(DescriptorLoad, Code, Any, "vn")                                                               \
  X(BufferLoad, Code, Any, "dn0")                                                                  \
  X(BufferStore, Code, Any, "dnd0")                                                                \
  X(BufferQuerySize, Code, U32, "d")                                                               \
  X(MemoryLoad, Code, Any, "dn0")                                                                  \
  X(MemoryStore, Code, Any, "dnd0")                                                                \
  X(ConstantLoad, Code, Any, "dn")                                                                 \
  /* Atomics */                                                                                    \
  X(LdsAtomic, Code, VoidOrScalar, "vnnA")                                                         \
  X(BufferAtomic, Code, VoidOrScalar, "dnnA")                                                      \
  X(ImageAtomic, Code, VoidOrScalar, "dndnA")                                                      \
  X(CounterAtomic, Code, VoidOrScalar, "xA")                                                       \
  X(MemoryAtomic, Code, VoidOrScalar, "dnnA")                                                      \
  /* Images */                                                                                     \
  X(ImageLoad, Code, Any, "dnndnn")                                                                \
  X(ImageStore, Code, Void, "dndd")                                                                \
  X(ImageQuerySize, Code, Any, "dn")                                                               \
  X(ImageQueryMips, Code, U32, "d")                                                                \
  X(ImageQuerySamples, Code, U32, "d")                                                             \
  X(ImageSample, Code, Any, "ddndnnnnnnn")                                                         \
  X(ImageGather, Code, Any, "ddndnn0")                                                             \
  X(ImageComputeLod, Code, Vec2F32, "ddd")                                                         \
  /* Pointers */                                                                                   \
  X(Pointer, Code, Any, "dF")                                                                      \
  /* Functions */                                                                                  \
  X(Function, Function, Any, "[p]")                                                                \
  X(FunctionEnd, FunctionEnd, Void, "")                                                            \
  X(FunctionCall, Code, Any, "f[d]")                                                               \
  X(EntryPoint, Declaration, Void, "[f]G")                                                         \
  X(Return, Terminator, Any, "n")                                                                  \
  /* Structured control flow */                                                                    \
  X(Label, Label, Void, "[l]C")                                                                    \
  X(Branch, Terminator, Void, "l")                                                                 \
  X(BranchConditional, Terminator, Void, "bll")                                                    \
  X(Switch, Terminator, Void, "dl[dl]")                                                            \
  X(Unreachable, Terminator, Void, "")                                                             \
  X(Phi, Code, Any, "[ln]")                                                                        \
  /* Scoped control flow */                                                                        \
  X(ScopedIf, Code, Void, "kb")                                                                    \
  X(ScopedElse, Code, Void, "k")                                                                   \
  X(ScopedEndIf, Code, Void, "k")                                                                  \
  X(ScopedLoop, Code, Void, "k")                                                                   \
  X(ScopedLoopBreak, Code, Void, "k")                                                              \
  X(ScopedLoopContinue, Code, Void, "k")                                                           \
  X(ScopedEndLoop, Code, Void, "k")                                                                \
  X(ScopedSwitch, Code, Void, "kd")                                                                \
  X(ScopedSwitchCase, Code, Void, "k0")                                                            \
  X(ScopedSwitchDefault, Code, Void, "k")                                                          \
  X(ScopedSwitchBreak, Code, Void, "k")                                                            \
  X(ScopedEndSwitch, Code, Void, "k")                                                              \
  /* Barriers, geometry, pixel */                                                                  \
  X(Barrier, Code, Void, "SSY")                                                                    \
  X(EmitVertex, Code, Void, "0")                                                                   \
  X(EmitPrimitive, Code, Void, "0")                                                                \
  X(Demote, Code, Void, "")                                                                        \
  X(InterpolateAtCentroid, Code, Any, "in")                                                        \
  X(InterpolateAtSample, Code, Any, "ind")                                                         \
  X(InterpolateAtOffset, Code, Any, "ind")                                                         \
  X(DerivX, Code, Any, "dV")                                                                       \
  X(DerivY, Code, Any, "dV")                                                                       \
  X(RovScopedLockBegin, Code, Void, "YO")                                                          \
  X(RovScopedLockEnd, Code, Void, "Y")                                                             \
  /* Comparison */                                                                                 \
  X(FEq, Code, Bool, "dd")                                                                         \
  X(FNe, Code, Bool, "dd")                                                                         \
  X(FLt, Code, Bool, "dd")                                                                         \
  X(FLe, Code, Bool, "dd")                                                                         \
  X(FGt, Code, Bool, "dd")                                                                         \
  X(FGe, Code, Bool, "dd")                                                                         \
  X(FIsNan, Code, Bool, "d")                                                                       \
  X(IEq, Code, Bool, "dd")                                                                         \
  X(INe, Code, Bool, "dd")                                                                         \
  X(SLt, Code, Bool, "dd")                                                                         \
  X(SLe, Code, Bool, "dd")                                                                         \
  X(SGt, Code, Bool, "dd")                                                                         \
  X(SGe, Code, Bool, "dd")                                                                         \
  X(ULt, Code, Bool, "dd")                                                                         \
  X(ULe, Code, Bool, "dd")                                                                         \
  X(UGt, Code, Bool, "dd")                                                                         \
  X(UGe, Code, Bool, "dd")                                                                         \
  /* Logical and conditional */                                                                    \
  X(BAnd, Code, Bool, "bb")                                                                        \
  X(BOr, Code, Bool, "bb")                                                                         \
  X(BEq, Code, Bool, "bb")                                                                         \
  X(BNe, Code, Bool, "bb")                                                                         \
  X(BNot, Code, Bool, "b")                                                                         \
  X(Select, Code, Any, "bdd")                                                                      \
  /* Float arithmetic */                                                                           \
  X(FAbs, Code, Float, "d")                                                                        \
  X(FNeg, Code, Float, "d")                                                                        \
  X(FAdd, Code, Float, "dd")                                                                       \
  X(FSub, Code, Float, "dd")                                                                       \
  X(FMul, Code, Float, "dd")                                                                       \
  X(FMulLegacy, Code, Float, "dd")                                                                 \
  X(FMad, Code, Float, "ddd")                                                                      \
  X(FMadLegacy, Code, Float, "ddd")                                                                \
  X(FDiv, Code, Float, "dd")                                                                       \
  X(FRcp, Code, Float, "d")                                                                        \
  X(FSqrt, Code, Float, "d")                                                                       \
  X(FRsq, Code, Float, "d")                                                                        \
  X(FExp2, Code, F32, "d")                                                                         \
  X(FLog2, Code, F32, "d")                                                                         \
  X(FFract, Code, Float, "d")                                                                      \
  X(FRound, Code, Float, "dR")                                                                     \
  X(FMin, Code, Float, "dd")                                                                       \
  X(FMax, Code, Float, "dd")                                                                       \
  X(FDot, Code, Float, "dd")                                                                       \
  X(FDotLegacy, Code, Float, "dd")                                                                 \
  X(FClamp, Code, Float, "ddd")                                                                    \
  X(FSin, Code, F32, "d")                                                                          \
  X(FCos, Code, F32, "d")                                                                          \
  X(FPow, Code, F32, "dd")                                                                         \
  X(FPowLegacy, Code, F32, "dd")                                                                   \
  /* Bitwise */                                                                                    \
  X(IAnd, Code, Int, "dd")                                                                         \
  X(IOr, Code, Int, "dd")                                                                          \
  X(IXor, Code, Int, "dd")                                                                         \
  X(INot, Code, Int, "d")                                                                          \
  X(IBitInsert, Code, Int, "dddd")                                                                 \
  X(UBitExtract, Code, Int, "ddd")                                                                 \
  X(SBitExtract, Code, Int, "ddd")                                                                 \
  X(IShl, Code, Int, "dd")                                                                         \
  X(SShr, Code, Int, "dd")                                                                         \
  X(UShr, Code, Int, "dd")                                                                         \
  X(IBitCount, Code, Int, "d")                                                                     \
  X(IBitReverse, Code, Int, "d")                                                                   \
  X(IFindLsb, Code, Int, "d")                                                                      \
  X(SFindMsb, Code, Int, "d")                                                                      \
  X(UFindMsb, Code, Int, "d")                                                                      \
  /* Integer arithmetic */                                                                         \
  X(IAdd, Code, Int, "dd")                                                                         \
  X(IAddCarry, Code, Vec2U32, "dd")                                                                \
  X(ISub, Code, Int, "dd")                                                                         \
  X(ISubBorrow, Code, Vec2U32, "dd")                                                               \
  X(IAbs, Code, Int, "d")                                                                          \
  X(INeg, Code, Int, "d")                                                                          \
  X(IMul, Code, Int, "dd")                                                                         \
  X(UDiv, Code, Int, "dd")                                                                         \
  X(UMod, Code, Int, "dd")                                                                         \
  X(SMin, Code, Int, "dd")                                                                         \
  X(SMax, Code, Int, "dd")                                                                         \
  X(SClamp, Code, Int, "ddd")                                                                      \
  X(UMin, Code, Int, "dd")                                                                         \
  X(UMax, Code, Int, "dd")                                                                         \
  X(UClamp, Code, Int, "ddd")                                                                      \
  X(UMsad, Code, Int, "ddd")                                                                       \
  X(SMulExtended, Code, Vec2I32, "dd")                                                             \
  X(UMulExtended, Code, Vec2U32, "dd")

enum class OpCode : std::uint16_t {
#define KILN_X(name, ...) name,
  KILN_IR_OPCODES(KILN_X)
#undef KILN_X
      Count,
};

// 10 bits in the serialized opcode token.
static_assert(std::uint32_t(OpCode::Count) <= 1024);

struct OpInfo {
  std::string_view name;
  OpCategory category;
  ReturnClass return_class;
  std::string_view shape;
};

inline constexpr OpInfo kOpInfo[] = {
#define KILN_X(name, category, ret, shape) {#name, OpCategory::category, ReturnClass::ret, shape},
    KILN_IR_OPCODES(KILN_X)
#undef KILN_X
};

constexpr const OpInfo& op_info(OpCode code) {
  return kOpInfo[std::size_t(code)];
}
constexpr std::string_view op_name(OpCode code) {
  return op_info(code).name;
}
bool parse_op_name(std::string_view text, OpCode& out);

// The shape of an op split into its parts: fixed references, a repeated reference group and
// the literal tail (`#` and `$` make the tail variadic).
struct OpShape {
  std::string_view fixed_refs;
  std::string_view ref_group;
  std::string_view literals;

  constexpr bool variadic_literals() const {
    return !literals.empty() && (literals.back() == '#' || literals.back() == '$');
  }
  // Number of literal operands when the tail is fixed.
  constexpr std::size_t fixed_literal_count() const {
    return variadic_literals() ? literals.size() - 1 : literals.size();
  }
};

constexpr bool is_ref_letter(char c) {
  return c >= 'a' && c <= 'z';
}

constexpr OpShape split_shape(std::string_view shape) {
  OpShape s;
  std::size_t i = 0;
  while (i < shape.size() && is_ref_letter(shape[i])) ++i;
  s.fixed_refs = shape.substr(0, i);
  if (i < shape.size() && shape[i] == '[') {
    std::size_t close = shape.find(']', i);
    s.ref_group = shape.substr(i + 1, close - i - 1);
    i = close + 1;
  }
  s.literals = shape.substr(i);
  return s;
}

constexpr OpShape op_shape(OpCode code) {
  return split_shape(op_info(code).shape);
}

// How many leading operands are references for an op with `count` operands, or -1 when no
// split fits the shape (wrong count). Used by the serializer and the validator.
constexpr int expected_ref_count(OpCode code, std::size_t count) {
  OpShape s = op_shape(code);
  std::size_t fixed = s.fixed_refs.size();
  if (s.variadic_literals()) {
    if (count < fixed + s.fixed_literal_count()) return -1;
    return int(fixed);
  }
  std::size_t lits = s.literals.size();
  if (count < fixed + lits) return -1;
  std::size_t refs = count - lits;
  if (s.ref_group.empty()) return refs == fixed ? int(refs) : -1;
  if ((refs - fixed) % s.ref_group.size() != 0) return -1;
  return int(refs);
}

// The shape letter of operand `index` of an op whose first `ref_count` operands are references.
constexpr char operand_letter(OpCode code, std::size_t index, std::size_t ref_count) {
  OpShape s = op_shape(code);
  if (index < ref_count) {
    if (index < s.fixed_refs.size()) return s.fixed_refs[index];
    if (s.ref_group.empty()) return 'd';
    return s.ref_group[(index - s.fixed_refs.size()) % s.ref_group.size()];
  }
  std::size_t j = index - ref_count;
  if (j < s.literals.size()) return s.literals[j];
  return s.variadic_literals() ? s.literals.back() : '0';
}

constexpr bool is_declarative(OpCategory c) {
  return c == OpCategory::Declaration || c == OpCategory::Constant || c == OpCategory::Debug;
}

} // namespace kiln::ir
