// D3D9 -> IR: samplers and sampling. use_sampler declares a stage's texture and sampler,
// sample() is the one ImageSample of every sampling instruction (texld/texldp/texldb, texldl,
// texldd here; the ps_1_x texture instructions in converter_ps1.cpp).
#include "translator/d3d9/converter_state.h"

namespace kiln::d3d9::detail {

namespace {

ir::ResourceKind resource_kind(TextureType t) {
  switch (t) {
  case TextureType::Cube:
    return ir::ResourceKind::ImageCube;
  case TextureType::Volume:
    return ir::ResourceKind::Image3D;
  default:
    return ir::ResourceKind::Image2D;
  }
}

unsigned coord_size(TextureType t) {
  return t == TextureType::Cube || t == TextureType::Volume ? 3 : 2;
}

} // namespace

TextureType State::undeclared_texture_type(unsigned stage) const {
  const ParameterValue v = parameter_value(options.interface, ParameterName::D3D9_TEXTURE_TYPES);
  if (v.specialization || stage >= 16) return TextureType::Tex2D; // immediate only: refused later
  switch ((v.bits >> (2 * stage)) & 3) {
  case KILN_D3D9_TEXTURE_3D:
    return TextureType::Volume;
  case KILN_D3D9_TEXTURE_CUBE:
    return TextureType::Cube;
  default:
    return TextureType::Tex2D;
  }
}

bool State::use_sampler(const Instruction& ins, unsigned stage, TextureType type) {
  if (stage >= kMaxSamplers) return fail(ins, "sampler register out of range");
  if (srv[stage]) {
    if (sampler_type[stage] != type) return fail(ins, "sampler used as two texture types");
    return true;
  }
  sampler_type[stage] = type;
  srv[stage] = b->add(ir::Op::DclSrv(ir::kF32, entry, 0u, stage, 1u, resource_kind(type)));
  sampler[stage] = b->add(ir::Op::DclSampler(entry, 0u, stage, 1u));
  return true;
}

SsaDef State::sample(const Instruction& ins, unsigned stage, TextureType type, const SsaDef* coord,
                     SsaDef lod, SsaDef bias, const SsaDef* dx, const SsaDef* dy) {
  if (!use_sampler(ins, stage, type)) return {};
  if (!pixel && !lod) {
    fail(ins, "implicit-lod sampling in a vertex shader");
    return {};
  }
  const unsigned n = coord_size(type);
  const ir::Type vt = ir::vec(ir::ScalarType::F32, n);
  auto vector = [&](const SsaDef* c) {
    return n == 2 ? emit(ir::Op::CompositeConstruct(vt, c[0], c[1]))
                  : emit(ir::Op::CompositeConstruct(vt, c[0], c[1], c[2]));
  };
  SsaDef desc = emit(ir::Op::DescriptorLoad(ir::kF32, srv[stage], u32(0)));
  SsaDef smp = emit(ir::Op::DescriptorLoad(ir::kVoid, sampler[stage], u32(0)));
  SsaDef cv = vector(coord);
  SsaDef dxv = dx ? vector(dx) : SsaDef(), dyv = dy ? vector(dy) : SsaDef();
  return emit(ir::Op::ImageSample(ir::vec(ir::ScalarType::F32, 4), desc, smp, SsaDef(), cv,
                                  SsaDef(), lod, bias, SsaDef(), dxv, dyv, SsaDef()));
}

bool State::write_sample(const Instruction& ins, SsaDef texel, std::uint8_t swizzle) {
  if (!texel) return false;
  Vec4 v;
  for (unsigned c = 0; c < 4; ++c)
    if (ins.dst.write_mask & (1u << c))
      v.c[c] = emit(ir::Op::CompositeExtract(ir::kF32, texel, u32(swizzle_component(swizzle, c))));
  return write_dst(ins, v);
}

namespace {

// What a sampling instruction's src0.w means.
enum class CoordW : std::uint8_t { Unused, Divisor, Bias, Lod };

// The operand roles of each sampling form: texld by its variant (control bits 16-17), texldl and
// texldd by their opcode.
struct SampleLayout {
  Opcode opcode;
  SampleVariant variant; // texld's; Plain for the others
  CoordW w;
  bool gradients; // src2 and src3 are ddx and ddy of the coordinate
};

constexpr SampleLayout kSampleLayouts[] = {
    {Opcode::TexLd, SampleVariant::Plain, CoordW::Unused, false},
    {Opcode::TexLd, SampleVariant::Project, CoordW::Divisor, false},
    {Opcode::TexLd, SampleVariant::Bias, CoordW::Bias, false},
    {Opcode::TexLdl, SampleVariant::Plain, CoordW::Lod, false},
    {Opcode::TexLdd, SampleVariant::Plain, CoordW::Unused, true},
};

// The row of `ins`; texld control bits naming no variant read as plain texld (the reader rejects
// variant 3; the bits above it are not a variant).
const SampleLayout* sample_layout(const Instruction& ins) {
  const SampleVariant variant =
      ins.opcode == Opcode::TexLd ? SampleVariant(ins.control) : SampleVariant::Plain;
  const SampleLayout* plain = nullptr;
  for (const SampleLayout& layout : kSampleLayouts) {
    if (layout.opcode != ins.opcode) continue;
    if (layout.variant == variant) return &layout;
    if (layout.variant == SampleVariant::Plain) plain = &layout;
  }
  return plain;
}

} // namespace

// texld/texldp/texldb (ps_2_0+), texldl, texldd: operand roles from kSampleLayouts.
bool State::emit_texld(const Instruction& ins) {
  const SampleLayout* layout = sample_layout(ins);
  if (!layout) return fail(ins, "sampling variant without a layout");
  const SourceParam& s = ins.src[1];
  if (s.type != RegisterType::Sampler || s.index >= kMaxSamplers)
    return fail(ins, "second source is not a sampler");
  TextureType type = sampler_type[s.index];
  if (!srv[s.index]) type = undeclared_texture_type(s.index); // no dcl: the bound texture's
  const unsigned n = coord_size(type);
  const bool need_w = layout->w != CoordW::Unused;
  Vec4 coord;
  if (!read_src(ins, ins.src[0], std::uint8_t((n == 2 ? 0x3 : 0x7) | (need_w ? 0x8 : 0)), coord))
    return false;
  if (layout->w == CoordW::Divisor)
    for (unsigned i = 0; i < n; ++i)
      coord.c[i] = emit(ir::Op::FDiv(ir::kF32, coord.c[i], coord.c[3]));
  SsaDef lod = layout->w == CoordW::Lod ? coord.c[3] : SsaDef();
  SsaDef bias = layout->w == CoordW::Bias ? coord.c[3] : SsaDef();
  Vec4 dx, dy;
  if (layout->gradients) {
    std::uint8_t mask = n == 2 ? 0x3 : 0x7;
    if (!read_src(ins, ins.src[2], mask, dx) || !read_src(ins, ins.src[3], mask, dy)) return false;
  }
  SsaDef texel = sample(ins, s.index, type, coord.c, lod, bias, layout->gradients ? dx.c : nullptr,
                        layout->gradients ? dy.c : nullptr);
  return write_sample(ins, texel, s.swizzle);
}

} // namespace kiln::d3d9::detail
