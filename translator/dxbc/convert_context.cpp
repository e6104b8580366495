// The operand API of the DXBC converter (convert_context.h): reading source operands as typed
// scalars, writing destinations, indices, vectors.
#include "translator/dxbc/convert_context.h"

#include "translator/dxbc/convert_core.h"

#include <span>
#include <string>

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

void ConvertContext::reset(ir::Builder& builder, const Program& program,
                           const Container& container) {
  builder_ = &builder;
  program_ = &program;
  container_ = &container;
  entry_point_ = function_ = {};
  current_ = nullptr;
  errors_.reset();
  CoreState::clear();
  ResourceState::clear();
  WalkState::clear();
  temps_known_.reset();
}

SsaDef ConvertContext::constant_bits(ScalarType type, std::uint32_t bits) {
  return builder_->constant_scalar(Type(type), bits);
}

SsaDef ConvertContext::convert_bits(SsaDef value, ScalarType from, ScalarType to) {
  if (from == ScalarType::Unknown) return emit(Op::ConsumeAs(Type(to), value));
  if (from == ScalarType::Bool) {
    SsaDef all = constant_u32(~0u), none = constant_u32(0);
    SsaDef u = emit(Op::Select(ir::kU32, value, all, none));
    return bitcast(u, ScalarType::U32, to);
  }
  if (to == ScalarType::Bool) {
    SsaDef u = bitcast(value, from, ScalarType::U32);
    return emit(Op::INe(u, constant_u32(0)));
  }
  return emit(Op::Cast(Type(to), value));
}

// The scalar type a stored value has: its own when it is a scalar (a typeless move passes on
// whatever it read, typed or not), else the type the instruction gave.
ScalarType ConvertContext::stored_type(SsaDef value, ScalarType type) const {
  const Type t = builder_->op(value).type();
  return t.is_scalar() ? t.scalar_type() : type;
}

SsaDef ConvertContext::load_temp_from_memory(std::uint32_t reg, unsigned c, SsaDef tmp,
                                             ScalarType type) {
  const std::uint32_t slot = reg * 4 + c;
  SsaDef v = bitcast(emit(Op::TmpLoad(Type(ScalarType::Unknown), tmp)), ScalarType::Unknown, type);
  temps_known_.loaded(slot, tmp, v, type);
  return v;
}

void ConvertContext::store_temp_to_memory(std::uint32_t reg, unsigned c, SsaDef tmp, SsaDef value) {
  temps_known_.forget(reg * 4 + c, tmp);
  emit(Op::TmpStore(tmp, value));
}

std::string ConvertContext::spell_error(const Where& where, std::string_view what) {
  if (!where.known()) return std::string(what);
  return "SHDR token " + std::to_string(where.position) + " (" + std::string(where.name) +
         "): " + std::string(what);
}

SsaDef ConvertContext::load_index(const Operand& op, unsigned dim) {
  std::uint32_t imm = op.index[dim];
  if (!op.has_relative(dim)) return constant_u32(imm);
  const Operand& rel = program_->relative[op.relative[dim]];
  SsaDef r = load_src_scalar(rel, ScalarType::U32);
  if (imm == 0 || !r) return r;
  return emit(Op::IAdd(ir::kU32, r, constant_u32(imm)));
}

SsaDef ConvertContext::make_vector(const Vec4& value, std::uint8_t mask, ScalarType type) {
  SsaDef parts[4];
  unsigned n = 0;
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) parts[n++] = value[i];
  if (n == 1) return parts[0];
  if (n == 0) return {};
  return emit(Op::CompositeConstruct(ir::vec(type, n), std::span<const SsaDef>(parts, n)));
}

Vec4 ConvertContext::split_vector(SsaDef vector, unsigned count, ScalarType type) {
  Vec4 out{};
  if (count == 1) {
    out[0] = vector;
    return out;
  }
  for (unsigned i = 0; i < count && i < 4; ++i)
    out[i] = emit(Op::CompositeExtract(Type(type), vector, constant_u32(i)));
  return out;
}

Vec4 ConvertContext::swizzle_texel(SsaDef texel, unsigned count, ScalarType type,
                                   const Operand& swizzle_op, std::uint8_t mask) {
  Vec4 parts{}, out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!(mask & (1u << i))) continue;
    unsigned c = swizzle_op.component(i);
    if (c >= count) c = count - 1;
    if (!parts[c])
      parts[c] =
          count == 1 ? texel : emit(Op::CompositeExtract(Type(type), texel, constant_u32(c)));
    out[i] = parts[c];
  }
  return out;
}

namespace {

// temp_slot's first use of a slot: the DclTmp (kept out of line, so that the lookup inlines).
[[gnu::noinline]] SsaDef declare_temp(ConvertContext& ctx, std::size_t i) {
  auto& temps = ctx.temps;
  if (temps.size() <= i) temps.resize((i | 3) + 1);
  temps[i] = ctx.builder().add(Op::DclTmp(Type(ScalarType::Unknown), ctx.entry_point()));
  return temps[i];
}

SsaDef temp_slot(ConvertContext& ctx, std::uint32_t reg, unsigned c) {
  const auto& temps = ctx.temps;
  const std::size_t i = std::size_t(reg) * 4 + c;
  if (i < temps.size() && temps[i]) [[likely]]
    return temps[i];
  if (reg >= 4096) return {};
  return declare_temp(ctx, i);
}

SsaDef apply_modifier(ConvertContext& ctx, SsaDef v, OperandModifier m, ScalarType type) {
  if (m == OperandModifier::None || !v) return v;
  Type t(type);
  bool fp = ir::is_float(type);
  if (m == OperandModifier::Abs || m == OperandModifier::AbsNeg)
    v = ctx.emit(fp ? Op::FAbs(t, v) : Op::IAbs(t, v));
  if (m == OperandModifier::Neg || m == OperandModifier::AbsNeg)
    v = ctx.emit(fp ? Op::FNeg(t, v) : Op::INeg(t, v));
  return v;
}

// Scratch (x#) element address: register vector index * components + component.
SsaDef scratch_address(ConvertContext& ctx, const Operand& op, const ScratchReg& reg, unsigned c) {
  if (!op.has_relative(1)) return ctx.constant_u32(op.index[1] * reg.components + c);
  SsaDef idx = ctx.load_index(op, 1);
  if (reg.components != 1)
    idx = ctx.emit(Op::IMul(ir::kU32, idx, ctx.constant_u32(reg.components)));
  if (c) idx = ctx.emit(Op::IAdd(ir::kU32, idx, ctx.constant_u32(c)));
  // Out-of-range indices would be undefined behaviour in SPIR-V: clamp them into the array.
  return ctx.emit(Op::UMin(ir::kU32, idx, ctx.constant_u32(reg.size * reg.components - 1)));
}

const ScratchReg* scratch_reg(ConvertContext& ctx, const Operand& op) {
  auto& s = ctx.scratch;
  if (op.index_dimension < 2 || op.index[0] >= s.size() || !s[op.index[0]].dcl) {
    ctx.fail(ctx.here(), "indexable temp x" + std::to_string(op.index[0]) + " is not declared");
    return nullptr;
  }
  return &s[op.index[0]];
}

// cb#[...]: the vec4 at the operand's vector index, as f32.
SsaDef load_cbv_vector(ConvertContext& ctx, const Operand& op) {
  bool sm51 = ctx.program().is_sm51();
  unsigned vec_dim = sm51 ? 2 : 1;
  if (op.index_dimension <= vec_dim) {
    ctx.fail(ctx.here(), "constant buffer operand without a vector index");
    return {};
  }
  std::uint32_t id = op.index[0];
  if (op.has_relative(0) && !sm51) return linkage_cbv_vector(ctx, op); // cb[this.x][...]
  if (op.has_relative(0) || id >= ctx.cbvs.size() || !ctx.cbvs[id].dcl) {
    ctx.fail(ctx.here(), "constant buffer cb" + std::to_string(id) + " is not declared");
    return {};
  }
  auto& cb = ctx.cbvs[id];
  SsaDef desc;
  if (sm51 && (op.has_relative(1) || op.index[1] != cb.lower)) {
    SsaDef index = ctx.load_index(op, 1);
    if (cb.lower) index = ctx.emit(Op::ISub(ir::kU32, index, ctx.constant_u32(cb.lower)));
    desc = ctx.emit(Op::DescriptorLoad(ir::kF32, cb.dcl, index)
                        .set_flags(op.non_uniform ? ir::OpFlags::NonUniform : ir::OpFlags(0)));
  } else {
    if (!cb.descriptor)
      cb.descriptor = ctx.builder().add_after(
          ctx.label, Op::DescriptorLoad(ir::kF32, cb.dcl, ctx.constant_u32(0)));
    desc = cb.descriptor;
  }
  Type v4 = ir::vec(ScalarType::F32, 4);
  if (!op.has_relative(vec_dim) && desc == cb.descriptor && op.index[vec_dim] < cb.size) {
    // Constant buffers do not change during an invocation: one load per vector and function,
    // at the function's start (after the descriptor load it uses).
    std::uint32_t at = op.index[vec_dim];
    if (cb.stamps.size() < cb.size) {
      cb.stamps.resize(cb.size, 0);
      cb.vectors.resize(cb.size);
    }
    if (cb.stamps[at] != ctx.function_stamp) {
      cb.vectors[at] = ctx.builder().add_after(cb.descriptor,
                                               Op::BufferLoad(v4, desc, ctx.constant_u32(at), 16u));
      cb.stamps[at] = ctx.function_stamp;
    }
    return cb.vectors[at];
  }
  SsaDef index = ctx.load_index(op, vec_dim);
  return ctx.emit(Op::BufferLoad(v4, desc, index, 16u));
}

// icb[...]: component `c` of the vector at the operand's index, as u32; zero out of bounds.
SsaDef load_icb(ConvertContext& ctx, const Operand& op, unsigned c) {
  const Program& p = ctx.program();
  if (!p.icb_count) {
    ctx.fail(ctx.here(), "immediate constant buffer read without one");
    return {};
  }
  if (!op.has_relative(0)) {
    std::uint32_t dword = op.index[0] * 4 + c;
    std::uint32_t bits = dword < p.icb_count ? p.token(p.icb_first + dword) : 0;
    return ctx.constant_u32(bits);
  }
  if (!ctx.icb) {
    // The whole buffer as one constant vec4<u32>[n], made on the first dynamic read.
    ctx.icb_vectors = (p.icb_count + 3) / 4;
    ctx.literals.clear();
    for (std::uint32_t i = 0; i < ctx.icb_vectors * 4; ++i)
      ctx.literals.push_back(ir::Operand::literal(i < p.icb_count ? p.token(p.icb_first + i) : 0u));
    Type t = ctx.builder().types().make_array(ir::vec(ScalarType::U32, 4), ctx.icb_vectors);
    ctx.icb = ctx.builder().add(Op::with_operands(ir::OpCode::Constant, t, ctx.literals, 0));
  }
  SsaDef idx = ctx.load_index(op, 0);
  SsaDef last = ctx.constant_u32(ctx.icb_vectors - 1);
  SsaDef clamped = ctx.emit(Op::UMin(ir::kU32, idx, last));
  SsaDef addr =
      ctx.emit(Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), clamped, ctx.constant_u32(c)));
  SsaDef v = ctx.emit(Op::ConstantLoad(ir::kU32, ctx.icb, addr));
  SsaDef in = ctx.emit(Op::ULe(idx, last));
  return ctx.emit(Op::Select(ir::kU32, in, v, ctx.constant_u32(0)));
}

} // namespace

Vec4 ConvertContext::load_src(const Operand& op, std::uint8_t mask, ScalarType type) {
  Vec4 out{};
  if (type == ScalarType::F64) {
    // Two 32-bit components per lane: lane l reads swizzle components (2l, 2l+1) as (lo, hi).
    unsigned lanes = ((mask & 3) ? 1u : 0u) | ((mask & 12) ? 2u : 0u);
    for (unsigned l = 0; l < 2; ++l) {
      if (!(lanes & (1u << l))) continue;
      SsaDef v;
      if (op.type == OperandType::Immediate64) {
        std::uint64_t bits = std::uint64_t(op.value[2 * l]) | std::uint64_t(op.value[2 * l + 1])
                                                                  << 32;
        if (op.component_count == 1)
          bits = std::uint64_t(op.value[0]) | std::uint64_t(op.value[1]) << 32;
        v = builder_->add(Op::Constant(Type(ScalarType::F64), bits));
      } else {
        Vec4 halves = load_src(op, std::uint8_t(3u << (2 * l)), ScalarType::U32);
        SsaDef pair = emit(
            Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), halves[2 * l], halves[2 * l + 1]));
        v = emit(Op::Cast(Type(ScalarType::F64), pair));
      }
      out[l] = apply_modifier(*this, v, op.modifier, type);
    }
    return out;
  }
  if (op.component_count == 0) mask = 0;
  SsaDef loaded[4] = {};
  SsaDef cb_vector;
  // A per-vertex input read as one vector (io_load_input_vector).
  SsaDef input_parts[4] = {};
  if ((op.type == OperandType::Input || op.type == OperandType::InputControlPoint) && mask &&
      op.component_count == 4) {
    std::uint8_t components = 0;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) components |= std::uint8_t(1u << op.component(i));
    if (!io_load_input_vector(*this, op, components, type, input_parts) && !ok()) return out;
  }
  const ScratchReg* scratch = nullptr;
  if (op.type == OperandType::IndexableTemp && mask && !(scratch = scratch_reg(*this, op)))
    return out;
  for (unsigned i = 0; i < 4; ++i) {
    if (!(mask & (1u << i))) continue;
    unsigned c = op.component_count == 1 ? 0 : op.component(i);
    if (op.type == OperandType::Immediate32) c = op.component_count == 1 ? 0 : i;
    if (loaded[c]) {
      out[i] = loaded[c];
      continue;
    }
    SsaDef v;
    switch (op.type) {
    case OperandType::Immediate32:
      v = constant_bits(type, op.value[c]);
      break;
    case OperandType::Temp: {
      SsaDef tmp = temp_slot(*this, op.index[0], c);
      if (!tmp) {
        fail(here(), "temp register r" + std::to_string(op.index[0]) + " out of range");
        return out;
      }
      v = load_temp(op.index[0], c, tmp, type);
      break;
    }
    case OperandType::IndexableTemp: {
      SsaDef addr = scratch_address(*this, op, *scratch, c);
      v = bitcast(emit(Op::ScratchLoad(ir::kU32, scratch->dcl, addr)), ScalarType::U32, type);
      break;
    }
    case OperandType::ConstantBuffer:
      if (!cb_vector) cb_vector = load_cbv_vector(*this, op);
      if (!cb_vector) return out;
      v = bitcast(emit(Op::CompositeExtract(ir::kF32, cb_vector, constant_u32(c))), ScalarType::F32,
                  type);
      break;
    case OperandType::ImmediateConstantBuffer:
      v = bitcast(load_icb(*this, op, c), ScalarType::U32, type);
      break;
    case OperandType::ThisPointer:
      v = bitcast(linkage_this(*this, op, c), ScalarType::U32, type);
      break;
    default:
      v = input_parts[c] ? input_parts[c] : io_load(*this, op, c, type);
      break;
    }
    if (!v) {
      if (ok()) fail(here(), "cannot read operand");
      return out;
    }
    v = apply_modifier(*this, v, op.modifier, type);
    loaded[c] = out[i] = v;
  }
  return out;
}

SsaDef ConvertContext::load_src_vector(const Operand& op, unsigned count, ScalarType type) {
  std::uint8_t mask = std::uint8_t((1u << count) - 1);
  return make_vector(load_src(op, mask, type), mask, type);
}

void ConvertContext::store_dst(const Instruction& inst, const Operand& dst, const Vec4& value,
                               ScalarType type) {
  if (!inst.saturate() || !ir::is_float(type)) return store_dst_raw(dst, value, type);
  Vec4 clamped{};
  Type t(type);
  SsaDef zero = type == ScalarType::F64 ? builder_->add(Op::Constant(t, 0.0)) : constant_f32(0.0f);
  SsaDef one = type == ScalarType::F64 ? builder_->add(Op::Constant(t, 1.0)) : constant_f32(1.0f);
  for (unsigned i = 0; i < 4; ++i)
    if (value[i]) clamped[i] = emit(Op::FClamp(t, value[i], zero, one));
  store_dst_raw(dst, clamped, type);
}

void ConvertContext::store_dst_raw(const Operand& dst, const Vec4& value, ScalarType type) {
  if (dst.type == OperandType::Null) return;
  if (type == ScalarType::F64) {
    // Lane l goes to the (lo, hi) pair of the l-th written component pair.
    Vec4 halves{};
    std::uint8_t mask = dst.component_count == 1 ? 1 : dst.mask;
    unsigned lane = 0;
    for (unsigned pair = 0; pair < 2; ++pair) {
      if (!(mask & (3u << (2 * pair)))) continue;
      if (lane < 2 && value[lane]) {
        SsaDef u = emit(Op::Cast(ir::vec(ScalarType::U32, 2), value[lane]));
        halves[2 * pair] = emit(Op::CompositeExtract(ir::kU32, u, constant_u32(0)));
        halves[2 * pair + 1] = emit(Op::CompositeExtract(ir::kU32, u, constant_u32(1)));
      }
      ++lane;
    }
    return store_dst_raw(dst, halves, ScalarType::U32);
  }
  std::uint8_t mask = dst.component_count == 1 ? 1 : dst.mask;
  if (dst.component_count == 0) mask = 1;
  const ScratchReg* scratch = nullptr;
  if (dst.type == OperandType::IndexableTemp && !(scratch = scratch_reg(*this, dst))) return;
  if (dst.type == OperandType::Output && io_store_output_vector(*this, dst, mask, value.c, type))
    return;
  for (unsigned i = 0; i < 4; ++i) {
    if (!(mask & (1u << i)) || !value[i]) continue;
    switch (dst.type) {
    case OperandType::Temp: {
      SsaDef tmp = temp_slot(*this, dst.index[0], i);
      if (!tmp) {
        fail(here(), "temp register out of range");
        return;
      }
      store_temp(dst.index[0], i, tmp, value[i]);
      break;
    }
    case OperandType::IndexableTemp: {
      SsaDef addr = scratch_address(*this, dst, *scratch, i);
      emit(Op::ScratchStore(scratch->dcl, addr,
                            bitcast(value[i], stored_type(value[i], type), ScalarType::U32)));
      break;
    }
    default:
      io_store(*this, dst, i, value[i], stored_type(value[i], type));
      break;
    }
    if (!ok()) return;
  }
}

} // namespace kiln::dxbc
