// SPIR-V backend: loads, stores and atomics through access chains (buffers, LDS, scratch, push
// data, constant arrays), descriptor loads and UAV counters. Buffer ops on typed buffers and on
// the texel-buffer form go on to lower_images.cpp and lower_texel_buffers.cpp.
#include "translator/spirv/lower_state.h"

#include <spirv/unified1/GLSL.std.450.h>

namespace kiln::spirv {

namespace {
void require_nonuniform(ModuleBuilder& mb, const DeclInfo& d) {
  mb.require_capability(spv::CapabilityShaderNonUniform);
  spv::Capability cap = spv::CapabilityStorageBufferArrayNonUniformIndexing;
  if (d.kind == DeclInfo::Kind::Cbv)
    cap = spv::CapabilityUniformBufferArrayNonUniformIndexing;
  else if (d.kind == DeclInfo::Kind::Sampler)
    cap = spv::CapabilitySampledImageArrayNonUniformIndexing;
  else if (d.is_image || d.texel_words) {
    bool buffer = d.resource == ir::ResourceKind::TypedBuffer || d.texel_words;
    if (d.kind == DeclInfo::Kind::Srv)
      cap = buffer ? spv::CapabilityUniformTexelBufferArrayNonUniformIndexing
                   : spv::CapabilitySampledImageArrayNonUniformIndexing;
    else
      cap = buffer ? spv::CapabilityStorageTexelBufferArrayNonUniformIndexing
                   : spv::CapabilityStorageImageArrayNonUniformIndexing;
  }
  mb.require_capability(cap);
}
} // namespace

DeclInfo* Lowering::State::descriptor(ir::SsaDef load, Id& index, bool& nonuniform) {
  if (!load) return nullptr;
  ir::OpView l = op(load);
  if (l.code() != ir::OpCode::DescriptorLoad) return nullptr;
  const ir::ops::DescriptorLoad load_op(l);
  DeclInfo* d = decl(load_op.variable().def());
  if (!d) return nullptr;
  index = descriptor_index(*d, load_op.index().def());
  // Without descriptor indexing the index is taken as dynamically uniform (docs/abi.md).
  nonuniform = ir::has(l.flags(), ir::OpFlags::NonUniform) && d->is_array &&
               extension_enabled(Extension::DescriptorIndexing);
  return d;
}

Id Lowering::State::descriptor_index(const DeclInfo& d, ir::SsaDef index) {
  if (!d.is_array) return 0;
  if (!index) return const_u32(d.array_base);
  Id i = value_as(index, ir::kU32);
  if (d.array_base == 0) return i;
  return mb.op(spv::OpIAdd, basic(ir::ScalarType::U32, 1), {i, const_u32(d.array_base)});
}

bool Lowering::State::load_through(ir::OpView o, Id base, spv::StorageClass storage,
                                   bool explicit_layout, const Pointee& p, bool nonuniform) {
  const ir::Type rt = o.type();
  if (!p.is_basic || !rt.is_basic()) return fail(at(o.def()), "aggregate load not supported");
  const ir::Type target = p.basic;
  const Id target_type = basic(target);
  (void)explicit_layout;
  const bool guard = storage == spv::StorageClassWorkgroup && !chain.empty();
  if (guard) guard_workgroup_prefix();
  if (rt.vector_size() > target.vector_size()) {
    if (target.vector_size() != 1 || chain.empty())
      return fail(at(o.def()), "vector load wider than its element");
    Id parts[4];
    const Id last = chain.back();
    for (unsigned k = 0; k < rt.vector_size(); ++k) {
      chain.back() = offset_index(last, k);
      if (guard) chain.back() = workgroup_index(chain.size() - 1, chain.back(), k);
      Id ptr = emit_chain(base, storage, target_type, chain, nonuniform);
      Id loaded = mb.op(spv::OpLoad, target_type, {ptr});
      parts[k] = convert_basic(loaded, target, rt.with_vector_size(1));
    }
    chain.back() = last;
    mb.op(spv::OpCompositeConstruct, type(rt),
          std::span<const std::uint32_t>(parts, rt.vector_size()), id_for(o.def()));
    return true;
  }
  if (guard) chain.back() = workgroup_index(chain.size() - 1, chain.back(), 0);
  Id ptr = emit_chain(base, storage, target_type, chain, nonuniform);
  Id loaded = mb.op(spv::OpLoad, target_type, {ptr});
  bind(o.def(), convert_basic(loaded, target, rt), rt);
  return true;
}

bool Lowering::State::store_through(ir::OpView o, ir::SsaDef stored, Id base,
                                    spv::StorageClass storage, bool explicit_layout,
                                    const Pointee& p, bool nonuniform) {
  (void)explicit_layout;
  if (!p.is_basic) return fail(at(o.def()), "aggregate store not supported");
  const ir::Type target = p.basic;
  const Id target_type = basic(target);
  const ir::Type vt = type_of(stored);
  if (!vt.is_basic()) return fail(at(o.def()), "aggregate store not supported");
  Id v = value(stored);
  const bool guard = storage == spv::StorageClassWorkgroup && !chain.empty();
  if (guard) guard_workgroup_prefix();
  if (vt.vector_size() > target.vector_size()) {
    if (target.vector_size() != 1 || chain.empty())
      return fail(at(o.def()), "vector store wider than its element");
    const Id last = chain.back();
    for (unsigned k = 0; k < vt.vector_size(); ++k) {
      chain.back() = offset_index(last, k);
      if (guard) chain.back() = workgroup_index(chain.size() - 1, chain.back(), k);
      Id ptr = emit_chain(base, storage, target_type, chain, nonuniform);
      Id part = mb.op(spv::OpCompositeExtract, basic(vt.with_vector_size(1)), {v, k});
      mb.op_void(spv::OpStore, {ptr, convert_basic(part, vt.with_vector_size(1), target)});
    }
    chain.back() = last;
    return true;
  }
  if (vt.vector_size() != target.vector_size())
    return fail(at(o.def()), "store narrower than its element");
  if (guard) chain.back() = workgroup_index(chain.size() - 1, chain.back(), 0);
  Id ptr = emit_chain(base, storage, target_type, chain, nonuniform);
  mb.op_void(spv::OpStore, {ptr, convert_basic(v, vt, target)});
  return true;
}

bool Lowering::State::atomic(ir::OpView o, Id ptr, ir::Type pointee, spv::Scope scope,
                             ir::SsaDef operand, ir::AtomicOp atomic_op) {
  if (!pointee.is_scalar()) return fail(at(o.def()), "atomic on a non-scalar");
  const bool is_float = ir::is_float(pointee.scalar_type());
  const Id t = basic(pointee);
  const Id sc = const_u32(scope);
  const Id sem = const_u32(0);
  Id result = 0;
  auto operand_value = [&]() { return value_as(operand, pointee); };
  spv::Op opcode = spv::OpNop;
  switch (atomic_op) {
  case ir::AtomicOp::Load:
    result = mb.op(spv::OpAtomicLoad, t, {ptr, sc, sem});
    break;
  case ir::AtomicOp::Store:
    if (!operand) return fail(at(o.def()), "atomic store without a value");
    mb.op_void(spv::OpAtomicStore, {ptr, sc, sem, operand_value()});
    break;
  case ir::AtomicOp::Exchange:
    if (!operand) return fail(at(o.def()), "atomic exchange without a value");
    result = mb.op(spv::OpAtomicExchange, t, {ptr, sc, sem, operand_value()});
    break;
  case ir::AtomicOp::CompareExchange: {
    if (!operand || is_float) return fail(at(o.def()), "malformed atomic compare-exchange");
    ir::Type ot = type_of(operand);
    if (!ot.is_basic() || ot.vector_size() != 2)
      return fail(at(o.def()), "compare-exchange operand is not a vec2");
    Id pair = value(operand);
    Id compare =
        convert_basic(mb.op(spv::OpCompositeExtract, basic(ot.with_vector_size(1)), {pair, 0}),
                      ot.with_vector_size(1), pointee);
    Id exchange =
        convert_basic(mb.op(spv::OpCompositeExtract, basic(ot.with_vector_size(1)), {pair, 1}),
                      ot.with_vector_size(1), pointee);
    result = mb.op(spv::OpAtomicCompareExchange, t, {ptr, sc, sem, sem, exchange, compare});
    break;
  }
  case ir::AtomicOp::Inc:
  case ir::AtomicOp::Dec:
    if (is_float) return fail(at(o.def()), "float atomic increment");
    result =
        mb.op(atomic_op == ir::AtomicOp::Inc ? spv::OpAtomicIIncrement : spv::OpAtomicIDecrement, t,
              {ptr, sc, sem});
    break;
  case ir::AtomicOp::Add:
    opcode = spv::OpAtomicIAdd;
    break;
  case ir::AtomicOp::Sub:
    opcode = spv::OpAtomicISub;
    break;
  case ir::AtomicOp::SMin:
    opcode = spv::OpAtomicSMin;
    break;
  case ir::AtomicOp::SMax:
    opcode = spv::OpAtomicSMax;
    break;
  case ir::AtomicOp::UMin:
    opcode = spv::OpAtomicUMin;
    break;
  case ir::AtomicOp::UMax:
    opcode = spv::OpAtomicUMax;
    break;
  case ir::AtomicOp::And:
    opcode = spv::OpAtomicAnd;
    break;
  case ir::AtomicOp::Or:
    opcode = spv::OpAtomicOr;
    break;
  case ir::AtomicOp::Xor:
    opcode = spv::OpAtomicXor;
    break;
  default:
    return fail(at(o.def()), "unknown atomic op");
  }
  if (opcode != spv::OpNop) {
    if (is_float || !operand) return fail(at(o.def()), "atomic op needs an integer operand");
    result = mb.op(opcode, t, {ptr, sc, sem, operand_value()});
  }
  if (!o.type().is_void()) {
    if (!result) return fail(at(o.def()), "atomic store has no result");
    bind(o.def(), convert_basic(result, pointee, o.type()), o.type());
  }
  return true;
}

bool Lowering::State::lower_descriptor_load(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::DescriptorLoad load_op(o);
  DeclInfo* d = decl(load_op.variable().def());
  if (!d || (d->kind != DeclInfo::Kind::Cbv && d->kind != DeclInfo::Kind::Srv &&
             d->kind != DeclInfo::Kind::Uav && d->kind != DeclInfo::Kind::Sampler &&
             d->kind != DeclInfo::Kind::UavCounter))
    return fail(at(def), "descriptor load of a non-descriptor");
  bool nonuniform = ir::has(o.flags(), ir::OpFlags::NonUniform) && d->is_array &&
                    extension_enabled(Extension::DescriptorIndexing);
  if (nonuniform) {
    use_spirv_extension(Extension::DescriptorIndexing);
    require_nonuniform(mb, *d);
  }
  if (!d->is_image && !d->texel_words && d->kind != DeclInfo::Kind::Sampler)
    return true;                // by reference
  if (d->combined) return true; // loaded per use with its pair (combined_image())
  Id ptr = d->var;
  if (d->is_array) {
    Id index = descriptor_index(*d, load_op.index().def());
    ptr = emit_chain(d->var, d->storage, d->image_type, std::span<const Id>(&index, 1), nonuniform);
  }
  Id loaded = mb.op(spv::OpLoad, d->image_type, {ptr}, id_for(def));
  if (nonuniform) mb.decorate(loaded, spv::DecorationNonUniform);
  return true;
}

DeclInfo* Lowering::State::buffer_descriptor(ir::OpView o, Id& index, bool& nonuniform) {
  DeclInfo* d = descriptor(ir::ops::BufferQuerySize(o).descriptor().def(), index, nonuniform);
  if (!d || (d->kind != DeclInfo::Kind::Cbv && d->kind != DeclInfo::Kind::Srv &&
             d->kind != DeclInfo::Kind::Uav))
    return nullptr;
  return d;
}

bool Lowering::State::buffer_chain(ir::OpView o, const DeclInfo& d, Id index, Pointee& p) {
  const ir::SsaDef def = o.def();
  const bool load = o.code() == ir::OpCode::BufferLoad;
  // BufferLoad, BufferStore and BufferAtomic name the address second.
  const ir::SsaDef address = ir::ops::BufferLoad(o).address().def();
  if (ir::has(o.flags(), ir::OpFlags::SparseFeedback))
    return fail(at(def), "sparse feedback on raw/structured buffers not supported");
  if (!load && d.kind != DeclInfo::Kind::Uav) return fail(at(def), "write to a read-only buffer");
  chain.clear();
  if (d.push_constant) {
    // A constant buffer in the push-constant block: member `member` of push_var.
    chain.push_back(const_u32(d.member));
    if (!walk_address(d.ir_type, address, chain, p)) return fail(at(def), error);
    if (!load) return fail(at(def), "write to a constant buffer");
    return true;
  }
  if (index) chain.push_back(index);
  chain.push_back(const_u32(0));
  if (!walk_address(d.ir_type, address, chain, p)) return fail(at(def), error);
  return true;
}

// Buffers in three forms: a typed buffer is an image (lower_images.cpp); a raw or structured
// buffer is a storage buffer, a member of the push-constant block or, in the interface's
// texel-buffer form, a texel buffer of dwords (lower_texel_buffers.cpp).
bool Lowering::State::lower_buffer_load(ir::OpView o) {
  Id index = 0;
  bool nonuniform = false;
  DeclInfo* d = buffer_descriptor(o, index, nonuniform);
  if (!d) return fail(at(o.def()), "buffer op on a non-buffer descriptor");
  if (d->is_image) return lower_image_load(o);
  if (d->texel_words) return texel_words_load(o, *d);
  Pointee p;
  if (!buffer_chain(o, *d, index, p)) return false;
  if (d->push_constant) return load_through(o, push_var, d->storage, true, p, false);
  return load_through(o, d->var, d->storage, true, p, nonuniform);
}

bool Lowering::State::lower_buffer_store(ir::OpView o) {
  Id index = 0;
  bool nonuniform = false;
  DeclInfo* d = buffer_descriptor(o, index, nonuniform);
  if (!d) return fail(at(o.def()), "buffer op on a non-buffer descriptor");
  if (d->is_image) return lower_image_store(o);
  if (d->texel_words) return texel_words_store(o, *d);
  Pointee p;
  if (!buffer_chain(o, *d, index, p)) return false;
  return store_through(o, ir::ops::BufferStore(o).value().def(), d->var, d->storage, true, p,
                       nonuniform);
}

bool Lowering::State::lower_buffer_atomic(ir::OpView o) {
  const ir::SsaDef def = o.def();
  Id index = 0;
  bool nonuniform = false;
  DeclInfo* d = buffer_descriptor(o, index, nonuniform);
  if (!d) return fail(at(def), "buffer op on a non-buffer descriptor");
  // The front ends give typed buffers ImageAtomic.
  if (d->is_image) return fail(at(def), "BufferAtomic on a typed buffer");
  if (d->texel_words) return texel_words_atomic(o, *d, index, nonuniform);
  Pointee p;
  if (!buffer_chain(o, *d, index, p)) return false;
  if (!p.is_basic) return fail(at(def), "atomic on an aggregate");
  Id ptr = emit_chain(d->var, d->storage, basic(p.basic), chain, nonuniform);
  const ir::ops::BufferAtomic buffer_atomic(o);
  return atomic(o, ptr, p.basic, spv::ScopeDevice, buffer_atomic.arguments().def(),
                buffer_atomic.atomic_op().literal_enum<ir::AtomicOp>());
}

bool Lowering::State::lower_buffer_query_size(ir::OpView o) {
  const ir::SsaDef def = o.def();
  Id index = 0;
  bool nonuniform = false;
  DeclInfo* d = buffer_descriptor(o, index, nonuniform);
  if (!d) return fail(at(def), "buffer op on a non-buffer descriptor");
  if (d->is_image) return typed_buffer_query_size(o);
  if (d->texel_words) return texel_words_query_size(o, *d);
  Id ptr = d->var;
  if (d->is_array)
    ptr = emit_chain(d->var, d->storage, d->image_type, std::span<const Id>(&index, 1), nonuniform);
  if (d->ir_type.is_basic() || !ir->types().view(d->ir_type).is_unbounded())
    return fail(at(def), "size query of a sized buffer");
  mb.op(spv::OpArrayLength, basic(ir::ScalarType::U32, 1), {ptr, 0}, id_for(def));
  return true;
}

namespace {
DeclInfo::Kind variable_kind(ir::OpCode code) {
  switch (code) {
  case ir::OpCode::LdsLoad:
  case ir::OpCode::LdsStore:
  case ir::OpCode::LdsAtomic:
    return DeclInfo::Kind::Lds;
  case ir::OpCode::PushDataLoad:
    return DeclInfo::Kind::PushData;
  default:
    return DeclInfo::Kind::Scratch;
  }
}
} // namespace

bool Lowering::State::variable_chain(ir::OpView o, DeclInfo*& out, Pointee& p) {
  const ir::SsaDef def = o.def();
  const DeclInfo::Kind want = variable_kind(o.code());
  // Every variable op names the variable first and the address second.
  const ir::ops::LdsLoad access(o);
  DeclInfo* d = decl(access.variable().def());
  if (!d || d->kind != want) return fail(at(def), "memory op on the wrong declaration");
  chain.clear();
  if (want == DeclInfo::Kind::PushData) chain.push_back(const_u32(d->member));
  if (!walk_address(d->ir_type, access.address().def(), chain, p)) return fail(at(def), error);
  if (want == DeclInfo::Kind::Lds) bound_workgroup_chain(d->ir_type, access.address().def());
  out = d;
  return true;
}

void Lowering::State::bound_workgroup_chain(ir::Type base, ir::SsaDef address) {
  workgroup_bounds.assign(chain.size(), 0);
  workgroup_constants.assign(chain.size(), -1);
  // walk_address pushed one index per address component: the array dimensions, outermost
  // first, then (a struct's member, a constant) a vector's component.
  std::uint32_t lengths[ir::TypeView::kMaxDims + 1] = {};
  unsigned count = 0;
  ir::Type element = base;
  if (!base.is_basic()) {
    const ir::TypeView v = ir->types().view(base);
    for (unsigned d = v.dim_count; d-- > 0;) lengths[count++] = v.dims[d];
    element = v.member_count() == 1 ? v.member(0) : ir::Type();
  }
  if (element.is_basic()) lengths[count++] = element.vector_size();
  if (!address) return;
  // Constant components: of a constant address, or of a vector built from constants and others
  // (a structured address's constant offset).
  const ir::OpView a = op(address);
  const auto constant_part = [&](std::size_t i) -> std::int64_t {
    if (i >= a.operand_count()) return -1;
    if (a.code() == ir::OpCode::Constant)
      return std::uint32_t(ir::ops::Constant(a).values()[i].bits());
    if (a.code() != ir::OpCode::CompositeConstruct || !a.type().is_basic() ||
        a.type().vector_size() == 1)
      return -1;
    const ir::OpView part = op(a.operands()[i].def());
    if (part.code() != ir::OpCode::Constant || !part.operand_count()) return -1;
    return std::uint32_t(ir::ops::Constant(part).values()[0].bits());
  };
  for (std::size_t i = 0; i < chain.size() && i < count; ++i) {
    workgroup_bounds[i] = lengths[i];
    workgroup_constants[i] = constant_part(i);
  }
}

Id Lowering::State::workgroup_index(std::size_t position, Id index, std::uint32_t offset) {
  if (position >= workgroup_bounds.size() || workgroup_bounds[position] == 0) return index;
  const std::uint32_t last = workgroup_bounds[position] - 1;
  const std::int64_t constant = workgroup_constants[position];
  if (constant >= 0) return constant + offset <= last ? index : const_u32(last);
  if (last == 0) return const_u32(0); // the only element
  return mb.op(spv::OpExtInst, basic(ir::ScalarType::U32, 1),
               {glsl, GLSLstd450UMin, index, const_u32(last)});
}

void Lowering::State::guard_workgroup_prefix() {
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) chain[i] = workgroup_index(i, chain[i], 0);
}

// LdsLoad, ScratchLoad, PushDataLoad.
bool Lowering::State::lower_variable_load(ir::OpView o) {
  DeclInfo* d = nullptr;
  Pointee p;
  if (!variable_chain(o, d, p)) return false;
  const bool push = d->kind == DeclInfo::Kind::PushData;
  return load_through(o, push ? push_var : d->var, d->storage, push, p, false);
}

// LdsStore, ScratchStore.
bool Lowering::State::lower_variable_store(ir::OpView o) {
  DeclInfo* d = nullptr;
  Pointee p;
  if (!variable_chain(o, d, p)) return false;
  return store_through(o, ir::ops::LdsStore(o).value().def(), d->var, d->storage, false, p, false);
}

bool Lowering::State::lower_lds_atomic(ir::OpView o) {
  DeclInfo* d = nullptr;
  Pointee p;
  if (!variable_chain(o, d, p)) return false;
  if (!p.is_basic) return fail(at(o.def()), "atomic on an aggregate");
  guard_workgroup_prefix();
  if (!chain.empty()) chain.back() = workgroup_index(chain.size() - 1, chain.back(), 0);
  Id ptr = emit_chain(d->var, d->storage, basic(p.basic), chain);
  const ir::ops::LdsAtomic lds_atomic(o);
  return atomic(o, ptr, p.basic, spv::ScopeWorkgroup, lds_atomic.arguments().def(),
                lds_atomic.atomic_op().literal_enum<ir::AtomicOp>());
}

bool Lowering::State::lower_constant_load(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::ConstantLoad load(o);
  ir::SsaDef c = load.constant().def();
  Id var = 0;
  for (const auto& [id, v] : constant_vars)
    if (id == c.id()) var = v;
  if (!var) {
    // Dynamic indexing needs memory: a Private copy initialised with the constant.
    var = mb.global_variable(mb.type_pointer(spv::StorageClassPrivate, type(type_of(c))),
                             spv::StorageClassPrivate, value(c));
    add_interface(var, spv::StorageClassPrivate);
    constant_vars.emplace_back(c.id(), var);
  }
  chain.clear();
  Pointee p;
  if (!walk_address(type_of(c), load.address().def(), chain, p)) return fail(at(def), error);
  return load_through(o, var, spv::StorageClassPrivate, false, p, false);
}

bool Lowering::State::lower_counter_atomic(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::ops::CounterAtomic counter_atomic(o);
  const ir::SsaDef counter = counter_atomic.counter().def();
  const auto atomic_op = counter_atomic.atomic_op().literal_enum<ir::AtomicOp>();
  DeclInfo* d = decl(counter);
  Id index = 0;
  bool nonuniform = false;
  if (!d) d = descriptor(counter, index, nonuniform);
  if (!d || d->kind != DeclInfo::Kind::UavCounter)
    return fail(at(def), "counter atomic on a non-counter");
  if (d->is_array && !index) index = descriptor_index(*d, ir::SsaDef());
  if (d->texel_counter) {
    // Texel 0 of an R32_UINT storage texel buffer.
    Id image_ptr = d->var;
    if (index)
      image_ptr =
          emit_chain(d->var, d->storage, d->image_type, std::span<const Id>(&index, 1), nonuniform);
    Id texel_ptr = mb.op(spv::OpImageTexelPointer,
                         mb.type_pointer(spv::StorageClassImage, basic(ir::ScalarType::U32, 1)),
                         {image_ptr, const_u32(0), const_u32(0)});
    if (nonuniform) mb.decorate(texel_ptr, spv::DecorationNonUniform);
    return atomic(o, texel_ptr, ir::kU32, spv::ScopeDevice, ir::SsaDef(), atomic_op);
  }
  chain.clear();
  if (index) chain.push_back(index);
  chain.push_back(const_u32(0));
  Id ptr = emit_chain(d->var, d->storage, basic(ir::ScalarType::U32, 1), chain, nonuniform);
  return atomic(o, ptr, ir::kU32, spv::ScopeDevice, ir::SsaDef(), atomic_op);
}

} // namespace kiln::spirv
