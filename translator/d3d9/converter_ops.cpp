// D3D9 -> IR: arithmetic, sampling (ps_2_0+ and vs_3_0) and flow control.
#include "translator/d3d9/converter_state.h"

namespace kiln::d3d9::detail {

namespace {

constexpr std::uint8_t kXYZ = 0x7, kXYZW = 0xF;

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

// Whether a * c needs D3D9's rule (0 * anything = 0): not when both factors are the same
// value (x * x is 0 exactly when x is 0) or one is a finite non-zero constant.
bool State::needs_legacy(SsaDef a, SsaDef c) const {
  if (!options.legacy_multiply) return false;
  if (a == c) return false;
  for (SsaDef x : {a, c}) {
    ir::OpView op = b->op(x);
    if (op.code() != ir::OpCode::Constant || op.type() != ir::kF32) continue;
    float v = op.operand(0).literal_f32();
    if (v != 0.0f && v - v == 0.0f) return false; // finite, non-zero
  }
  return true;
}

// D3D9 multiplication: 0 * anything = 0 when legacy_multiply is on (docs/pipeline.md).
SsaDef State::mul(SsaDef a, SsaDef c) {
  return emit(needs_legacy(a, c) ? ir::Op::FMulLegacy(ir::kF32, a, c)
                                 : ir::Op::FMul(ir::kF32, a, c));
}

SsaDef State::mad(SsaDef a, SsaDef c, SsaDef d) {
  return emit(needs_legacy(a, c) ? ir::Op::FMadLegacy(ir::kF32, a, c, d)
                                 : ir::Op::FMad(ir::kF32, a, c, d));
}

namespace {
bool same_source(const SourceParam& x, const SourceParam& y) {
  return x.index == y.index && x.type == y.type && x.modifier == y.modifier &&
         x.swizzle == y.swizzle && x.relative == y.relative &&
         (!x.relative || (x.rel_type == y.rel_type && x.rel_component == y.rel_component));
}
} // namespace

SsaDef State::dot(const Vec4& a, const Vec4& c, unsigned n) {
  SsaDef r = mul(a.c[0], c.c[0]);
  for (unsigned i = 1; i < n; ++i) r = mad(a.c[i], c.c[i], r);
  return r;
}

SsaDef State::compare(Comparison cmp, SsaDef a, SsaDef c) {
  switch (cmp) {
  case Comparison::Gt:
    return emit(ir::Op::FGt(a, c));
  case Comparison::Eq:
    return emit(ir::Op::FEq(a, c));
  case Comparison::Ge:
    return emit(ir::Op::FGe(a, c));
  case Comparison::Lt:
    return emit(ir::Op::FLt(a, c));
  case Comparison::Ne:
    return emit(ir::Op::FNe(a, c));
  case Comparison::Le:
    return emit(ir::Op::FLe(a, c));
  }
  return {};
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

// texld/texldp/texldb (ps_2_0+), texldl, texldd.
bool State::emit_sample(const Instruction& ins) {
  const SourceParam& s = ins.src[1];
  if (s.type != RegisterType::Sampler || s.index >= kMaxSamplers)
    return fail(ins, "second source is not a sampler");
  TextureType type = sampler_type[s.index];
  if (!srv[s.index]) type = undeclared_texture_type(s.index); // no dcl: the bound texture's
  const unsigned n = coord_size(type);
  const bool project =
      ins.opcode == Opcode::TexLd && ins.control == std::uint8_t(SampleVariant::Project);
  const bool biased =
      ins.opcode == Opcode::TexLd && ins.control == std::uint8_t(SampleVariant::Bias);
  const bool need_w = project || biased || ins.opcode == Opcode::TexLdl;
  Vec4 coord;
  if (!read_src(ins, ins.src[0], std::uint8_t((n == 2 ? 0x3 : 0x7) | (need_w ? 0x8 : 0)), coord))
    return false;
  if (project)
    for (unsigned i = 0; i < n; ++i)
      coord.c[i] = emit(ir::Op::FDiv(ir::kF32, coord.c[i], coord.c[3]));
  SsaDef lod = ins.opcode == Opcode::TexLdl ? coord.c[3] : SsaDef();
  SsaDef bias = biased ? coord.c[3] : SsaDef();
  Vec4 dx, dy;
  if (ins.opcode == Opcode::TexLdd) {
    std::uint8_t mask = n == 2 ? 0x3 : 0x7;
    if (!read_src(ins, ins.src[2], mask, dx) || !read_src(ins, ins.src[3], mask, dy)) return false;
  }
  SsaDef texel =
      sample(ins, s.index, type, coord.c, lod, bias, ins.opcode == Opcode::TexLdd ? dx.c : nullptr,
             ins.opcode == Opcode::TexLdd ? dy.c : nullptr);
  return write_sample(ins, texel, s.swizzle);
}

bool State::emit_matrix(const Instruction& ins, unsigned rows, unsigned columns) {
  const std::uint8_t mask = columns == 4 ? kXYZW : kXYZ;
  Vec4 a;
  if (!read_src(ins, ins.src[0], mask, a)) return false;
  Vec4 out;
  for (unsigned r = 0; r < rows; ++r) {
    if (!(ins.dst.write_mask & (1u << r))) continue;
    SourceParam row = ins.src[1];
    row.index = std::uint16_t(row.index + r);
    Vec4 m;
    if (!read_src(ins, row, mask, m)) return false;
    out.c[r] = dot(a, m, columns);
  }
  return write_dst(ins, out);
}

void State::emit_break_if(SsaDef cond, SsaDef loop) {
  SsaDef iff = emit(ir::Op::ScopedIf(SsaDef(), cond));
  emit(ir::Op::ScopedLoopBreak(loop));
  SsaDef end = emit(ir::Op::ScopedEndIf(iff));
  b->rewrite_op(iff, ir::Op::ScopedIf(end, cond));
}

bool State::emit_texkill(const Instruction& ins) {
  // ps_1_x tests xyz; later models the components of the mask.
  const bool ps1 = model_bit(model) & models::Ps1All;
  const std::uint8_t mask = ps1 ? kXYZ : ins.dst.write_mask;
  SsaDef any;
  Vec4 value;
  const bool coords = ins.dst.type == RegisterType::Address && (model_bit(model) & models::Ps1Tex);
  if (!coords) {
    // The destination token names the register tested (any readable one, c# included).
    SourceParam s{};
    s.index = ins.dst.index;
    s.type = ins.dst.type;
    s.modifier = SourceModifier::None;
    s.swizzle = kIdentitySwizzle;
    if (!read_src(ins, s, mask, value)) return false;
  }
  for (unsigned c = 0; c < 4; ++c) {
    if (!(mask & (1u << c))) continue;
    // ps_1_1-1_3 texkill tests the texture coordinates.
    SsaDef v = coords ? texcoord(ins.dst.index, c) : value.c[c];
    if (!v) return false;
    SsaDef lt = emit(ir::Op::FLt(v, f32(0.0f)));
    any = any ? emit(ir::Op::BOr(any, lt)) : lt;
  }
  if (!any) return true;
  SsaDef iff = emit(ir::Op::ScopedIf(SsaDef(), any));
  emit(ir::Op::Demote());
  SsaDef end = emit(ir::Op::ScopedEndIf(iff));
  b->rewrite_op(iff, ir::Op::ScopedIf(end, any));
  return true;
}

bool State::emit_arith(const Instruction& ins) {
  const std::uint8_t mask = ins.dst.write_mask;
  Vec4 a, c, d, out;
  std::uint8_t mask_read0 = 0;
  auto src = [&](unsigned i, Vec4& v, std::uint8_t m) {
    // src1 identical to src0 (dp3 r0, r1, r1): the same values, so x * x needs no legacy rule.
    if (i == 1 && same_source(ins.src[0], ins.src[1]) && (m & ~mask_read0) == 0 && mask_read0) {
      v = a;
      return true;
    }
    if (i == 0 && &v == &a) mask_read0 = m;
    return read_src(ins, ins.src[i], m, v);
  };
  auto scalar_result = [&](SsaDef x) {
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) out.c[i] = x;
  };
  switch (ins.opcode) {
  case Opcode::Mov:
  case Opcode::MovA:
    if (!src(0, out, mask)) return false;
    break;
#define KILN_BINARY(name, op)                                                                      \
  case Opcode::name:                                                                               \
    if (!src(0, a, mask) || !src(1, c, mask)) return false;                                        \
    for (unsigned i = 0; i < 4; ++i)                                                               \
      if (mask & (1u << i)) out.c[i] = op;                                                         \
    break;
    KILN_BINARY(Add, emit(ir::Op::FAdd(ir::kF32, a.c[i], c.c[i])))
    KILN_BINARY(Sub, emit(ir::Op::FSub(ir::kF32, a.c[i], c.c[i])))
    KILN_BINARY(Mul, mul(a.c[i], c.c[i]))
    KILN_BINARY(Min, emit(ir::Op::FMin(ir::kF32, a.c[i], c.c[i])))
    KILN_BINARY(Max, emit(ir::Op::FMax(ir::kF32, a.c[i], c.c[i])))
    KILN_BINARY(Slt, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FLt(a.c[i], c.c[i])), f32(1.0f),
                                         f32(0.0f))))
    KILN_BINARY(Sge, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGe(a.c[i], c.c[i])), f32(1.0f),
                                         f32(0.0f))))
#undef KILN_BINARY
#define KILN_TERNARY(name, op)                                                                     \
  case Opcode::name:                                                                               \
    if (!src(0, a, mask) || !src(1, c, mask) || !src(2, d, mask)) return false;                    \
    for (unsigned i = 0; i < 4; ++i)                                                               \
      if (mask & (1u << i)) out.c[i] = op;                                                         \
    break;
    KILN_TERNARY(Mad, mad(a.c[i], c.c[i], d.c[i]))
    KILN_TERNARY(Lrp, emit(ir::Op::FMad(ir::kF32, a.c[i],
                                        emit(ir::Op::FSub(ir::kF32, c.c[i], d.c[i])), d.c[i])))
    KILN_TERNARY(
        Cmp, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGe(a.c[i], f32(0.0f))), c.c[i], d.c[i])))
    KILN_TERNARY(
        Cnd, emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGt(a.c[i], f32(0.5f))), c.c[i], d.c[i])))
#undef KILN_TERNARY
  case Opcode::Abs:
    if (!src(0, a, mask)) return false;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) out.c[i] = emit(ir::Op::FAbs(ir::kF32, a.c[i]));
    break;
  case Opcode::Frc:
    if (!src(0, a, mask)) return false;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) out.c[i] = emit(ir::Op::FFract(ir::kF32, a.c[i]));
    break;
  case Opcode::Dsx:
  case Opcode::Dsy:
    if (!src(0, a, mask)) return false;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i))
        out.c[i] = emit(ins.opcode == Opcode::Dsx
                            ? ir::Op::DerivX(ir::kF32, a.c[i], ir::DerivativeMode::Default)
                            : ir::Op::DerivY(ir::kF32, a.c[i], ir::DerivativeMode::Default));
    break;
  case Opcode::Sgn:
  case Opcode::SgnSm2:
    if (!src(0, a, mask)) return false;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i))
        out.c[i] =
            emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGt(a.c[i], f32(0.0f))), f32(1.0f),
                                emit(ir::Op::Select(ir::kF32, emit(ir::Op::FLt(a.c[i], f32(0.0f))),
                                                    f32(-1.0f), f32(0.0f)))));
    break;
  case Opcode::Dp3:
  case Opcode::Dp4: {
    unsigned n = ins.opcode == Opcode::Dp3 ? 3 : 4;
    std::uint8_t m = n == 3 ? kXYZ : kXYZW;
    if (!src(0, a, m) || !src(1, c, m)) return false;
    scalar_result(dot(a, c, n));
    break;
  }
  case Opcode::Dp2Add: {
    if (!src(0, a, 0x3) || !src(1, c, 0x3)) return false;
    SsaDef add = read_scalar(ins, ins.src[2], 0);
    if (!add) return false;
    scalar_result(mad(a.c[1], c.c[1], mad(a.c[0], c.c[0], add)));
    break;
  }
  case Opcode::Rcp:
  case Opcode::Rsq:
  case Opcode::Exp:
  case Opcode::Log:
  case Opcode::ExpP:
  case Opcode::LogP: {
    // Scalar instructions read the last swizzle position (.w without a swizzle).
    SsaDef x = read_scalar(ins, ins.src[0], 3);
    if (!x) return false;
    const bool vs1 = model == Model::Vs1;
    switch (ins.opcode) {
    case Opcode::Rcp:
      scalar_result(emit(ir::Op::FRcp(ir::kF32, x)));
      break;
    case Opcode::Rsq:
      scalar_result(emit(ir::Op::FRsq(ir::kF32, emit(ir::Op::FAbs(ir::kF32, x)))));
      break;
    case Opcode::Exp:
      scalar_result(emit(ir::Op::FExp2(ir::kF32, x)));
      break;
    case Opcode::ExpP:
      if (vs1) {
        SsaDef fl = emit(ir::Op::FRound(ir::kF32, x, ir::RoundMode::NegativeInf));
        out.c[0] = emit(ir::Op::FExp2(ir::kF32, fl));
        out.c[1] = emit(ir::Op::FSub(ir::kF32, x, fl));
        out.c[2] = emit(ir::Op::FExp2(ir::kF32, x));
        out.c[3] = f32(1.0f);
      } else {
        scalar_result(emit(ir::Op::FExp2(ir::kF32, x)));
      }
      break;
    case Opcode::Log:
      scalar_result(emit(ir::Op::FLog2(ir::kF32, emit(ir::Op::FAbs(ir::kF32, x)))));
      break;
    default: { // LogP
      SsaDef ax = emit(ir::Op::FAbs(ir::kF32, x));
      SsaDef l = emit(ir::Op::FLog2(ir::kF32, ax));
      if (vs1) {
        SsaDef e = emit(ir::Op::FRound(ir::kF32, l, ir::RoundMode::NegativeInf));
        out.c[0] = e;
        out.c[1] = emit(ir::Op::FDiv(ir::kF32, ax, emit(ir::Op::FExp2(ir::kF32, e))));
        out.c[2] = l;
        out.c[3] = f32(1.0f);
      } else {
        scalar_result(l);
      }
      break;
    }
    }
    break;
  }
  case Opcode::Pow: {
    SsaDef x = read_scalar(ins, ins.src[0], 3), y = read_scalar(ins, ins.src[1], 3);
    if (!x || !y) return false;
    x = emit(ir::Op::FAbs(ir::kF32, x));
    scalar_result(emit(options.legacy_multiply ? ir::Op::FPowLegacy(ir::kF32, x, y)
                                               : ir::Op::FPow(ir::kF32, x, y)));
    break;
  }
  case Opcode::SinCos:
  case Opcode::SinCosSm2: {
    SsaDef x = read_scalar(ins, ins.src[0], 3);
    if (!x) return false;
    if (mask & 1) out.c[0] = emit(ir::Op::FCos(ir::kF32, x));
    if (mask & 2) out.c[1] = emit(ir::Op::FSin(ir::kF32, x));
    break;
  }
  case Opcode::Nrm: {
    if (!src(0, a, std::uint8_t(kXYZ | (mask & 0x8)))) return false;
    SsaDef f = emit(ir::Op::FRsq(ir::kF32, dot(a, a, 3)));
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) out.c[i] = mul(a.c[i], f);
    break;
  }
  case Opcode::Crs: {
    if (!src(0, a, kXYZ) || !src(1, c, kXYZ)) return false;
    auto cross = [&](unsigned i, unsigned j) {
      return emit(ir::Op::FSub(ir::kF32, emit(ir::Op::FMul(ir::kF32, a.c[i], c.c[j])),
                               emit(ir::Op::FMul(ir::kF32, a.c[j], c.c[i]))));
    };
    if (mask & 1) out.c[0] = cross(1, 2);
    if (mask & 2) out.c[1] = cross(2, 0);
    if (mask & 4) out.c[2] = cross(0, 1);
    break;
  }
  case Opcode::Lit: {
    if (!src(0, a, 0xB)) return false;
    out.c[0] = out.c[3] = f32(1.0f);
    out.c[1] = emit(ir::Op::FMax(ir::kF32, a.c[0], f32(0.0f)));
    if (mask & 4) {
      SsaDef power = emit(ir::Op::FClamp(ir::kF32, a.c[3], f32(-128.0f), f32(128.0f)));
      SsaDef p =
          emit(ir::Op::FPow(ir::kF32, emit(ir::Op::FMax(ir::kF32, a.c[1], f32(0.0f))), power));
      SsaDef lit = emit(
          ir::Op::BAnd(emit(ir::Op::FGt(a.c[0], f32(0.0f))), emit(ir::Op::FGt(a.c[1], f32(0.0f)))));
      out.c[2] = emit(ir::Op::Select(ir::kF32, lit, p, f32(0.0f)));
    }
    break;
  }
  case Opcode::Dst: {
    if (!src(0, a, 0x6) || !src(1, c, 0xA)) return false;
    out.c[0] = f32(1.0f);
    out.c[1] = mul(a.c[1], c.c[1]);
    out.c[2] = a.c[2];
    out.c[3] = c.c[3];
    break;
  }
  case Opcode::M4x4:
    return emit_matrix(ins, 4, 4);
  case Opcode::M4x3:
    return emit_matrix(ins, 3, 4);
  case Opcode::M3x4:
    return emit_matrix(ins, 4, 3);
  case Opcode::M3x3:
    return emit_matrix(ins, 3, 3);
  case Opcode::M3x2:
    return emit_matrix(ins, 2, 3);
  case Opcode::SetP:
    if (!src(0, a, mask) || !src(1, c, mask)) return false;
    for (unsigned i = 0; i < 4; ++i)
      if (mask & (1u << i)) out.c[i] = compare(Comparison(ins.control), a.c[i], c.c[i]);
    break;
  default:
    return fail(ins, "instruction not supported");
  }
  return write_dst(ins, out);
}

bool State::emit_flow(const Instruction& ins, std::uint32_t index, std::uint32_t& next) {
  (void)index;
  (void)next;
  auto innermost_loop = [&]() -> ControlFrame* {
    for (std::size_t i = control.size(); i > frame_base; --i)
      if (control[i - 1].kind != ControlFrame::If) return &control[i - 1];
    return nullptr;
  };
  auto condition_of = [&](const SourceParam& s) -> SsaDef {
    if (s.type == RegisterType::ConstBool) {
      if (s.index >= 16 && !(s.index < 32 && (bool_defined & (1u << s.index)))) {
        fail(ins, "boolean constant register out of range");
        return {};
      }
      return bool_const(s.index);
    }
    if (s.type == RegisterType::Predicate) return predicate_of(s, 0);
    fail(ins, "condition is neither b# nor p0");
    return {};
  };
  switch (ins.opcode) {
  case Opcode::If:
  case Opcode::IfC: {
    SsaDef cond;
    if (ins.opcode == Opcode::If) {
      cond = condition_of(ins.src[0]);
    } else {
      SsaDef x = read_scalar(ins, ins.src[0], 0), y = read_scalar(ins, ins.src[1], 0);
      if (!x || !y) return false;
      cond = compare(Comparison(ins.control), x, y);
    }
    if (!cond) return false;
    ControlFrame f{};
    f.kind = ControlFrame::If;
    f.cond = cond;
    f.op = emit(ir::Op::ScopedIf(SsaDef(), cond));
    control.push_back(f);
    return true;
  }
  case Opcode::Else:
    if (control.size() <= frame_base || control.back().kind != ControlFrame::If ||
        control.back().has_else)
      return fail(ins, "else without if");
    control.back().has_else = true;
    emit(ir::Op::ScopedElse(control.back().op));
    return true;
  case Opcode::EndIf: {
    if (control.size() <= frame_base || control.back().kind != ControlFrame::If)
      return fail(ins, "endif without if");
    ControlFrame f = control.back();
    control.pop_back();
    SsaDef end = emit(ir::Op::ScopedEndIf(f.op));
    b->rewrite_op(f.op, ir::Op::ScopedIf(end, f.cond));
    return true;
  }
  case Opcode::Rep:
  case Opcode::Loop: {
    const SourceParam& i = ins.opcode == Opcode::Rep ? ins.src[0] : ins.src[1];
    if (i.type != RegisterType::ConstInt) return fail(ins, "loop count is not an integer constant");
    SsaDef count = int_const(ins, i.index, 0);
    if (!count) return false;
    ControlFrame f{};
    f.kind = ins.opcode == Opcode::Rep ? ControlFrame::Rep : ControlFrame::Loop;
    if (f.kind == ControlFrame::Loop) {
      SsaDef start = int_const(ins, i.index, 1);
      f.step = int_const(ins, i.index, 2);
      f.loop_reg = tmp(ir::kI32);
      emit(ir::Op::TmpStore(f.loop_reg, start));
    }
    SsaDef counter = tmp(ir::kI32);
    emit(ir::Op::TmpStore(counter, i32(0)));
    f.op = emit(ir::Op::ScopedLoop(SsaDef()));
    SsaDef n = emit(ir::Op::TmpLoad(ir::kI32, counter));
    emit_break_if(emit(ir::Op::SGe(n, count)), f.op);
    emit(ir::Op::TmpStore(counter, emit(ir::Op::IAdd(ir::kI32, n, i32(1)))));
    control.push_back(f);
    return true;
  }
  case Opcode::EndRep:
  case Opcode::EndLoop: {
    const auto kind = ins.opcode == Opcode::EndRep ? ControlFrame::Rep : ControlFrame::Loop;
    if (control.size() <= frame_base || control.back().kind != kind)
      return fail(ins, "end of a loop that is not open");
    ControlFrame f = control.back();
    control.pop_back();
    if (kind == ControlFrame::Loop) {
      SsaDef al = emit(ir::Op::TmpLoad(ir::kI32, f.loop_reg));
      emit(ir::Op::TmpStore(f.loop_reg, emit(ir::Op::IAdd(ir::kI32, al, f.step))));
    }
    SsaDef end = emit(ir::Op::ScopedEndLoop(f.op));
    b->rewrite_op(f.op, ir::Op::ScopedLoop(end));
    return true;
  }
  case Opcode::Break:
  case Opcode::BreakC:
  case Opcode::BreakP: {
    ControlFrame* loop = innermost_loop();
    if (!loop) return fail(ins, "break outside a loop");
    if (ins.opcode == Opcode::Break) {
      emit(ir::Op::ScopedLoopBreak(loop->op));
      return true;
    }
    SsaDef cond;
    if (ins.opcode == Opcode::BreakP) {
      cond = condition_of(ins.src[0]);
    } else {
      SsaDef x = read_scalar(ins, ins.src[0], 0), y = read_scalar(ins, ins.src[1], 0);
      if (!x || !y) return false;
      cond = compare(Comparison(ins.control), x, y);
    }
    if (!cond) return false;
    emit_break_if(cond, loop->op);
    return true;
  }
  case Opcode::Call:
  case Opcode::CallNz: {
    // Subroutines are inlined at each call (D3D9 forbids recursion; depth is bounded).
    const SourceParam& l = ins.src[0];
    if (l.type != RegisterType::Label || l.index >= label_pos.size() || !label_pos[l.index])
      return fail(ins, "call of an undefined label");
    if (call_depth >= kMaxCallDepth) return fail(ins, "calls nested too deep (recursion?)");
    SsaDef iff, cond;
    if (ins.opcode == Opcode::CallNz) {
      cond = condition_of(ins.src[1]);
      if (!cond) return false;
      iff = emit(ir::Op::ScopedIf(SsaDef(), cond));
    }
    const std::size_t saved_base = frame_base;
    frame_base = control.size();
    ++call_depth;
    if (!emit_range(label_pos[l.index], std::uint32_t(program->instructions.size()), true))
      return false;
    --call_depth;
    if (control.size() != frame_base) return fail(ins, "subroutine leaves a block open");
    frame_base = saved_base;
    if (iff) {
      SsaDef end = emit(ir::Op::ScopedEndIf(iff));
      b->rewrite_op(iff, ir::Op::ScopedIf(end, cond));
    }
    return true;
  }
  default:
    return fail(ins, "instruction not supported");
  }
}

bool State::emit_instruction(std::uint32_t index, bool subroutine, std::uint32_t& next) {
  const Instruction& ins = program->instructions[index];
  if (!ins.coissued() && !flush_pending()) return false;
  switch (ins.opcode) {
  case Opcode::Nop:
  case Opcode::Dcl:
  case Opcode::Def:
  case Opcode::DefI:
  case Opcode::DefB:
  case Opcode::Phase: // ps_1_4: registers keep their values across the phase marker
    return true;
  case Opcode::Label:
    next = kStop; // main (or the subroutine) ends where the next subroutine begins
    return true;
  case Opcode::Ret:
    if (control.size() > frame_base) {
      if (subroutine) return fail(ins, "ret inside flow control of a subroutine");
      if (!flush_pending()) return false;
      emit_output_stores();
      emit(ir::Op::Return(SsaDef()));
      return true;
    }
    next = kStop;
    return true;
  case Opcode::If:
  case Opcode::IfC:
  case Opcode::Else:
  case Opcode::EndIf:
  case Opcode::Rep:
  case Opcode::EndRep:
  case Opcode::Loop:
  case Opcode::EndLoop:
  case Opcode::Break:
  case Opcode::BreakC:
  case Opcode::BreakP:
  case Opcode::Call:
  case Opcode::CallNz:
    if (ins.predicated()) return fail(ins, "predicated flow control");
    return emit_flow(ins, index, next);
  case Opcode::TexKill:
    if (ins.predicated()) return fail(ins, "predicated texkill");
    return emit_texkill(ins);
  case Opcode::TexLd:
  case Opcode::TexLdl:
  case Opcode::TexLdd:
    return emit_sample(ins);
  case Opcode::TexCoord:
  case Opcode::TexCrd:
  case Opcode::Tex:
  case Opcode::TexLdPs14:
  case Opcode::TexBem:
  case Opcode::TexBemL:
  case Opcode::TexReg2Ar:
  case Opcode::TexReg2Gb:
  case Opcode::TexReg2Rgb:
  case Opcode::TexM3x2Pad:
  case Opcode::TexM3x2Tex:
  case Opcode::TexM3x3Pad:
  case Opcode::TexM3x3Tex:
  case Opcode::TexM3x3Spec:
  case Opcode::TexM3x3VSpec:
  case Opcode::TexM3x3:
  case Opcode::TexDp3Tex:
  case Opcode::TexDp3:
  case Opcode::TexM3x2Depth:
  case Opcode::TexDepth:
  case Opcode::Bem:
    return emit_ps1_texture(ins);
  default:
    return emit_arith(ins);
  }
}

} // namespace kiln::d3d9::detail
