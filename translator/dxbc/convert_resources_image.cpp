// Image-side resource instructions of the DXBC -> IR converter: sample*, gather4*, ld, ld_ms,
// ld_uav_typed, store_uav_typed, resinfo, lod, sampleinfo, samplepos (and their sparse-feedback
// forms). See convert_resources.h for the mapping decisions.
#include "translator/dxbc/convert_dispatch.h"
#include "translator/dxbc/convert_resources.h"
#include "translator/ir/ir_op_views.h"

namespace kiln::dxbc {

namespace {

using ir::ScalarType;
using ir::SsaDef;

// Source operand positions (after the destinations) of the sample and gather families; -1 =
// the instruction has no such operand. One row per opcode whose handler is sample_image.
struct SampleLayout {
  Opcode opcode = Opcode::Sample;
  std::int8_t coord = 0, offset = -1, resource = 1, sampler = 2;
  std::int8_t ref = -1, lod = -1, bias = -1, dx = -1, dy = -1, clamp = -1;
  bool lod_zero = false; // sample_c_lz: explicit lod 0
  bool gather = false;
};

constexpr SampleLayout kSampleLayoutRows[] = {
    {.opcode = Opcode::Sample},
    {.opcode = Opcode::SampleC, .ref = 3},
    {.opcode = Opcode::SampleCLz, .ref = 3, .lod_zero = true},
    {.opcode = Opcode::SampleL, .lod = 3},
    {.opcode = Opcode::SampleD, .dx = 3, .dy = 4},
    {.opcode = Opcode::SampleB, .bias = 3},
    {.opcode = Opcode::Gather4, .gather = true},
    {.opcode = Opcode::Gather4C, .ref = 3, .gather = true},
    {.opcode = Opcode::Gather4Po, .offset = 1, .resource = 2, .sampler = 3, .gather = true},
    {.opcode = Opcode::Gather4PoC,
     .offset = 1,
     .resource = 2,
     .sampler = 3,
     .ref = 4,
     .gather = true},
    {.opcode = Opcode::Gather4S, .gather = true},
    {.opcode = Opcode::Gather4CS, .ref = 3, .gather = true},
    {.opcode = Opcode::Gather4PoS, .offset = 1, .resource = 2, .sampler = 3, .gather = true},
    {.opcode = Opcode::Gather4PoCS,
     .offset = 1,
     .resource = 2,
     .sampler = 3,
     .ref = 4,
     .gather = true},
    {.opcode = Opcode::SampleLS, .lod = 3},
    {.opcode = Opcode::SampleCLzS, .ref = 3, .lod_zero = true},
    {.opcode = Opcode::SampleClS, .clamp = 3},
    {.opcode = Opcode::SampleBClS, .bias = 3, .clamp = 4},
    {.opcode = Opcode::SampleDClS, .dx = 3, .dy = 4, .clamp = 5},
    {.opcode = Opcode::SampleCClS, .ref = 3, .clamp = 4},
};
constexpr OpcodeRows kSampleLayouts(kSampleLayoutRows);
static_assert(kSampleLayouts.covers({"sample_image"}),
              "kSampleLayouts: one row per opcode whose handler is sample_image, in opcode order");

// The aoffimmi offsets as a constant vector, or null when there are none (or the image kind
// takes none).
SsaDef immediate_offset(ConvertContext& ctx, const Instruction& inst, const ImageShape& shape) {
  if (!(inst.flags & instruction_flag::kTexelOffset) || shape.offset_dims == 0) return SsaDef();
  std::uint32_t bits[3];
  bool any = false;
  for (unsigned i = 0; i < shape.offset_dims; ++i) {
    bits[i] = std::uint32_t(std::int32_t(inst.texel_offset[i]));
    any = any || bits[i] != 0;
  }
  return any ? constant_vector(ctx, ScalarType::I32, bits, shape.offset_dims) : SsaDef();
}

// Coordinates (first shape.coords components) and the array layer (the next one) of `op`.
void load_coords(ConvertContext& ctx, const Operand& op, const ImageShape& shape, ScalarType type,
                 SsaDef& coord, SsaDef& layer) {
  coord = ctx.load_src_vector(op, shape.coords, type);
  layer = shape.arrayed ? ctx.load_src(op, std::uint8_t(1u << shape.coords), type)[shape.coords]
                        : SsaDef();
}

// Stores a vec4 texel of `type` to the first destination through the resource swizzle.
void store_texel(ConvertContext& ctx, const Instruction& inst, const Operands& ops, SsaDef texel,
                 ScalarType type, const Operand& swizzle_op) {
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, ctx.swizzle_texel(texel, 4, type, swizzle_op, dst_mask(dst)), type);
}

// Entry i = comps[swizzle_op.component(i)] for every destination component.
Vec4 swizzle_scalars(const SsaDef comps[4], const Operand& swizzle_op, std::uint8_t mask) {
  Vec4 v;
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) v[i] = comps[swizzle_op.component(i)];
  return v;
}

// A t# resource and an s# sampler bound for sampling: both descriptors loaded and the image
// shape known. False (after ctx.fail) when the operands are not a sampleable texture and a
// sampler; `not_sampleable` names why a buffer or multisampled resource is refused.
struct SampledImage {
  ResourceBinding* resource = nullptr;
  ImageShape shape;
  SsaDef descriptor, sampler;
};

bool bind_sampled_image(ConvertContext& ctx, const Instruction& inst, const Operand& res_op,
                        const Operand& smp_op, const char* not_sampleable, SampledImage& out) {
  if (res_op.type != OperandType::Resource || smp_op.type != OperandType::Sampler) {
    ctx.fail(inst, "expects a t# resource and an s# sampler");
    return false;
  }
  ResourceBinding* res = find_binding(ctx, inst, res_op);
  ResourceBinding* smp = res ? find_binding(ctx, inst, smp_op) : nullptr;
  if (!smp) return false;
  out.resource = res;
  out.shape = image_shape(res->kind);
  if (out.shape.buffer || out.shape.multisampled) {
    ctx.fail(inst, not_sampleable);
    return false;
  }
  out.descriptor = load_descriptor(ctx, inst, res_op, *res);
  out.sampler = load_descriptor(ctx, inst, smp_op, *smp);
  return out.descriptor && out.sampler;
}

} // namespace

// sample*, gather4* (and their sparse-feedback forms): operand roles from kSampleLayouts.
bool sample_image(ConvertContext& ctx, const Instruction& inst) {
  const SampleLayout& l = kSampleLayouts[inst.opcode];
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.src(unsigned(l.resource));
  const Operand& smp_op = ops.src(unsigned(l.sampler));
  SampledImage image;
  if (!bind_sampled_image(ctx, inst, res_op, smp_op,
                          "cannot sample a buffer or multisampled resource", image))
    return true;
  const ResourceBinding* res = image.resource;
  const ImageShape& shape = image.shape;
  const SsaDef desc = image.descriptor, sampler = image.sampler;

  SsaDef coord, layer;
  load_coords(ctx, ops.src(unsigned(l.coord)), shape, ScalarType::F32, coord, layer);
  SsaDef offset = immediate_offset(ctx, inst, shape);
  if (l.offset >= 0) {
    if (shape.offset_dims == 0) {
      return ctx.fail(inst, "programmable offsets on a cube resource");
    }
    // D3D honours the low 6 bits of each offset, sign-extended ([-32, 31]).
    const std::uint8_t mask = std::uint8_t((1u << shape.offset_dims) - 1);
    Vec4 parts = ctx.load_src(ops.src(unsigned(l.offset)), mask, ScalarType::I32);
    for (unsigned i = 0; i < shape.offset_dims; ++i)
      parts[i] = ctx.emit(
          ir::Op::SBitExtract(ir::kI32, parts[i], ctx.constant_u32(0), ctx.constant_u32(6)));
    offset = ctx.make_vector(parts, mask, ScalarType::I32);
  }
  auto scalar = [&](std::int8_t at) {
    return at < 0 ? SsaDef() : ctx.load_src_scalar(ops.src(unsigned(at)), ScalarType::F32);
  };
  const SsaDef ref = scalar(l.ref);
  const ScalarType texel = ref ? ScalarType::F32 : res->sampled;
  const ir::Type vec4 = ir::vec(texel, 4);

  if (l.gather) {
    // gather4 picks the component through the sampler's select1; the compare forms read red.
    const std::uint32_t component = ref ? 0 : smp_op.component(0);
    ir::Op op = ir::Op::ImageGather(vec4, desc, sampler, layer, coord, offset, ref, component);
    SsaDef value = emit_with_feedback(ctx, inst, ops, op, vec4);
    store_texel(ctx, inst, ops, value, texel, res_op);
    return true;
  }

  SsaDef lod = l.lod_zero ? ctx.constant_f32(0.0f) : scalar(l.lod);
  SsaDef bias = scalar(l.bias);
  SsaDef clamp = scalar(l.clamp);
  SsaDef dx, dy;
  if (l.dx >= 0) {
    dx = ctx.load_src_vector(ops.src(unsigned(l.dx)), shape.coords, ScalarType::F32);
    dy = ctx.load_src_vector(ops.src(unsigned(l.dy)), shape.coords, ScalarType::F32);
  }
  const ir::Type type = ref ? ir::kF32 : vec4;
  ir::Op op =
      ir::Op::ImageSample(type, desc, sampler, layer, coord, offset, lod, bias, clamp, dx, dy, ref);
  SsaDef value = emit_with_feedback(ctx, inst, ops, op, type);
  if (!ref) {
    store_texel(ctx, inst, ops, value, texel, res_op);
    return true;
  }
  // Depth comparison returns one value; D3D replicates it before the resource swizzle.
  const Operand& dst = ops.dst(0);
  Vec4 v;
  for (unsigned i = 0; i < 4; ++i)
    if (dst_mask(dst) & (1u << i)) v[i] = value;
  ctx.store_dst(inst, dst, v, ScalarType::F32);
  return true;
}

// ld, ld_ms (and _s): texel fetch from a typed SRV.
bool load_texel(ConvertContext& ctx, const Instruction& inst) {
  const bool multisample = inst.opcode == Opcode::LdMs || inst.opcode == Opcode::LdMsS;
  const Operands ops = operands_of(ctx, inst);
  const Operand& addr = ops.src(0);
  const Operand& res_op = ops.src(1);
  if (res_op.type != OperandType::Resource) {
    return ctx.fail(inst, "expects a t# resource");
  }
  ResourceBinding* res = find_binding(ctx, inst, res_op);
  if (!res) return false;
  const ImageShape shape = image_shape(res->kind);
  if (res->kind == ir::ResourceKind::RawBuffer || res->kind == ir::ResourceKind::Structured ||
      res->kind == ir::ResourceKind::ImageCube || res->kind == ir::ResourceKind::ImageCubeArray ||
      shape.multisampled != multisample) {
    return ctx.fail(inst, "resource kind does not allow this fetch");
  }
  SsaDef desc = load_descriptor(ctx, inst, res_op, *res);
  if (!desc) return false;
  const ir::Type vec4 = ir::vec(res->sampled, 4);
  SsaDef value;
  if (shape.buffer) {
    SsaDef index = ctx.load_src_scalar(addr, ScalarType::U32);
    value = emit_with_feedback(ctx, inst, ops, ir::Op::BufferLoad(vec4, desc, index, 4u), vec4);
  } else {
    SsaDef coord, layer;
    load_coords(ctx, addr, shape, ScalarType::I32, coord, layer);
    SsaDef mip = multisample ? SsaDef() : ctx.load_src(addr, 8, ScalarType::I32)[3];
    SsaDef sample = multisample ? ctx.load_src_scalar(ops.src(2), ScalarType::I32) : SsaDef();
    SsaDef offset = immediate_offset(ctx, inst, shape);
    value = emit_with_feedback(
        ctx, inst, ops, ir::Op::ImageLoad(vec4, desc, mip, layer, coord, sample, offset), vec4);
  }
  store_texel(ctx, inst, ops, value, res->sampled, res_op);
  return true;
}

namespace {

// Resolves a typed UAV operand; null after ctx.fail().
ResourceBinding* typed_uav(ConvertContext& ctx, const Instruction& inst, const Operand& op) {
  if (op.type != OperandType::Uav) {
    ctx.fail(inst, "expects a u# operand");
    return nullptr;
  }
  ResourceBinding* uav = find_binding(ctx, inst, op);
  if (!uav) return nullptr;
  if (uav->kind == ir::ResourceKind::RawBuffer || uav->kind == ir::ResourceKind::Structured ||
      image_shape(uav->kind).multisampled) {
    ctx.fail(inst, "expects a typed UAV");
    return nullptr;
  }
  return uav;
}

} // namespace

bool load_uav_typed(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& uav_op = ops.src(1);
  ResourceBinding* uav = typed_uav(ctx, inst, uav_op);
  if (!uav) return false;
  note_uav_usage(ctx, *uav, uav_usage::kRead);
  RovLock lock(ctx, uav);
  SsaDef desc = load_descriptor(ctx, inst, uav_op, *uav);
  if (!desc) return false;
  const ImageShape shape = image_shape(uav->kind);
  const ir::Type vec4 = ir::vec(uav->sampled, 4);
  SsaDef value;
  if (shape.buffer) {
    SsaDef index = ctx.load_src_scalar(ops.src(0), ScalarType::U32);
    value = emit_with_feedback(ctx, inst, ops, ir::Op::BufferLoad(vec4, desc, index, 4u), vec4);
  } else {
    SsaDef coord, layer;
    load_coords(ctx, ops.src(0), shape, ScalarType::U32, coord, layer);
    value = emit_with_feedback(
        ctx, inst, ops, ir::Op::ImageLoad(vec4, desc, SsaDef(), layer, coord, SsaDef(), SsaDef()),
        vec4);
  }
  store_texel(ctx, inst, ops, value, uav->sampled, uav_op);
  return true;
}

bool store_uav_typed(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& uav_op = ops.dst(0);
  ResourceBinding* uav = typed_uav(ctx, inst, uav_op);
  if (!uav) return false;
  note_uav_usage(ctx, *uav, uav_usage::kWrite);
  RovLock lock(ctx, uav);
  SsaDef desc = load_descriptor(ctx, inst, uav_op, *uav);
  if (!desc) return false;
  const ImageShape shape = image_shape(uav->kind);
  // D3D writes all four components whatever the destination mask says.
  SsaDef value = ctx.make_vector(ctx.load_src(ops.src(1), 0xf, uav->sampled), 0xf, uav->sampled);
  if (shape.buffer) {
    SsaDef index = ctx.load_src_scalar(ops.src(0), ScalarType::U32);
    ctx.emit(ir::Op::BufferStore(ir::kVoid, desc, index, value, 4u));
    return true;
  }
  SsaDef coord, layer;
  load_coords(ctx, ops.src(0), shape, ScalarType::U32, coord, layer);
  ctx.emit(ir::Op::ImageStore(desc, layer, coord, value));
  return true;
}

// resinfo: (width, height, depth or layers, mip count) laid out as D3D does per dimension, as
// float, reciprocal float or uint.
bool resinfo(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.src(1);
  ResourceBinding* res = find_binding(ctx, inst, res_op);
  if (!res) return false;
  const ImageShape shape = image_shape(res->kind);
  if (shape.buffer || (res_op.type != OperandType::Resource && res_op.type != OperandType::Uav)) {
    return ctx.fail(inst, "resinfo needs a texture (use bufinfo for buffers)");
  }
  SsaDef desc = load_descriptor(ctx, inst, res_op, *res);
  if (!desc) return false;
  const bool sampled = res_op.type == OperandType::Resource;
  const bool has_mips = sampled && !shape.multisampled;
  SsaDef mip = has_mips ? ctx.load_src_scalar(ops.src(0), ScalarType::U32) : SsaDef();

  const ir::Type size_type = ir::Type(ScalarType::U32, shape.size_dims);
  const ir::Type members[2] = {size_type, ir::kU32};
  SsaDef query =
      ctx.emit(ir::Op::ImageQuerySize(ctx.builder().types().make_struct(members), desc, mip));
  const SsaDef zero = ctx.constant_u32(0);
  SsaDef comps[4] = {zero, zero, zero, zero};
  SsaDef size = ctx.emit(ir::Op::CompositeExtract(size_type, query, zero));
  for (unsigned d = 0; d < shape.size_dims; ++d)
    comps[d] = shape.size_dims == 1
                   ? size
                   : ctx.emit(ir::Op::CompositeExtract(ir::kU32, size, ctx.constant_u32(d)));
  if (shape.arrayed)
    comps[shape.size_dims] =
        ctx.emit(ir::Op::CompositeExtract(ir::kU32, query, ctx.constant_u32(1)));
  comps[3] = has_mips ? ctx.emit(ir::Op::ImageQueryMips(desc)) : ctx.constant_u32(1);
  const unsigned dims = shape.size_dims + (shape.arrayed ? 1u : 0u);
  if (has_mips && !(ctx.builder().op(mip).code() == ir::OpCode::Constant &&
                    ir::ops::Constant(ctx.builder().op(mip)).values()[0].literal_u32() == 0)) {
    // D3D returns 0 sizes for a mip level beyond the chain; Vulkan leaves the query undefined.
    SsaDef in_range = ctx.emit(ir::Op::ULt(mip, comps[3]));
    for (unsigned d = 0; d < dims; ++d)
      comps[d] = ctx.emit(ir::Op::Select(ir::kU32, in_range, comps[d], zero));
  }

  const std::uint32_t mode = inst.return_type_control(); // 0 float, 1 rcpFloat, 2 uint
  ScalarType out = ScalarType::U32;
  if (mode != 2) {
    out = ScalarType::F32;
    const SsaDef fzero = ctx.constant_f32(0.0f);
    for (unsigned c = 0; c < 4; ++c) {
      if (comps[c] == zero) {
        comps[c] = fzero;
        continue;
      }
      comps[c] = ctx.emit(ir::Op::ConvertItoF(ir::kF32, comps[c]));
      if (mode == 1 && c < shape.size_dims)
        comps[c] = ctx.emit(ir::Op::FDiv(ir::kF32, ctx.constant_f32(1.0f), comps[c]));
    }
  }
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, swizzle_scalars(comps, res_op, dst_mask(dst)), out);
  return true;
}

namespace {

// The rasterizer's sample count (sampleinfo/samplepos on `rasterizer`).
SsaDef rasterizer_sample_count(ConvertContext& ctx) {
  if (!ctx.sample_count_input)
    ctx.sample_count_input = ctx.builder().add(ir::Op::DclInputBuiltIn(
        ir::kU32, ctx.entry_point(), ir::BuiltIn::SampleCount, ir::InterpolationModes::Flat));
  return ctx.emit(ir::Op::InputLoad(ir::kU32, ctx.sample_count_input, SsaDef()));
}

// Sample count of a t# (multisampled) or of the rasterizer; null after ctx.fail().
SsaDef sample_count_of(ConvertContext& ctx, const Instruction& inst, const Operand& op) {
  if (op.type == OperandType::Rasterizer) return rasterizer_sample_count(ctx);
  if (op.type != OperandType::Resource) {
    ctx.fail(inst, "expects a t# resource or the rasterizer");
    return SsaDef();
  }
  ResourceBinding* res = find_binding(ctx, inst, op);
  if (!res) return SsaDef();
  SsaDef desc = load_descriptor(ctx, inst, op, *res);
  if (!desc) return SsaDef();
  if (!image_shape(res->kind).multisampled) return ctx.constant_u32(1);
  return ctx.emit(ir::Op::ImageQuerySamples(desc));
}

} // namespace

bool sampleinfo(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  SsaDef count = sample_count_of(ctx, inst, ops.src(0));
  if (!count) return false;
  const bool as_uint = (inst.return_type_control() & 1) != 0;
  ScalarType out = as_uint ? ScalarType::U32 : ScalarType::F32;
  SsaDef zero = as_uint ? ctx.constant_u32(0) : ctx.constant_f32(0.0f);
  if (!as_uint) count = ctx.emit(ir::Op::ConvertItoF(ir::kF32, count));
  const SsaDef comps[4] = {count, zero, zero, zero};
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, swizzle_scalars(comps, ops.src(0), dst_mask(dst)), out);
  return true;
}

namespace {

// The D3D standard sample patterns for 1, 2, 4, 8 and 16 samples, in 1/16 pixel from the
// centre; the pattern of n samples starts at entry n - 1. Entry 31 is (0, 0) for anything else.
constexpr std::int8_t kSamplePositions[32][2] = {
    {0, 0},                                                                      // 1
    {4, 4},   {-4, -4},                                                          // 2
    {-2, -6}, {6, -2},  {-6, 2},  {2, 6},                                        // 4
    {1, -3},  {-1, 3},  {5, 1},   {-3, -5}, {-5, 5},  {-7, -1}, {3, 7}, {7, -7}, // 8
    {1, 1},   {-1, -3}, {-3, 2},  {4, -1},  {-5, -2}, {2, 5},   {5, 3}, {3, -5}, // 16
    {-2, 6},  {0, -7},  {-4, -6}, {-6, 4},  {-8, 0},  {7, -4},  {6, 7}, {-7, -8}, {0, 0}};

SsaDef sample_position_table(ConvertContext& ctx) {
  ir::Operand literals[64];
  for (unsigned i = 0; i < 32; ++i)
    for (unsigned c = 0; c < 2; ++c)
      literals[i * 2 + c] = ir::Operand::literal_f32(float(kSamplePositions[i][c]) / 16.0f);
  const ir::Type type = ctx.builder().types().make_array(ir::vec(ScalarType::F32, 2), 32);
  return ctx.builder().add(ir::Op::with_operands(ir::OpCode::Constant, type, literals, 0));
}

} // namespace

bool samplepos(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  SsaDef count = sample_count_of(ctx, inst, ops.src(0));
  if (!count) return false;
  SsaDef sample = ctx.load_src_scalar(ops.src(1), ScalarType::U32);
  // index = count - 1 + sample when sample < count, else the (0, 0) entry; counts other than
  // 1/2/4/8/16 cannot occur on a valid resource and end up clamped.
  SsaDef index = ctx.emit(
      ir::Op::IAdd(ir::kU32, ctx.emit(ir::Op::ISub(ir::kU32, count, ctx.constant_u32(1))), sample));
  SsaDef valid = ctx.emit(ir::Op::ULt(sample, count));
  index = ctx.emit(ir::Op::Select(ir::kU32, valid, index, ctx.constant_u32(31)));
  index = ctx.emit(ir::Op::UMin(ir::kU32, index, ctx.constant_u32(31)));
  SsaDef pos = ctx.emit(
      ir::Op::ConstantLoad(ir::vec(ScalarType::F32, 2), sample_position_table(ctx), index));
  const SsaDef fzero = ctx.constant_f32(0.0f);
  const SsaDef comps[4] = {ctx.emit(ir::Op::CompositeExtract(ir::kF32, pos, ctx.constant_u32(0))),
                           ctx.emit(ir::Op::CompositeExtract(ir::kF32, pos, ctx.constant_u32(1))),
                           fzero, fzero};
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, swizzle_scalars(comps, ops.src(0), dst_mask(dst)), ScalarType::F32);
  return true;
}

bool compute_lod(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.src(1);
  SampledImage image;
  if (!bind_sampled_image(ctx, inst, res_op, ops.src(2), "lod needs a mipmapped texture", image))
    return true;
  SsaDef coord = ctx.load_src_vector(ops.src(0), image.shape.coords, ScalarType::F32);
  SsaDef lod = ctx.emit(ir::Op::ImageComputeLod(image.descriptor, image.sampler, coord));
  const SsaDef fzero = ctx.constant_f32(0.0f);
  // (clamped, unclamped, 0, 0), then the resource swizzle.
  const SsaDef comps[4] = {ctx.emit(ir::Op::CompositeExtract(ir::kF32, lod, ctx.constant_u32(0))),
                           ctx.emit(ir::Op::CompositeExtract(ir::kF32, lod, ctx.constant_u32(1))),
                           fzero, fzero};
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, swizzle_scalars(comps, res_op, dst_mask(dst)), ScalarType::F32);
  return true;
}

} // namespace kiln::dxbc
