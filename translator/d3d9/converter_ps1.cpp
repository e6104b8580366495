// D3D9 -> IR: the ps_1_x texture-address instructions (tex, texcoord, texbem(l), texreg2*,
// texm3x*, texdp3*, texdepth, ps_1_4 texcrd/texld/bem), one handler per family of rows in
// opcodes.h; an instruction's destination register number is its texture stage. Shader model 1
// has no sampler dcl: a stage is sampled as 2D, except where the instruction itself needs three
// coordinates (texm3x3tex/spec/vspec: cube; texreg2rgb: volume). The bump-environment matrices
// are fixed-function state: the interface's parameters, else constant buffer register 3
// (docs/pipeline.md).
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

bool State::projected_texture(unsigned stage) const {
  const ParameterValue v =
      parameter_value(options.interface, ParameterName::D3D9_PROJECTED_TEXTURES);
  return !v.specialization && stage < 32 && ((v.bits >> stage) & 1);
}

bool State::texture_stage(const Instruction& ins, unsigned& stage) {
  stage = ins.dst.index;
  if (stage >= kMaxTexRegs) return fail(ins, "texture stage out of range");
  return true;
}

bool State::stage_coords(const Instruction& ins, unsigned stage, unsigned n, SsaDef* out) {
  for (unsigned c = 0; c < n; ++c)
    if (!(out[c] = texcoord(ins, stage, c))) return false;
  return true;
}

SsaDef State::texture_row(const Instruction& ins, unsigned stage) {
  SsaDef tc[3];
  Vec4 m;
  if (!stage_coords(ins, stage, 3, tc) || !read_src(ins, ins.src[0], kXYZ, m)) return {};
  Vec4 t{{tc[0], tc[1], tc[2], {}}};
  return dot(t, m, 3);
}

// Bump-environment state: the interface's parameters for stages 0-5 when it passes them, else
// constant buffer register 3.
SsaDef State::bump_state(unsigned stage, unsigned i) {
  const ParameterName name = ParameterName(
      unsigned(i ? ParameterName::D3D9_BUMP_LUMINANCE_0 : ParameterName::D3D9_BUMP_MATRIX_0) +
      stage);
  if (stage < 6 && options.interface && options.interface->parameter(name)) {
    SsaDef c[4];
    for (unsigned k = 0; k < 4; ++k) c[k] = parameter(name, k);
    return emit(
        ir::Op::CompositeConstruct(ir::vec(ir::ScalarType::F32, 4), c[0], c[1], c[2], c[3]));
  }
  return emit(ir::Op::BufferLoad(ir::vec(ir::ScalarType::F32, 4),
                                 bank(desc_bump, 3, ir::ScalarType::F32, 16), u32(2 * stage + i),
                                 16u));
}

// texm3x2depth, texdepth: the pixel's depth output.
bool State::write_depth(const Instruction& ins, SsaDef depth) {
  if (!bind_implicit_output(ins, kSlotDepth)) return false;
  emit(ir::Op::TmpStore(out_reg(kSlotDepth, 0), depth));
  return true;
}

// tex (ps_1_1-1_3): the texture bound to the stage decides its type (D3D9_TEXTURE_TYPES);
// D3DTTFF_PROJECTED divides the coordinates by w (D3D9_PROJECTED_TEXTURES).
bool State::emit_tex(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  const TextureType type = undeclared_texture_type(stage);
  const unsigned n = type == TextureType::Tex2D ? 2 : 3;
  SsaDef tc[3];
  if (!stage_coords(ins, stage, n, tc)) return false;
  if (projected_texture(stage)) {
    SsaDef w = texcoord(ins, stage, 3);
    if (!w) return false;
    for (unsigned c = 0; c < n; ++c) tc[c] = emit(ir::Op::FDiv(ir::kF32, tc[c], w));
  }
  return write_sample(ins, sample(ins, stage, type, tc, {}, {}, nullptr, nullptr),
                      kIdentitySwizzle);
}

bool State::emit_texcoord(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  Vec4 v;
  for (unsigned c = 0; c < 3; ++c) {
    SsaDef x = texcoord(ins, stage, c);
    if (!x) return false;
    v.c[c] = emit(ir::Op::FClamp(ir::kF32, x, f32(0.0f), f32(1.0f)));
  }
  v.c[3] = f32(1.0f);
  return write_dst(ins, v);
}

bool State::emit_texcrd(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  Vec4 v;
  if (!read_src(ins, ins.src[0], ins.dst.write_mask, v)) return false;
  return write_dst(ins, v);
}

bool State::emit_texld_ps14(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  const TextureType type = undeclared_texture_type(stage);
  Vec4 v;
  if (!read_src(ins, ins.src[0], type == TextureType::Tex2D ? 0x3 : kXYZ, v)) return false;
  return write_sample(ins, sample(ins, stage, type, v.c, {}, {}, nullptr, nullptr),
                      kIdentitySwizzle);
}

// texbem, texbeml, bem: u' = u + m00*r + m10*g, v' = v + m01*r + m11*g; texbem(l) samples there
// (texbeml scales by the luminance), bem (ps_1_4) writes (u', v').
bool State::emit_bump(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  auto extract = [&](SsaDef v, unsigned c) {
    return emit(ir::Op::CompositeExtract(ir::kF32, v, u32(c)));
  };
  Vec4 m, base;
  if (ins.opcode == Opcode::Bem) {
    if (!read_src(ins, ins.src[0], 0x3, base) || !read_src(ins, ins.src[1], 0x3, m)) return false;
  } else {
    if (!stage_coords(ins, stage, 2, base.c) ||
        !read_src(ins, ins.src[0], ins.opcode == Opcode::TexBemL ? kXYZ : 0x3, m))
      return false;
  }
  SsaDef mat = bump_state(stage, 0);
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
  SsaDef lum = bump_state(stage, 1);
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

// texreg2ar (.a, .r), texreg2gb (.g, .b): 2D; texreg2rgb: volume.
bool State::emit_texreg2(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
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

// texm3x2pad, texm3x3pad: a row kept for the matrix's last instruction.
bool State::emit_texm_pad(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  if (tex_row_count >= 2) return fail(ins, "too many texture matrix rows");
  SsaDef r = texture_row(ins, stage);
  if (!r) return false;
  tex_rows[tex_row_count] = r;
  tex_row_stage[tex_row_count++] = std::uint8_t(stage);
  return true;
}

// texm3x2tex samples at (row 0, row 1); texm3x2depth writes depth = z / w, 1.0 where w is 0.
bool State::emit_texm3x2(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  if (tex_row_count != 1) return fail(ins, "texture matrix without its pad row");
  tex_row_count = 0;
  SsaDef r = texture_row(ins, stage);
  if (!r) return false;
  if (ins.opcode == Opcode::TexM3x2Tex) {
    SsaDef uv[2] = {tex_rows[0], r};
    return write_sample(ins, sample(ins, stage, TextureType::Tex2D, uv, {}, {}, nullptr, nullptr),
                        kIdentitySwizzle);
  }
  return write_depth(ins, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FEq(r, f32(0.0f))), f32(1.0f),
                                              emit(ir::Op::FDiv(ir::kF32, tex_rows[0], r)))));
}

// texm3x3 writes the transformed vector; texm3x3tex samples a cube at it; texm3x3spec and
// texm3x3vspec sample at its reflection of the eye vector (src1, or the rows' w).
bool State::emit_texm3x3(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  if (tex_row_count != 2) return fail(ins, "texture matrix without its pad rows");
  tex_row_count = 0;
  SsaDef r = texture_row(ins, stage);
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
    e.c[0] = texcoord(ins, tex_row_stage[0], 3);
    e.c[1] = texcoord(ins, tex_row_stage[1], 3);
    e.c[2] = texcoord(ins, stage, 3);
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

// texdp3 writes dot(t#, src0) to every component; texdp3tex samples at (dot, 0).
bool State::emit_texdp3(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  SsaDef r = texture_row(ins, stage);
  if (!r) return false;
  if (ins.opcode == Opcode::TexDp3) return write_dst(ins, Vec4{{r, r, r, r}});
  SsaDef uv[2] = {r, f32(0.0f)};
  return write_sample(ins, sample(ins, stage, TextureType::Tex2D, uv, {}, {}, nullptr, nullptr),
                      kIdentitySwizzle);
}

// texdepth (ps_1_4): depth = r5.r / r5.g, 1.0 where g is 0.
bool State::emit_texdepth(const Instruction& ins) {
  unsigned stage;
  if (!texture_stage(ins, stage)) return false;
  SsaDef x = emit(ir::Op::TmpLoad(ir::kF32, temp_reg(stage, 0)));
  SsaDef y = emit(ir::Op::TmpLoad(ir::kF32, temp_reg(stage, 1)));
  return write_depth(ins, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FEq(y, f32(0.0f))), f32(1.0f),
                                              emit(ir::Op::FDiv(ir::kF32, x, y)))));
}

} // namespace kiln::d3d9::detail
