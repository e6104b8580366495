// SPIR-V backend: IR types and constants to SPIR-V, value casts, address walking.
#include "translator/spirv/lower_state.h"

namespace kiln::spirv {

std::string Lowering::State::spell_error(const Where& where, std::string_view what) {
  // Problems of the interface and render-state parameters the lowering was given: bare.
  if (where.is_beside_input()) return std::string(what);
  std::string message = "SPIR-V lowering: ";
  message += what;
  if (where.known()) {
    message += " (op %";
    message += std::to_string(where.position);
    message += ' ';
    message += where.name;
    message += ')';
  }
  return message;
}

Id Lowering::State::make_basic(ir::ScalarType s, unsigned n) {
  Id scalar = 0;
  switch (s) {
  case ir::ScalarType::Bool:
    scalar = mb.type_bool();
    break;
  case ir::ScalarType::I8:
  case ir::ScalarType::U8:
    scalar = mb.type_int(8, s == ir::ScalarType::I8);
    break;
  case ir::ScalarType::I16:
  case ir::ScalarType::U16:
    scalar = mb.type_int(16, s == ir::ScalarType::I16);
    break;
  case ir::ScalarType::I32:
  case ir::ScalarType::MinI16:
  case ir::ScalarType::MinI12:
    scalar = mb.type_int(32, true);
    break;
  case ir::ScalarType::I64:
  case ir::ScalarType::U64:
    scalar = mb.type_int(64, s == ir::ScalarType::I64);
    break;
  case ir::ScalarType::F16:
    scalar = mb.type_float(16);
    break;
  case ir::ScalarType::F64:
    scalar = mb.type_float(64);
    break;
  case ir::ScalarType::F32:
  case ir::ScalarType::MinF16:
  case ir::ScalarType::MinF10:
    scalar = mb.type_float(32);
    break;
  default: // U32, MinU16 (Unknown never reaches the backend: the caller checks)
    scalar = mb.type_int(32, false);
    break;
  }
  Id& cached = basic_types[ir::Type(s, n).member_field()];
  cached = n > 1 ? mb.type_vector(scalar, n) : scalar;
  return cached;
}

namespace {
// std430-like alignment of a basic type: vec3 aligns as vec4.
std::uint32_t basic_align(std::uint32_t scalar, unsigned n) {
  return scalar * (n == 3 ? 4 : n);
}
std::uint32_t round_up(std::uint32_t v, std::uint32_t a) {
  return (v + a - 1) / a * a;
}
} // namespace

std::uint32_t Lowering::State::layout_size(const ir::TypeView& v, unsigned dims) const {
  // std430-like: members at their alignment, the struct (or basic type) rounded up to its
  // largest alignment, times the kept array dimensions.
  std::uint32_t size = 0, align = 1;
  for (unsigned m = 0; m < v.member_count(); ++m) {
    ir::Type mt = v.member(m);
    std::uint32_t s = scalar_size(mt.scalar_type());
    std::uint32_t a = basic_align(s, mt.vector_size());
    size = round_up(size, a) + s * mt.vector_size();
    align = std::max(align, a);
  }
  size = round_up(size, align);
  for (unsigned d = 0; d < dims; ++d) size *= v.dims[d] ? v.dims[d] : 1;
  return size;
}

std::uint32_t Lowering::State::layout_size(ir::Type t) const {
  ir::TypeView v = ir->types().view(t);
  return layout_size(v, v.dim_count);
}

Id Lowering::State::type_layout(ir::Type t, bool explicit_layout) {
  if (t.is_void()) return mb.type_void();
  if (t.is_basic()) return basic(t);
  return type_dims(t, ir->types().view(t).dim_count, explicit_layout);
}

Id Lowering::State::type_dims(ir::Type t, unsigned dims, bool explicit_layout) {
  if (t.is_basic()) return basic(t);
  for (const AggregateKey& k : aggregates)
    if (k.bits == t.bits() && k.dims == dims && k.explicit_layout == explicit_layout) return k.id;
  ir::TypeView v = ir->types().view(t);
  Id result;
  if (dims == 0) {
    if (v.member_count() == 1) return basic(v.member(0));
    Id members[ir::TypeView::kMaxMembers];
    for (unsigned m = 0; m < v.member_count(); ++m) members[m] = basic(v.member(m));
    result = mb.type_struct(std::span<const Id>(members, v.member_count()));
    if (explicit_layout) {
      std::uint32_t offset = 0;
      for (unsigned m = 0; m < v.member_count(); ++m) {
        ir::Type mt = v.member(m);
        std::uint32_t s = scalar_size(mt.scalar_type());
        offset = round_up(offset, basic_align(s, mt.vector_size()));
        mb.decorate_member(result, m, spv::DecorationOffset, {offset});
        offset += s * mt.vector_size();
      }
    }
  } else {
    Id element = type_dims(t, dims - 1, explicit_layout);
    std::uint32_t count = v.dims[dims - 1];
    if (count == 0) {
      result = mb.type_runtime_array(element);
    } else {
      Id length = const_u32(count);
      result =
          explicit_layout ? mb.type_array_unique(element, length) : mb.type_array(element, length);
    }
    // Stride: the element's size, its own sized inner dimensions included.
    if (explicit_layout)
      mb.decorate(result, spv::DecorationArrayStride, {layout_size(v, dims - 1)});
  }
  aggregates.push_back({t.bits(), std::uint16_t(dims), explicit_layout, result});
  return result;
}

Id Lowering::State::const_scalar(ir::ScalarType s, std::uint64_t bits) {
  if (s == ir::ScalarType::Bool) return mb.constant_bool(bits != 0);
  std::uint32_t size = scalar_size(s);
  if (size == 4) return mb.constant_word(basic(s, 1), std::uint32_t(bits));
  std::uint32_t words[2] = {std::uint32_t(bits), std::uint32_t(bits >> 32)};
  if (size < 4) {
    std::uint32_t mask = (1u << (size * 8)) - 1;
    words[0] &= mask;
    // Signed types narrower than 32 bits are sign-extended in their literal.
    if (ir::is_signed_int(s) && (words[0] >> (size * 8 - 1)) & 1) words[0] |= ~mask;
  }
  return mb.constant(basic(s, 1), std::span<const std::uint32_t>(words, size == 8 ? 2 : 1));
}

Id Lowering::State::splat_constant(ir::Type t, std::uint64_t bits) {
  Id scalar = const_scalar(t.scalar_type(), bits);
  if (t.vector_size() == 1) return scalar;
  Id parts[4] = {scalar, scalar, scalar, scalar};
  return mb.constant_composite(basic(t), std::span<const Id>(parts, t.vector_size()));
}

namespace {
struct ConstantBuilder {
  Lowering::State& s;
  ir::TypeView v;
  ir::Type type;
  std::span<const ir::Operand> literals;
  std::size_t cursor = 0;
  bool ok = true;

  // The last vector made: arrays repeat elements (runs of zeros above all), and making a
  // repeated one again would only find the same constants.
  ir::Type last_type = ir::Type();
  std::uint64_t last_bits[4] = {};
  Id last_id = 0;

  Id basic_value(ir::Type t) {
    const unsigned n = t.vector_size();
    if (cursor + n > literals.size()) {
      ok = false;
      return 0;
    }
    const ir::Operand* at = literals.data() + cursor;
    cursor += n;
    if (n == 1) return s.const_scalar(t.scalar_type(), at[0].bits());
    if (last_id != 0 && t == last_type) {
      bool same = true;
      for (unsigned c = 0; c < n; ++c) same = same && at[c].bits() == last_bits[c];
      if (same) return last_id;
    }
    Id parts[4];
    for (unsigned c = 0; c < n; ++c) {
      last_bits[c] = at[c].bits();
      parts[c] = s.const_scalar(t.scalar_type(), last_bits[c]);
    }
    last_type = t;
    last_id = s.mb.constant_composite(s.basic(t), std::span<const Id>(parts, n));
    return last_id;
  }
  Id element(unsigned dims) {
    if (dims == 0) {
      if (v.member_count() == 1) return basic_value(v.member(0));
      Id members[ir::TypeView::kMaxMembers];
      for (unsigned m = 0; m < v.member_count(); ++m) members[m] = basic_value(v.member(m));
      return s.mb.constant_composite(s.type_dims(type, 0, false),
                                     std::span<const Id>(members, v.member_count()));
    }
    // Elements go on the shared scratch stack (inner levels push and pop above them).
    std::uint32_t count = v.dims[dims - 1];
    const std::size_t start = s.constant_stack.size();
    for (std::uint32_t i = 0; i < count; ++i) {
      Id e = element(dims - 1);
      s.constant_stack.push_back(e);
    }
    Id id = s.mb.constant_composite(s.type_dims(type, dims, false),
                                    std::span<const Id>(s.constant_stack.data() + start, count));
    s.constant_stack.resize(start);
    return id;
  }
};
} // namespace

Id Lowering::State::constant(ir::SsaDef def) {
  ir::OpView o = op(def);
  ir::Type t = o.type();
  if (t.is_basic()) {
    if (t.vector_size() == 1)
      return o.operand_count()
                 ? const_scalar(t.scalar_type(), ir::ops::Constant(o).values()[0].bits())
                 : 0;
    ConstantBuilder b{*this, {}, t, o.literals()};
    Id id = b.basic_value(t);
    return b.ok ? id : 0;
  }
  ConstantBuilder b{*this, ir->types().view(t), t, o.literals()};
  if (b.v.is_unbounded()) return 0;
  Id id = b.element(b.v.dim_count);
  return b.ok ? id : 0;
}

Id Lowering::State::bitcast_id(Id id, ir::Type from, ir::Type to) {
  if (from == to || !from.is_basic() || !to.is_basic()) return id;
  Id want = basic(to);
  if (basic(from) == want) return id;
  if (from.vector_size() != to.vector_size() ||
      scalar_size(from.scalar_type()) != scalar_size(to.scalar_type()) ||
      from.scalar_type() == ir::ScalarType::Bool || to.scalar_type() == ir::ScalarType::Bool)
    return id;
  return mb.op(spv::OpBitcast, want, {id});
}

void Lowering::State::bind(ir::SsaDef def, Id result, ir::Type t) {
  Id& slot = ids[def.id()];
  if (!slot) {
    slot = result;
  } else if (slot != result) {
    mb.op(spv::OpCopyObject, type(t), {result}, slot);
  }
}

bool Lowering::State::walk_address(ir::Type base, ir::SsaDef address, std::vector<Id>& indices,
                                   Pointee& out) {
  out = Pointee{};
  out.base = base;
  if (base.is_basic() && address) {
    // The common I/O case: one component of a vector, by a constant.
    const ir::OpView a = op(address);
    const ir::Type at = a.type();
    if (a.code() == ir::OpCode::Constant && at.is_scalar() && ir::is_integer(at.scalar_type()) &&
        a.operand_count() >= 1 && base.vector_size() > 1) {
      indices.push_back(const_u32(std::uint32_t(ir::ops::Constant(a).values()[0].bits())));
      out.component = true;
      out.is_basic = true;
      out.basic = base.with_vector_size(1);
      return true;
    }
  }
  // A basic base needs no type view: one member, no dimensions.
  ir::TypeView v;
  const bool basic_base = base.is_basic();
  if (!basic_base) v = ir->types().view(base);
  unsigned dims_left = basic_base ? 0 : v.dim_count;
  const unsigned members = basic_base ? 1 : v.member_count();
  int member = members == 1 ? 0 : -1;
  bool component = false;

  Id dynamic[4];
  std::uint64_t constants[4];
  unsigned count = 0;
  bool is_constant = true;
  if (address) {
    ir::OpView a = op(address);
    ir::Type at = a.type();
    if (!at.is_basic() || !ir::is_integer(at.scalar_type())) {
      error = "address is not an integer scalar or vector";
      return false;
    }
    count = at.vector_size();
    if (a.code() == ir::OpCode::Constant && a.operand_count() >= count) {
      const auto literals = a.operands();
      for (unsigned i = 0; i < count; ++i) constants[i] = literals[i].bits();
    } else {
      is_constant = false;
      Id whole = id_for(address);
      if (count == 1) {
        dynamic[0] = whole;
      } else {
        Id scalar = basic(at.scalar_type(), 1);
        for (unsigned i = 0; i < count; ++i)
          dynamic[i] = mb.op(spv::OpCompositeExtract, scalar, {whole, i});
      }
    }
  }
  for (unsigned i = 0; i < count; ++i) {
    if (dims_left > 0) {
      --dims_left;
      indices.push_back(is_constant ? const_u32(std::uint32_t(constants[i])) : dynamic[i]);
    } else if (member < 0) {
      if (!is_constant) {
        error = "dynamic struct member index";
        return false;
      }
      member = int(constants[i]);
      if (member >= int(members)) {
        error = "struct member index out of range";
        return false;
      }
      indices.push_back(const_u32(std::uint32_t(member)));
    } else if (!component) {
      ir::Type m = base.is_basic() ? base : v.member(unsigned(member));
      if (m.vector_size() == 1) {
        error = "address indexes past a scalar";
        return false;
      }
      component = true;
      indices.push_back(is_constant ? const_u32(std::uint32_t(constants[i])) : dynamic[i]);
    } else {
      error = "address longer than the type";
      return false;
    }
  }
  out.dims_left = dims_left;
  out.component = component;
  if (dims_left == 0 && member >= 0) {
    ir::Type m = base.is_basic() ? base : v.member(unsigned(member));
    out.is_basic = true;
    out.basic = component ? m.with_vector_size(1) : m;
  }
  return true;
}

Id Lowering::State::emit_chain(Id base, spv::StorageClass storage, Id pointee,
                               std::span<const Id> indices, bool nonuniform) {
  if (indices.empty()) return base;
  const Id ptr_type = mb.type_pointer(storage, pointee);
  const Id result = mb.access_chain(ptr_type, base, indices);
  if (nonuniform) mb.decorate(result, spv::DecorationNonUniform);
  return result;
}

Id Lowering::State::offset_index(Id index, std::uint32_t k) {
  if (k == 0) return index;
  return mb.op(spv::OpIAdd, basic(ir::ScalarType::U32, 1), {index, const_u32(k)});
}

} // namespace kiln::spirv
