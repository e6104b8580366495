// Arithmetic of the DXBC converter: the component-wise instructions that map to one IR op
// (kAluRows), moves, selects, dot products, rounding, derivatives and eval_*, with the D3D
// semantics IR ops do not carry (docs/pipeline.md). Integer, bit, conversion and double
// instructions: convert_alu_int.cpp.
#include "translator/dxbc/convert_alu.h"

namespace kiln::dxbc {

using ir::Op;
using ir::OpCode;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;
using namespace alu_types;

namespace {

// The instructions whose handler is alu_map, alu_compare or alu_shift: the IR op and the type
// the sources are read as. The handler and the opcode table's source count give the shape.
struct AluRow {
  Opcode opcode = Opcode::Add;
  OpCode ir = OpCode::FAdd;
  ScalarType type = ScalarType::F32;
};

constexpr AluRow kAluRowList[] = {
    {Opcode::Add, OpCode::FAdd, F},
    {Opcode::And, OpCode::IAnd, U},
    {Opcode::Div, OpCode::FDiv, F},
    {Opcode::Eq, OpCode::FEq, F},
    {Opcode::Exp, OpCode::FExp2, F},
    {Opcode::Frc, OpCode::FFract, F},
    {Opcode::Ge, OpCode::FGe, F},
    {Opcode::IAdd, OpCode::IAdd, I},
    {Opcode::IEq, OpCode::IEq, U},
    {Opcode::IGe, OpCode::SGe, I},
    {Opcode::ILt, OpCode::SLt, I},
    {Opcode::IMax, OpCode::SMax, I},
    {Opcode::IMin, OpCode::SMin, I},
    {Opcode::INe, OpCode::INe, U},
    {Opcode::INeg, OpCode::INeg, I},
    {Opcode::IShl, OpCode::IShl, U},
    {Opcode::IShr, OpCode::SShr, I},
    {Opcode::Log, OpCode::FLog2, F},
    {Opcode::Lt, OpCode::FLt, F},
    {Opcode::Mad, OpCode::FMad, F},
    {Opcode::Min, OpCode::FMin, F},
    {Opcode::Max, OpCode::FMax, F},
    {Opcode::Mul, OpCode::FMul, F},
    {Opcode::Ne, OpCode::FNe, F},
    {Opcode::Not, OpCode::INot, U},
    {Opcode::Or, OpCode::IOr, U},
    {Opcode::Rsq, OpCode::FRsq, F},
    {Opcode::Sqrt, OpCode::FSqrt, F},
    {Opcode::ULt, OpCode::ULt, U},
    {Opcode::UGe, OpCode::UGe, U},
    {Opcode::UMax, OpCode::UMax, U},
    {Opcode::UMin, OpCode::UMin, U},
    {Opcode::UShr, OpCode::UShr, U},
    {Opcode::Xor, OpCode::IXor, U},
    {Opcode::Rcp, OpCode::FRcp, F},
    {Opcode::CountBits, OpCode::IBitCount, U},
    {Opcode::FirstBitLo, OpCode::IFindLsb, U},
    {Opcode::BfRev, OpCode::IBitReverse, U},
    {Opcode::DAdd, OpCode::FAdd, D},
    {Opcode::DMax, OpCode::FMax, D},
    {Opcode::DMin, OpCode::FMin, D},
    {Opcode::DMul, OpCode::FMul, D},
    {Opcode::DEq, OpCode::FEq, D},
    {Opcode::DGe, OpCode::FGe, D},
    {Opcode::DLt, OpCode::FLt, D},
    {Opcode::DNe, OpCode::FNe, D},
    {Opcode::DDiv, OpCode::FDiv, D},
    {Opcode::DFma, OpCode::FMad, D},
    {Opcode::DRcp, OpCode::FRcp, D},
};
constexpr OpcodeRows kAluRows(kAluRowList);
static_assert(kAluRows.covers({"alu_map", "alu_compare", "alu_shift"}),
              "kAluRows: one row per opcode whose handler is alu_map, alu_compare or alu_shift, "
              "in opcode order");

enum class Shape : std::uint8_t { Map, Compare, Shift };

// op(a[, b[, c]]) per component; compares give D3D masks (~0/0), shifts use 5 bits of b.
void component_wise(ConvertContext& ctx, const Instruction& inst, Shape shape) {
  Alu alu(ctx, inst);
  const AluRow& row = kAluRows[inst.opcode];
  Type t(row.type);
  std::uint8_t m = alu.dst_mask(0);
  bool dbl = row.type == ScalarType::F64;
  // Doubles: values are lanes; compares write 32-bit components i from lane i.
  std::uint8_t smask = m;
  unsigned count = 4;
  if (dbl) {
    unsigned lanes = shape == Shape::Compare ? (m & 3) : Alu::lanes_of(m);
    smask = Alu::mask_of_lanes(lanes);
    count = 2;
  }
  const unsigned srcs = opcode_info(inst.opcode).src_count;
  Vec4 a = alu.src(1, smask, row.type);
  Vec4 b = srcs > 1 ? alu.src(2, smask, shape == Shape::Shift ? U : row.type) : Vec4{};
  Vec4 c = srcs > 2 ? alu.src(3, smask, row.type) : Vec4{};
  Vec4 out{};
  for (unsigned i = 0; i < count; ++i) {
    if (!a[i]) continue;
    Op o(row.ir, shape == Shape::Compare ? ir::kBool : t);
    o.ref(a[i]);
    if (shape == Shape::Shift)
      o.ref(alu.op(Op::IAnd(ir::kU32, b[i], alu.u32(31))));
    else if (srcs > 1)
      o.ref(b[i]);
    if (srcs > 2) o.ref(c[i]);
    SsaDef v = alu.op(o);
    out[i] = shape == Shape::Compare ? alu.mask_bool(v) : v;
  }
  if (!ctx.ok()) return;
  alu.store(0, out, shape == Shape::Compare ? U : row.type);
}

// The type a typeless move reads its source as: temporaries stay untyped.
ScalarType natural_type(const Operand& op) {
  switch (op.type) {
  case OperandType::Temp:
    return ScalarType::Unknown;
  case OperandType::ConstantBuffer:
    return ScalarType::F32;
  default:
    return ScalarType::U32;
  }
}

} // namespace

bool alu_map(ConvertContext& ctx, const Instruction& inst) {
  component_wise(ctx, inst, Shape::Map);
  return true;
}
bool alu_compare(ConvertContext& ctx, const Instruction& inst) {
  component_wise(ctx, inst, Shape::Compare);
  return true;
}
bool alu_shift(ConvertContext& ctx, const Instruction& inst) {
  component_wise(ctx, inst, Shape::Shift);
  return true;
}

// mov
bool mov(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  const Operand& s = alu.ops[1];
  ScalarType t = natural_type(s);
  if (s.modifier != OperandModifier::None || inst.saturate() || alu.precise) t = F;
  // A temporary moves as it is: a value of known type keeps it (the destination converts
  // from it, if it must), an untyped one stays untyped into a temp and is stored as u32 bits
  // elsewhere.
  Vec4 v = alu.src(1, m, t);
  alu.store(0, v, t == ScalarType::Unknown ? U : t);
  return true;
}

// movc
bool movc(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const std::uint8_t m = alu.dst_mask(0);
  Vec4 cond = alu.src(1, m, U);
  // Neg/abs modifiers on a source make the move a float one.
  bool modified =
      alu.ops[2].modifier != OperandModifier::None || alu.ops[3].modifier != OperandModifier::None;
  ScalarType t = inst.saturate() || modified ? F : natural_type(alu.ops[2]);
  if (t == ScalarType::Unknown) t = natural_type(alu.ops[3]);
  // Two temporaries: read as they are; a component whose two values have the same 32-bit type
  // selects in that type, others as u32 bits.
  const bool as_is = t == ScalarType::Unknown;
  Vec4 a = alu.src(2, m, t), b = alu.src(3, m, t), out{};
  SsaDef tests[4] = {}; // the condition's test, shared by components reading the same value
  for (unsigned i = 0; i < 4; ++i) {
    if (!cond[i]) continue;
    SsaDef bc;
    for (unsigned j = 0; j < i && !bc; ++j)
      if (cond[j] == cond[i]) bc = tests[j];
    tests[i] = bc ? bc : alu.op(Op::INe(cond[i], alu.u32(0)));
    ScalarType ti = t;
    if (as_is) {
      const ScalarType ta = ctx.stored_type(a[i], U), tb = ctx.stored_type(b[i], U);
      ti = ta == tb && (ta == F || ta == U || ta == I) ? ta : U;
      a[i] = ctx.bitcast(a[i], ta, ti);
      b[i] = ctx.bitcast(b[i], tb, ti);
    }
    out[i] = alu.op(Op::Select(Type(ti), tests[i], a[i], b[i]));
  }
  alu.store(0, out, as_is ? U : t);
  return true;
}

// swapc
bool swapc(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  // swapc d0, d1, cond, a, b: d0 = cond ? b : a; d1 = cond ? a : b.
  std::uint8_t both = alu.dst_mask(0) | alu.dst_mask(1);
  Vec4 cond = alu.src(2, both, U), a = alu.src(3, both, U), b = alu.src(4, both, U), o0{}, o1{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!cond[i]) continue;
    SsaDef bc = alu.op(Op::INe(cond[i], alu.u32(0)));
    o0[i] = alu.op(Op::Select(ir::kU32, bc, b[i], a[i]));
    o1[i] = alu.op(Op::Select(ir::kU32, bc, a[i], b[i]));
  }
  alu.store(0, o0, U);
  alu.store(1, o1, U);
  return true;
}

// dp2, dp3, dp4
bool dot_product(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  unsigned n = code == Opcode::Dp2 ? 2 : code == Opcode::Dp3 ? 3 : 4;
  std::uint8_t smask = std::uint8_t((1u << n) - 1);
  Vec4 a = alu.src(1, smask, F), b = alu.src(2, smask, F);
  if (!ctx.ok()) return false;
  SsaDef dot = alu.op(Op::FMul(ir::kF32, a[0], b[0]));
  for (unsigned i = 1; i < n; ++i) dot = alu.op(Op::FMad(ir::kF32, a[i], b[i], dot));
  Vec4 out{};
  for (unsigned i = 0; i < 4; ++i) out[i] = dot;
  alu.store(0, out, F);
  return true;
}

// sincos
bool sincos(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  std::uint8_t both = alu.dst_mask(0) | alu.dst_mask(1);
  Vec4 a = alu.src(2, both, F), s{}, c{};
  for (unsigned i = 0; i < 4; ++i) {
    if (!a[i]) continue;
    if (alu.dst_mask(0) & (1u << i)) s[i] = alu.op(Op::FSin(ir::kF32, a[i]));
    if (alu.dst_mask(1) & (1u << i)) c[i] = alu.op(Op::FCos(ir::kF32, a[i]));
  }
  alu.store(0, s, F);
  alu.store(1, c, F);
  return true;
}

// round_ne, round_ni, round_pi, round_z
bool round_float(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  ir::RoundMode mode = code == Opcode::RoundNe   ? ir::RoundMode::NearestEven
                       : code == Opcode::RoundNi ? ir::RoundMode::NegativeInf
                       : code == Opcode::RoundPi ? ir::RoundMode::PositiveInf
                                                 : ir::RoundMode::Zero;
  Vec4 a = alu.src(1, m, F), out{};
  for (unsigned i = 0; i < 4; ++i)
    if (a[i]) out[i] = alu.op(Op::FRound(ir::kF32, a[i], mode));
  alu.store(0, out, F);
  return true;
}

// deriv_rtx, deriv_rty, deriv_rtx_coarse, deriv_rty_coarse, deriv_rtx_fine, deriv_rty_fine
bool derivative(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  bool x =
      code == Opcode::DerivRtx || code == Opcode::DerivRtxCoarse || code == Opcode::DerivRtxFine;
  ir::DerivativeMode mode = (code == Opcode::DerivRtxCoarse || code == Opcode::DerivRtyCoarse)
                                ? ir::DerivativeMode::Coarse
                            : (code == Opcode::DerivRtxFine || code == Opcode::DerivRtyFine)
                                ? ir::DerivativeMode::Fine
                                : ir::DerivativeMode::Default;
  Vec4 a = alu.src(1, m, F), out{};
  for (unsigned i = 0; i < 4; ++i)
    if (a[i])
      out[i] = alu.op(x ? Op::DerivX(ir::kF32, a[i], mode) : Op::DerivY(ir::kF32, a[i], mode));
  alu.store(0, out, F);
  return true;
}

// eval_centroid, eval_sample_index, eval_snapped
bool evaluate(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  const Opcode code = inst.opcode;
  const std::uint8_t m = alu.dst_mask(0);
  const Operand& in = alu.ops[1];
  SsaDef extra;
  if (code == Opcode::EvalSampleIndex) {
    extra = ctx.load_src_scalar(alu.ops[2], U);
  } else if (code == Opcode::EvalSnapped) {
    // Offsets are signed 4-bit values in 1/16 pixel.
    Vec4 xy = ctx.load_src(alu.ops[2], 3, I);
    SsaDef f[2];
    for (unsigned c = 0; c < 2; ++c) {
      SsaDef s = alu.op(Op::SBitExtract(ir::kI32, xy[c], ctx.constant_u32(0), ctx.constant_u32(4)));
      f[c] =
          alu.op(Op::FMul(ir::kF32, alu.op(Op::ConvertItoF(ir::kF32, s)), alu.f32(1.0f / 16.0f)));
    }
    extra = alu.op(Op::CompositeConstruct(ir::vec(F, 2), f[0], f[1]));
  }
  Vec4 out{};
  SsaDef done[4] = {};
  for (unsigned i = 0; i < 4 && ctx.ok(); ++i) {
    if (!(m & (1u << i))) continue;
    unsigned c = in.component(i);
    if (!done[c]) {
      done[c] = io_interpolate(ctx, inst, in, c, extra);
      if (done[c] && in.modifier != OperandModifier::None) {
        if (in.modifier == OperandModifier::Abs || in.modifier == OperandModifier::AbsNeg)
          done[c] = alu.op(Op::FAbs(ir::kF32, done[c]));
        if (in.modifier == OperandModifier::Neg || in.modifier == OperandModifier::AbsNeg)
          done[c] = alu.op(Op::FNeg(ir::kF32, done[c]));
      }
    }
    out[i] = done[c];
  }
  alu.store(0, out, F);
  return true;
}

} // namespace kiln::dxbc
