// D3D9 -> IR: the arithmetic instructions, one handler per row of opcodes.h (component-wise
// ops, dot products, scalar ops, matrices) and their helpers (D3D9 multiplication, dot,
// comparisons).
#include "translator/d3d9/converter_state.h"
#include "translator/ir/ir_op_views.h"

namespace kiln::d3d9::detail {

namespace {

constexpr std::uint8_t kXYZ = 0x7, kXYZW = 0xF;

bool same_source(const SourceParam& x, const SourceParam& y) {
  return x.index == y.index && x.type == y.type && x.modifier == y.modifier &&
         x.swizzle == y.swizzle && x.relative == y.relative &&
         (!x.relative || (x.rel_type == y.rel_type && x.rel_component == y.rel_component));
}

// `x` in the components of `mask` (scalar results are replicated to the write mask).
Vec4 replicated(std::uint8_t mask, SsaDef x) {
  Vec4 out;
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) out.c[i] = x;
  return out;
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
    float v = ir::ops::Constant(op).values()[0].literal_f32();
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

// src0 at positions `mask0`, then src1 at `mask1`. src1 identical to src0 (dp3 r0, r1, r1) reuses
// src0's values: the same values, so x * x needs no legacy rule.
bool State::read_pair(const Instruction& ins, std::uint8_t mask0, Vec4& a, std::uint8_t mask1,
                      Vec4& c) {
  if (!read_src(ins, ins.src[0], mask0, a)) return false;
  if (same_source(ins.src[0], ins.src[1]) && (mask1 & ~mask0) == 0 && mask0) {
    c = a;
    return true;
  }
  return read_src(ins, ins.src[1], mask1, c);
}

// Reads `sources` sources under the write mask and writes per_component(src0, src1, src2) to
// each written component.
template <class PerComponent>
bool State::componentwise(const Instruction& ins, unsigned sources, PerComponent per_component) {
  const std::uint8_t mask = ins.dst.write_mask;
  Vec4 s[3], out;
  if (sources == 1) {
    if (!read_src(ins, ins.src[0], mask, s[0])) return false;
  } else if (!read_pair(ins, mask, s[0], mask, s[1]) ||
             (sources == 3 && !read_src(ins, ins.src[2], mask, s[2]))) {
    return false;
  }
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) out.c[i] = per_component(s[0].c[i], s[1].c[i], s[2].c[i]);
  return write_dst(ins, out);
}

bool State::emit_mov(const Instruction& ins) { // mov, mova (commit() rounds writes to a0)
  return componentwise(ins, 1, [](SsaDef x, SsaDef, SsaDef) { return x; });
}

bool State::emit_add(const Instruction& ins) {
  return componentwise(
      ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return emit(ir::Op::FAdd(ir::kF32, x, y)); });
}

bool State::emit_sub(const Instruction& ins) {
  return componentwise(
      ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return emit(ir::Op::FSub(ir::kF32, x, y)); });
}

bool State::emit_mul(const Instruction& ins) {
  return componentwise(ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return mul(x, y); });
}

bool State::emit_min(const Instruction& ins) {
  return componentwise(
      ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return emit(ir::Op::FMin(ir::kF32, x, y)); });
}

bool State::emit_max(const Instruction& ins) {
  return componentwise(
      ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return emit(ir::Op::FMax(ir::kF32, x, y)); });
}

bool State::emit_slt(const Instruction& ins) {
  return componentwise(ins, 2, [&](SsaDef x, SsaDef y, SsaDef) {
    return emit(ir::Op::Select(ir::kF32, emit(ir::Op::FLt(x, y)), f32(1.0f), f32(0.0f)));
  });
}

bool State::emit_sge(const Instruction& ins) {
  return componentwise(ins, 2, [&](SsaDef x, SsaDef y, SsaDef) {
    return emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGe(x, y)), f32(1.0f), f32(0.0f)));
  });
}

bool State::emit_setp(const Instruction& ins) {
  return componentwise(
      ins, 2, [&](SsaDef x, SsaDef y, SsaDef) { return compare(Comparison(ins.control), x, y); });
}

bool State::emit_mad(const Instruction& ins) {
  return componentwise(ins, 3, [&](SsaDef x, SsaDef y, SsaDef z) { return mad(x, y, z); });
}

bool State::emit_lrp(const Instruction& ins) {
  return componentwise(ins, 3, [&](SsaDef x, SsaDef y, SsaDef z) {
    return emit(ir::Op::FMad(ir::kF32, x, emit(ir::Op::FSub(ir::kF32, y, z)), z));
  });
}

bool State::emit_cmp(const Instruction& ins) {
  return componentwise(ins, 3, [&](SsaDef x, SsaDef y, SsaDef z) {
    return emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGe(x, f32(0.0f))), y, z));
  });
}

bool State::emit_cnd(const Instruction& ins) {
  return componentwise(ins, 3, [&](SsaDef x, SsaDef y, SsaDef z) {
    return emit(ir::Op::Select(ir::kF32, emit(ir::Op::FGt(x, f32(0.5f))), y, z));
  });
}

bool State::emit_abs(const Instruction& ins) {
  return componentwise(ins, 1,
                       [&](SsaDef x, SsaDef, SsaDef) { return emit(ir::Op::FAbs(ir::kF32, x)); });
}

bool State::emit_frc(const Instruction& ins) {
  return componentwise(ins, 1,
                       [&](SsaDef x, SsaDef, SsaDef) { return emit(ir::Op::FFract(ir::kF32, x)); });
}

bool State::emit_dsx(const Instruction& ins) {
  return componentwise(ins, 1, [&](SsaDef x, SsaDef, SsaDef) {
    return emit(ir::Op::DerivX(ir::kF32, x, ir::DerivativeMode::Default));
  });
}

bool State::emit_dsy(const Instruction& ins) {
  return componentwise(ins, 1, [&](SsaDef x, SsaDef, SsaDef) {
    return emit(ir::Op::DerivY(ir::kF32, x, ir::DerivativeMode::Default));
  });
}

// sgn; vs_2_x's form names two scratch registers after its value, which it does not read.
bool State::emit_sgn(const Instruction& ins) {
  return componentwise(ins, 1, [&](SsaDef x, SsaDef, SsaDef) {
    return emit(ir::Op::Select(
        ir::kF32, emit(ir::Op::FGt(x, f32(0.0f))), f32(1.0f),
        emit(ir::Op::Select(ir::kF32, emit(ir::Op::FLt(x, f32(0.0f))), f32(-1.0f), f32(0.0f)))));
  });
}

bool State::emit_dp(const Instruction& ins) { // dp3, dp4
  const unsigned n = ins.opcode == Opcode::Dp3 ? 3 : 4;
  const std::uint8_t m = n == 3 ? kXYZ : kXYZW;
  Vec4 a, c;
  if (!read_pair(ins, m, a, m, c)) return false;
  return write_dst(ins, replicated(ins.dst.write_mask, dot(a, c, n)));
}

bool State::emit_dp2add(const Instruction& ins) {
  Vec4 a, c;
  if (!read_pair(ins, 0x3, a, 0x3, c)) return false;
  SsaDef add = read_scalar(ins, ins.src[2], 0);
  if (!add) return false;
  return write_dst(ins,
                   replicated(ins.dst.write_mask, mad(a.c[1], c.c[1], mad(a.c[0], c.c[0], add))));
}

// Scalar instructions read the last swizzle position of src0 (.w without a swizzle);
// result(x, out) fills the components.
template <class Result>
bool State::scalar(const Instruction& ins, Result result) {
  SsaDef x = read_scalar(ins, ins.src[0], 3);
  if (!x) return false;
  Vec4 out;
  result(x, out);
  return write_dst(ins, out);
}

bool State::emit_rcp(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    out = replicated(ins.dst.write_mask, emit(ir::Op::FRcp(ir::kF32, x)));
  });
}

bool State::emit_rsq(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    out = replicated(ins.dst.write_mask,
                     emit(ir::Op::FRsq(ir::kF32, emit(ir::Op::FAbs(ir::kF32, x)))));
  });
}

bool State::emit_exp(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    out = replicated(ins.dst.write_mask, emit(ir::Op::FExp2(ir::kF32, x)));
  });
}

// vs_1_1 expp: (2^floor(x), fract(x), 2^x, 1); later models 2^x replicated.
bool State::emit_expp(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    if (model != Model::Vs1) {
      out = replicated(ins.dst.write_mask, emit(ir::Op::FExp2(ir::kF32, x)));
      return;
    }
    SsaDef fl = emit(ir::Op::FRound(ir::kF32, x, ir::RoundMode::NegativeInf));
    out.c[0] = emit(ir::Op::FExp2(ir::kF32, fl));
    out.c[1] = emit(ir::Op::FSub(ir::kF32, x, fl));
    out.c[2] = emit(ir::Op::FExp2(ir::kF32, x));
    out.c[3] = f32(1.0f);
  });
}

bool State::emit_log(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    out = replicated(ins.dst.write_mask,
                     emit(ir::Op::FLog2(ir::kF32, emit(ir::Op::FAbs(ir::kF32, x)))));
  });
}

// vs_1_1 logp: (exponent, mantissa, log2|x|, 1); later models log2|x| replicated.
bool State::emit_logp(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    SsaDef ax = emit(ir::Op::FAbs(ir::kF32, x));
    SsaDef l = emit(ir::Op::FLog2(ir::kF32, ax));
    if (model != Model::Vs1) {
      out = replicated(ins.dst.write_mask, l);
      return;
    }
    SsaDef e = emit(ir::Op::FRound(ir::kF32, l, ir::RoundMode::NegativeInf));
    out.c[0] = e;
    out.c[1] = emit(ir::Op::FDiv(ir::kF32, ax, emit(ir::Op::FExp2(ir::kF32, e))));
    out.c[2] = l;
    out.c[3] = f32(1.0f);
  });
}

bool State::emit_pow(const Instruction& ins) {
  SsaDef x = read_scalar(ins, ins.src[0], 3), y = read_scalar(ins, ins.src[1], 3);
  if (!x || !y) return false;
  x = emit(ir::Op::FAbs(ir::kF32, x));
  return write_dst(ins, replicated(ins.dst.write_mask,
                                   emit(options.legacy_multiply ? ir::Op::FPowLegacy(ir::kF32, x, y)
                                                                : ir::Op::FPow(ir::kF32, x, y))));
}

// sincos: cosine to .x, sine to .y (the SM2 form's Taylor constants are not needed).
bool State::emit_sincos(const Instruction& ins) {
  return scalar(ins, [&](SsaDef x, Vec4& out) {
    if (ins.dst.write_mask & 1) out.c[0] = emit(ir::Op::FCos(ir::kF32, x));
    if (ins.dst.write_mask & 2) out.c[1] = emit(ir::Op::FSin(ir::kF32, x));
  });
}

bool State::emit_nrm(const Instruction& ins) {
  const std::uint8_t mask = ins.dst.write_mask;
  Vec4 a, out;
  if (!read_src(ins, ins.src[0], std::uint8_t(kXYZ | (mask & 0x8)), a)) return false;
  SsaDef f = emit(ir::Op::FRsq(ir::kF32, dot(a, a, 3)));
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) out.c[i] = mul(a.c[i], f);
  return write_dst(ins, out);
}

bool State::emit_crs(const Instruction& ins) {
  const std::uint8_t mask = ins.dst.write_mask;
  Vec4 a, c, out;
  if (!read_pair(ins, kXYZ, a, kXYZ, c)) return false;
  auto cross = [&](unsigned i, unsigned j) {
    return emit(ir::Op::FSub(ir::kF32, emit(ir::Op::FMul(ir::kF32, a.c[i], c.c[j])),
                             emit(ir::Op::FMul(ir::kF32, a.c[j], c.c[i]))));
  };
  if (mask & 1) out.c[0] = cross(1, 2);
  if (mask & 2) out.c[1] = cross(2, 0);
  if (mask & 4) out.c[2] = cross(0, 1);
  return write_dst(ins, out);
}

bool State::emit_lit(const Instruction& ins) {
  Vec4 a, out;
  if (!read_src(ins, ins.src[0], 0xB, a)) return false;
  out.c[0] = out.c[3] = f32(1.0f);
  out.c[1] = emit(ir::Op::FMax(ir::kF32, a.c[0], f32(0.0f)));
  if (ins.dst.write_mask & 4) {
    SsaDef power = emit(ir::Op::FClamp(ir::kF32, a.c[3], f32(-128.0f), f32(128.0f)));
    SsaDef p = emit(ir::Op::FPow(ir::kF32, emit(ir::Op::FMax(ir::kF32, a.c[1], f32(0.0f))), power));
    SsaDef lit = emit(
        ir::Op::BAnd(emit(ir::Op::FGt(a.c[0], f32(0.0f))), emit(ir::Op::FGt(a.c[1], f32(0.0f)))));
    out.c[2] = emit(ir::Op::Select(ir::kF32, lit, p, f32(0.0f)));
  }
  return write_dst(ins, out);
}

bool State::emit_dst(const Instruction& ins) {
  Vec4 a, c, out;
  if (!read_pair(ins, 0x6, a, 0xA, c)) return false;
  out.c[0] = f32(1.0f);
  out.c[1] = mul(a.c[1], c.c[1]);
  out.c[2] = a.c[2];
  out.c[3] = c.c[3];
  return write_dst(ins, out);
}

// m4x4, m4x3, m3x4, m3x3, m3x2: one dot product per row register (matrix_shape).
bool State::emit_matrix(const Instruction& ins) {
  const MatrixShape shape = matrix_shape(ins.opcode);
  const std::uint8_t mask = shape.columns == 4 ? kXYZW : kXYZ;
  Vec4 a;
  if (!read_src(ins, ins.src[0], mask, a)) return false;
  Vec4 out;
  for (unsigned r = 0; r < shape.rows; ++r) {
    if (!(ins.dst.write_mask & (1u << r))) continue;
    SourceParam row = ins.src[1];
    row.index = std::uint16_t(row.index + r);
    Vec4 m;
    if (!read_src(ins, row, mask, m)) return false;
    out.c[r] = dot(a, m, shape.columns);
  }
  return write_dst(ins, out);
}

} // namespace kiln::d3d9::detail
