// D3D9 -> IR: the ps_1_x texture-address instructions (tex, texcoord, texbem(l), texreg2*,
// texm3x*, texdp3*, texdepth, ps_1_4 texcrd/texld/bem). Shader model 1 has no sampler dcl: a
// stage is sampled as 2D, except where the instruction itself needs three coordinates
// (texm3x3tex/spec/vspec: cube; texreg2rgb: volume). The bump-environment matrices are
// fixed-function state and come from constant buffer register 3 (docs/pipeline.md).
#include "translator/d3d9/converter_state.h"

namespace kiln::d3d9::detail {

namespace {

constexpr std::uint8_t kXYZ = 0x7;

} // namespace

SsaDef State::parameter(ParameterName name, unsigned component) {
  const ParameterValue v = parameter_value(options.interface, name, component);
  const ir::Type type = parameter_data_type(name) == ParameterDataType::U32 ? ir::kU32 : ir::kF32;
  if (!v.specialization) return b->add(ir::Op::Constant(type, v.bits));
  return b->add(
      ir::Op::DclSpecConstant(type, entry, v.bits, parameter_default(name)[component & 3]));
}

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

bool State::projected_texture(unsigned stage) const {
  const ParameterValue v =
      parameter_value(options.interface, ParameterName::D3D9_PROJECTED_TEXTURES);
  return !v.specialization && stage < 32 && ((v.bits >> stage) & 1);
}

bool State::emit_ps1_texture(const Instruction& ins) {
  const unsigned stage = ins.dst.index;
  if (stage >= kMaxTexRegs) return fail(ins, "texture stage out of range");
  auto coords = [&](unsigned n, SsaDef* out) {
    for (unsigned c = 0; c < n; ++c)
      if (!(out[c] = texcoord(stage, c))) return false;
    return true;
  };
  // dot(texcoord[stage].xyz, src0.xyz): one row of a texture matrix.
  auto row = [&]() -> SsaDef {
    SsaDef tc[3];
    Vec4 m;
    if (!coords(3, tc) || !read_src(ins, ins.src[0], kXYZ, m)) return {};
    Vec4 t{{tc[0], tc[1], tc[2], {}}};
    return dot(t, m, 3);
  };
  // Bump-environment state: the interface's parameters for stages 0-5 when it passes them,
  // else constant buffer register 3.
  auto bump = [&](unsigned i) {
    const ParameterName name = ParameterName(
        unsigned(i ? ParameterName::D3D9_BUMP_LUMINANCE_0 : ParameterName::D3D9_BUMP_MATRIX_0) +
        stage);
    if (stage < 6 && options.interface && options.interface->parameter(name)) {
      SsaDef c[4];
      for (unsigned k = 0; k < 4; ++k) c[k] = parameter(name, k);
      return emit(
          ir::Op::CompositeConstruct(ir::vec(ir::ScalarType::F32, 4), c[0], c[1], c[2], c[3]));
    }
    SsaDef v = emit(ir::Op::BufferLoad(ir::vec(ir::ScalarType::F32, 4),
                                       bank(desc_bump, 3, ir::ScalarType::F32, 16),
                                       u32(2 * stage + i), 16u));
    return v;
  };
  auto extract = [&](SsaDef v, unsigned c) {
    return emit(ir::Op::CompositeExtract(ir::kF32, v, u32(c)));
  };
  switch (ins.opcode) {
  case Opcode::Tex: {
    // The texture bound to the stage decides its type (D3D9_TEXTURE_TYPES); D3DTTFF_PROJECTED
    // divides the coordinates by w (D3D9_PROJECTED_TEXTURES).
    const TextureType type = undeclared_texture_type(stage);
    const unsigned n = type == TextureType::Tex2D ? 2 : 3;
    SsaDef tc[3];
    if (!coords(n, tc)) return false;
    if (projected_texture(stage)) {
      SsaDef w = texcoord(stage, 3);
      if (!w) return false;
      for (unsigned c = 0; c < n; ++c) tc[c] = emit(ir::Op::FDiv(ir::kF32, tc[c], w));
    }
    return write_sample(ins, sample(ins, stage, type, tc, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  case Opcode::TexCoord: {
    Vec4 v;
    for (unsigned c = 0; c < 3; ++c) {
      SsaDef x = texcoord(stage, c);
      if (!x) return false;
      v.c[c] = emit(ir::Op::FClamp(ir::kF32, x, f32(0.0f), f32(1.0f)));
    }
    v.c[3] = f32(1.0f);
    return write_dst(ins, v);
  }
  case Opcode::TexCrd: {
    Vec4 v;
    if (!read_src(ins, ins.src[0], ins.dst.write_mask, v)) return false;
    return write_dst(ins, v);
  }
  case Opcode::TexLdPs14: {
    const TextureType type = undeclared_texture_type(stage);
    Vec4 v;
    if (!read_src(ins, ins.src[0], type == TextureType::Tex2D ? 0x3 : kXYZ, v)) return false;
    return write_sample(ins, sample(ins, stage, type, v.c, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  case Opcode::TexBem:
  case Opcode::TexBemL:
  case Opcode::Bem: {
    // u' = u + m00*r + m10*g, v' = v + m01*r + m11*g
    Vec4 m, base;
    if (ins.opcode == Opcode::Bem) {
      if (!read_src(ins, ins.src[0], 0x3, base) || !read_src(ins, ins.src[1], 0x3, m)) return false;
    } else {
      if (!coords(2, base.c) ||
          !read_src(ins, ins.src[0], ins.opcode == Opcode::TexBemL ? kXYZ : 0x3, m))
        return false;
    }
    SsaDef mat = bump(0);
    SsaDef uv[2];
    for (unsigned i = 0; i < 2; ++i) {
      SsaDef t = emit(ir::Op::FMad(ir::kF32, extract(mat, i), m.c[0], base.c[i]));
      uv[i] = emit(ir::Op::FMad(ir::kF32, extract(mat, 2 + i), m.c[1], t));
    }
    if (ins.opcode == Opcode::Bem) {
      Vec4 v;
      v.c[0] = uv[0];
      v.c[1] = uv[1];
      return write_dst(ins, v);
    }
    SsaDef texel = sample(ins, stage, TextureType::Tex2D, uv, {}, {}, nullptr, nullptr);
    if (!texel) return false;
    if (ins.opcode == Opcode::TexBem) return write_sample(ins, texel, kIdentitySwizzle);
    SsaDef lum = bump(1);
    SsaDef scale = emit(ir::Op::FMad(ir::kF32, m.c[2], extract(lum, 0), extract(lum, 1)));
    scale = emit(ir::Op::FClamp(ir::kF32, scale, f32(0.0f), f32(1.0f)));
    Vec4 v;
    for (unsigned c = 0; c < 4; ++c) {
      if (!(ins.dst.write_mask & (1u << c))) continue;
      v.c[c] = extract(texel, c);
      if (c < 3) v.c[c] = emit(ir::Op::FMul(ir::kF32, v.c[c], scale));
    }
    return write_dst(ins, v);
  }
  case Opcode::TexReg2Ar:
  case Opcode::TexReg2Gb:
  case Opcode::TexReg2Rgb: {
    Vec4 m;
    if (!read_src(ins, ins.src[0], 0xF, m)) return false;
    SsaDef tc[3];
    TextureType type = TextureType::Tex2D;
    if (ins.opcode == Opcode::TexReg2Ar) {
      tc[0] = m.c[3];
      tc[1] = m.c[0];
    } else if (ins.opcode == Opcode::TexReg2Gb) {
      tc[0] = m.c[1];
      tc[1] = m.c[2];
    } else {
      tc[0] = m.c[0];
      tc[1] = m.c[1];
      tc[2] = m.c[2];
      type = TextureType::Volume;
    }
    return write_sample(ins, sample(ins, stage, type, tc, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  case Opcode::TexM3x2Pad:
  case Opcode::TexM3x3Pad: {
    if (tex_row_count >= 2) return fail(ins, "too many texture matrix rows");
    SsaDef r = row();
    if (!r) return false;
    tex_rows[tex_row_count] = r;
    tex_row_stage[tex_row_count++] = std::uint8_t(stage);
    return true;
  }
  case Opcode::TexM3x2Tex:
  case Opcode::TexM3x2Depth: {
    if (tex_row_count != 1) return fail(ins, "texture matrix without its pad row");
    tex_row_count = 0;
    SsaDef r = row();
    if (!r) return false;
    if (ins.opcode == Opcode::TexM3x2Tex) {
      SsaDef uv[2] = {tex_rows[0], r};
      return write_sample(ins, sample(ins, stage, TextureType::Tex2D, uv, {}, {}, nullptr, nullptr),
                          kIdentitySwizzle);
    }
    // depth = z / w, 1.0 where w is 0
    SsaDef depth = emit(ir::Op::Select(ir::kF32, emit(ir::Op::FEq(r, f32(0.0f))), f32(1.0f),
                                       emit(ir::Op::FDiv(ir::kF32, tex_rows[0], r))));
    if (!bind_implicit_output(ins, kSlotDepth)) return false;
    emit(ir::Op::TmpStore(out_reg(kSlotDepth, 0), depth));
    return true;
  }
  case Opcode::TexM3x3Tex:
  case Opcode::TexM3x3:
  case Opcode::TexM3x3Spec:
  case Opcode::TexM3x3VSpec: {
    if (tex_row_count != 2) return fail(ins, "texture matrix without its pad rows");
    tex_row_count = 0;
    SsaDef r = row();
    if (!r) return false;
    Vec4 n{{tex_rows[0], tex_rows[1], r, {}}};
    if (ins.opcode == Opcode::TexM3x3) {
      n.c[3] = f32(1.0f);
      return write_dst(ins, n);
    }
    if (ins.opcode == Opcode::TexM3x3Tex)
      return write_sample(ins, sample(ins, stage, TextureType::Cube, n.c, {}, {}, nullptr, nullptr),
                          kIdentitySwizzle);
    Vec4 e;
    if (ins.opcode == Opcode::TexM3x3Spec) {
      if (!read_src(ins, ins.src[1], kXYZ, e)) return false;
    } else {
      // The eye vector is in the w of the three rows' texture coordinates.
      e.c[0] = texcoord(tex_row_stage[0], 3);
      e.c[1] = texcoord(tex_row_stage[1], 3);
      e.c[2] = texcoord(stage, 3);
      if (!e.c[0] || !e.c[1] || !e.c[2]) return false;
    }
    // R = 2 * N * dot(N, E) / dot(N, N) - E
    SsaDef ne = dot(n, e, 3), nn = dot(n, n, 3);
    SsaDef k = emit(ir::Op::FDiv(ir::kF32, emit(ir::Op::FAdd(ir::kF32, ne, ne)), nn));
    SsaDef refl[3];
    for (unsigned c = 0; c < 3; ++c)
      refl[c] = emit(ir::Op::FSub(ir::kF32, emit(ir::Op::FMul(ir::kF32, n.c[c], k)), e.c[c]));
    return write_sample(ins, sample(ins, stage, TextureType::Cube, refl, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  case Opcode::TexDp3Tex:
  case Opcode::TexDp3: {
    SsaDef r = row();
    if (!r) return false;
    if (ins.opcode == Opcode::TexDp3) return write_dst(ins, Vec4{{r, r, r, r}});
    SsaDef uv[2] = {r, f32(0.0f)};
    return write_sample(ins, sample(ins, stage, TextureType::Tex2D, uv, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  case Opcode::TexDepth: {
    // depth = r5.r / r5.g, 1.0 where g is 0
    SsaDef x = emit(ir::Op::TmpLoad(ir::kF32, temp_reg(stage, 0)));
    SsaDef y = emit(ir::Op::TmpLoad(ir::kF32, temp_reg(stage, 1)));
    SsaDef depth = emit(ir::Op::Select(ir::kF32, emit(ir::Op::FEq(y, f32(0.0f))), f32(1.0f),
                                       emit(ir::Op::FDiv(ir::kF32, x, y))));
    if (!bind_implicit_output(ins, kSlotDepth)) return false;
    emit(ir::Op::TmpStore(out_reg(kSlotDepth, 0), depth));
    return true;
  }
  default:
    return fail(ins, "instruction not supported");
  }
}

} // namespace kiln::d3d9::detail
