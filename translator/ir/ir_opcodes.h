#pragma once
// The opcode table: every ir::OpCode, declared once (docs/ir.md is its description). The enum
// and its numbers, the names, the operand shapes, the generated Op::Name(...) helpers, the
// printer, the parser, the serializer, the validator and the passes' per-op facts (what dead
// code keeps, what constant folding evaluates) all derive from KILN_IR_OPCODES.
//
// X(Name, Number, Category, ReturnClass, "shape", Traits, Fold)
//
// Number: the opcode's number in the binary form (ir_serialize), written out so that it stays
//   put. Rows are in number order with no gaps (asserted below), grouped in the ranges of
//   kOpcodeRanges. Nothing but the binary form may depend on a number or on row order:
//   what an op is and does comes from its columns. A new op takes the next number after the
//   last row; renumbering changes the binary form.
// Category: where the op may appear (OpCategory).
// ReturnClass: the return type the op fixes.
// Traits (OpTraits, `|`-joined): Effects = the op does more than produce its value (writes,
//   atomics, synchronisation, emits, calls, demote, scoped control flow, the spec-constant
//   interface): dead code keeps it; Scoped = a Scoped* control-flow marker; NotFinal = the
//   passes remove or lower it, so the backend never sees it.
// Fold (FoldRule): how constant folding treats the op on constant scalar operands. Exact and
//   Rounded ops need a scalar function of their name in passes/constant_fold.cpp (missing or
//   extra functions fail to compile).
//
// Shape letters, one per operand, in order. Lower case = an SSA reference:
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
// `[..]` repeats a group of references zero or more times (Phi: `[ln]`).
//
// Expanding the table: write `#define X(Name, ...)` and read every other fact through
// op_info(OpCode::Name), so that adding a column changes kOpInfo alone, not the expansions.
// (constant_fold.cpp alone expands every column: it pastes the Fold column into a name.)

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace kiln::ir {

// Where an op may appear and what it is (docs/ir.md, "Layout").
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

// The return types an op allows.
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

// Per-op facts beyond category and return type; a bit set.
enum class OpTraits : std::uint8_t {
  None = 0,
  Effects = 1 << 0,  // more than its value: never removed as unused
  Scoped = 1 << 1,   // a Scoped* control-flow marker (gone after scoped_to_structured)
  NotFinal = 1 << 2, // scoped form only: the passes remove or lower it (docs/pipeline.md)
};
constexpr OpTraits operator|(OpTraits a, OpTraits b) {
  return OpTraits(std::uint8_t(a) | std::uint8_t(b));
}
constexpr bool has_trait(OpTraits set, OpTraits t) {
  return (std::uint8_t(set) & std::uint8_t(t)) != 0;
}

// How constant folding treats an op whose operands are constants.
enum class FoldRule : std::uint8_t {
  NoFold,  // never folded
  Exact,   // a scalar function gives the device's result bit for bit (integer, bool,
           // comparisons, sign bit of floats, Cast)
  Rounded, // f32 arithmetic: folded unless Precise or a denormal is involved (devices may flush)
  Operand, // becomes one of its operands or constant components (Select, CompositeExtract)
};

#define KILN_IR_OPCODES(X)                                                                         \
  /* Debug */                                                                                      \
  X(DebugName, 0, Debug, Void, "x$", None, NoFold)                                                 \
  X(DebugMemberName, 1, Debug, Void, "x0$", None, NoFold)                                          \
  X(Drain, 2, Code, Any, "x", Effects | NotFinal, NoFold)                                          \
  /* Constants */                                                                                  \
  X(Constant, 3, Constant, Any, "#", None, NoFold)                                                 \
  X(Undef, 4, Constant, Any, "", None, NoFold)                                                     \
  X(MinValue, 5, Anywhere, Scalar, "", NotFinal, NoFold)                                           \
  X(MaxValue, 6, Anywhere, Scalar, "", NotFinal, NoFold)                                           \
  /* Mode setting */                                                                               \
  X(SetCsWorkgroupSize, 7, Declaration, Void, "e000", None, NoFold)                                \
  X(SetGsInstances, 8, Declaration, Void, "e0", None, NoFold)                                      \
  X(SetGsInputPrimitive, 9, Declaration, Void, "eP", None, NoFold)                                 \
  X(SetGsOutputVertices, 10, Declaration, Void, "e0", None, NoFold)                                \
  X(SetGsOutputPrimitive, 11, Declaration, Void, "eP0", None, NoFold)                              \
  X(SetPsEarlyFragmentTest, 12, Declaration, Void, "e", None, NoFold)                              \
  X(SetPsDepthGreaterEqual, 13, Declaration, Void, "e", None, NoFold)                              \
  X(SetPsDepthLessEqual, 14, Declaration, Void, "e", None, NoFold)                                 \
  X(SetTessPrimitive, 15, Declaration, Void, "ePWT", None, NoFold)                                 \
  X(SetTessDomain, 16, Declaration, Void, "eP", None, NoFold)                                      \
  X(SetTessControlPoints, 17, Declaration, Void, "e00", None, NoFold)                              \
  X(SetFpMode, 18, Declaration, Float, "eRN", None, NoFold)                                        \
  /* Type conversion */                                                                            \
  X(ConvertFtoF, 19, Code, Any, "d", None, NoFold)                                                 \
  X(ConvertFtoI, 20, Code, Any, "d", None, NoFold)                                                 \
  X(ConvertItoF, 21, Code, Any, "d", None, NoFold)                                                 \
  X(ConvertItoI, 22, Code, Any, "d", None, NoFold)                                                 \
  X(ConvertF32toPackedF16, 23, Code, U32, "d", None, NoFold)                                       \
  X(ConvertPackedF16toF32, 24, Code, Vec2F32, "d", None, NoFold)                                   \
  X(Cast, 25, Code, Any, "d", None, Exact)                                                         \
  X(ConsumeAs, 26, Code, Any, "d", NotFinal, NoFold)                                               \
  /* Variable declarations */                                                                      \
  X(DclInput, 27, Declaration, Any, "e00I", None, NoFold)                                          \
  X(DclInputBuiltIn, 28, Declaration, Any, "eBI", None, NoFold)                                    \
  X(DclOutput, 29, Declaration, Any, "e000", None, NoFold)                                         \
  X(DclOutputBuiltIn, 30, Declaration, Any, "eB0", None, NoFold)                                   \
  /* an aggregate DclSpecConstant takes one spec id per scalar */                                  \
  X(DclSpecConstant, 31, Constant, Any, "e0#", Effects, NoFold)                                    \
  X(DclPushData, 32, Declaration, Any, "e0M", None, NoFold)                                        \
  X(DclSampler, 33, Declaration, Void, "e000", None, NoFold)                                       \
  X(DclCbv, 34, Declaration, Any, "e000", None, NoFold)                                            \
  X(DclSrv, 35, Declaration, Any, "e000K", None, NoFold)                                           \
  X(DclUav, 36, Declaration, Any, "e000KF", None, NoFold)                                          \
  X(DclUavCounter, 37, Declaration, U32, "eq", None, NoFold)                                       \
  X(DclLds, 38, Declaration, Any, "e", None, NoFold)                                               \
  X(DclScratch, 39, Declaration, Any, "e", None, NoFold)                                           \
  X(DclTmp, 40, Declaration, Any, "e", NotFinal, NoFold)                                           \
  X(DclXfb, 41, Declaration, Void, "o000", None, NoFold)                                           \
  X(DclParam, 42, Declaration, Scalar, "", None, NoFold)                                           \
  X(Semantic, 43, Declaration, Void, "v0$", None, NoFold)                                          \
  /* Composites and sparse feedback */                                                             \
  X(CompositeInsert, 44, Code, Any, "ddd", None, NoFold)                                           \
  X(CompositeExtract, 45, Code, Any, "dd", None, Operand)                                          \
  X(CompositeConstruct, 46, Code, Composite, "[d]", None, NoFold)                                  \
  X(CheckSparseAccess, 47, Code, Bool, "d", None, NoFold)                                          \
  /* Load / store */                                                                               \
  X(ParamLoad, 48, Code, Any, "fp", None, NoFold)                                                  \
  X(TmpLoad, 49, Code, Any, "v", NotFinal, NoFold)                                                 \
  X(TmpStore, 50, Code, Void, "vd", Effects | NotFinal, NoFold)                                    \
  X(ScratchLoad, 51, Code, Any, "vn", None, NoFold)                                                \
  X(ScratchStore, 52, Code, Void, "vnd", Effects, NoFold)                                          \
  X(LdsLoad, 53, Code, Any, "vn", None, NoFold)                                                    \
  X(LdsStore, 54, Code, Void, "vnd", Effects, NoFold)                                              \
  X(PushDataLoad, 55, Code, Any, "vn", None, NoFold)                                               \
  X(InputLoad, 56, Code, Any, "in", None, NoFold)                                                  \
  X(OutputLoad, 57, Code, Any, "on", None, NoFold)                                                 \
  X(OutputStore, 58, Code, Any, "ond", Effects, NoFold)                                            \
  X(DescriptorLoad, 59, Code, Any, "vn", None, NoFold)                                             \
  X(BufferLoad, 60, Code, Any, "dn0", None, NoFold)                                                \
  X(BufferStore, 61, Code, Any, "dnd0", Effects, NoFold)                                           \
  X(BufferQuerySize, 62, Code, U32, "d", None, NoFold)                                             \
  X(MemoryLoad, 63, Code, Any, "dn0", None, NoFold)                                                \
  X(MemoryStore, 64, Code, Any, "dnd0", Effects, NoFold)                                           \
  X(ConstantLoad, 65, Code, Any, "dn", None, NoFold)                                               \
  /* Atomics */                                                                                    \
  X(LdsAtomic, 66, Code, VoidOrScalar, "vnnA", Effects, NoFold)                                    \
  X(BufferAtomic, 67, Code, VoidOrScalar, "dnnA", Effects, NoFold)                                 \
  X(ImageAtomic, 68, Code, VoidOrScalar, "dndnA", Effects, NoFold)                                 \
  X(CounterAtomic, 69, Code, VoidOrScalar, "xA", Effects, NoFold)                                  \
  X(MemoryAtomic, 70, Code, VoidOrScalar, "dnnA", Effects, NoFold)                                 \
  /* Images */                                                                                     \
  X(ImageLoad, 71, Code, Any, "dnndnn", None, NoFold)                                              \
  X(ImageStore, 72, Code, Void, "dndd", Effects, NoFold)                                           \
  X(ImageQuerySize, 73, Code, Any, "dn", None, NoFold)                                             \
  X(ImageQueryMips, 74, Code, U32, "d", None, NoFold)                                              \
  X(ImageQuerySamples, 75, Code, U32, "d", None, NoFold)                                           \
  X(ImageSample, 76, Code, Any, "ddndnnnnnnn", None, NoFold)                                       \
  X(ImageGather, 77, Code, Any, "ddndnn0", None, NoFold)                                           \
  X(ImageComputeLod, 78, Code, Vec2F32, "ddd", None, NoFold)                                       \
  /* Pointers */                                                                                   \
  X(Pointer, 79, Code, Any, "dF", None, NoFold)                                                    \
  /* Functions */                                                                                  \
  X(Function, 80, Function, Any, "[p]", None, NoFold)                                              \
  X(FunctionEnd, 81, FunctionEnd, Void, "", None, NoFold)                                          \
  X(FunctionCall, 82, Code, Any, "f[d]", Effects, NoFold)                                          \
  X(EntryPoint, 83, Declaration, Void, "[f]G", None, NoFold)                                       \
  X(Return, 84, Terminator, Any, "n", None, NoFold)                                                \
  /* Structured control flow */                                                                    \
  X(Label, 85, Label, Void, "[l]C", None, NoFold)                                                  \
  X(Branch, 86, Terminator, Void, "l", None, NoFold)                                               \
  X(BranchConditional, 87, Terminator, Void, "bll", None, NoFold)                                  \
  X(Switch, 88, Terminator, Void, "dl[dl]", None, NoFold)                                          \
  X(Unreachable, 89, Terminator, Void, "", None, NoFold)                                           \
  X(Phi, 90, Code, Any, "[ln]", None, NoFold)                                                      \
  /* Scoped control flow */                                                                        \
  X(ScopedIf, 91, Code, Void, "kb", Effects | Scoped | NotFinal, NoFold)                           \
  X(ScopedElse, 92, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                          \
  X(ScopedEndIf, 93, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                         \
  X(ScopedLoop, 94, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                          \
  X(ScopedLoopBreak, 95, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                     \
  X(ScopedLoopContinue, 96, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                  \
  X(ScopedEndLoop, 97, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                       \
  X(ScopedSwitch, 98, Code, Void, "kd", Effects | Scoped | NotFinal, NoFold)                       \
  X(ScopedSwitchCase, 99, Code, Void, "k0", Effects | Scoped | NotFinal, NoFold)                   \
  X(ScopedSwitchDefault, 100, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                \
  X(ScopedSwitchBreak, 101, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                  \
  X(ScopedEndSwitch, 102, Code, Void, "k", Effects | Scoped | NotFinal, NoFold)                    \
  /* Barriers, geometry, pixel */                                                                  \
  X(Barrier, 103, Code, Void, "SSY", Effects, NoFold)                                              \
  X(EmitVertex, 104, Code, Void, "0", Effects, NoFold)                                             \
  X(EmitPrimitive, 105, Code, Void, "0", Effects, NoFold)                                          \
  X(Demote, 106, Code, Void, "", Effects, NoFold)                                                  \
  X(InterpolateAtCentroid, 107, Code, Any, "in", None, NoFold)                                     \
  X(InterpolateAtSample, 108, Code, Any, "ind", None, NoFold)                                      \
  X(InterpolateAtOffset, 109, Code, Any, "ind", None, NoFold)                                      \
  X(DerivX, 110, Code, Any, "dV", None, NoFold)                                                    \
  X(DerivY, 111, Code, Any, "dV", None, NoFold)                                                    \
  X(RovScopedLockBegin, 112, Code, Void, "YO", Effects, NoFold)                                    \
  X(RovScopedLockEnd, 113, Code, Void, "Y", Effects, NoFold)                                       \
  /* Comparison */                                                                                 \
  X(FEq, 114, Code, Bool, "dd", None, Exact)                                                       \
  X(FNe, 115, Code, Bool, "dd", None, Exact)                                                       \
  X(FLt, 116, Code, Bool, "dd", None, Exact)                                                       \
  X(FLe, 117, Code, Bool, "dd", None, Exact)                                                       \
  X(FGt, 118, Code, Bool, "dd", None, Exact)                                                       \
  X(FGe, 119, Code, Bool, "dd", None, Exact)                                                       \
  X(FIsNan, 120, Code, Bool, "d", None, Exact)                                                     \
  X(IEq, 121, Code, Bool, "dd", None, Exact)                                                       \
  X(INe, 122, Code, Bool, "dd", None, Exact)                                                       \
  X(SLt, 123, Code, Bool, "dd", None, Exact)                                                       \
  X(SLe, 124, Code, Bool, "dd", None, Exact)                                                       \
  X(SGt, 125, Code, Bool, "dd", None, Exact)                                                       \
  X(SGe, 126, Code, Bool, "dd", None, Exact)                                                       \
  X(ULt, 127, Code, Bool, "dd", None, Exact)                                                       \
  X(ULe, 128, Code, Bool, "dd", None, Exact)                                                       \
  X(UGt, 129, Code, Bool, "dd", None, Exact)                                                       \
  X(UGe, 130, Code, Bool, "dd", None, Exact)                                                       \
  /* Logical and conditional */                                                                    \
  X(BAnd, 131, Code, Bool, "bb", None, Exact)                                                      \
  X(BOr, 132, Code, Bool, "bb", None, Exact)                                                       \
  X(BEq, 133, Code, Bool, "bb", None, Exact)                                                       \
  X(BNe, 134, Code, Bool, "bb", None, Exact)                                                       \
  X(BNot, 135, Code, Bool, "b", None, Exact)                                                       \
  X(Select, 136, Code, Any, "bdd", None, Operand)                                                  \
  /* Float arithmetic */                                                                           \
  X(FAbs, 137, Code, Float, "d", None, Exact)                                                      \
  X(FNeg, 138, Code, Float, "d", None, Exact)                                                      \
  X(FAdd, 139, Code, Float, "dd", None, Rounded)                                                   \
  X(FSub, 140, Code, Float, "dd", None, Rounded)                                                   \
  X(FMul, 141, Code, Float, "dd", None, Rounded)                                                   \
  X(FMulLegacy, 142, Code, Float, "dd", NotFinal, NoFold)                                          \
  X(FMad, 143, Code, Float, "ddd", None, NoFold)                                                   \
  X(FMadLegacy, 144, Code, Float, "ddd", NotFinal, NoFold)                                         \
  X(FDiv, 145, Code, Float, "dd", None, NoFold)                                                    \
  X(FRcp, 146, Code, Float, "d", None, NoFold)                                                     \
  X(FSqrt, 147, Code, Float, "d", None, NoFold)                                                    \
  X(FRsq, 148, Code, Float, "d", None, NoFold)                                                     \
  X(FExp2, 149, Code, F32, "d", None, NoFold)                                                      \
  X(FLog2, 150, Code, F32, "d", None, NoFold)                                                      \
  X(FFract, 151, Code, Float, "d", None, NoFold)                                                   \
  X(FRound, 152, Code, Float, "dR", None, NoFold)                                                  \
  X(FMin, 153, Code, Float, "dd", None, NoFold)                                                    \
  X(FMax, 154, Code, Float, "dd", None, NoFold)                                                    \
  X(FDot, 155, Code, Float, "dd", NotFinal, NoFold)                                                \
  X(FDotLegacy, 156, Code, Float, "dd", NotFinal, NoFold)                                          \
  X(FClamp, 157, Code, Float, "ddd", None, NoFold)                                                 \
  X(FSin, 158, Code, F32, "d", None, NoFold)                                                       \
  X(FCos, 159, Code, F32, "d", None, NoFold)                                                       \
  X(FPow, 160, Code, F32, "dd", None, NoFold)                                                      \
  X(FPowLegacy, 161, Code, F32, "dd", NotFinal, NoFold)                                            \
  /* Bitwise */                                                                                    \
  X(IAnd, 162, Code, Int, "dd", None, Exact)                                                       \
  X(IOr, 163, Code, Int, "dd", None, Exact)                                                        \
  X(IXor, 164, Code, Int, "dd", None, Exact)                                                       \
  X(INot, 165, Code, Int, "d", None, Exact)                                                        \
  X(IBitInsert, 166, Code, Int, "dddd", None, NoFold)                                              \
  X(UBitExtract, 167, Code, Int, "ddd", None, NoFold)                                              \
  X(SBitExtract, 168, Code, Int, "ddd", None, NoFold)                                              \
  X(IShl, 169, Code, Int, "dd", None, Exact)                                                       \
  X(SShr, 170, Code, Int, "dd", None, Exact)                                                       \
  X(UShr, 171, Code, Int, "dd", None, Exact)                                                       \
  X(IBitCount, 172, Code, Int, "d", None, NoFold)                                                  \
  X(IBitReverse, 173, Code, Int, "d", None, NoFold)                                                \
  X(IFindLsb, 174, Code, Int, "d", None, NoFold)                                                   \
  X(SFindMsb, 175, Code, Int, "d", None, NoFold)                                                   \
  X(UFindMsb, 176, Code, Int, "d", None, NoFold)                                                   \
  /* Integer arithmetic */                                                                         \
  X(IAdd, 177, Code, Int, "dd", None, Exact)                                                       \
  X(IAddCarry, 178, Code, Vec2U32, "dd", None, NoFold)                                             \
  X(ISub, 179, Code, Int, "dd", None, Exact)                                                       \
  X(ISubBorrow, 180, Code, Vec2U32, "dd", None, NoFold)                                            \
  X(IAbs, 181, Code, Int, "d", None, NoFold)                                                       \
  X(INeg, 182, Code, Int, "d", None, Exact)                                                        \
  X(IMul, 183, Code, Int, "dd", None, Exact)                                                       \
  X(UDiv, 184, Code, Int, "dd", None, Exact)                                                       \
  X(UMod, 185, Code, Int, "dd", None, Exact)                                                       \
  X(SMin, 186, Code, Int, "dd", None, Exact)                                                       \
  X(SMax, 187, Code, Int, "dd", None, Exact)                                                       \
  X(SClamp, 188, Code, Int, "ddd", None, NoFold)                                                   \
  X(UMin, 189, Code, Int, "dd", None, Exact)                                                       \
  X(UMax, 190, Code, Int, "dd", None, Exact)                                                       \
  X(UClamp, 191, Code, Int, "ddd", None, NoFold)                                                   \
  X(UMsad, 192, Code, Int, "ddd", None, NoFold)                                                    \
  X(SMulExtended, 193, Code, Vec2I32, "dd", None, NoFold)                                          \
  X(UMulExtended, 194, Code, Vec2U32, "dd", None, NoFold)

enum class OpCode : std::uint16_t {
#define KILN_X(name, number, ...) name = number,
  KILN_IR_OPCODES(KILN_X)
#undef KILN_X
      Count, // follows the last row: the number of ops
};

// 10 bits in the serialized opcode token.
static_assert(std::uint32_t(OpCode::Count) <= 1024);

struct OpInfo {
  OpCode code;
  std::string_view name;
  OpCategory category;
  ReturnClass return_class;
  std::string_view shape;
  OpTraits traits;
  FoldRule fold;
};

namespace opcode_table {
using enum OpTraits; // the Traits column reads `Effects | Scoped`
inline constexpr OpInfo kOpInfo[] = {
#define KILN_X(name, number, category, ret, shape, traits, fold)                                   \
  {OpCode::name, #name, OpCategory::category, ReturnClass::ret, shape, traits, FoldRule::fold},
    KILN_IR_OPCODES(KILN_X)
#undef KILN_X
};
} // namespace opcode_table
using opcode_table::kOpInfo;

// Row i carries number i: the numbers are dense, unique and in row order, so kOpInfo is indexed
// by number and Count is the number of ops.
constexpr bool numbers_follow_rows() {
  for (std::size_t i = 0; i < std::size(kOpInfo); ++i)
    if (std::size_t(kOpInfo[i].code) != i) return false;
  return std::size(kOpInfo) == std::size_t(OpCode::Count);
}
static_assert(numbers_follow_rows(), "KILN_IR_OPCODES: numbers must run 0, 1, 2... in row order");

// The numbered ranges: the table's sections, each from its first to
// its last op. They say where an op's number lies (docs/ir.md lists them, and a test holds the
// two together); what an op does comes from its columns, never from its range.
struct OpcodeRange {
  std::string_view name;
  OpCode first;
  OpCode last;
};
inline constexpr OpcodeRange kOpcodeRanges[] = {
    {"Debug", OpCode::DebugName, OpCode::Drain},
    {"Constants", OpCode::Constant, OpCode::MaxValue},
    {"Mode setting", OpCode::SetCsWorkgroupSize, OpCode::SetFpMode},
    {"Type conversion", OpCode::ConvertFtoF, OpCode::ConsumeAs},
    {"Variable declarations", OpCode::DclInput, OpCode::Semantic},
    {"Composites and sparse feedback", OpCode::CompositeInsert, OpCode::CheckSparseAccess},
    {"Load / store", OpCode::ParamLoad, OpCode::ConstantLoad},
    {"Atomics", OpCode::LdsAtomic, OpCode::MemoryAtomic},
    {"Images", OpCode::ImageLoad, OpCode::ImageComputeLod},
    {"Pointers", OpCode::Pointer, OpCode::Pointer},
    {"Functions", OpCode::Function, OpCode::Return},
    {"Structured control flow", OpCode::Label, OpCode::Phi},
    {"Scoped control flow", OpCode::ScopedIf, OpCode::ScopedEndSwitch},
    {"Barriers, geometry, pixel", OpCode::Barrier, OpCode::RovScopedLockEnd},
    {"Comparison", OpCode::FEq, OpCode::UGe},
    {"Logical and conditional", OpCode::BAnd, OpCode::Select},
    {"Float arithmetic", OpCode::FAbs, OpCode::FPowLegacy},
    {"Bitwise", OpCode::IAnd, OpCode::UFindMsb},
    {"Integer arithmetic", OpCode::IAdd, OpCode::UMulExtended},
};

// The ranges cover 0 .. Count - 1 in order, without gaps or overlaps.
constexpr bool ranges_tile_the_table() {
  std::size_t next = 0;
  for (const OpcodeRange& r : kOpcodeRanges) {
    if (std::size_t(r.first) != next || r.last < r.first) return false;
    next = std::size_t(r.last) + 1;
  }
  return next == std::size_t(OpCode::Count);
}
static_assert(ranges_tile_the_table(),
              "kOpcodeRanges must cover every opcode number once, in order");

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

constexpr bool has_trait(OpCode code, OpTraits t) {
  return has_trait(op_info(code).traits, t);
}

// Whether an op ends a straight-line stretch of scoped-form code: a Scoped* marker (a block
// boundary once structured), a function boundary, a label or a terminator. Between two such ops
// the code is one block, so a value computed there is available to everything after it there.
constexpr bool ends_straight_line(OpCode code) {
  OpCategory c = op_info(code).category;
  return has_trait(code, OpTraits::Scoped) || c == OpCategory::Function ||
         c == OpCategory::FunctionEnd || c == OpCategory::Label || c == OpCategory::Terminator;
}

// Whether an op may go when nothing uses its value: a value (code, a constant, MinValue /
// MaxValue) without Effects. Declarations, functions, labels and terminators stay; debug ops go
// with their target.
constexpr bool is_pure(OpCode code) {
  OpCategory c = op_info(code).category;
  bool value = c == OpCategory::Code || c == OpCategory::Constant || c == OpCategory::Anywhere;
  return value && !has_trait(code, OpTraits::Effects);
}

} // namespace kiln::ir
