// SPIR-V backend: arithmetic, logic, comparisons, conversions, composites, derivatives and
// barriers. The one-to-one mappings are rows of KILN_SPIRV_LOWERINGS (lower_table.h) with an
// instruction column, all emitted by lower_direct; the handlers after it take the ops that need
// more than one instruction or a choice.
#include "translator/spirv/lower_state.h"
#include "translator/spirv/lower_table.h"

namespace kiln::spirv {

// The rows of KILN_SPIRV_LOWERINGS with an instruction column: that one instruction. Ids are
// taken in a fixed order (operands, the result, its type) so that a module's numbering does
// not depend on how the compiler orders a call's arguments.
bool Lowering::State::lower_direct(ir::OpView o) {
  const DirectOp& direct = kDirect.ops[std::size_t(o.code())];
  const ir::Type rt = o.type();
  const std::uint32_t n = o.ref_count();
  if (n > 4) [[unlikely]]
    return fail(at(o.def()), "too many operands");
  const auto refs = o.operands();
  // OpExtInst's operands are the set and the instruction, then these.
  std::uint32_t words[6];
  words[0] = glsl;
  words[1] = direct.instruction;
  std::uint32_t* const operands = words + 2;
  for (std::uint32_t i = 0; i < n; ++i) {
    const ir::SsaDef operand = refs[i].def();
    operands[i] = direct.cast_mask >> i & 1u ? value_as(operand, rt) : value(operand);
  }
  const Id result = id_for(o.def());
  const Id result_type = type(rt);
  const bool core = direct.set == DirectSet::Core;
  const auto opcode = core ? spv::Op(direct.instruction) : spv::OpExtInst;
  const std::uint32_t* first = core ? operands : words;
  // One instruction of known length per count: straight-line stores rather than a copy loop.
  switch (n + (core ? 0 : 2)) {
  case 1:
    mb.op(opcode, result_type, {first[0]}, result);
    break;
  case 2:
    mb.op(opcode, result_type, {first[0], first[1]}, result);
    break;
  case 3:
    mb.op(opcode, result_type, {first[0], first[1], first[2]}, result);
    break;
  case 4:
    mb.op(opcode, result_type, {first[0], first[1], first[2], first[3]}, result);
    break;
  default: // none, or IBitInsert's four
    mb.op(opcode, result_type, std::span<const std::uint32_t>(first, n + (core ? 0 : 2)), result);
    break;
  }
  decorate_result(o, result);
  return true;
}

bool Lowering::State::lower_frcp(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  Id r = mb.op(spv::OpFDiv, type(rt),
               {splat_constant(rt, rt.scalar_type() == ir::ScalarType::F64   ? 0x3ff0000000000000ull
                                   : rt.scalar_type() == ir::ScalarType::F16 ? 0x3c00u
                                                                             : 0x3f800000u),
                value_as(ir::ops::FRcp(o).a().def(), rt)},
               id_for(def));
  decorate_result(o, r);
  return true;
}

bool Lowering::State::lower_fmad(ir::OpView o) {
  const ir::Type rt = o.type();
  const ir::ops::FMad mad(o);
  // D3D mad is not fused; Precise keeps the pair from being contracted.
  const Id a = value_as(mad.a().def(), rt), b = value_as(mad.b().def(), rt);
  const Id result_type = type(rt);
  const Id product = mb.op(spv::OpFMul, result_type, {a, b});
  decorate_result(o, product);
  const Id result = id_for(o.def());
  const Id c = value_as(mad.c().def(), rt);
  mb.op(spv::OpFAdd, result_type, {product, c}, result);
  decorate_result(o, result);
  return true;
}

bool Lowering::State::lower_fround(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  std::uint32_t inst;
  const ir::ops::FRound round(o);
  switch (round.mode().literal_enum<ir::RoundMode>()) {
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
  Id r = mb.op(spv::OpExtInst, type(rt), {glsl, inst, value_as(round.a().def(), rt)}, id_for(def));
  decorate_result(o, r);
  return true;
}

bool Lowering::State::lower_select(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const ir::ops::Select select(o);
  Id cond = value(select.condition().def());
  if (rt.is_vector() && type_of(select.condition().def()).is_scalar() &&
      !spirv_at_least(mb.target(), 4)) {
    // Before SPIR-V 1.4 a vector select needs a condition vector of the same size.
    Id parts[4] = {cond, cond, cond, cond};
    cond = mb.op(spv::OpCompositeConstruct, basic(ir::ScalarType::Bool, rt.vector_size()),
                 std::span<const std::uint32_t>(parts, rt.vector_size()));
  }
  const Id result = id_for(def);
  const Id if_true = value_as(select.if_true().def(), rt),
           if_false = value_as(select.if_false().def(), rt);
  mb.op(spv::OpSelect, type(rt), {cond, if_true, if_false}, result);
  return true;
}

// ConvertFtoF, ConvertFtoI, ConvertItoF: the instruction follows the op and the signedness of
// its integer side.
bool Lowering::State::lower_convert(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  // Every conversion names its value alike.
  const ir::SsaDef from = ir::ops::ConvertFtoF(o).value().def();
  const spv::Op opcode =
      o.code() == ir::OpCode::ConvertFtoF ? spv::OpFConvert
      : o.code() == ir::OpCode::ConvertFtoI
          ? (ir::is_signed_int(rt.scalar_type()) ? spv::OpConvertFToS : spv::OpConvertFToU)
          : (ir::is_signed_int(type_of(from).scalar_type()) ? spv::OpConvertSToF
                                                            : spv::OpConvertUToF);
  mb.op(opcode, type(rt), {value(from)}, id_for(def));
  return true;
}

bool Lowering::State::lower_convert_itoi(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const ir::SsaDef converted = ir::ops::ConvertItoI(o).value().def();
  ir::Type from = type_of(converted);
  if (scalar_size(from.scalar_type()) == scalar_size(rt.scalar_type())) {
    bind(def, bitcast_id(value(converted), from, rt), rt);
  } else {
    bool widen = scalar_size(rt.scalar_type()) > scalar_size(from.scalar_type());
    bool sign = widen && ir::is_signed_int(from.scalar_type());
    // OpSConvert/OpUConvert: the result's signedness is free; narrowing truncates either way.
    mb.op(sign ? spv::OpSConvert : spv::OpUConvert, type(rt), {value(converted)}, id_for(def));
  }
  return true;
}

bool Lowering::State::lower_cast(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const ir::SsaDef cast = ir::ops::Cast(o).value().def();
  ir::Type from = type_of(cast);
  if (type(from) == type(rt))
    bind(def, value(cast), rt);
  else
    mb.op(spv::OpBitcast, type(rt), {value(cast)}, id_for(def));
  return true;
}

bool Lowering::State::lower_pack_half(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  mb.op(spv::OpExtInst, type(rt),
        {glsl, GLSLstd450PackHalf2x16, value(ir::ops::ConvertF32toPackedF16(o).value().def())},
        id_for(def));
  return true;
}

bool Lowering::State::lower_unpack_half(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  mb.op(spv::OpExtInst, type(rt),
        {glsl, GLSLstd450UnpackHalf2x16,
         value_as(ir::ops::ConvertPackedF16toF32(o).value().def(), ir::kU32)},
        id_for(def));
  return true;
}

// IAddCarry, ISubBorrow, UMulExtended, SMulExtended.
bool Lowering::State::lower_extended_arith(ir::OpView o) {
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
  // IAddCarry's roles are every extended op's.
  const ir::ops::IAddCarry args(o);
  Id r = mb.op(opcode, pair, {value_as(args.a().def(), half), value_as(args.b().def(), half)});
  Id lo = mb.op(spv::OpCompositeExtract, half_type, {r, 0});
  Id hi = mb.op(spv::OpCompositeExtract, half_type, {r, 1});
  mb.op(spv::OpCompositeConstruct, type(rt), {lo, hi}, id_for(def));
  return true;
}

bool Lowering::State::lower_composite_construct(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const auto refs = o.operands();
  const std::uint32_t n = o.ref_count();
  if (rt.is_basic() && n <= 4) {
    // A vector from its components (the common case): no scratch list.
    const ir::Type want = rt.with_vector_size(1);
    Id parts[4];
    for (std::uint32_t i = 0; i < n; ++i) parts[i] = value_as(refs[i].def(), want);
    const Id result = id_for(def);
    mb.op(spv::OpCompositeConstruct, type(rt), std::span<const std::uint32_t>(parts, n), result);
    return true;
  }
  scratch_words.clear();
  ir::TypeView view;
  bool is_vector = rt.is_basic();
  if (!is_vector) view = ir->types().view(rt);
  for (std::uint32_t i = 0; i < n; ++i) {
    ir::Type want = is_vector        ? rt.with_vector_size(1)
                    : view.dim_count ? ir::Type()
                                     : view.member(i < view.member_count() ? i : 0);
    const ir::SsaDef part = refs[i].def();
    scratch_words.push_back(want.is_void() ? value(part) : value_as(part, want));
  }
  const Id result = id_for(def);
  mb.op(spv::OpCompositeConstruct, type(rt), scratch_words, result);
  return true;
}

// CompositeExtract, CompositeInsert.
bool Lowering::State::lower_composite_access(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  const bool insert = o.code() == ir::OpCode::CompositeInsert;
  // CompositeInsert names the composite and the address as CompositeExtract does.
  const ir::ops::CompositeExtract access(o);
  const ir::SsaDef composite_def = access.composite().def();
  const ir::SsaDef inserted_def = insert ? ir::ops::CompositeInsert(o).value().def() : ir::SsaDef();
  const ir::OpView address = op(access.address().def());
  if (address.code() != ir::OpCode::Constant) return fail(at(def), "dynamic composite address");
  const auto indices = address.operands();
  if (indices.size() == 1) {
    // One level (a vector component, mostly): straight-line.
    const Id inserted = insert ? value(inserted_def) : 0;
    const Id composite = value(composite_def);
    const Id result = id_for(def);
    if (insert)
      mb.op(spv::OpCompositeInsert, type(rt), {inserted, composite, indices[0].literal_u32()},
            result);
    else
      mb.op(spv::OpCompositeExtract, type(rt), {composite, indices[0].literal_u32()}, result);
    return true;
  }
  // [inserted value,] composite, literal indices. The inserted value takes the type of the
  // element it replaces.
  scratch_words.clear();
  if (insert) scratch_words.push_back(value(inserted_def));
  scratch_words.push_back(value(composite_def));
  for (const ir::Operand& index : indices) scratch_words.push_back(index.literal_u32());
  const Id result = id_for(def);
  mb.op(insert ? spv::OpCompositeInsert : spv::OpCompositeExtract, type(rt), scratch_words, result);
  return true;
}

// DerivX, DerivY.
bool Lowering::State::lower_derivative(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  if (stage != ShaderStage::Pixel) return fail(at(def), "derivatives outside pixel shaders");
  bool x = o.code() == ir::OpCode::DerivX;
  const ir::ops::DerivX derivative(o); // DerivY's roles are DerivX's
  auto mode = derivative.mode().literal_enum<ir::DerivativeMode>();
  spv::Op opcode = x ? spv::OpDPdx : spv::OpDPdy;
  if (mode == ir::DerivativeMode::Coarse) opcode = x ? spv::OpDPdxCoarse : spv::OpDPdyCoarse;
  if (mode == ir::DerivativeMode::Fine) opcode = x ? spv::OpDPdxFine : spv::OpDPdyFine;
  if (mode != ir::DerivativeMode::Default) mb.require_capability(spv::CapabilityDerivativeControl);
  mb.op(opcode, type(rt), {value_as(derivative.value().def(), rt)}, id_for(def));
  return true;
}

bool Lowering::State::lower_barrier(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::Barrier barrier(o);
  auto exec = barrier.exec_scope().literal_enum<ir::Scope>();
  auto mem = barrier.mem_scope().literal_enum<ir::Scope>();
  auto types = barrier.memory_types().literal_enum<ir::MemoryTypeMask>();
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
      return fail(at(def), "execution barrier outside compute and hull shaders");
    mb.op_void(spv::OpControlBarrier,
               {const_u32(spirv_scope(exec)), const_u32(spirv_scope(mem)), const_u32(semantics)});
  }
  return true;
}

bool Lowering::State::lower_demote(ir::OpView o) {
  const ir::SsaDef def = o.def();
  if (stage != ShaderStage::Pixel) return fail(at(def), "Demote outside pixel shaders");
  emit_demote();
  return true;
}

// RovScopedLockBegin, RovScopedLockEnd.
bool Lowering::State::lower_rov_lock(ir::OpView o) {
  const ir::SsaDef def = o.def();
  // The interlock spans the whole entry function (see State::rov); accesses inside it are
  // ordered by the interlock itself.
  if (!rov && !rov_unordered)
    return fail(at(def), "rasterizer-ordered lock without a rasterizer-ordered UAV");
  return true;
}

bool Lowering::State::lower_check_sparse_access(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  mb.require_capability(spv::CapabilitySparseResidency);
  mb.op(spv::OpImageSparseTexelsResident, type(rt),
        {value_as(ir::ops::CheckSparseAccess(o).feedback().def(), ir::kU32)}, id_for(def));
  return true;
}

} // namespace kiln::spirv
