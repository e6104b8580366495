// SPIR-V backend: raw and structured buffers in the interface's texel-buffer form. The buffer's
// dwords are the texels of an R32_UINT texel buffer (a uniform texel buffer for SRVs, a storage
// texel buffer for UAVs), as vkd3d and wined3d bind them: the IR's address (dword, or
// structure and dword) becomes one texel index, and each dword a fetch, read, write or texel
// pointer atomic.
#include "translator/spirv/lower_state.h"

namespace kiln::spirv {

bool Lowering::State::texel_words_access(ir::OpView o, const DeclInfo& d, bool address,
                                         TexelWords& t) {
  const ir::SsaDef def = o.def();
  t.uav = d.kind == DeclInfo::Kind::Uav;
  t.u32 = basic(ir::ScalarType::U32, 1);
  if (d.ir_type.is_basic()) return fail(at(def), "raw or structured buffer of a basic type");
  const ir::TypeView view = ir->types().view(d.ir_type);
  const ir::Type element = view.member_count() == 1 ? view.member(0) : view.single_member;
  if (view.dim_count == 0 || view.member_count() > 1 || !element.is_scalar() ||
      scalar_size(element.scalar_type()) != 4)
    return fail(at(def), "texel-buffer form of a buffer whose elements are not dwords");
  // Dwords per element of the outermost array (1 for raw buffers, the stride for structured).
  t.element_words = layout_size(view, view.dim_count - 1) / 4;
  // The DescriptorLoad's texel buffer: every buffer op names the descriptor first.
  t.image = value(ir::ops::BufferQuerySize(o).descriptor().def());
  if (!address) return true;

  if (ir::has(o.flags(), ir::OpFlags::SparseFeedback))
    return fail(at(def), "sparse feedback on raw/structured buffers not supported");
  if (o.code() != ir::OpCode::BufferLoad && !t.uav)
    return fail(at(def), "write to a read-only buffer");
  // The texel index: the address's components (outermost dimension first) times the dwords
  // of the element each one steps over.
  t.texel = const_u32(0);
  if (const ir::SsaDef address_def = ir::ops::BufferLoad(o).address().def()) {
    const ir::Type address_type = type_of(address_def);
    if (!address_type.is_basic() || address_type.vector_size() > view.dim_count)
      return fail(at(def), "buffer address does not fit the buffer's type");
    const Id a = value_as(address_def, address_type.with_scalar_type(ir::ScalarType::U32));
    for (unsigned i = 0; i < address_type.vector_size(); ++i) {
      Id component =
          address_type.vector_size() == 1 ? a : mb.op(spv::OpCompositeExtract, t.u32, {a, i});
      const std::uint32_t stride = layout_size(view, view.dim_count - 1 - i) / 4;
      if (stride != 1) component = mb.op(spv::OpIMul, t.u32, {component, const_u32(stride)});
      t.texel = i == 0 ? component : mb.op(spv::OpIAdd, t.u32, {t.texel, component});
    }
  }
  t.uvec4 = basic(ir::ScalarType::U32, 4);
  return true;
}

Id Lowering::State::texel_at(const TexelWords& t, unsigned k) {
  return k == 0 ? t.texel : mb.op(spv::OpIAdd, t.u32, {t.texel, const_u32(k)});
}

bool Lowering::State::texel_words_query_size(ir::OpView o, const DeclInfo& d) {
  TexelWords t;
  if (!texel_words_access(o, d, false, t)) return false;
  mb.require_capability(spv::CapabilityImageQuery);
  Id texels = mb.op(spv::OpImageQuerySize, t.u32, {t.image});
  if (t.element_words > 1) texels = mb.op(spv::OpUDiv, t.u32, {texels, const_u32(t.element_words)});
  bind(o.def(), texels, ir::kU32);
  return true;
}

bool Lowering::State::texel_words_load(ir::OpView o, const DeclInfo& d) {
  const ir::SsaDef def = o.def();
  TexelWords t;
  if (!texel_words_access(o, d, true, t)) return false;
  const ir::Type rt = o.type();
  if (!rt.is_basic()) return fail(at(def), "aggregate load not supported");
  const ir::Type scalar = rt.with_vector_size(1);
  Id parts[4] = {};
  for (unsigned k = 0; k < rt.vector_size(); ++k) {
    Id fetched =
        mb.op(t.uav ? spv::OpImageRead : spv::OpImageFetch, t.uvec4, {t.image, texel_at(t, k)});
    parts[k] = convert_basic(mb.op(spv::OpCompositeExtract, t.u32, {fetched, 0}), ir::kU32, scalar);
  }
  if (rt.vector_size() == 1) {
    bind(def, parts[0], rt);
  } else {
    mb.op(spv::OpCompositeConstruct, type(rt),
          std::span<const std::uint32_t>(parts, rt.vector_size()), id_for(def));
  }
  return true;
}

bool Lowering::State::texel_words_store(ir::OpView o, const DeclInfo& d) {
  const ir::SsaDef def = o.def();
  TexelWords t;
  if (!texel_words_access(o, d, true, t)) return false;
  const ir::SsaDef stored = ir::ops::BufferStore(o).value().def();
  const ir::Type vt = type_of(stored);
  if (!vt.is_basic()) return fail(at(def), "aggregate store not supported");
  const ir::Type scalar = vt.with_vector_size(1);
  const Id v = value(stored);
  for (unsigned k = 0; k < vt.vector_size(); ++k) {
    Id part = vt.vector_size() == 1 ? v : mb.op(spv::OpCompositeExtract, basic(scalar), {v, k});
    part = convert_basic(part, scalar, ir::kU32);
    const Id zero = const_u32(0);
    Id texel_value = mb.op(spv::OpCompositeConstruct, t.uvec4, {part, zero, zero, zero});
    mb.op_void(spv::OpImageWrite, {t.image, texel_at(t, k), texel_value});
  }
  return true;
}

bool Lowering::State::texel_words_atomic(ir::OpView o, const DeclInfo& d, Id index,
                                         bool nonuniform) {
  TexelWords t;
  if (!texel_words_access(o, d, true, t)) return false;
  Id image_ptr = d.var;
  if (index)
    image_ptr =
        emit_chain(d.var, d.storage, d.image_type, std::span<const Id>(&index, 1), nonuniform);
  Id texel_ptr = mb.op(spv::OpImageTexelPointer, mb.type_pointer(spv::StorageClassImage, t.u32),
                       {image_ptr, t.texel, const_u32(0)});
  if (nonuniform) mb.decorate(texel_ptr, spv::DecorationNonUniform);
  const ir::ops::BufferAtomic buffer_atomic(o);
  return atomic(o, texel_ptr, ir::kU32, spv::ScopeDevice, buffer_atomic.arguments().def(),
                buffer_atomic.atomic_op().literal_enum<ir::AtomicOp>());
}

} // namespace kiln::spirv
