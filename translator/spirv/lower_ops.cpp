// SPIR-V backend: arithmetic, logic, comparisons, conversions, composites, derivatives and
// barriers. The one-to-one mappings are one table (KILN_SPIRV_DIRECT_OPS); the switch below
// only takes the ops that need more than one instruction or a choice.
#include "translator/spirv/lower_state.h"

#include <spirv/unified1/GLSL.std.450.h>

namespace kiln::spirv {

namespace {

// How operands are matched to the instruction: Same = every operand is bitcast to the result
// type where only signedness differs; Raw = as they are; First = only operand 0; First2 =
// operands 0 and 1 (IBitInsert's base and insert).
enum class Operands : std::uint8_t { Same, Raw, First, First2 };
enum class Set : std::uint8_t { None, Core, Glsl };

// X(ir op, instruction set, SPIR-V opcode or GLSL.std.450 instruction, operand policy)
#define KILN_SPIRV_DIRECT_OPS(X)                                                                   \
  X(FEq, Core, spv::OpFOrdEqual, Raw)                                                              \
  X(FNe, Core, spv::OpFUnordNotEqual, Raw)                                                         \
  X(FLt, Core, spv::OpFOrdLessThan, Raw)                                                           \
  X(FLe, Core, spv::OpFOrdLessThanEqual, Raw)                                                      \
  X(FGt, Core, spv::OpFOrdGreaterThan, Raw)                                                        \
  X(FGe, Core, spv::OpFOrdGreaterThanEqual, Raw)                                                   \
  X(FIsNan, Core, spv::OpIsNan, Raw)                                                               \
  X(IEq, Core, spv::OpIEqual, Raw)                                                                 \
  X(INe, Core, spv::OpINotEqual, Raw)                                                              \
  X(SLt, Core, spv::OpSLessThan, Raw)                                                              \
  X(SLe, Core, spv::OpSLessThanEqual, Raw)                                                         \
  X(SGt, Core, spv::OpSGreaterThan, Raw)                                                           \
  X(SGe, Core, spv::OpSGreaterThanEqual, Raw)                                                      \
  X(ULt, Core, spv::OpULessThan, Raw)                                                              \
  X(ULe, Core, spv::OpULessThanEqual, Raw)                                                         \
  X(UGt, Core, spv::OpUGreaterThan, Raw)                                                           \
  X(UGe, Core, spv::OpUGreaterThanEqual, Raw)                                                      \
  X(BAnd, Core, spv::OpLogicalAnd, Raw)                                                            \
  X(BOr, Core, spv::OpLogicalOr, Raw)                                                              \
  X(BEq, Core, spv::OpLogicalEqual, Raw)                                                           \
  X(BNe, Core, spv::OpLogicalNotEqual, Raw)                                                        \
  X(BNot, Core, spv::OpLogicalNot, Raw)                                                            \
  X(FAbs, Glsl, GLSLstd450FAbs, Same)                                                              \
  X(FNeg, Core, spv::OpFNegate, Same)                                                              \
  X(FAdd, Core, spv::OpFAdd, Same)                                                                 \
  X(FSub, Core, spv::OpFSub, Same)                                                                 \
  X(FMul, Core, spv::OpFMul, Same)                                                                 \
  X(FDiv, Core, spv::OpFDiv, Same)                                                                 \
  X(FSqrt, Glsl, GLSLstd450Sqrt, Same)                                                             \
  X(FRsq, Glsl, GLSLstd450InverseSqrt, Same)                                                       \
  X(FExp2, Glsl, GLSLstd450Exp2, Same)                                                             \
  X(FLog2, Glsl, GLSLstd450Log2, Same)                                                             \
  X(FFract, Glsl, GLSLstd450Fract, Same)                                                           \
  X(FMin, Glsl, GLSLstd450NMin, Same)                                                              \
  X(FMax, Glsl, GLSLstd450NMax, Same)                                                              \
  X(FClamp, Glsl, GLSLstd450NClamp, Same)                                                          \
  X(FSin, Glsl, GLSLstd450Sin, Same)                                                               \
  X(FCos, Glsl, GLSLstd450Cos, Same)                                                               \
  X(FPow, Glsl, GLSLstd450Pow, Same)                                                               \
  X(IAnd, Core, spv::OpBitwiseAnd, Same)                                                           \
  X(IOr, Core, spv::OpBitwiseOr, Same)                                                             \
  X(IXor, Core, spv::OpBitwiseXor, Same)                                                           \
  X(INot, Core, spv::OpNot, Same)                                                                  \
  X(IBitInsert, Core, spv::OpBitFieldInsert, First2)                                               \
  X(UBitExtract, Core, spv::OpBitFieldUExtract, First)                                             \
  X(SBitExtract, Core, spv::OpBitFieldSExtract, First)                                             \
  X(IShl, Core, spv::OpShiftLeftLogical, First)                                                    \
  X(SShr, Core, spv::OpShiftRightArithmetic, First)                                                \
  X(UShr, Core, spv::OpShiftRightLogical, First)                                                   \
  X(IBitCount, Core, spv::OpBitCount, Raw)                                                         \
  X(IBitReverse, Core, spv::OpBitReverse, Same)                                                    \
  X(IFindLsb, Glsl, GLSLstd450FindILsb, Same)                                                      \
  X(SFindMsb, Glsl, GLSLstd450FindSMsb, Same)                                                      \
  X(UFindMsb, Glsl, GLSLstd450FindUMsb, Same)                                                      \
  X(IAdd, Core, spv::OpIAdd, Same)                                                                 \
  X(ISub, Core, spv::OpISub, Same)                                                                 \
  X(IAbs, Glsl, GLSLstd450SAbs, Same)                                                              \
  X(INeg, Core, spv::OpSNegate, Same)                                                              \
  X(IMul, Core, spv::OpIMul, Same)                                                                 \
  X(UDiv, Core, spv::OpUDiv, Same)                                                                 \
  X(UMod, Core, spv::OpUMod, Same)                                                                 \
  X(SMin, Glsl, GLSLstd450SMin, Same)                                                              \
  X(SMax, Glsl, GLSLstd450SMax, Same)                                                              \
  X(SClamp, Glsl, GLSLstd450SClamp, Same)                                                          \
  X(UMin, Glsl, GLSLstd450UMin, Same)                                                              \
  X(UMax, Glsl, GLSLstd450UMax, Same)                                                              \
  X(UClamp, Glsl, GLSLstd450UClamp, Same)

struct DirectOp {
  Set set = Set::None;
  std::uint32_t instruction = 0;
  Operands operands = Operands::Raw;
};

struct DirectTable {
  DirectOp ops[std::size_t(ir::OpCode::Count)];
  constexpr DirectTable() {
#define KILN_X(name, set_, inst, policy)                                                           \
  ops[std::size_t(ir::OpCode::name)] = DirectOp{Set::set_, std::uint32_t(inst), Operands::policy};
    KILN_SPIRV_DIRECT_OPS(KILN_X)
#undef KILN_X
  }
};
constexpr DirectTable kDirect{};
} // namespace

Status Lowering::State::lower_arith(ir::OpView o, bool& handled) {
  using ir::OpCode;
  handled = true;
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const DirectOp& direct = kDirect.ops[std::size_t(o.code())];
  if (direct.set != Set::None) {
    Id operands[4];
    std::uint32_t n = o.ref_count();
    if (n > 4) return fail(def, "too many operands");
    for (std::uint32_t i = 0; i < n; ++i) {
      bool cast = direct.operands == Operands::Same ||
                  (direct.operands == Operands::First && i == 0) ||
                  (direct.operands == Operands::First2 && i < 2);
      operands[i] = cast ? value_as(o.operand(i).def(), rt) : value(o.operand(i).def());
    }
    Id result;
    if (direct.set == Set::Core) {
      result = mb.op(spv::Op(direct.instruction), type(rt),
                     std::span<const std::uint32_t>(operands, n), id_for(def));
    } else {
      scratch_words.clear();
      scratch_words.push_back(glsl);
      scratch_words.push_back(direct.instruction);
      scratch_words.insert(scratch_words.end(), operands, operands + n);
      result = mb.op(spv::OpExtInst, type(rt), scratch_words, id_for(def));
    }
    decorate_result(o, result);
    return Status::ok();
  }

  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  auto vt = [&](std::uint32_t i) { return type_of(o.operand(i).def()); };
  switch (o.code()) {
  case OpCode::FRcp: {
    Id r = mb.op(spv::OpFDiv, type(rt),
                 {splat_constant(rt, rt.scalar_type() == ir::ScalarType::F64 ? 0x3ff0000000000000ull
                                     : rt.scalar_type() == ir::ScalarType::F16 ? 0x3c00u
                                                                               : 0x3f800000u),
                  value_as(o.operand(0).def(), rt)},
                 id_for(def));
    decorate_result(o, r);
    return Status::ok();
  }
  case OpCode::FMad: {
    // D3D mad is not fused; Precise keeps the pair from being contracted.
    Id product = mb.op(spv::OpFMul, type(rt),
                       {value_as(o.operand(0).def(), rt), value_as(o.operand(1).def(), rt)});
    decorate_result(o, product);
    Id r = mb.op(spv::OpFAdd, type(rt), {product, value_as(o.operand(2).def(), rt)}, id_for(def));
    decorate_result(o, r);
    return Status::ok();
  }
  case OpCode::FRound: {
    std::uint32_t inst;
    switch (o.operand(1).literal_enum<ir::RoundMode>()) {
    case ir::RoundMode::Zero:
      inst = GLSLstd450Trunc;
      break;
    case ir::RoundMode::NegativeInf:
      inst = GLSLstd450Floor;
      break;
    case ir::RoundMode::PositiveInf:
      inst = GLSLstd450Ceil;
      break;
    default:
      inst = GLSLstd450RoundEven;
      break;
    }
    Id r = mb.op(spv::OpExtInst, type(rt), {glsl, inst, value_as(o.operand(0).def(), rt)},
                 id_for(def));
    decorate_result(o, r);
    return Status::ok();
  }
  case OpCode::Select: {
    Id cond = v(0);
    if (rt.is_vector() && vt(0).is_scalar() && !spirv_at_least(mb.target(), 4)) {
      // Before SPIR-V 1.4 a vector select needs a condition vector of the same size.
      Id parts[4] = {cond, cond, cond, cond};
      cond = mb.op(spv::OpCompositeConstruct, basic(ir::ScalarType::Bool, rt.vector_size()),
                   std::span<const std::uint32_t>(parts, rt.vector_size()));
    }
    mb.op(spv::OpSelect, type(rt),
          {cond, value_as(o.operand(1).def(), rt), value_as(o.operand(2).def(), rt)}, id_for(def));
    return Status::ok();
  }
  case OpCode::ConvertFtoF:
    mb.op(spv::OpFConvert, type(rt), {v(0)}, id_for(def));
    return Status::ok();
  case OpCode::ConvertFtoI:
    mb.op(ir::is_signed_int(rt.scalar_type()) ? spv::OpConvertFToS : spv::OpConvertFToU, type(rt),
          {v(0)}, id_for(def));
    return Status::ok();
  case OpCode::ConvertItoF:
    mb.op(ir::is_signed_int(vt(0).scalar_type()) ? spv::OpConvertSToF : spv::OpConvertUToF,
          type(rt), {v(0)}, id_for(def));
    return Status::ok();
  case OpCode::ConvertItoI: {
    ir::Type from = vt(0);
    if (scalar_size(from.scalar_type()) == scalar_size(rt.scalar_type())) {
      bind(def, bitcast_id(v(0), from, rt), rt);
    } else {
      bool widen = scalar_size(rt.scalar_type()) > scalar_size(from.scalar_type());
      bool sign = widen && ir::is_signed_int(from.scalar_type());
      // OpSConvert/OpUConvert: the result's signedness is free; narrowing truncates either way.
      mb.op(sign ? spv::OpSConvert : spv::OpUConvert, type(rt), {v(0)}, id_for(def));
    }
    return Status::ok();
  }
  case OpCode::Cast: {
    ir::Type from = vt(0);
    if (type(from) == type(rt))
      bind(def, v(0), rt);
    else
      mb.op(spv::OpBitcast, type(rt), {v(0)}, id_for(def));
    return Status::ok();
  }
  case OpCode::ConvertF32toPackedF16:
    mb.op(spv::OpExtInst, type(rt), {glsl, GLSLstd450PackHalf2x16, v(0)}, id_for(def));
    return Status::ok();
  case OpCode::ConvertPackedF16toF32:
    mb.op(spv::OpExtInst, type(rt),
          {glsl, GLSLstd450UnpackHalf2x16, value_as(o.operand(0).def(), ir::kU32)}, id_for(def));
    return Status::ok();
  case OpCode::IAddCarry:
  case OpCode::ISubBorrow:
  case OpCode::UMulExtended:
  case OpCode::SMulExtended: {
    // SPIR-V returns a two-member struct; the IR wants vec2 (low, high).
    ir::Type half = rt.with_vector_size(1);
    Id half_type = basic(half);
    Id members[2] = {half_type, half_type};
    Id pair = mb.type_struct(std::span<const Id>(members, 2));
    spv::Op opcode = o.code() == OpCode::IAddCarry      ? spv::OpIAddCarry
                     : o.code() == OpCode::ISubBorrow   ? spv::OpISubBorrow
                     : o.code() == OpCode::UMulExtended ? spv::OpUMulExtended
                                                        : spv::OpSMulExtended;
    Id r = mb.op(opcode, pair,
                 {value_as(o.operand(0).def(), half), value_as(o.operand(1).def(), half)});
    Id lo = mb.op(spv::OpCompositeExtract, half_type, {r, 0});
    Id hi = mb.op(spv::OpCompositeExtract, half_type, {r, 1});
    mb.op(spv::OpCompositeConstruct, type(rt), {lo, hi}, id_for(def));
    return Status::ok();
  }
  case OpCode::CompositeConstruct: {
    scratch_words.clear();
    ir::TypeView view;
    bool is_vector = rt.is_basic();
    if (!is_vector) view = ir->types().view(rt);
    for (std::uint32_t i = 0; i < o.ref_count(); ++i) {
      ir::Type want = is_vector        ? rt.with_vector_size(1)
                      : view.dim_count ? ir::Type()
                                       : view.member(i < view.member_count() ? i : 0);
      scratch_words.push_back(want.is_void() ? v(i) : value_as(o.operand(i).def(), want));
    }
    mb.op(spv::OpCompositeConstruct, type(rt), scratch_words, id_for(def));
    return Status::ok();
  }
  case OpCode::CompositeExtract:
  case OpCode::CompositeInsert: {
    bool insert = o.code() == OpCode::CompositeInsert;
    ir::OpView address = op(o.operand(1).def());
    if (address.code() != OpCode::Constant) return fail(def, "dynamic composite address");
    scratch_words.clear();
    if (insert) {
      // The inserted value takes the type of the element it replaces.
      scratch_words.push_back(v(2));
    }
    scratch_words.push_back(v(0));
    for (std::uint32_t i = 0; i < address.operand_count(); ++i)
      scratch_words.push_back(address.operand(i).literal_u32());
    mb.op(insert ? spv::OpCompositeInsert : spv::OpCompositeExtract, type(rt), scratch_words,
          id_for(def));
    return Status::ok();
  }
  case OpCode::DerivX:
  case OpCode::DerivY: {
    if (stage != ShaderStage::Pixel) return fail(def, "derivatives outside pixel shaders");
    bool x = o.code() == OpCode::DerivX;
    auto mode = o.operand(1).literal_enum<ir::DerivativeMode>();
    spv::Op opcode = x ? spv::OpDPdx : spv::OpDPdy;
    if (mode == ir::DerivativeMode::Coarse) opcode = x ? spv::OpDPdxCoarse : spv::OpDPdyCoarse;
    if (mode == ir::DerivativeMode::Fine) opcode = x ? spv::OpDPdxFine : spv::OpDPdyFine;
    if (mode != ir::DerivativeMode::Default)
      mb.require_capability(spv::CapabilityDerivativeControl);
    mb.op(opcode, type(rt), {value_as(o.operand(0).def(), rt)}, id_for(def));
    return Status::ok();
  }
  case OpCode::Barrier: {
    auto exec = o.operand(0).literal_enum<ir::Scope>();
    auto mem = o.operand(1).literal_enum<ir::Scope>();
    auto types = o.operand(2).literal_enum<ir::MemoryTypeMask>();
    std::uint32_t semantics = 0;
    if (ir::has(types, ir::MemoryTypeMask::Lds))
      semantics |= spv::MemorySemanticsWorkgroupMemoryMask;
    if (ir::has(types, ir::MemoryTypeMask::UavBuffer))
      semantics |= spv::MemorySemanticsUniformMemoryMask;
    if (ir::has(types, ir::MemoryTypeMask::UavImage))
      semantics |= spv::MemorySemanticsImageMemoryMask;
    if (semantics) semantics |= spv::MemorySemanticsAcquireReleaseMask;
    if (exec == ir::Scope::Thread) {
      if (semantics)
        mb.op_void(spv::OpMemoryBarrier, {const_u32(spirv_scope(mem)), const_u32(semantics)});
    } else {
      if (stage != ShaderStage::Compute && stage != ShaderStage::Hull)
        return fail(def, "execution barrier outside compute and hull shaders");
      mb.op_void(spv::OpControlBarrier,
                 {const_u32(spirv_scope(exec)), const_u32(spirv_scope(mem)), const_u32(semantics)});
    }
    return Status::ok();
  }
  case OpCode::Demote:
    if (stage != ShaderStage::Pixel) return fail(def, "Demote outside pixel shaders");
    emit_demote();
    return Status::ok();
  case OpCode::RovScopedLockBegin:
  case OpCode::RovScopedLockEnd:
    // The interlock spans the whole entry function (see State::rov); accesses inside it are
    // ordered by the interlock itself.
    if (!rov && !rov_unordered)
      return fail(def, "rasterizer-ordered lock without a rasterizer-ordered UAV");
    return Status::ok();
  case OpCode::CheckSparseAccess:
    mb.require_capability(spv::CapabilitySparseResidency);
    mb.op(spv::OpImageSparseTexelsResident, type(rt), {value_as(o.operand(0).def(), ir::kU32)},
          id_for(def));
    return Status::ok();
  default:
    handled = false;
    return Status::ok();
  }
}

} // namespace kiln::spirv
