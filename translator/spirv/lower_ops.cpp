// SPIR-V backend: arithmetic, logic, comparisons, conversions, composites, derivatives and
// barriers. The one-to-one mappings are rows of KILN_SPIRV_LOWERINGS (lower_table.h) with an
// instruction column, all emitted by lower_direct; the handlers after it take the ops that need
// more than one instruction or a choice.
#include "translator/spirv/lower_state.h"
#include "translator/spirv/lower_table.h"

namespace kiln::spirv {

// The rows of KILN_SPIRV_LOWERINGS with an instruction column: that one instruction.
Status Lowering::State::lower_direct(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const DirectOp& direct = kDirect.ops[std::size_t(o.code())];
  Id operands[4];
  std::uint32_t n = o.ref_count();
  if (n > 4) return fail(def, "too many operands");
  for (std::uint32_t i = 0; i < n; ++i) {
    bool cast = direct.operands == DirectOperands::Same ||
                (direct.operands == DirectOperands::First && i == 0) ||
                (direct.operands == DirectOperands::First2 && i < 2);
    operands[i] = cast ? value_as(o.operand(i).def(), rt) : value(o.operand(i).def());
  }
  Id result;
  if (direct.set == DirectSet::Core) {
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

Status Lowering::State::lower_frcp(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  Id r = mb.op(spv::OpFDiv, type(rt),
               {splat_constant(rt, rt.scalar_type() == ir::ScalarType::F64   ? 0x3ff0000000000000ull
                                   : rt.scalar_type() == ir::ScalarType::F16 ? 0x3c00u
                                                                             : 0x3f800000u),
                value_as(o.operand(0).def(), rt)},
               id_for(def));
  decorate_result(o, r);
  return Status::ok();
}

Status Lowering::State::lower_fmad(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  // D3D mad is not fused; Precise keeps the pair from being contracted.
  Id product = mb.op(spv::OpFMul, type(rt),
                     {value_as(o.operand(0).def(), rt), value_as(o.operand(1).def(), rt)});
  decorate_result(o, product);
  Id r = mb.op(spv::OpFAdd, type(rt), {product, value_as(o.operand(2).def(), rt)}, id_for(def));
  decorate_result(o, r);
  return Status::ok();
}

Status Lowering::State::lower_fround(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
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
  Id r =
      mb.op(spv::OpExtInst, type(rt), {glsl, inst, value_as(o.operand(0).def(), rt)}, id_for(def));
  decorate_result(o, r);
  return Status::ok();
}

Status Lowering::State::lower_select(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  auto vt = [&](std::uint32_t i) { return type_of(o.operand(i).def()); };
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

// ConvertFtoF, ConvertFtoI, ConvertItoF: the instruction follows the op and the signedness of
// its integer side.
Status Lowering::State::lower_convert(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  auto vt = [&](std::uint32_t i) { return type_of(o.operand(i).def()); };
  const spv::Op opcode =
      o.code() == ir::OpCode::ConvertFtoF ? spv::OpFConvert
      : o.code() == ir::OpCode::ConvertFtoI
          ? (ir::is_signed_int(rt.scalar_type()) ? spv::OpConvertFToS : spv::OpConvertFToU)
          : (ir::is_signed_int(vt(0).scalar_type()) ? spv::OpConvertSToF : spv::OpConvertUToF);
  mb.op(opcode, type(rt), {v(0)}, id_for(def));
  return Status::ok();
}

Status Lowering::State::lower_convert_itoi(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  auto vt = [&](std::uint32_t i) { return type_of(o.operand(i).def()); };
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

Status Lowering::State::lower_cast(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  auto vt = [&](std::uint32_t i) { return type_of(o.operand(i).def()); };
  ir::Type from = vt(0);
  if (type(from) == type(rt))
    bind(def, v(0), rt);
  else
    mb.op(spv::OpBitcast, type(rt), {v(0)}, id_for(def));
  return Status::ok();
}

Status Lowering::State::lower_pack_half(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  mb.op(spv::OpExtInst, type(rt), {glsl, GLSLstd450PackHalf2x16, v(0)}, id_for(def));
  return Status::ok();
}

Status Lowering::State::lower_unpack_half(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  mb.op(spv::OpExtInst, type(rt),
        {glsl, GLSLstd450UnpackHalf2x16, value_as(o.operand(0).def(), ir::kU32)}, id_for(def));
  return Status::ok();
}

// IAddCarry, ISubBorrow, UMulExtended, SMulExtended.
Status Lowering::State::lower_extended_arith(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  // SPIR-V returns a two-member struct; the IR wants vec2 (low, high).
  ir::Type half = rt.with_vector_size(1);
  Id half_type = basic(half);
  Id members[2] = {half_type, half_type};
  Id pair = mb.type_struct(std::span<const Id>(members, 2));
  spv::Op opcode = o.code() == ir::OpCode::IAddCarry      ? spv::OpIAddCarry
                   : o.code() == ir::OpCode::ISubBorrow   ? spv::OpISubBorrow
                   : o.code() == ir::OpCode::UMulExtended ? spv::OpUMulExtended
                                                          : spv::OpSMulExtended;
  Id r =
      mb.op(opcode, pair, {value_as(o.operand(0).def(), half), value_as(o.operand(1).def(), half)});
  Id lo = mb.op(spv::OpCompositeExtract, half_type, {r, 0});
  Id hi = mb.op(spv::OpCompositeExtract, half_type, {r, 1});
  mb.op(spv::OpCompositeConstruct, type(rt), {lo, hi}, id_for(def));
  return Status::ok();
}

Status Lowering::State::lower_composite_construct(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
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

// CompositeExtract, CompositeInsert.
Status Lowering::State::lower_composite_access(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  auto v = [&](std::uint32_t i) { return value(o.operand(i).def()); };
  bool insert = o.code() == ir::OpCode::CompositeInsert;
  ir::OpView address = op(o.operand(1).def());
  if (address.code() != ir::OpCode::Constant) return fail(def, "dynamic composite address");
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

// DerivX, DerivY.
Status Lowering::State::lower_derivative(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  if (stage != ShaderStage::Pixel) return fail(def, "derivatives outside pixel shaders");
  bool x = o.code() == ir::OpCode::DerivX;
  auto mode = o.operand(1).literal_enum<ir::DerivativeMode>();
  spv::Op opcode = x ? spv::OpDPdx : spv::OpDPdy;
  if (mode == ir::DerivativeMode::Coarse) opcode = x ? spv::OpDPdxCoarse : spv::OpDPdyCoarse;
  if (mode == ir::DerivativeMode::Fine) opcode = x ? spv::OpDPdxFine : spv::OpDPdyFine;
  if (mode != ir::DerivativeMode::Default) mb.require_capability(spv::CapabilityDerivativeControl);
  mb.op(opcode, type(rt), {value_as(o.operand(0).def(), rt)}, id_for(def));
  return Status::ok();
}

Status Lowering::State::lower_barrier(ir::OpView o) {
  const ir::SsaDef def = o.def();
  auto exec = o.operand(0).literal_enum<ir::Scope>();
  auto mem = o.operand(1).literal_enum<ir::Scope>();
  auto types = o.operand(2).literal_enum<ir::MemoryTypeMask>();
  std::uint32_t semantics = 0;
  if (ir::has(types, ir::MemoryTypeMask::Lds)) semantics |= spv::MemorySemanticsWorkgroupMemoryMask;
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

Status Lowering::State::lower_demote(ir::OpView o) {
  const ir::SsaDef def = o.def();
  if (stage != ShaderStage::Pixel) return fail(def, "Demote outside pixel shaders");
  emit_demote();
  return Status::ok();
}

// RovScopedLockBegin, RovScopedLockEnd.
Status Lowering::State::lower_rov_lock(ir::OpView o) {
  const ir::SsaDef def = o.def();
  // The interlock spans the whole entry function (see State::rov); accesses inside it are
  // ordered by the interlock itself.
  if (!rov && !rov_unordered)
    return fail(def, "rasterizer-ordered lock without a rasterizer-ordered UAV");
  return Status::ok();
}

Status Lowering::State::lower_check_sparse_access(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  mb.require_capability(spv::CapabilitySparseResidency);
  mb.op(spv::OpImageSparseTexelsResident, type(rt), {value_as(o.operand(0).def(), ir::kU32)},
        id_for(def));
  return Status::ok();
}

} // namespace kiln::spirv
