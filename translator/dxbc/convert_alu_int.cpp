// Integer, bit, conversion and double instructions of the DXBC converter (the handlers of
// convert_dispatch.h's convert_alu_int.cpp group), with the D3D semantics IR ops do not carry:
// division by zero, float-to-int clamping, D3D's bit numbering, 5-bit field widths.
#include "translator/dxbc/convert_alu.h"

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;
using namespace alu_types;

// imul, umul
bool mul_extended(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  // imul/umul hi, lo, a, b
  bool sgn = code == Opcode::IMul;
  ScalarType t = sgn ? I : U;
  std::uint8_t hi = alu.dst_mask(0), lo = alu.dst_mask(1);
  Vec4 a = alu.src(2, hi | lo, t), b = alu.src(3, hi | lo, t), oh{}, ol{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    if (hi & (1u << i)) {
      SsaDef wide = alu.op(sgn ? Op::SMulExtended(ir::vec(I, 2), a[i], b[i])
                               : Op::UMulExtended(ir::vec(U, 2), a[i], b[i]));
      oh[i] = alu.op(Op::CompositeExtract(Type(t), wide, alu.u32(1)));
      if (lo & (1u << i)) ol[i] = alu.op(Op::CompositeExtract(Type(t), wide, alu.u32(0)));
    } else {
      ol[i] = alu.op(Op::IMul(Type(t), a[i], b[i]));
    }
  }
  alu.store(0, oh, t);
  alu.store(1, ol, t);
  return true;
}

// imad, umad
bool mad_int(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  ScalarType t = code == Opcode::IMad ? I : U;
  Vec4 a = alu.src(1, m, t), b = alu.src(2, m, t), c = alu.src(3, m, t), out{};
  for (unsigned i = 0; i < 4; ++i)
    if (a[i]) out[i] = alu.op(Op::IAdd(Type(t), alu.op(Op::IMul(Type(t), a[i], b[i])), c[i]));
  alu.store(0, out, t);
  return true;
}

// udiv
bool udiv(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  // udiv q, r, a, b; division by zero gives 0xffffffff in both.
  std::uint8_t qm = alu.dst_mask(0), rm = alu.dst_mask(1);
  Vec4 a = alu.src(2, qm | rm, U), b = alu.src(3, qm | rm, U), q{}, r{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef nz = alu.op(Op::INe(b[i], alu.u32(0)));
    SsaDef safe = alu.op(Op::Select(ir::kU32, nz, b[i], alu.u32(1)));
    if (qm & (1u << i))
      q[i] = alu.op(Op::Select(ir::kU32, nz, alu.op(Op::UDiv(ir::kU32, a[i], safe)), alu.u32(~0u)));
    if (rm & (1u << i))
      r[i] = alu.op(Op::Select(ir::kU32, nz, alu.op(Op::UMod(ir::kU32, a[i], safe)), alu.u32(~0u)));
  }
  alu.store(0, q, U);
  alu.store(1, r, U);
  return true;
}

// uaddc, usubb
bool add_carry(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  std::uint8_t sm = alu.dst_mask(0), cm = alu.dst_mask(1);
  Vec4 a = alu.src(2, sm | cm, U), b = alu.src(3, sm | cm, U), s{}, c{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef pair =
        alu.op(code == Opcode::UAddc ? Op::IAddCarry(a[i], b[i]) : Op::ISubBorrow(a[i], b[i]));
    if (sm & (1u << i)) s[i] = alu.op(Op::CompositeExtract(ir::kU32, pair, alu.u32(0)));
    if (cm & (1u << i)) c[i] = alu.op(Op::CompositeExtract(ir::kU32, pair, alu.u32(1)));
  }
  alu.store(0, s, U);
  alu.store(1, c, U);
  return true;
}

// itof, utof
bool int_to_float(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  ScalarType t = code == Opcode::Itof ? I : U;
  Vec4 a = alu.src(1, m, t), out{};
  for (unsigned i = 0; i < 4; ++i)
    if (a[i]) out[i] = alu.op(Op::ConvertItoF(ir::kF32, a[i]));
  alu.store(0, out, F);
  return true;
}

// ftoi, ftou
bool float_to_int(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  // Clamped to the integer range; NaN gives 0.
  bool sgn = code == Opcode::Ftoi;
  Vec4 a = alu.src(1, m, F), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef lo = alu.f32(sgn ? -2147483648.0f : 0.0f);
    SsaDef hi = alu.f32(sgn ? 2147483520.0f : 4294967040.0f);
    SsaDef c = alu.op(Op::FClamp(ir::kF32, a[i], lo, hi));
    SsaDef v = alu.op(Op::ConvertFtoI(sgn ? ir::kI32 : ir::kU32, c));
    SsaDef big = alu.op(Op::FGe(a[i], alu.f32(sgn ? 2147483648.0f : 4294967296.0f)));
    v = alu.op(Op::Select(sgn ? ir::kI32 : ir::kU32, big,
                          sgn ? ctx.constant_i32(0x7fffffff) : alu.u32(~0u), v));
    if (sgn) v = alu.op(Op::Select(ir::kI32, alu.op(Op::FIsNan(a[i])), ctx.constant_i32(0), v));
    out[i] = v;
  }
  alu.store(0, out, sgn ? I : U);
  return true;
}

// f32tof16
bool f32tof16(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  Vec4 a = alu.src(1, m, F), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef pair = alu.op(Op::CompositeConstruct(ir::vec(F, 2), a[i], alu.f32(0.0f)));
    out[i] = alu.op(Op::ConvertF32toPackedF16(pair));
  }
  alu.store(0, out, U);
  return true;
}

// f16tof32
bool f16tof32(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  Vec4 a = alu.src(1, m, U), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef pair = alu.op(Op::ConvertPackedF16toF32(a[i]));
    out[i] = alu.op(Op::CompositeExtract(ir::kF32, pair, alu.u32(0)));
  }
  alu.store(0, out, F);
  return true;
}

// firstbit_hi, firstbit_shi
bool first_bit_high(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  // D3D counts from the most significant bit; SPIR-V's FindMsb from the least.
  bool sgn = code == Opcode::FirstBitShi;
  Vec4 a = alu.src(1, m, sgn ? I : U), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    SsaDef msb = sgn ? alu.op(Op::Cast(ir::kU32, alu.op(Op::SFindMsb(ir::kI32, a[i]))))
                     : alu.op(Op::UFindMsb(ir::kU32, a[i]));
    SsaDef none = alu.op(Op::IEq(msb, alu.u32(~0u)));
    out[i] = alu.op(
        Op::Select(ir::kU32, none, alu.u32(~0u), alu.op(Op::ISub(ir::kU32, alu.u32(31), msb))));
  }
  alu.store(0, out, U);
  return true;
}

// ubfe, ibfe
bool bitfield_extract(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  // ubfe/ibfe dst, width, offset, value: widths and offsets use 5 bits; a field running
  // past bit 31 is cut there (SPIR-V leaves that undefined).
  bool sgn = code == Opcode::IBfe;
  ScalarType t = sgn ? I : U;
  Vec4 w = alu.src(1, m, U), o = alu.src(2, m, U), v = alu.src(3, m, t), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!w[i]) continue;
    SsaDef wm = alu.op(Op::IAnd(ir::kU32, w[i], alu.u32(31)));
    SsaDef om = alu.op(Op::IAnd(ir::kU32, o[i], alu.u32(31)));
    SsaDef fits = alu.op(Op::ULt(alu.op(Op::IAdd(ir::kU32, wm, om)), alu.u32(32)));
    SsaDef count =
        alu.op(Op::Select(ir::kU32, fits, wm, alu.op(Op::ISub(ir::kU32, alu.u32(32), om))));
    // width 0 gives 0 whatever the offset.
    count = alu.op(Op::Select(ir::kU32, alu.op(Op::IEq(wm, alu.u32(0))), alu.u32(0), count));
    out[i] = alu.op(sgn ? Op::SBitExtract(Type(t), v[i], om, count)
                        : Op::UBitExtract(Type(t), v[i], om, count));
  }
  alu.store(0, out, t);
  return true;
}

// bfi
bool bitfield_insert(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  // bfi dst, width, offset, insert, base
  Vec4 w = alu.src(1, m, U), o = alu.src(2, m, U), ins = alu.src(3, m, U), base = alu.src(4, m, U),
       out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!w[i]) continue;
    SsaDef wm = alu.op(Op::IAnd(ir::kU32, w[i], alu.u32(31)));
    SsaDef om = alu.op(Op::IAnd(ir::kU32, o[i], alu.u32(31)));
    SsaDef ones =
        alu.op(Op::ISub(ir::kU32, alu.op(Op::IShl(ir::kU32, alu.u32(1), wm)), alu.u32(1)));
    SsaDef field = alu.op(Op::IShl(ir::kU32, ones, om));
    SsaDef part = alu.op(Op::IAnd(ir::kU32, alu.op(Op::IShl(ir::kU32, ins[i], om)), field));
    SsaDef keep = alu.op(Op::IAnd(ir::kU32, base[i], alu.op(Op::INot(ir::kU32, field))));
    out[i] = alu.op(Op::IOr(ir::kU32, part, keep));
  }
  alu.store(0, out, U);
  return true;
}

// msad
bool msad(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  // msad dst, ref, src, accum: sum over the bytes with a non-zero reference byte of
  // |ref - src|, plus accum (spelled out: the backend has no masked SAD).
  Vec4 r = alu.src(1, m, U), s = alu.src(2, m, U), acc = alu.src(3, m, U), out{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!r[i]) continue;
    SsaDef sum = acc[i];
    for (unsigned k = 0; k < 4; ++k) {
      SsaDef rb = alu.op(Op::UBitExtract(ir::kU32, r[i], alu.u32(8 * k), alu.u32(8)));
      SsaDef sb = alu.op(Op::UBitExtract(ir::kU32, s[i], alu.u32(8 * k), alu.u32(8)));
      SsaDef diff =
          alu.op(Op::Select(ir::kU32, alu.op(Op::UGe(rb, sb)), alu.op(Op::ISub(ir::kU32, rb, sb)),
                            alu.op(Op::ISub(ir::kU32, sb, rb))));
      diff = alu.op(Op::Select(ir::kU32, alu.op(Op::IEq(rb, alu.u32(0))), alu.u32(0), diff));
      sum = alu.op(Op::IAdd(ir::kU32, sum, diff));
    }
    out[i] = sum;
  }
  alu.store(0, out, U);
  return true;
}

// dmov
bool dmov(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  Vec4 v = alu.src(1, m, D);
  alu.store(0, v, D);
  return true;
}

// dmovc
bool dmovc(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  unsigned lanes = Alu::lanes_of(m);
  Vec4 cond = alu.src(1, std::uint8_t(lanes), U);
  Vec4 a = alu.src(2, m, D), b = alu.src(3, m, D), out{};
  for (unsigned l = 0; l < 2; ++l) {
    if (!(lanes & (1u << l)) || !a[l]) continue;
    SsaDef bc = alu.op(Op::INe(cond[l], alu.u32(0)));
    out[l] = alu.op(Op::Select(Type(D), bc, a[l], b[l]));
  }
  alu.store(0, out, D);
  return true;
}

// dtof, dtoi, dtou
bool from_double(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  // 32-bit component i comes from lane i.
  std::uint8_t lanes = m & 3;
  Vec4 a = alu.src(1, Alu::mask_of_lanes(lanes), D), out{};
  ScalarType t = code == Opcode::Dtof ? F : code == Opcode::Dtoi ? I : U;
  for (unsigned l = 0; l < 2; ++l) {
    if (!(lanes & (1u << l)) || !a[l]) continue;
    if (code == Opcode::Dtof) {
      out[l] = alu.op(Op::ConvertFtoF(ir::kF32, a[l]));
      continue;
    }
    // Clamped to the integer range (exact in f64); NaN gives 0 (NClamp picks the low end,
    // which is 0 for dtou and selected away for dtoi).
    bool sgn = code == Opcode::Dtoi;
    Type d(D);
    SsaDef lo = ctx.builder().add(Op::Constant(d, sgn ? -2147483648.0 : 0.0));
    SsaDef hi = ctx.builder().add(Op::Constant(d, sgn ? 2147483647.0 : 4294967295.0));
    SsaDef v = alu.op(Op::ConvertFtoI(Type(t), alu.op(Op::FClamp(d, a[l], lo, hi))));
    if (sgn) v = alu.op(Op::Select(ir::kI32, alu.op(Op::FIsNan(a[l])), ctx.constant_i32(0), v));
    out[l] = v;
  }
  alu.store(0, out, t);
  return true;
}

// ftod, itod, utod
bool to_double(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  unsigned lanes = Alu::lanes_of(m);
  ScalarType t = code == Opcode::Ftod ? F : code == Opcode::Itod ? I : U;
  Vec4 a = alu.src(1, std::uint8_t(lanes), t), out{};
  for (unsigned l = 0; l < 2; ++l) {
    if (!(lanes & (1u << l)) || !a[l]) continue;
    out[l] = code == Opcode::Ftod ? alu.op(Op::ConvertFtoF(Type(D), a[l]))
                                  : alu.op(Op::ConvertItoF(Type(D), a[l]));
  }
  alu.store(0, out, D);
  return true;
}

} // namespace kiln::dxbc
