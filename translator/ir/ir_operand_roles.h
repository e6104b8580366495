#pragma once
// The operands of every IR op by name: the roles column of the opcode table, kept beside
// KILN_IR_OPCODES because a macro row cannot carry a list of identifiers among its other
// columns. The per-op views (ir_op_views.h) and docs/ir-ops.md's operand column derive from it.
//
// X(Name, role, role, ...)
//
// One role per shape letter of the op (ir_opcodes.h), in shape order; the roles of a `[..]`
// group name the members of one repetition, and a `#` or `$` tail is one role (its literals).
// Rows follow KILN_IR_OPCODES exactly: a missing, extra or misplaced row, or a role count that
// differs from the shape, fails to compile (the static_assert below). A role name is an
// accessor of the views, so it must not be a C++ keyword nor `op`.

#include "translator/ir/ir_opcodes.h"

#include <cstddef>
#include <iterator>
#include <string_view>

#define KILN_IR_OPERAND_ROLES(X)                                                                   \
  /* Debug */                                                                                      \
  X(DebugName, target, name)                                                                       \
  X(DebugMemberName, target, member, name)                                                         \
  X(Drain, value)                                                                                  \
  /* Constants */                                                                                  \
  X(Constant, values)                                                                              \
  X(Undef)                                                                                         \
  X(MinValue)                                                                                      \
  X(MaxValue)                                                                                      \
  /* Mode setting */                                                                               \
  X(SetCsWorkgroupSize, entry, x, y, z)                                                            \
  X(SetGsInstances, entry, count)                                                                  \
  X(SetGsInputPrimitive, entry, primitive)                                                         \
  X(SetGsOutputVertices, entry, count)                                                             \
  X(SetGsOutputPrimitive, entry, primitive, stream_mask)                                           \
  X(SetPsEarlyFragmentTest, entry)                                                                 \
  X(SetPsDepthGreaterEqual, entry)                                                                 \
  X(SetPsDepthLessEqual, entry)                                                                    \
  X(SetTessPrimitive, entry, primitive, winding, partitioning)                                     \
  X(SetTessDomain, entry, domain)                                                                  \
  X(SetTessControlPoints, entry, input_points, output_points)                                      \
  X(SetFpMode, entry, rounding, denorm)                                                            \
  /* Type conversion */                                                                            \
  X(ConvertFtoF, value)                                                                            \
  X(ConvertFtoI, value)                                                                            \
  X(ConvertItoF, value)                                                                            \
  X(ConvertItoI, value)                                                                            \
  X(ConvertF32toPackedF16, value)                                                                  \
  X(ConvertPackedF16toF32, value)                                                                  \
  X(Cast, value)                                                                                   \
  X(ConsumeAs, value)                                                                              \
  /* Variable declarations */                                                                      \
  X(DclInput, entry, location, component, interpolation)                                           \
  X(DclInputBuiltIn, entry, builtin, interpolation)                                                \
  X(DclOutput, entry, location, component, stream)                                                 \
  X(DclOutputBuiltIn, entry, builtin, stream)                                                      \
  X(DclSpecConstant, entry, spec_id, default_values)                                               \
  X(DclPushData, entry, offset, stages)                                                            \
  X(DclSampler, entry, space, register_index, count)                                               \
  X(DclCbv, entry, space, register_index, count)                                                   \
  X(DclSrv, entry, space, register_index, count, kind)                                             \
  X(DclUav, entry, space, register_index, count, kind, uav_flags)                                  \
  X(DclUavCounter, entry, uav)                                                                     \
  X(DclLds, entry)                                                                                 \
  X(DclScratch, entry)                                                                             \
  X(DclTmp, entry)                                                                                 \
  X(DclXfb, output, buffer, stride, offset)                                                        \
  X(DclParam)                                                                                      \
  X(Semantic, declaration, index, name)                                                            \
  /* Composites and sparse feedback */                                                             \
  X(CompositeInsert, composite, address, value)                                                    \
  X(CompositeExtract, composite, address)                                                          \
  X(CompositeConstruct, members)                                                                   \
  X(CheckSparseAccess, feedback)                                                                   \
  /* Load / store */                                                                               \
  X(ParamLoad, function, param)                                                                    \
  X(TmpLoad, variable)                                                                             \
  X(TmpStore, variable, value)                                                                     \
  X(ScratchLoad, variable, address)                                                                \
  X(ScratchStore, variable, address, value)                                                        \
  X(LdsLoad, variable, address)                                                                    \
  X(LdsStore, variable, address, value)                                                            \
  X(PushDataLoad, variable, address)                                                               \
  X(InputLoad, variable, address)                                                                  \
  X(OutputLoad, variable, address)                                                                 \
  X(OutputStore, variable, address, value)                                                         \
  X(DescriptorLoad, variable, index)                                                               \
  X(BufferLoad, descriptor, address, align)                                                        \
  X(BufferStore, descriptor, address, value, align)                                                \
  X(BufferQuerySize, descriptor)                                                                   \
  X(MemoryLoad, pointer, address, align)                                                           \
  X(MemoryStore, pointer, address, value, align)                                                   \
  X(ConstantLoad, constant, address)                                                               \
  /* Atomics */                                                                                    \
  X(LdsAtomic, variable, address, arguments, atomic_op)                                            \
  X(BufferAtomic, descriptor, address, arguments, atomic_op)                                       \
  X(ImageAtomic, descriptor, layer, coord, arguments, atomic_op)                                   \
  X(CounterAtomic, counter, atomic_op)                                                             \
  X(MemoryAtomic, pointer, address, arguments, atomic_op)                                          \
  /* Images */                                                                                     \
  X(ImageLoad, descriptor, mip, layer, coord, sample, offset)                                      \
  X(ImageStore, descriptor, layer, coord, value)                                                   \
  X(ImageQuerySize, descriptor, mip)                                                               \
  X(ImageQueryMips, descriptor)                                                                    \
  X(ImageQuerySamples, descriptor)                                                                 \
  X(ImageSample, descriptor, sampler, layer, coord, offset, lod_index, lod_bias, lod_clamp, dx,    \
    dy, depth_compare)                                                                             \
  X(ImageGather, descriptor, sampler, layer, coord, offset, depth_compare, component)              \
  X(ImageComputeLod, descriptor, sampler, coord)                                                   \
  /* Pointers */                                                                                   \
  X(Pointer, address, uav_flags)                                                                   \
  /* Functions */                                                                                  \
  X(Function, params)                                                                              \
  X(FunctionEnd)                                                                                   \
  X(FunctionCall, function, args)                                                                  \
  X(EntryPoint, functions, stage)                                                                  \
  X(Return, value)                                                                                 \
  /* Structured control flow */                                                                    \
  X(Label, construct_blocks, construct)                                                            \
  X(Branch, target)                                                                                \
  X(BranchConditional, condition, true_block, false_block)                                         \
  X(Switch, selector, default_block, case_value, case_block)                                       \
  X(Unreachable)                                                                                   \
  X(Phi, block, value)                                                                             \
  /* Scoped control flow */                                                                        \
  X(ScopedIf, partner, condition)                                                                  \
  X(ScopedElse, partner)                                                                           \
  X(ScopedEndIf, partner)                                                                          \
  X(ScopedLoop, partner)                                                                           \
  X(ScopedLoopBreak, partner)                                                                      \
  X(ScopedLoopContinue, partner)                                                                   \
  X(ScopedEndLoop, partner)                                                                        \
  X(ScopedSwitch, partner, selector)                                                               \
  X(ScopedSwitchCase, partner, case_value)                                                         \
  X(ScopedSwitchDefault, partner)                                                                  \
  X(ScopedSwitchBreak, partner)                                                                    \
  X(ScopedEndSwitch, partner)                                                                      \
  /* Barriers, geometry, pixel */                                                                  \
  X(Barrier, exec_scope, mem_scope, memory_types)                                                  \
  X(EmitVertex, stream)                                                                            \
  X(EmitPrimitive, stream)                                                                         \
  X(Demote)                                                                                        \
  X(InterpolateAtCentroid, variable, address)                                                      \
  X(InterpolateAtSample, variable, address, sample)                                                \
  X(InterpolateAtOffset, variable, address, offset)                                                \
  X(DerivX, value, mode)                                                                           \
  X(DerivY, value, mode)                                                                           \
  X(RovScopedLockBegin, memory_types, scope)                                                       \
  X(RovScopedLockEnd, memory_types)                                                                \
  /* Comparison */                                                                                 \
  X(FEq, a, b)                                                                                     \
  X(FNe, a, b)                                                                                     \
  X(FLt, a, b)                                                                                     \
  X(FLe, a, b)                                                                                     \
  X(FGt, a, b)                                                                                     \
  X(FGe, a, b)                                                                                     \
  X(FIsNan, a)                                                                                     \
  X(IEq, a, b)                                                                                     \
  X(INe, a, b)                                                                                     \
  X(SLt, a, b)                                                                                     \
  X(SLe, a, b)                                                                                     \
  X(SGt, a, b)                                                                                     \
  X(SGe, a, b)                                                                                     \
  X(ULt, a, b)                                                                                     \
  X(ULe, a, b)                                                                                     \
  X(UGt, a, b)                                                                                     \
  X(UGe, a, b)                                                                                     \
  /* Logical and conditional */                                                                    \
  X(BAnd, a, b)                                                                                    \
  X(BOr, a, b)                                                                                     \
  X(BEq, a, b)                                                                                     \
  X(BNe, a, b)                                                                                     \
  X(BNot, a)                                                                                       \
  X(Select, condition, if_true, if_false)                                                          \
  /* Float arithmetic */                                                                           \
  X(FAbs, a)                                                                                       \
  X(FNeg, a)                                                                                       \
  X(FAdd, a, b)                                                                                    \
  X(FSub, a, b)                                                                                    \
  X(FMul, a, b)                                                                                    \
  X(FMulLegacy, a, b)                                                                              \
  X(FMad, a, b, c)                                                                                 \
  X(FMadLegacy, a, b, c)                                                                           \
  X(FDiv, a, b)                                                                                    \
  X(FRcp, a)                                                                                       \
  X(FSqrt, a)                                                                                      \
  X(FRsq, a)                                                                                       \
  X(FExp2, a)                                                                                      \
  X(FLog2, a)                                                                                      \
  X(FFract, a)                                                                                     \
  X(FRound, a, mode)                                                                               \
  X(FMin, a, b)                                                                                    \
  X(FMax, a, b)                                                                                    \
  X(FDot, a, b)                                                                                    \
  X(FDotLegacy, a, b)                                                                              \
  X(FClamp, a, low, high)                                                                          \
  X(FSin, a)                                                                                       \
  X(FCos, a)                                                                                       \
  X(FPow, a, b)                                                                                    \
  X(FPowLegacy, a, b)                                                                              \
  /* Bitwise */                                                                                    \
  X(IAnd, a, b)                                                                                    \
  X(IOr, a, b)                                                                                     \
  X(IXor, a, b)                                                                                    \
  X(INot, a)                                                                                       \
  X(IBitInsert, base, insert, offset, count)                                                       \
  X(UBitExtract, a, offset, count)                                                                 \
  X(SBitExtract, a, offset, count)                                                                 \
  X(IShl, a, b)                                                                                    \
  X(SShr, a, b)                                                                                    \
  X(UShr, a, b)                                                                                    \
  X(IBitCount, a)                                                                                  \
  X(IBitReverse, a)                                                                                \
  X(IFindLsb, a)                                                                                   \
  X(SFindMsb, a)                                                                                   \
  X(UFindMsb, a)                                                                                   \
  /* Integer arithmetic */                                                                         \
  X(IAdd, a, b)                                                                                    \
  X(IAddCarry, a, b)                                                                               \
  X(ISub, a, b)                                                                                    \
  X(ISubBorrow, a, b)                                                                              \
  X(IAbs, a)                                                                                       \
  X(INeg, a)                                                                                       \
  X(IMul, a, b)                                                                                    \
  X(UDiv, a, b)                                                                                    \
  X(UMod, a, b)                                                                                    \
  X(SMin, a, b)                                                                                    \
  X(SMax, a, b)                                                                                    \
  X(SClamp, a, low, high)                                                                          \
  X(UMin, a, b)                                                                                    \
  X(UMax, a, b)                                                                                    \
  X(UClamp, a, low, high)                                                                          \
  X(UMsad, ref, src, accum)                                                                        \
  X(SMulExtended, a, b)                                                                            \
  X(UMulExtended, a, b)

namespace kiln::ir {

struct OperandRoles {
  OpCode code;
  std::string_view roles; // "name, name, ..." as written in the row
};

namespace operand_roles_table {
inline constexpr OperandRoles kOperandRoles[] = {
#define KILN_X(name, ...) {OpCode::name, #__VA_ARGS__},
    KILN_IR_OPERAND_ROLES(KILN_X)
#undef KILN_X
};
} // namespace operand_roles_table
using operand_roles_table::kOperandRoles;

// The number of names in a role list.
constexpr std::size_t role_count(std::string_view roles) {
  if (roles.empty()) return 0;
  std::size_t n = 1;
  for (char c : roles) n += c == ',';
  return n;
}

// Role `i` of a role list (without the spaces the row put around it).
constexpr std::string_view role_name(std::string_view roles, std::size_t i) {
  for (; i > 0; --i) roles.remove_prefix(roles.find(',') + 1);
  roles = roles.substr(0, roles.find(','));
  while (!roles.empty() && roles.front() == ' ') roles.remove_prefix(1);
  while (!roles.empty() && roles.back() == ' ') roles.remove_suffix(1);
  return roles;
}

// The shape letters an op has, `[` and `]` left out: one per role.
constexpr std::size_t shape_letter_count(std::string_view shape) {
  std::size_t n = 0;
  for (char c : shape) n += c != '[' && c != ']';
  return n;
}

constexpr std::string_view operand_roles(OpCode code) {
  return kOperandRoles[std::size_t(code)].roles;
}

// Every op has a row, in table order, with one role per shape letter.
constexpr bool roles_cover_the_table() {
  if (std::size(kOperandRoles) != std::size(kOpInfo)) return false;
  for (std::size_t i = 0; i < std::size(kOpInfo); ++i) {
    if (kOperandRoles[i].code != kOpInfo[i].code) return false;
    if (role_count(kOperandRoles[i].roles) != shape_letter_count(kOpInfo[i].shape)) return false;
  }
  return true;
}
static_assert(roles_cover_the_table(),
              "KILN_IR_OPERAND_ROLES needs one row per op, in KILN_IR_OPCODES order, with one "
              "role per shape letter");

} // namespace kiln::ir
