#pragma once
// The SPIR-V backend's opcode table: for every IR opcode (KILN_IR_OPCODES, same order) the one
// State member that lowers it, and for the ops that map to one instruction that instruction.
// Lowering::State::lower_op (lower.cpp) calls through the handler table generated from it;
// kDirect (below) is the instruction column, read by lower_direct (lower_ops.cpp). A new IR
// opcode without a row, or rows out of order, fail the static_asserts below; a row naming a
// handler State lacks fails to compile.
//
// X(IrOpName, handler)                                          the handler emits the op
// X(IrOpName, lower_direct, set, instruction, operand policy)   one instruction, from this row
//
// set: Core (a SPIR-V opcode) or Glsl (a GLSL.std.450 instruction). Operand policy: Same = every
// operand is bitcast to the result type where only signedness differs; Raw = as they are;
// First = only operand 0; First2 = operands 0 and 1 (IBitInsert's base and insert).
//
// Handlers that need no code: lower_nothing (declarations the backend has no use for, or that
// another op consumes), lower_not_final_form (ops the passes remove, docs/pipeline.md "Final
// form"), lower_unsupported (ops of the reference the backend does not map yet).

#include "translator/ir/ir_opcodes.h"

#include <cstddef>
#include <cstdint>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <string_view>

#define KILN_SPIRV_LOWERINGS(X)                                                                    \
  /* Debug: lower_declarations.cpp (Drain: the passes remove it) */                                \
  X(DebugName, lower_debug_name)                                                                   \
  X(DebugMemberName, lower_nothing)                                                                \
  X(Drain, lower_not_final_form)                                                                   \
  /* Constants: lower_declarations.cpp */                                                          \
  X(Constant, lower_constant)                                                                      \
  X(Undef, lower_undef)                                                                            \
  X(MinValue, lower_not_final_form)                                                                \
  X(MaxValue, lower_not_final_form)                                                                \
  /* Mode setting (execution modes): lower_declarations.cpp */                                     \
  X(SetCsWorkgroupSize, lower_cs_workgroup_size)                                                   \
  X(SetGsInstances, lower_gs_instances)                                                            \
  X(SetGsInputPrimitive, lower_gs_input_primitive)                                                 \
  X(SetGsOutputVertices, lower_gs_output_vertices)                                                 \
  X(SetGsOutputPrimitive, lower_gs_output_primitive)                                               \
  X(SetPsEarlyFragmentTest, lower_fragment_mode)                                                   \
  X(SetPsDepthGreaterEqual, lower_fragment_mode)                                                   \
  X(SetPsDepthLessEqual, lower_fragment_mode)                                                      \
  X(SetTessPrimitive, lower_tess_primitive)                                                        \
  X(SetTessDomain, lower_tess_domain)                                                              \
  X(SetTessControlPoints, lower_tess_control_points)                                               \
  X(SetFpMode, lower_nothing)                                                                      \
  /* Type conversion: lower_ops.cpp */                                                             \
  X(ConvertFtoF, lower_convert)                                                                    \
  X(ConvertFtoI, lower_convert)                                                                    \
  X(ConvertItoF, lower_convert)                                                                    \
  X(ConvertItoI, lower_convert_itoi)                                                               \
  X(ConvertF32toPackedF16, lower_pack_half)                                                        \
  X(ConvertPackedF16toF32, lower_unpack_half)                                                      \
  X(Cast, lower_cast)                                                                              \
  X(ConsumeAs, lower_not_final_form)                                                               \
  /* Variable declarations: lower_io.cpp (I/O), lower_resources.cpp (descriptors, memory),         \
   * DclSpecConstant and Semantic: lower_declarations.cpp */                                       \
  X(DclInput, lower_io_decl)                                                                       \
  X(DclInputBuiltIn, lower_io_decl)                                                                \
  X(DclOutput, lower_io_decl)                                                                      \
  X(DclOutputBuiltIn, lower_io_decl)                                                               \
  X(DclSpecConstant, lower_spec_constant)                                                          \
  X(DclPushData, lower_push_data_decl)                                                             \
  X(DclSampler, lower_descriptor_decl)                                                             \
  X(DclCbv, lower_descriptor_decl)                                                                 \
  X(DclSrv, lower_descriptor_decl)                                                                 \
  X(DclUav, lower_descriptor_decl)                                                                 \
  X(DclUavCounter, lower_uav_counter_decl)                                                         \
  X(DclLds, lower_variable_decl)                                                                   \
  X(DclScratch, lower_variable_decl)                                                               \
  X(DclTmp, lower_nothing)                                                                         \
  X(DclXfb, lower_xfb_decl)                                                                        \
  X(DclParam, lower_nothing)                                                                       \
  X(Semantic, lower_semantic)                                                                      \
  /* Composites and sparse feedback: lower_ops.cpp */                                              \
  X(CompositeInsert, lower_composite_access)                                                       \
  X(CompositeExtract, lower_composite_access)                                                      \
  X(CompositeConstruct, lower_composite_construct)                                                 \
  X(CheckSparseAccess, lower_check_sparse_access)                                                  \
  /* Load / store: lower_memory.cpp, lower_io_ops.cpp (I/O), lower_cf.cpp (ParamLoad) */           \
  X(ParamLoad, lower_param_load)                                                                   \
  X(TmpLoad, lower_not_final_form)                                                                 \
  X(TmpStore, lower_not_final_form)                                                                \
  X(ScratchLoad, lower_variable_load)                                                              \
  X(ScratchStore, lower_variable_store)                                                            \
  X(LdsLoad, lower_variable_load)                                                                  \
  X(LdsStore, lower_variable_store)                                                                \
  X(PushDataLoad, lower_variable_load)                                                             \
  X(InputLoad, lower_io_load)                                                                      \
  X(OutputLoad, lower_io_load)                                                                     \
  X(OutputStore, lower_output_store)                                                               \
  X(DescriptorLoad, lower_descriptor_load)                                                         \
  X(BufferLoad, lower_buffer_load)                                                                 \
  X(BufferStore, lower_buffer_store)                                                               \
  X(BufferQuerySize, lower_buffer_query_size)                                                      \
  X(MemoryLoad, lower_unsupported)                                                                 \
  X(MemoryStore, lower_unsupported)                                                                \
  X(ConstantLoad, lower_constant_load)                                                             \
  /* Atomics: lower_memory.cpp, lower_images.cpp (ImageAtomic) */                                  \
  X(LdsAtomic, lower_lds_atomic)                                                                   \
  X(BufferAtomic, lower_buffer_atomic)                                                             \
  X(ImageAtomic, lower_image_atomic)                                                               \
  X(CounterAtomic, lower_counter_atomic)                                                           \
  X(MemoryAtomic, lower_unsupported)                                                               \
  /* Images: lower_images.cpp */                                                                   \
  X(ImageLoad, lower_image_load)                                                                   \
  X(ImageStore, lower_image_store)                                                                 \
  X(ImageQuerySize, lower_image_query_size)                                                        \
  X(ImageQueryMips, lower_image_query_count)                                                       \
  X(ImageQuerySamples, lower_image_query_count)                                                    \
  X(ImageSample, lower_image_sample)                                                               \
  X(ImageGather, lower_image_gather)                                                               \
  X(ImageComputeLod, lower_image_compute_lod)                                                      \
  /* Pointers */                                                                                   \
  X(Pointer, lower_unsupported)                                                                    \
  /* Functions: lower_cf.cpp (EntryPoint: lower_declarations.cpp) */                               \
  X(Function, lower_function)                                                                      \
  X(FunctionEnd, lower_function_end)                                                               \
  X(FunctionCall, lower_function_call)                                                             \
  X(EntryPoint, lower_entry_point)                                                                 \
  X(Return, lower_return)                                                                          \
  /* Structured control flow: lower_cf.cpp */                                                      \
  X(Label, lower_label)                                                                            \
  X(Branch, lower_branch)                                                                          \
  X(BranchConditional, lower_branch_conditional)                                                   \
  X(Switch, lower_switch)                                                                          \
  X(Unreachable, lower_unreachable)                                                                \
  X(Phi, lower_phi)                                                                                \
  /* Scoped control flow: the passes make it structured */                                         \
  X(ScopedIf, lower_not_final_form)                                                                \
  X(ScopedElse, lower_not_final_form)                                                              \
  X(ScopedEndIf, lower_not_final_form)                                                             \
  X(ScopedLoop, lower_not_final_form)                                                              \
  X(ScopedLoopBreak, lower_not_final_form)                                                         \
  X(ScopedLoopContinue, lower_not_final_form)                                                      \
  X(ScopedEndLoop, lower_not_final_form)                                                           \
  X(ScopedSwitch, lower_not_final_form)                                                            \
  X(ScopedSwitchCase, lower_not_final_form)                                                        \
  X(ScopedSwitchDefault, lower_not_final_form)                                                     \
  X(ScopedSwitchBreak, lower_not_final_form)                                                       \
  X(ScopedEndSwitch, lower_not_final_form)                                                         \
  /* Barriers, geometry, pixel: lower_ops.cpp, lower_io_ops.cpp (emit, interpolation) */           \
  X(Barrier, lower_barrier)                                                                        \
  X(EmitVertex, lower_emit)                                                                        \
  X(EmitPrimitive, lower_emit)                                                                     \
  X(Demote, lower_demote)                                                                          \
  X(InterpolateAtCentroid, lower_interpolate)                                                      \
  X(InterpolateAtSample, lower_interpolate)                                                        \
  X(InterpolateAtOffset, lower_interpolate)                                                        \
  X(DerivX, lower_derivative)                                                                      \
  X(DerivY, lower_derivative)                                                                      \
  X(RovScopedLockBegin, lower_rov_lock)                                                            \
  X(RovScopedLockEnd, lower_rov_lock)                                                              \
  /* Comparison */                                                                                 \
  X(FEq, lower_direct, Core, spv::OpFOrdEqual, Raw)                                                \
  X(FNe, lower_direct, Core, spv::OpFUnordNotEqual, Raw)                                           \
  X(FLt, lower_direct, Core, spv::OpFOrdLessThan, Raw)                                             \
  X(FLe, lower_direct, Core, spv::OpFOrdLessThanEqual, Raw)                                        \
  X(FGt, lower_direct, Core, spv::OpFOrdGreaterThan, Raw)                                          \
  X(FGe, lower_direct, Core, spv::OpFOrdGreaterThanEqual, Raw)                                     \
  X(FIsNan, lower_direct, Core, spv::OpIsNan, Raw)                                                 \
  X(IEq, lower_direct, Core, spv::OpIEqual, Raw)                                                   \
  X(INe, lower_direct, Core, spv::OpINotEqual, Raw)                                                \
  X(SLt, lower_direct, Core, spv::OpSLessThan, Raw)                                                \
  X(SLe, lower_direct, Core, spv::OpSLessThanEqual, Raw)                                           \
  X(SGt, lower_direct, Core, spv::OpSGreaterThan, Raw)                                             \
  X(SGe, lower_direct, Core, spv::OpSGreaterThanEqual, Raw)                                        \
  X(ULt, lower_direct, Core, spv::OpULessThan, Raw)                                                \
  X(ULe, lower_direct, Core, spv::OpULessThanEqual, Raw)                                           \
  X(UGt, lower_direct, Core, spv::OpUGreaterThan, Raw)                                             \
  X(UGe, lower_direct, Core, spv::OpUGreaterThanEqual, Raw)                                        \
  /* Logical and conditional */                                                                    \
  X(BAnd, lower_direct, Core, spv::OpLogicalAnd, Raw)                                              \
  X(BOr, lower_direct, Core, spv::OpLogicalOr, Raw)                                                \
  X(BEq, lower_direct, Core, spv::OpLogicalEqual, Raw)                                             \
  X(BNe, lower_direct, Core, spv::OpLogicalNotEqual, Raw)                                          \
  X(BNot, lower_direct, Core, spv::OpLogicalNot, Raw)                                              \
  X(Select, lower_select)                                                                          \
  /* Float arithmetic */                                                                           \
  X(FAbs, lower_direct, Glsl, GLSLstd450FAbs, Same)                                                \
  X(FNeg, lower_direct, Core, spv::OpFNegate, Same)                                                \
  X(FAdd, lower_direct, Core, spv::OpFAdd, Same)                                                   \
  X(FSub, lower_direct, Core, spv::OpFSub, Same)                                                   \
  X(FMul, lower_direct, Core, spv::OpFMul, Same)                                                   \
  X(FMulLegacy, lower_not_final_form)                                                              \
  X(FMad, lower_fmad)                                                                              \
  X(FMadLegacy, lower_not_final_form)                                                              \
  X(FDiv, lower_direct, Core, spv::OpFDiv, Same)                                                   \
  X(FRcp, lower_frcp)                                                                              \
  X(FSqrt, lower_direct, Glsl, GLSLstd450Sqrt, Same)                                               \
  X(FRsq, lower_direct, Glsl, GLSLstd450InverseSqrt, Same)                                         \
  X(FExp2, lower_direct, Glsl, GLSLstd450Exp2, Same)                                               \
  X(FLog2, lower_direct, Glsl, GLSLstd450Log2, Same)                                               \
  X(FFract, lower_direct, Glsl, GLSLstd450Fract, Same)                                             \
  X(FRound, lower_fround)                                                                          \
  X(FMin, lower_direct, Glsl, GLSLstd450NMin, Same)                                                \
  X(FMax, lower_direct, Glsl, GLSLstd450NMax, Same)                                                \
  X(FDot, lower_not_final_form)                                                                    \
  X(FDotLegacy, lower_not_final_form)                                                              \
  X(FClamp, lower_direct, Glsl, GLSLstd450NClamp, Same)                                            \
  X(FSin, lower_direct, Glsl, GLSLstd450Sin, Same)                                                 \
  X(FCos, lower_direct, Glsl, GLSLstd450Cos, Same)                                                 \
  X(FPow, lower_direct, Glsl, GLSLstd450Pow, Same)                                                 \
  X(FPowLegacy, lower_not_final_form)                                                              \
  /* Bitwise */                                                                                    \
  X(IAnd, lower_direct, Core, spv::OpBitwiseAnd, Same)                                             \
  X(IOr, lower_direct, Core, spv::OpBitwiseOr, Same)                                               \
  X(IXor, lower_direct, Core, spv::OpBitwiseXor, Same)                                             \
  X(INot, lower_direct, Core, spv::OpNot, Same)                                                    \
  X(IBitInsert, lower_direct, Core, spv::OpBitFieldInsert, First2)                                 \
  X(UBitExtract, lower_direct, Core, spv::OpBitFieldUExtract, First)                               \
  X(SBitExtract, lower_direct, Core, spv::OpBitFieldSExtract, First)                               \
  X(IShl, lower_direct, Core, spv::OpShiftLeftLogical, First)                                      \
  X(SShr, lower_direct, Core, spv::OpShiftRightArithmetic, First)                                  \
  X(UShr, lower_direct, Core, spv::OpShiftRightLogical, First)                                     \
  X(IBitCount, lower_direct, Core, spv::OpBitCount, Raw)                                           \
  X(IBitReverse, lower_direct, Core, spv::OpBitReverse, Same)                                      \
  X(IFindLsb, lower_direct, Glsl, GLSLstd450FindILsb, Same)                                        \
  X(SFindMsb, lower_direct, Glsl, GLSLstd450FindSMsb, Same)                                        \
  X(UFindMsb, lower_direct, Glsl, GLSLstd450FindUMsb, Same)                                        \
  /* Integer arithmetic */                                                                         \
  X(IAdd, lower_direct, Core, spv::OpIAdd, Same)                                                   \
  X(IAddCarry, lower_extended_arith)                                                               \
  X(ISub, lower_direct, Core, spv::OpISub, Same)                                                   \
  X(ISubBorrow, lower_extended_arith)                                                              \
  X(IAbs, lower_direct, Glsl, GLSLstd450SAbs, Same)                                                \
  X(INeg, lower_direct, Core, spv::OpSNegate, Same)                                                \
  X(IMul, lower_direct, Core, spv::OpIMul, Same)                                                   \
  X(UDiv, lower_direct, Core, spv::OpUDiv, Same)                                                   \
  X(UMod, lower_direct, Core, spv::OpUMod, Same)                                                   \
  X(SMin, lower_direct, Glsl, GLSLstd450SMin, Same)                                                \
  X(SMax, lower_direct, Glsl, GLSLstd450SMax, Same)                                                \
  X(SClamp, lower_direct, Glsl, GLSLstd450SClamp, Same)                                            \
  X(UMin, lower_direct, Glsl, GLSLstd450UMin, Same)                                                \
  X(UMax, lower_direct, Glsl, GLSLstd450UMax, Same)                                                \
  X(UClamp, lower_direct, Glsl, GLSLstd450UClamp, Same)                                            \
  X(UMsad, lower_unsupported)                                                                      \
  X(SMulExtended, lower_extended_arith)                                                            \
  X(UMulExtended, lower_extended_arith)

namespace kiln::spirv {

enum class DirectSet : std::uint8_t { None, Core, Glsl };
enum class DirectOperands : std::uint8_t { Same, Raw, First, First2 };

// Bit i set: operand i is bitcast to the result type (the operand policy as a mask).
constexpr std::uint8_t cast_mask(DirectOperands operands) {
  switch (operands) {
  case DirectOperands::Same:
    return 0xf;
  case DirectOperands::First:
    return 0x1;
  case DirectOperands::First2:
    return 0x3;
  default:
    return 0;
  }
}

// One row's instruction column (set None: the row has none).
struct DirectOp {
  DirectSet set = DirectSet::None;
  std::uint32_t instruction = 0;
  DirectOperands operands = DirectOperands::Raw;
  std::uint8_t cast_mask = 0; // cast_mask(operands)
};

namespace lowering_table {

// The rows' opcodes in row order, the IR's opcodes in KILN_IR_OPCODES order, and whether each
// row's handler and columns agree.
constexpr ir::OpCode kRowOps[] = {
#define KILN_X(name, ...) ir::OpCode::name,
    KILN_SPIRV_LOWERINGS(KILN_X)
#undef KILN_X
};
constexpr ir::OpCode kIrOps[] = {
#define KILN_X(name, ...) ir::OpCode::name,
    KILN_IR_OPCODES(KILN_X)
#undef KILN_X
};
constexpr bool kRowConsistent[] = {
#define KILN_X(name, handler, ...)                                                                 \
  (std::string_view(#handler) == "lower_direct") == (__VA_OPT__(true ||) false),
    KILN_SPIRV_LOWERINGS(KILN_X)
#undef KILN_X
};

constexpr bool rows_follow_opcodes() {
  for (std::size_t i = 0; i < std::size(kRowOps) && i < std::size(kIrOps); ++i)
    if (kRowOps[i] != kIrOps[i]) return false;
  return true;
}
constexpr bool rows_consistent() {
  for (bool ok : kRowConsistent)
    if (!ok) return false;
  return true;
}
} // namespace lowering_table

static_assert(std::size(lowering_table::kRowOps) == std::size(lowering_table::kIrOps),
              "KILN_SPIRV_LOWERINGS needs one row for every IR opcode");
static_assert(lowering_table::rows_follow_opcodes(),
              "KILN_SPIRV_LOWERINGS rows must follow KILN_IR_OPCODES, in its order");
static_assert(lowering_table::rows_consistent(),
              "a KILN_SPIRV_LOWERINGS row has an instruction column exactly when its handler is "
              "lower_direct");

// The instruction column, indexed by opcode.
#define KILN_SPIRV_DIRECT_OP(set, instruction, operands)                                           \
  DirectOp {                                                                                       \
    DirectSet::set, std::uint32_t(instruction), DirectOperands::operands,                          \
        cast_mask(DirectOperands::operands)                                                        \
  }
struct DirectTable {
  DirectOp ops[std::size_t(ir::OpCode::Count)];
  constexpr DirectTable() {
#define KILN_X(name, handler, ...)                                                                 \
  __VA_OPT__(ops[std::size_t(ir::OpCode::name)] = KILN_SPIRV_DIRECT_OP(__VA_ARGS__);)
    KILN_SPIRV_LOWERINGS(KILN_X)
#undef KILN_X
  }
};
#undef KILN_SPIRV_DIRECT_OP
inline constexpr DirectTable kDirect{};

} // namespace kiln::spirv
