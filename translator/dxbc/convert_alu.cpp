// Arithmetic of the DXBC converter: float, integer, double, conversions, bit operations,
// derivatives and eval_*, with the D3D semantics IR ops do not carry (docs/pipeline.md).
#include "translator/dxbc/convert_core.h"

namespace kiln::dxbc {

using ir::Op;
using ir::OpCode;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

namespace {

// Component-wise instructions that map to one IR op: the shape, the IR op and the type the
// sources are read as. Everything else has its own handler below.
enum class Shape : std::uint8_t { None, Unary, Binary, Ternary, Compare, Shift };

struct AluRow {
  Opcode dxbc;
  Shape shape;
  OpCode ir;
  ScalarType type;
};

constexpr ScalarType F = ScalarType::F32, I = ScalarType::I32, U = ScalarType::U32,
                     D = ScalarType::F64;

constexpr AluRow kAluRows[] = {
    {Opcode::Add, Shape::Binary, OpCode::FAdd, F},
    {Opcode::Mul, Shape::Binary, OpCode::FMul, F},
    {Opcode::Div, Shape::Binary, OpCode::FDiv, F},
    {Opcode::Min, Shape::Binary, OpCode::FMin, F},
    {Opcode::Max, Shape::Binary, OpCode::FMax, F},
    {Opcode::Mad, Shape::Ternary, OpCode::FMad, F},
    {Opcode::Frc, Shape::Unary, OpCode::FFract, F},
    {Opcode::Sqrt, Shape::Unary, OpCode::FSqrt, F},
    {Opcode::Rsq, Shape::Unary, OpCode::FRsq, F},
    {Opcode::Rcp, Shape::Unary, OpCode::FRcp, F},
    {Opcode::Exp, Shape::Unary, OpCode::FExp2, F},
    {Opcode::Log, Shape::Unary, OpCode::FLog2, F},
    {Opcode::Eq, Shape::Compare, OpCode::FEq, F},
    {Opcode::Ne, Shape::Compare, OpCode::FNe, F},
    {Opcode::Lt, Shape::Compare, OpCode::FLt, F},
    {Opcode::Ge, Shape::Compare, OpCode::FGe, F},
    {Opcode::IAdd, Shape::Binary, OpCode::IAdd, I},
    {Opcode::And, Shape::Binary, OpCode::IAnd, U},
    {Opcode::Or, Shape::Binary, OpCode::IOr, U},
    {Opcode::Xor, Shape::Binary, OpCode::IXor, U},
    {Opcode::Not, Shape::Unary, OpCode::INot, U},
    {Opcode::INeg, Shape::Unary, OpCode::INeg, I},
    {Opcode::IMax, Shape::Binary, OpCode::SMax, I},
    {Opcode::IMin, Shape::Binary, OpCode::SMin, I},
    {Opcode::UMax, Shape::Binary, OpCode::UMax, U},
    {Opcode::UMin, Shape::Binary, OpCode::UMin, U},
    {Opcode::IEq, Shape::Compare, OpCode::IEq, U},
    {Opcode::INe, Shape::Compare, OpCode::INe, U},
    {Opcode::ILt, Shape::Compare, OpCode::SLt, I},
    {Opcode::IGe, Shape::Compare, OpCode::SGe, I},
    {Opcode::ULt, Shape::Compare, OpCode::ULt, U},
    {Opcode::UGe, Shape::Compare, OpCode::UGe, U},
    {Opcode::IShl, Shape::Shift, OpCode::IShl, U},
    {Opcode::IShr, Shape::Shift, OpCode::SShr, I},
    {Opcode::UShr, Shape::Shift, OpCode::UShr, U},
    {Opcode::CountBits, Shape::Unary, OpCode::IBitCount, U},
    {Opcode::BfRev, Shape::Unary, OpCode::IBitReverse, U},
    {Opcode::FirstBitLo, Shape::Unary, OpCode::IFindLsb, U},
    {Opcode::DAdd, Shape::Binary, OpCode::FAdd, D},
    {Opcode::DMul, Shape::Binary, OpCode::FMul, D},
    {Opcode::DMin, Shape::Binary, OpCode::FMin, D},
    {Opcode::DMax, Shape::Binary, OpCode::FMax, D},
    {Opcode::DDiv, Shape::Binary, OpCode::FDiv, D},
    {Opcode::DFma, Shape::Ternary, OpCode::FMad, D},
    {Opcode::DRcp, Shape::Unary, OpCode::FRcp, D},
    {Opcode::DEq, Shape::Compare, OpCode::FEq, D},
    {Opcode::DNe, Shape::Compare, OpCode::FNe, D},
    {Opcode::DLt, Shape::Compare, OpCode::FLt, D},
    {Opcode::DGe, Shape::Compare, OpCode::FGe, D},
};

struct AluTable {
  std::uint8_t row[kOpcodeCount] = {}; // 1 + index into kAluRows, 0 = none
  constexpr AluTable() {
    for (std::uint32_t i = 0; i < sizeof(kAluRows) / sizeof(kAluRows[0]); ++i)
      row[std::uint32_t(kAluRows[i].dxbc)] = std::uint8_t(i + 1);
  }
};
constexpr AluTable kAluTable{};

class Alu {
 public:
  Alu(ConvertContext& ctx, const Instruction& inst)
      : ctx_(ctx), inst_(inst), ops_(ctx.program().operands_of(inst)) {
    precise_ = inst.precise_mask() != 0 || ctx.impl().precise_all;
  }

  SsaDef op(Op o) {
    if (precise_ && o.type().is_basic() && ir::is_float(o.type().scalar_type()))
      o.add_flags(ir::OpFlags::Precise);
    return ctx_.emit(o);
  }
  SsaDef u32(std::uint32_t v) { return ctx_.constant_u32(v); }
  SsaDef f32(float v) { return ctx_.constant_f32(v); }
  std::uint8_t dst_mask(unsigned i) const {
    const Operand& d = ops_[i];
    if (d.type == OperandType::Null) return 0;
    return d.component_count == 1 ? 1 : d.mask;
  }
  Vec4 src(unsigned i, std::uint8_t mask, ScalarType t) { return ctx_.load_src(ops_[i], mask, t); }
  void store(unsigned i, const Vec4& v, ScalarType t) { ctx_.store_dst(inst_, ops_[i], v, t); }
  SsaDef mask_bool(SsaDef b) { return ctx_.emit(Op::Select(ir::kU32, b, u32(~0u), u32(0))); }

  // Lanes (bit 0: xy, bit 1: zw) a 64-bit destination mask names, and the 32-bit source mask
  // that reads those lanes.
  static unsigned lanes_of(std::uint8_t mask) {
    return ((mask & 3) ? 1u : 0u) | ((mask & 12) ? 2u : 0u);
  }
  static std::uint8_t mask_of_lanes(unsigned lanes) {
    return std::uint8_t(((lanes & 1) ? 3u : 0u) | ((lanes & 2) ? 12u : 0u));
  }

  bool table(const AluRow& row);
  bool special();

  ConvertContext& ctx_;
  const Instruction& inst_;
  std::span<const Operand> ops_;
  bool precise_ = false;
};

bool Alu::table(const AluRow& row) {
  Type t(row.type);
  std::uint8_t m = dst_mask(0);
  bool dbl = row.type == ScalarType::F64;
  // Doubles: values are lanes; compares write 32-bit components i from lane i.
  std::uint8_t smask = m;
  unsigned count = 4;
  if (dbl) {
    unsigned lanes = row.shape == Shape::Compare ? (m & 3) : lanes_of(m);
    smask = mask_of_lanes(lanes);
    count = 2;
  }
  unsigned srcs = row.shape == Shape::Unary ? 1 : row.shape == Shape::Ternary ? 3 : 2;
  Vec4 a = src(1, smask, row.type);
  Vec4 b = srcs > 1 ? src(2, smask, row.shape == Shape::Shift ? U : row.type) : Vec4{};
  Vec4 c = srcs > 2 ? src(3, smask, row.type) : Vec4{};
  Vec4 out{};
  for (unsigned i = 0; i < count; ++i) {
    if (!a[i]) continue;
    Op o(row.ir, row.shape == Shape::Compare ? ir::kBool : t);
    o.ref(a[i]);
    if (row.shape == Shape::Shift)
      o.ref(op(Op::IAnd(ir::kU32, b[i], u32(31))));
    else if (srcs > 1)
      o.ref(b[i]);
    if (srcs > 2) o.ref(c[i]);
    SsaDef v = op(o);
    out[i] = row.shape == Shape::Compare ? mask_bool(v) : v;
  }
  if (!ctx_.ok()) return true;
  if (row.shape == Shape::Compare) {
    store(0, out, U);
  } else if (row.ir == OpCode::IBitCount || row.ir == OpCode::IBitReverse ||
             row.ir == OpCode::IFindLsb) {
    store(0, out, U);
  } else {
    store(0, out, row.type);
  }
  return true;
}

// The type a typeless move reads its source as: temporaries stay untyped.
ScalarType natural_type(const Operand& op) {
  switch (op.type) {
  case OperandType::Temp:
    return ScalarType::Unknown;
  case OperandType::ConstantBuffer:
    return ScalarType::F32;
  case OperandType::Immediate32:
  case OperandType::ImmediateConstantBuffer:
  case OperandType::IndexableTemp:
    return ScalarType::U32;
  default:
    return ScalarType::U32;
  }
}

bool Alu::special() {
  const Opcode code = inst_.opcode;
  std::uint8_t m = dst_mask(0);
  switch (code) {
  case Opcode::Mov: {
    const Operand& s = ops_[1];
    ScalarType t = natural_type(s);
    if (s.modifier != OperandModifier::None || inst_.saturate() || precise_) t = F;
    bool to_temp = ops_[0].type == OperandType::Temp;
    if (t == ScalarType::Unknown && !to_temp) t = U;
    Vec4 v = src(1, m, t);
    store(0, v, t);
    return true;
  }
  case Opcode::Movc: {
    Vec4 cond = src(1, m, U);
    // Neg/abs modifiers on a source make the move a float one.
    bool modified =
        ops_[2].modifier != OperandModifier::None || ops_[3].modifier != OperandModifier::None;
    ScalarType t = inst_.saturate() || modified ? F : natural_type(ops_[2]);
    if (t == ScalarType::Unknown) t = natural_type(ops_[3]);
    if (t == ScalarType::Unknown) t = U;
    Vec4 a = src(2, m, t), b = src(3, m, t), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!cond[i]) continue;
      SsaDef bc = op(Op::INe(cond[i], u32(0)));
      out[i] = op(Op::Select(Type(t), bc, a[i], b[i]));
    }
    store(0, out, t);
    return true;
  }
  case Opcode::Swapc: {
    // swapc d0, d1, cond, a, b: d0 = cond ? b : a; d1 = cond ? a : b.
    std::uint8_t both = dst_mask(0) | dst_mask(1);
    Vec4 cond = src(2, both, U), a = src(3, both, U), b = src(4, both, U), o0{}, o1{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!cond[i]) continue;
      SsaDef bc = op(Op::INe(cond[i], u32(0)));
      o0[i] = op(Op::Select(ir::kU32, bc, b[i], a[i]));
      o1[i] = op(Op::Select(ir::kU32, bc, a[i], b[i]));
    }
    store(0, o0, U);
    store(1, o1, U);
    return true;
  }
  case Opcode::Dp2:
  case Opcode::Dp3:
  case Opcode::Dp4: {
    unsigned n = code == Opcode::Dp2 ? 2 : code == Opcode::Dp3 ? 3 : 4;
    std::uint8_t smask = std::uint8_t((1u << n) - 1);
    Vec4 a = src(1, smask, F), b = src(2, smask, F);
    if (!ctx_.ok()) return true;
    SsaDef dot = op(Op::FMul(ir::kF32, a[0], b[0]));
    for (unsigned i = 1; i < n; ++i) dot = op(Op::FMad(ir::kF32, a[i], b[i], dot));
    Vec4 out{};
    for (unsigned i = 0; i < 4; ++i) out[i] = dot;
    store(0, out, F);
    return true;
  }
  case Opcode::SinCos: {
    std::uint8_t both = dst_mask(0) | dst_mask(1);
    Vec4 a = src(2, both, F), s{}, c{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      if (dst_mask(0) & (1u << i)) s[i] = op(Op::FSin(ir::kF32, a[i]));
      if (dst_mask(1) & (1u << i)) c[i] = op(Op::FCos(ir::kF32, a[i]));
    }
    store(0, s, F);
    store(1, c, F);
    return true;
  }
  case Opcode::RoundNe:
  case Opcode::RoundNi:
  case Opcode::RoundPi:
  case Opcode::RoundZ: {
    ir::RoundMode mode = code == Opcode::RoundNe   ? ir::RoundMode::NearestEven
                         : code == Opcode::RoundNi ? ir::RoundMode::NegativeInf
                         : code == Opcode::RoundPi ? ir::RoundMode::PositiveInf
                                                   : ir::RoundMode::Zero;
    Vec4 a = src(1, m, F), out{};
    for (unsigned i = 0; i < 4; ++i)
      if (a[i]) out[i] = op(Op::FRound(ir::kF32, a[i], mode));
    store(0, out, F);
    return true;
  }
  case Opcode::DerivRtx:
  case Opcode::DerivRty:
  case Opcode::DerivRtxCoarse:
  case Opcode::DerivRtyCoarse:
  case Opcode::DerivRtxFine:
  case Opcode::DerivRtyFine: {
    bool x =
        code == Opcode::DerivRtx || code == Opcode::DerivRtxCoarse || code == Opcode::DerivRtxFine;
    ir::DerivativeMode mode = (code == Opcode::DerivRtxCoarse || code == Opcode::DerivRtyCoarse)
                                  ? ir::DerivativeMode::Coarse
                              : (code == Opcode::DerivRtxFine || code == Opcode::DerivRtyFine)
                                  ? ir::DerivativeMode::Fine
                                  : ir::DerivativeMode::Default;
    Vec4 a = src(1, m, F), out{};
    for (unsigned i = 0; i < 4; ++i)
      if (a[i])
        out[i] = op(x ? Op::DerivX(ir::kF32, a[i], mode) : Op::DerivY(ir::kF32, a[i], mode));
    store(0, out, F);
    return true;
  }
  case Opcode::IMul:
  case Opcode::UMul: {
    // imul/umul hi, lo, a, b
    bool sgn = code == Opcode::IMul;
    ScalarType t = sgn ? I : U;
    std::uint8_t hi = dst_mask(0), lo = dst_mask(1);
    Vec4 a = src(2, hi | lo, t), b = src(3, hi | lo, t), oh{}, ol{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      if (hi & (1u << i)) {
        SsaDef wide = op(sgn ? Op::SMulExtended(ir::vec(I, 2), a[i], b[i])
                             : Op::UMulExtended(ir::vec(U, 2), a[i], b[i]));
        oh[i] = op(Op::CompositeExtract(Type(t), wide, u32(1)));
        if (lo & (1u << i)) ol[i] = op(Op::CompositeExtract(Type(t), wide, u32(0)));
      } else {
        ol[i] = op(Op::IMul(Type(t), a[i], b[i]));
      }
    }
    store(0, oh, t);
    store(1, ol, t);
    return true;
  }
  case Opcode::IMad:
  case Opcode::UMad: {
    ScalarType t = code == Opcode::IMad ? I : U;
    Vec4 a = src(1, m, t), b = src(2, m, t), c = src(3, m, t), out{};
    for (unsigned i = 0; i < 4; ++i)
      if (a[i]) out[i] = op(Op::IAdd(Type(t), op(Op::IMul(Type(t), a[i], b[i])), c[i]));
    store(0, out, t);
    return true;
  }
  case Opcode::UDiv: {
    // udiv q, r, a, b; division by zero gives 0xffffffff in both.
    std::uint8_t qm = dst_mask(0), rm = dst_mask(1);
    Vec4 a = src(2, qm | rm, U), b = src(3, qm | rm, U), q{}, r{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef nz = op(Op::INe(b[i], u32(0)));
      SsaDef safe = op(Op::Select(ir::kU32, nz, b[i], u32(1)));
      if (qm & (1u << i))
        q[i] = op(Op::Select(ir::kU32, nz, op(Op::UDiv(ir::kU32, a[i], safe)), u32(~0u)));
      if (rm & (1u << i))
        r[i] = op(Op::Select(ir::kU32, nz, op(Op::UMod(ir::kU32, a[i], safe)), u32(~0u)));
    }
    store(0, q, U);
    store(1, r, U);
    return true;
  }
  case Opcode::UAddc:
  case Opcode::USubb: {
    std::uint8_t sm = dst_mask(0), cm = dst_mask(1);
    Vec4 a = src(2, sm | cm, U), b = src(3, sm | cm, U), s{}, c{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef pair =
          op(code == Opcode::UAddc ? Op::IAddCarry(a[i], b[i]) : Op::ISubBorrow(a[i], b[i]));
      if (sm & (1u << i)) s[i] = op(Op::CompositeExtract(ir::kU32, pair, u32(0)));
      if (cm & (1u << i)) c[i] = op(Op::CompositeExtract(ir::kU32, pair, u32(1)));
    }
    store(0, s, U);
    store(1, c, U);
    return true;
  }
  case Opcode::Itof:
  case Opcode::Utof: {
    ScalarType t = code == Opcode::Itof ? I : U;
    Vec4 a = src(1, m, t), out{};
    for (unsigned i = 0; i < 4; ++i)
      if (a[i]) out[i] = op(Op::ConvertItoF(ir::kF32, a[i]));
    store(0, out, F);
    return true;
  }
  case Opcode::Ftoi:
  case Opcode::Ftou: {
    // Clamped to the integer range; NaN gives 0.
    bool sgn = code == Opcode::Ftoi;
    Vec4 a = src(1, m, F), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef lo = f32(sgn ? -2147483648.0f : 0.0f);
      SsaDef hi = f32(sgn ? 2147483520.0f : 4294967040.0f);
      SsaDef c = op(Op::FClamp(ir::kF32, a[i], lo, hi));
      SsaDef v = op(Op::ConvertFtoI(sgn ? ir::kI32 : ir::kU32, c));
      SsaDef big = op(Op::FGe(a[i], f32(sgn ? 2147483648.0f : 4294967296.0f)));
      v = op(Op::Select(sgn ? ir::kI32 : ir::kU32, big,
                        sgn ? ctx_.constant_i32(0x7fffffff) : u32(~0u), v));
      if (sgn) v = op(Op::Select(ir::kI32, op(Op::FIsNan(a[i])), ctx_.constant_i32(0), v));
      out[i] = v;
    }
    store(0, out, sgn ? I : U);
    return true;
  }
  case Opcode::F32ToF16: {
    Vec4 a = src(1, m, F), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef pair = op(Op::CompositeConstruct(ir::vec(F, 2), a[i], f32(0.0f)));
      out[i] = op(Op::ConvertF32toPackedF16(pair));
    }
    store(0, out, U);
    return true;
  }
  case Opcode::F16ToF32: {
    Vec4 a = src(1, m, U), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef pair = op(Op::ConvertPackedF16toF32(a[i]));
      out[i] = op(Op::CompositeExtract(ir::kF32, pair, u32(0)));
    }
    store(0, out, F);
    return true;
  }
  case Opcode::FirstBitHi:
  case Opcode::FirstBitShi: {
    // D3D counts from the most significant bit; SPIR-V's FindMsb from the least.
    bool sgn = code == Opcode::FirstBitShi;
    Vec4 a = src(1, m, sgn ? I : U), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!a[i]) continue;
      SsaDef msb = sgn ? op(Op::Cast(ir::kU32, op(Op::SFindMsb(ir::kI32, a[i]))))
                       : op(Op::UFindMsb(ir::kU32, a[i]));
      SsaDef none = op(Op::IEq(msb, u32(~0u)));
      out[i] = op(Op::Select(ir::kU32, none, u32(~0u), op(Op::ISub(ir::kU32, u32(31), msb))));
    }
    store(0, out, U);
    return true;
  }
  case Opcode::UBfe:
  case Opcode::IBfe: {
    // ubfe/ibfe dst, width, offset, value: widths and offsets use 5 bits; a field running
    // past bit 31 is cut there (SPIR-V leaves that undefined).
    bool sgn = code == Opcode::IBfe;
    ScalarType t = sgn ? I : U;
    Vec4 w = src(1, m, U), o = src(2, m, U), v = src(3, m, t), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!w[i]) continue;
      SsaDef wm = op(Op::IAnd(ir::kU32, w[i], u32(31)));
      SsaDef om = op(Op::IAnd(ir::kU32, o[i], u32(31)));
      SsaDef fits = op(Op::ULt(op(Op::IAdd(ir::kU32, wm, om)), u32(32)));
      SsaDef count = op(Op::Select(ir::kU32, fits, wm, op(Op::ISub(ir::kU32, u32(32), om))));
      // width 0 gives 0 whatever the offset.
      count = op(Op::Select(ir::kU32, op(Op::IEq(wm, u32(0))), u32(0), count));
      out[i] = op(sgn ? Op::SBitExtract(Type(t), v[i], om, count)
                      : Op::UBitExtract(Type(t), v[i], om, count));
    }
    store(0, out, t);
    return true;
  }
  case Opcode::Bfi: {
    // bfi dst, width, offset, insert, base
    Vec4 w = src(1, m, U), o = src(2, m, U), ins = src(3, m, U), base = src(4, m, U), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!w[i]) continue;
      SsaDef wm = op(Op::IAnd(ir::kU32, w[i], u32(31)));
      SsaDef om = op(Op::IAnd(ir::kU32, o[i], u32(31)));
      SsaDef ones = op(Op::ISub(ir::kU32, op(Op::IShl(ir::kU32, u32(1), wm)), u32(1)));
      SsaDef field = op(Op::IShl(ir::kU32, ones, om));
      SsaDef part = op(Op::IAnd(ir::kU32, op(Op::IShl(ir::kU32, ins[i], om)), field));
      SsaDef keep = op(Op::IAnd(ir::kU32, base[i], op(Op::INot(ir::kU32, field))));
      out[i] = op(Op::IOr(ir::kU32, part, keep));
    }
    store(0, out, U);
    return true;
  }
  case Opcode::EvalCentroid:
  case Opcode::EvalSampleIndex:
  case Opcode::EvalSnapped: {
    const Operand& in = ops_[1];
    SsaDef extra;
    if (code == Opcode::EvalSampleIndex) {
      extra = ctx_.load_src_scalar(ops_[2], U);
    } else if (code == Opcode::EvalSnapped) {
      // Offsets are signed 4-bit values in 1/16 pixel.
      Vec4 xy = ctx_.load_src(ops_[2], 3, I);
      SsaDef f[2];
      for (unsigned c = 0; c < 2; ++c) {
        SsaDef s = op(Op::SBitExtract(ir::kI32, xy[c], ctx_.constant_u32(0), ctx_.constant_u32(4)));
        f[c] = op(Op::FMul(ir::kF32, op(Op::ConvertItoF(ir::kF32, s)), f32(1.0f / 16.0f)));
      }
      extra = op(Op::CompositeConstruct(ir::vec(F, 2), f[0], f[1]));
    }
    Vec4 out{};
    SsaDef done[4] = {};
    for (unsigned i = 0; i < 4 && ctx_.ok(); ++i) {
      if (!(m & (1u << i))) continue;
      unsigned c = in.component(i);
      if (!done[c]) {
        done[c] = io_interpolate(ctx_, inst_, in, c, extra);
        if (done[c] && in.modifier != OperandModifier::None) {
          if (in.modifier == OperandModifier::Abs || in.modifier == OperandModifier::AbsNeg)
            done[c] = op(Op::FAbs(ir::kF32, done[c]));
          if (in.modifier == OperandModifier::Neg || in.modifier == OperandModifier::AbsNeg)
            done[c] = op(Op::FNeg(ir::kF32, done[c]));
        }
      }
      out[i] = done[c];
    }
    store(0, out, F);
    return true;
  }
  case Opcode::Msad: {
    // msad dst, ref, src, accum: sum over the bytes with a non-zero reference byte of
    // |ref - src|, plus accum (spelled out: the backend has no masked SAD).
    Vec4 r = src(1, m, U), s = src(2, m, U), acc = src(3, m, U), out{};
    for (unsigned i = 0; i < 4; ++i) {
      if (!r[i]) continue;
      SsaDef sum = acc[i];
      for (unsigned k = 0; k < 4; ++k) {
        SsaDef rb = op(Op::UBitExtract(ir::kU32, r[i], u32(8 * k), u32(8)));
        SsaDef sb = op(Op::UBitExtract(ir::kU32, s[i], u32(8 * k), u32(8)));
        SsaDef diff = op(Op::Select(ir::kU32, op(Op::UGe(rb, sb)), op(Op::ISub(ir::kU32, rb, sb)),
                                    op(Op::ISub(ir::kU32, sb, rb))));
        diff = op(Op::Select(ir::kU32, op(Op::IEq(rb, u32(0))), u32(0), diff));
        sum = op(Op::IAdd(ir::kU32, sum, diff));
      }
      out[i] = sum;
    }
    store(0, out, U);
    return true;
  }
  case Opcode::DMov: {
    Vec4 v = src(1, m, D);
    store(0, v, D);
    return true;
  }
  case Opcode::DMovc: {
    unsigned lanes = lanes_of(m);
    Vec4 cond = src(1, std::uint8_t(lanes), U);
    Vec4 a = src(2, m, D), b = src(3, m, D), out{};
    for (unsigned l = 0; l < 2; ++l) {
      if (!(lanes & (1u << l)) || !a[l]) continue;
      SsaDef bc = op(Op::INe(cond[l], u32(0)));
      out[l] = op(Op::Select(Type(D), bc, a[l], b[l]));
    }
    store(0, out, D);
    return true;
  }
  case Opcode::Dtof:
  case Opcode::Dtoi:
  case Opcode::Dtou: {
    // 32-bit component i comes from lane i.
    std::uint8_t lanes = m & 3;
    Vec4 a = src(1, mask_of_lanes(lanes), D), out{};
    ScalarType t = code == Opcode::Dtof ? F : code == Opcode::Dtoi ? I : U;
    for (unsigned l = 0; l < 2; ++l) {
      if (!(lanes & (1u << l)) || !a[l]) continue;
      if (code == Opcode::Dtof) {
        out[l] = op(Op::ConvertFtoF(ir::kF32, a[l]));
        continue;
      }
      // Clamped to the integer range (exact in f64); NaN gives 0 (NClamp picks the low end,
      // which is 0 for dtou and selected away for dtoi).
      bool sgn = code == Opcode::Dtoi;
      Type d(D);
      SsaDef lo = ctx_.builder().add(Op::Constant(d, sgn ? -2147483648.0 : 0.0));
      SsaDef hi = ctx_.builder().add(Op::Constant(d, sgn ? 2147483647.0 : 4294967295.0));
      SsaDef v = op(Op::ConvertFtoI(Type(t), op(Op::FClamp(d, a[l], lo, hi))));
      if (sgn) v = op(Op::Select(ir::kI32, op(Op::FIsNan(a[l])), ctx_.constant_i32(0), v));
      out[l] = v;
    }
    store(0, out, t);
    return true;
  }
  case Opcode::Ftod:
  case Opcode::Itod:
  case Opcode::Utod: {
    unsigned lanes = lanes_of(m);
    ScalarType t = code == Opcode::Ftod ? F : code == Opcode::Itod ? I : U;
    Vec4 a = src(1, std::uint8_t(lanes), t), out{};
    for (unsigned l = 0; l < 2; ++l) {
      if (!(lanes & (1u << l)) || !a[l]) continue;
      out[l] = code == Opcode::Ftod ? op(Op::ConvertFtoF(Type(D), a[l]))
                                    : op(Op::ConvertItoF(Type(D), a[l]));
    }
    store(0, out, D);
    return true;
  }
  default:
    return false;
  }
}

} // namespace

bool convert_alu(ConvertContext& ctx, const Instruction& inst) {
  Alu alu(ctx, inst);
  std::uint32_t n = std::uint32_t(inst.opcode);
  if (n < kOpcodeCount && kAluTable.row[n]) return alu.table(kAluRows[kAluTable.row[n] - 1]);
  return alu.special();
}

} // namespace kiln::dxbc
