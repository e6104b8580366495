// SPIR-V backend: image and typed-buffer ops (sample, gather, fetch, read/write, queries,
// atomics through OpImageTexelPointer, sparse variants).
#include "translator/spirv/lower_state.h"

namespace kiln::spirv {

namespace {
// Image operand words follow the order of their mask bits.
struct ImageOperands {
  std::uint32_t mask = 0;
  Id bias = 0, lod = 0, dx = 0, dy = 0, const_offset = 0, offset = 0, sample = 0, min_lod = 0;
  void append(std::vector<std::uint32_t>& out) const {
    if (!mask) return;
    out.push_back(mask);
    if (bias) out.push_back(bias);
    if (lod) out.push_back(lod);
    if (dx) {
      out.push_back(dx);
      out.push_back(dy);
    }
    if (const_offset) out.push_back(const_offset);
    if (offset) out.push_back(offset);
    if (sample) out.push_back(sample);
    if (min_lod) out.push_back(min_lod);
  }
};

// The offset of a sample or gather (null: none): ConstOffset when it is a constant, else Offset,
// which needs ImageGatherExtended.
void set_offset(Lowering::State& s, ImageOperands& ops, ir::SsaDef offset) {
  if (!offset) return;
  const ir::Type type = s.type_of(offset).with_scalar_type(ir::ScalarType::I32);
  if (s.op(offset).code() == ir::OpCode::Constant) {
    ops.mask |= spv::ImageOperandsConstOffsetMask;
    ops.const_offset = s.value_as(offset, type);
  } else {
    s.mb.require_capability(spv::CapabilityImageGatherExtended);
    ops.mask |= spv::ImageOperandsOffsetMask;
    ops.offset = s.value_as(offset, type);
  }
}

unsigned coord_components(ir::ResourceKind k) {
  switch (k) {
  case ir::ResourceKind::TypedBuffer:
  case ir::ResourceKind::Image1D:
  case ir::ResourceKind::Image1DArray:
    return 1;
  case ir::ResourceKind::Image3D:
  case ir::ResourceKind::ImageCube:
  case ir::ResourceKind::ImageCubeArray:
    return 3;
  default:
    return 2;
  }
}
bool is_arrayed(ir::ResourceKind k) {
  return k == ir::ResourceKind::Image1DArray || k == ir::ResourceKind::Image2DArray ||
         k == ir::ResourceKind::Image2DMSArray || k == ir::ResourceKind::ImageCubeArray;
}
bool is_ms(ir::ResourceKind k) {
  return k == ir::ResourceKind::Image2DMS || k == ir::ResourceKind::Image2DMSArray;
}
} // namespace

Id Lowering::State::sampled_coord(ir::SsaDef coord, ir::SsaDef layer, bool want_float) {
  ir::Type ct = type_of(coord);
  ir::ScalarType want = want_float ? ir::ScalarType::F32 : ir::ScalarType::I32;
  auto as = [&](ir::SsaDef def, ir::Type t) {
    Id id = value(def);
    if (ir::is_float(t.scalar_type()) == want_float)
      return bitcast_id(id, t, t.with_scalar_type(want));
    ir::Type to = t.with_scalar_type(want);
    if (want_float)
      return mb.op(ir::is_signed_int(t.scalar_type()) ? spv::OpConvertSToF : spv::OpConvertUToF,
                   basic(to), {id});
    return mb.op(spv::OpConvertFToS, basic(to), {id});
  };
  Id c = as(coord, ct);
  if (!layer) return c;
  Id l = as(layer, type_of(layer).with_vector_size(1));
  return mb.op(spv::OpCompositeConstruct, basic(want, ct.vector_size() + 1), {c, l});
}

bool Lowering::State::image_access(ir::OpView o, bool with_sampler, ImageAccess& a) {
  const ir::SsaDef def = o.def();
  // Every image op, and the buffer ops on typed buffers, name the descriptor first; the ones
  // that sample name the sampler second, as ImageComputeLod does.
  const ir::ops::ImageComputeLod access(o);
  DeclInfo* d = descriptor(access.descriptor().def(), a.index, a.nonuniform);
  if (!d || !d->is_image) return fail(at(def), "image op on a non-image descriptor");
  a.d = d;
  a.uav = d->kind == DeclInfo::Kind::Uav;
  a.sparse = ir::has(o.flags(), ir::OpFlags::SparseFeedback);
  a.texel_ir = ir::Type(d->ir_type.scalar_type(), 4);
  a.texel = basic(a.texel_ir);
  // A combined SRV (the interface's combined_samplers) is its pair's sampled image; the image
  // alone, for reads without a sampler, comes out of the entry with no sampler.
  if (d->combined) {
    if (!combined_image(def, access.descriptor().def(),
                        with_sampler ? access.sampler().def() : ir::SsaDef(), a.combined))
      return false;
    if (!with_sampler) a.image = mb.op(spv::OpImage, d->image_type, {a.combined});
  } else {
    if (with_sampler) {
      Id unused = 0;
      bool sampler_nonuniform = false;
      const DeclInfo* s = descriptor(access.sampler().def(), unused, sampler_nonuniform);
      if (s && s->combined)
        return fail(at(def), "a sampler the interface only combines, used with an SRV it does not");
    }
    a.image = value(access.descriptor().def());
  }
  if (a.sparse) mb.require_capability(spv::CapabilitySparseResidency);
  return true;
}

// Sparse results: {u32 code, T texel}; SPIR-V's struct matches the IR's type.
void Lowering::State::bind_image_result(ir::OpView o, const ImageAccess& a, Id result,
                                        ir::Type from) {
  const ir::Type rt = o.type();
  if (a.sparse) {
    bind(o.def(), result, rt);
  } else {
    bind(o.def(), convert_basic(result, from, rt), rt);
  }
}

Id Lowering::State::sampled_image(const ImageAccess& a, ir::SsaDef sampler) {
  if (a.combined) return a.combined;
  Id si =
      mb.op(spv::OpSampledImage, mb.type_sampled_image(a.d->image_type), {a.image, value(sampler)});
  bool sampler_nonuniform = false;
  Id unused = 0;
  descriptor(sampler, unused, sampler_nonuniform);
  if (a.nonuniform || sampler_nonuniform) mb.decorate(si, spv::DecorationNonUniform);
  return si;
}

// ImageLoad, and BufferLoad on a typed buffer.
bool Lowering::State::lower_image_load(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  std::vector<std::uint32_t>& w = scratch_words;
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  bool buffer = o.code() == ir::OpCode::BufferLoad;
  const ir::ops::ImageLoad load(o);
  ir::SsaDef coord = buffer ? ir::ops::BufferLoad(o).address().def() : load.coord().def();
  ir::SsaDef layer = buffer ? ir::SsaDef() : load.layer().def();
  ImageOperands ops;
  if (!buffer) {
    ir::SsaDef mip = load.mip().def(), sample = load.sample().def(), offset = load.offset().def();
    if (sample && is_ms(a.d->resource)) {
      ops.mask |= spv::ImageOperandsSampleMask;
      ops.sample = value_as(sample, ir::kI32);
    } else if (mip && !a.uav && a.d->resource != ir::ResourceKind::TypedBuffer) {
      ops.mask |= spv::ImageOperandsLodMask;
      ops.lod = value_as(mip, ir::kI32);
    }
    if (offset && !a.uav) {
      if (op(offset).code() != ir::OpCode::Constant)
        return fail(at(def), "non-constant texel fetch offset");
      ops.mask |= spv::ImageOperandsConstOffsetMask;
      ops.const_offset = value_as(offset, type_of(offset).with_scalar_type(ir::ScalarType::I32));
    }
  }
  if (!a.uav && !is_ms(a.d->resource) && a.d->resource != ir::ResourceKind::TypedBuffer &&
      !ops.lod) {
    ops.mask |= spv::ImageOperandsLodMask;
    ops.lod = mb.constant_i32(0);
  }
  Id c = sampled_coord(coord, layer, false);
  w.clear();
  w.push_back(a.image);
  w.push_back(c);
  ops.append(w);
  spv::Op opcode = a.uav ? (a.sparse ? spv::OpImageSparseRead : spv::OpImageRead)
                         : (a.sparse ? spv::OpImageSparseFetch : spv::OpImageFetch);
  Id result = mb.op(opcode, a.sparse ? type(rt) : a.texel, w);
  bind_image_result(o, a, result, a.texel_ir);
  return true;
}

// ImageStore, and BufferStore on a typed buffer.
bool Lowering::State::lower_image_store(ir::OpView o) {
  const ir::SsaDef def = o.def();
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  if (!a.uav) return fail(at(def), "store to an SRV");
  bool buffer = o.code() == ir::OpCode::BufferStore;
  const ir::ops::ImageStore image_store(o);
  const ir::ops::BufferStore buffer_store(o);
  ir::SsaDef coord = buffer ? buffer_store.address().def() : image_store.coord().def();
  ir::SsaDef layer = buffer ? ir::SsaDef() : image_store.layer().def();
  ir::SsaDef stored = buffer ? buffer_store.value().def() : image_store.value().def();
  ir::Type vt = type_of(stored);
  if (!vt.is_basic()) return fail(at(def), "image store of an aggregate");
  Id v = convert_basic(value(stored), vt, vt.with_scalar_type(a.d->ir_type.scalar_type()));
  if (vt.vector_size() < 4) {
    // Pad to the vec4 texel (the format ignores the extra components).
    Id parts[4] = {};
    Id scalar = basic(a.d->ir_type.scalar_type(), 1);
    for (unsigned k = 0; k < 4; ++k)
      parts[k] = k < vt.vector_size()
                     ? (vt.vector_size() == 1 ? v : mb.op(spv::OpCompositeExtract, scalar, {v, k}))
                     : const_scalar(a.d->ir_type.scalar_type(), 0);
    v = mb.op(spv::OpCompositeConstruct, a.texel, std::span<const std::uint32_t>(parts, 4));
  }
  Id c = sampled_coord(coord, layer, false);
  mb.op_void(spv::OpImageWrite, {a.image, c, v});
  return true;
}

// BufferQuerySize on a typed buffer.
bool Lowering::State::typed_buffer_query_size(ir::OpView o) {
  const ir::SsaDef def = o.def();
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  mb.require_capability(spv::CapabilityImageQuery);
  mb.op(spv::OpImageQuerySize, basic(ir::ScalarType::U32, 1), {a.image}, id_for(def));
  return true;
}

bool Lowering::State::lower_image_atomic(ir::OpView o) {
  const ir::SsaDef def = o.def();
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  if (!a.uav) return fail(at(def), "atomic on an SRV");
  Id ptr = a.d->var;
  if (a.d->is_array)
    ptr = emit_chain(a.d->var, a.d->storage, a.d->image_type, std::span<const Id>(&a.index, 1),
                     a.nonuniform);
  const ir::ops::ImageAtomic image_atomic(o);
  Id c = sampled_coord(image_atomic.coord().def(), image_atomic.layer().def(), false);
  ir::Type scalar = a.d->ir_type;
  Id texel_ptr =
      mb.op(spv::OpImageTexelPointer, mb.type_pointer(spv::StorageClassImage, basic(scalar)),
            {ptr, c, mb.constant_i32(0)});
  if (a.nonuniform) mb.decorate(texel_ptr, spv::DecorationNonUniform);
  return atomic(o, texel_ptr, scalar, spv::ScopeDevice, image_atomic.arguments().def(),
                image_atomic.atomic_op().literal_enum<ir::AtomicOp>());
}

bool Lowering::State::lower_image_query_size(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  mb.require_capability(spv::CapabilityImageQuery);
  if (rt.is_basic()) return fail(at(def), "image size query must return a struct");
  ir::TypeView view = ir->types().view(rt);
  if (view.member_count() != 2 || view.dim_count) return fail(at(def), "malformed size query type");
  ir::Type size_t_ir = view.member(0);
  bool arrayed = is_arrayed(a.d->resource);
  unsigned n = coord_components(a.d->resource);
  if (a.d->resource == ir::ResourceKind::ImageCube ||
      a.d->resource == ir::ResourceKind::ImageCubeArray)
    n = 2;
  unsigned total = n + (arrayed ? 1 : 0);
  Id u32 = basic(ir::ScalarType::U32, 1);
  Id query_type = basic(ir::ScalarType::U32, total);
  Id q;
  ir::SsaDef mip = ir::ops::ImageQuerySize(o).mip().def();
  if (!a.uav && !is_ms(a.d->resource) && a.d->resource != ir::ResourceKind::TypedBuffer)
    q = mb.op(spv::OpImageQuerySizeLod, query_type,
              {a.image, mip ? value_as(mip, ir::kI32) : mb.constant_i32(0)});
  else
    q = mb.op(spv::OpImageQuerySize, query_type, {a.image});
  Id size;
  if (n == total) {
    size = q;
  } else if (n == 1) {
    size = mb.op(spv::OpCompositeExtract, u32, {q, 0});
  } else {
    std::uint32_t sw[5] = {q, q, 0, 1, 2};
    size = mb.op(spv::OpVectorShuffle, basic(ir::ScalarType::U32, n),
                 std::span<const std::uint32_t>(sw, 2 + n));
  }
  size = convert_basic(size, ir::Type(ir::ScalarType::U32, n), size_t_ir);
  Id layers = arrayed ? mb.op(spv::OpCompositeExtract, u32, {q, n}) : const_u32(1);
  layers = convert_basic(layers, ir::kU32, view.member(1));
  mb.op(spv::OpCompositeConstruct, type(rt), {size, layers}, id_for(def));
  return true;
}

// ImageQueryMips, ImageQuerySamples.
bool Lowering::State::lower_image_query_count(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  ImageAccess a;
  if (!image_access(o, false, a)) return false;
  mb.require_capability(spv::CapabilityImageQuery);
  bool mips = o.code() == ir::OpCode::ImageQueryMips;
  Id r = mb.op(mips ? spv::OpImageQueryLevels : spv::OpImageQuerySamples,
               basic(ir::ScalarType::U32, 1), {a.image});
  bind(def, convert_basic(r, ir::kU32, rt), rt);
  return true;
}

bool Lowering::State::lower_image_compute_lod(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  ImageAccess a;
  if (!image_access(o, true, a)) return false;
  if (stage != ShaderStage::Pixel) return fail(at(def), "LOD query outside pixel shaders");
  mb.require_capability(spv::CapabilityImageQuery);
  const ir::ops::ImageComputeLod query(o);
  Id si = sampled_image(a, query.sampler().def());
  Id c = sampled_coord(query.coord().def(), ir::SsaDef(), true);
  mb.op(spv::OpImageQueryLod, type(rt), {si, c}, id_for(def));
  return true;
}

bool Lowering::State::lower_image_sample(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  std::vector<std::uint32_t>& w = scratch_words;
  ImageAccess a;
  if (!image_access(o, true, a)) return false;
  if (a.uav) return fail(at(def), "sampling a UAV");
  const ir::ops::ImageSample sample(o);
  ir::SsaDef layer = sample.layer().def(), coord = sample.coord().def(),
             offset = sample.offset().def(), lod = sample.lod_index().def(),
             bias = sample.lod_bias().def(), clamp = sample.lod_clamp().def(),
             dx = sample.dx().def(), dy = sample.dy().def(), dref = sample.depth_compare().def();
  Id si = sampled_image(a, sample.sampler().def());
  Id c = sampled_coord(coord, layer, true);
  ImageOperands ops;
  bool explicit_lod = lod || dx;
  if (!explicit_lod && stage != ShaderStage::Pixel) {
    // Implicit LOD only exists in pixel shaders; elsewhere D3D samples level 0.
    explicit_lod = true;
    ops.mask |= spv::ImageOperandsLodMask;
    ops.lod = mb.constant_f32(0.0f);
  }
  if (bias && !explicit_lod) {
    ops.mask |= spv::ImageOperandsBiasMask;
    ops.bias = value_as(bias, ir::kF32);
  }
  if (lod) {
    ops.mask |= spv::ImageOperandsLodMask;
    ops.lod = value_as(lod, ir::kF32);
  } else if (dx && dy) {
    ops.mask |= spv::ImageOperandsGradMask;
    ops.dx = value(dx);
    ops.dy = value(dy);
  }
  set_offset(*this, ops, offset);
  if (clamp) {
    mb.require_capability(spv::CapabilityMinLod);
    ops.mask |= spv::ImageOperandsMinLodMask;
    ops.min_lod = value_as(clamp, ir::kF32);
  }
  w.clear();
  w.push_back(si);
  w.push_back(c);
  spv::Op opcode;
  Id result_type;
  ir::Type from;
  if (dref) {
    w.push_back(value_as(dref, ir::kF32));
    opcode = explicit_lod ? (a.sparse ? spv::OpImageSparseSampleDrefExplicitLod
                                      : spv::OpImageSampleDrefExplicitLod)
                          : (a.sparse ? spv::OpImageSparseSampleDrefImplicitLod
                                      : spv::OpImageSampleDrefImplicitLod);
    from = a.d->ir_type;
    result_type = basic(from);
  } else {
    opcode = explicit_lod
                 ? (a.sparse ? spv::OpImageSparseSampleExplicitLod : spv::OpImageSampleExplicitLod)
                 : (a.sparse ? spv::OpImageSparseSampleImplicitLod : spv::OpImageSampleImplicitLod);
    from = a.texel_ir;
    result_type = a.texel;
  }
  if (explicit_lod && !(ops.mask & (spv::ImageOperandsLodMask | spv::ImageOperandsGradMask)))
    return fail(at(def), "explicit-LOD sample without LOD or gradients");
  ops.append(w);
  Id result = mb.op(opcode, a.sparse ? type(rt) : result_type, w);
  if (a.nonuniform) mb.decorate(result, spv::DecorationNonUniform);
  bind_image_result(o, a, result, from);
  return true;
}

bool Lowering::State::lower_image_gather(ir::OpView o) {
  const ir::SsaDef def = o.def();
  const ir::Type rt = o.type();
  std::vector<std::uint32_t>& w = scratch_words;
  ImageAccess a;
  if (!image_access(o, true, a)) return false;
  if (a.uav) return fail(at(def), "gathering from a UAV");
  const ir::ops::ImageGather gather(o);
  ir::SsaDef layer = gather.layer().def(), coord = gather.coord().def(),
             offset = gather.offset().def(), dref = gather.depth_compare().def();
  std::uint32_t component = gather.component().literal_u32();
  Id si = sampled_image(a, gather.sampler().def());
  Id c = sampled_coord(coord, layer, true);
  ImageOperands ops;
  set_offset(*this, ops, offset);
  w.clear();
  w.push_back(si);
  w.push_back(c);
  w.push_back(dref ? value_as(dref, ir::kF32) : const_u32(component));
  ops.append(w);
  spv::Op opcode = dref ? (a.sparse ? spv::OpImageSparseDrefGather : spv::OpImageDrefGather)
                        : (a.sparse ? spv::OpImageSparseGather : spv::OpImageGather);
  Id result = mb.op(opcode, a.sparse ? type(rt) : a.texel, w);
  bind_image_result(o, a, result, a.texel_ir);
  return true;
}

} // namespace kiln::spirv
