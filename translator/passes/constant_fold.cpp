#include "translator/passes/constant_fold.h"

#include <bit>
#include <cmath>
#include <optional>

namespace kiln::passes {

using ir::Op;
using ir::OpCode;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

namespace {

bool foldable_scalar(Type t) {
  if (!t.is_scalar()) return false;
  ScalarType s = t.scalar_type();
  return s == ScalarType::Bool || s == ScalarType::I32 || s == ScalarType::U32 ||
         s == ScalarType::F32;
}

float f(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}
std::uint32_t fb(float v) {
  return std::bit_cast<std::uint32_t>(v);
}

// Evaluates `code` on 32-bit operand bits; nullopt when not folded.
std::optional<std::uint32_t> evaluate(OpCode code, const std::uint32_t* v, unsigned n) {
  std::uint32_t a = n > 0 ? v[0] : 0, b = n > 1 ? v[1] : 0;
  std::int32_t sa = std::int32_t(a), sb = std::int32_t(b);
  switch (code) {
  case OpCode::IAdd:
    return a + b;
  case OpCode::ISub:
    return a - b;
  case OpCode::IMul:
    return a * b;
  case OpCode::IAnd:
    return a & b;
  case OpCode::IOr:
    return a | b;
  case OpCode::IXor:
    return a ^ b;
  case OpCode::INot:
    return ~a;
  case OpCode::INeg:
    return 0u - a;
  case OpCode::IShl:
    return b < 32 ? a << b : std::optional<std::uint32_t>();
  case OpCode::UShr:
    return b < 32 ? a >> b : std::optional<std::uint32_t>();
  case OpCode::SShr:
    return b < 32 ? std::uint32_t(sa >> b) : std::optional<std::uint32_t>();
  case OpCode::UDiv:
    return b ? a / b : std::optional<std::uint32_t>();
  case OpCode::UMod:
    return b ? a % b : std::optional<std::uint32_t>();
  case OpCode::UMin:
    return a < b ? a : b;
  case OpCode::UMax:
    return a > b ? a : b;
  case OpCode::SMin:
    return std::uint32_t(sa < sb ? sa : sb);
  case OpCode::SMax:
    return std::uint32_t(sa > sb ? sa : sb);
  case OpCode::IEq:
    return a == b;
  case OpCode::INe:
    return a != b;
  case OpCode::ULt:
    return a < b;
  case OpCode::ULe:
    return a <= b;
  case OpCode::UGt:
    return a > b;
  case OpCode::UGe:
    return a >= b;
  case OpCode::SLt:
    return sa < sb;
  case OpCode::SLe:
    return sa <= sb;
  case OpCode::SGt:
    return sa > sb;
  case OpCode::SGe:
    return sa >= sb;
  case OpCode::BAnd:
    return a && b;
  case OpCode::BOr:
    return a || b;
  case OpCode::BEq:
    return (a != 0) == (b != 0);
  case OpCode::BNe:
    return (a != 0) != (b != 0);
  case OpCode::BNot:
    return !a;
  case OpCode::FEq:
    return f(a) == f(b);
  case OpCode::FNe:
    return !(f(a) == f(b)); // unordered
  case OpCode::FLt:
    return f(a) < f(b);
  case OpCode::FLe:
    return f(a) <= f(b);
  case OpCode::FGt:
    return f(a) > f(b);
  case OpCode::FGe:
    return f(a) >= f(b);
  case OpCode::FIsNan:
    return std::isnan(f(a)) ? 1u : 0u;
  case OpCode::FNeg:
    return a ^ 0x80000000u;
  case OpCode::FAbs:
    return a & 0x7fffffffu;
  case OpCode::FAdd:
    return fb(f(a) + f(b));
  case OpCode::FSub:
    return fb(f(a) - f(b));
  case OpCode::FMul:
    return fb(f(a) * f(b));
  case OpCode::Cast:
    return a;
  default:
    return std::nullopt;
  }
}

bool is_constant(const ir::Builder& b, SsaDef d) {
  return d && b.op(d).code() == OpCode::Constant;
}

} // namespace

Status ConstantFold::run(ir::Builder& b) {
  forward_.assign(b.id_limit(), SsaDef());
  removed_.clear();
  auto resolve = [&](SsaDef d) {
    return d.id() < forward_.size() && forward_[d.id()] ? forward_[d.id()] : d;
  };
  for (ir::OpView op : b.code()) {
    OpCode code = op.code();
    if (op.info().category != ir::OpCategory::Code || op.ref_count() == 0) continue;
    Type type = op.type();
    SsaDef result;
    if (code == OpCode::Select) {
      SsaDef cond = resolve(op.operand(0).def());
      if (!is_constant(b, cond)) continue;
      result = resolve(op.operand(b.op(cond).operand(0).literal_u32() ? 1 : 2).def());
      if (!result || b.op(result).type() != type) continue;
    } else if (code == OpCode::CompositeExtract) {
      SsaDef vec = resolve(op.operand(0).def()), idx = resolve(op.operand(1).def());
      if (!is_constant(b, idx) || !type.is_scalar() || !b.op(idx).type().is_scalar()) continue;
      ir::OpView cv = b.op(vec);
      std::uint32_t i = b.op(idx).operand(0).literal_u32();
      if (cv.code() == OpCode::CompositeConstruct && cv.type().is_vector()) {
        // A component of a vector built from scalars is that scalar.
        if (i >= cv.ref_count()) continue;
        result = resolve(cv.operand(i).def());
        if (!result || b.op(result).type() != type) continue;
        forward_.resize(b.id_limit());
        forward_[op.def().id()] = result;
        removed_.push_back(op.def());
        continue;
      }
      if (!is_constant(b, vec)) continue;
      if (!cv.type().is_vector() || i >= cv.operand_count()) continue;
      result = b.add(Op::with_operands(OpCode::Constant, type, cv.operands().subspan(i, 1), 0));
    } else {
      if (!foldable_scalar(type) || op.literals().size() != 0 || op.ref_count() > 3) continue;
      // Float results that could differ on the device are left alone.
      if (type.scalar_type() == ScalarType::F32 &&
          std::uint32_t(op.flags() & ir::OpFlags::Precise) != 0 && code != OpCode::FNeg &&
          code != OpCode::FAbs && code != OpCode::Cast)
        continue;
      std::uint32_t values[3];
      bool all_constant = true;
      for (std::uint32_t i = 0; i < op.ref_count(); ++i) {
        SsaDef v = resolve(op.operand(i).def());
        if (!is_constant(b, v) || !foldable_scalar(b.op(v).type())) {
          all_constant = false;
          break;
        }
        values[i] = b.op(v).operand(0).literal_u32();
      }
      if (!all_constant) continue;
      if (code == OpCode::Cast && (type.scalar_type() == ScalarType::Bool ||
                                   b.op(resolve(op.operand(0).def())).type() == ir::kBool))
        continue;
      std::optional<std::uint32_t> folded = evaluate(code, values, op.ref_count());
      if (!folded) continue;
      std::uint32_t bits = *folded;
      if (type.scalar_type() == ScalarType::F32 && std::isnan(f(bits))) bits = 0x7fc00000u;
      // Devices may flush f32 denormals (D3D allows it): leave arithmetic that meets one.
      bool arithmetic = code == OpCode::FAdd || code == OpCode::FSub || code == OpCode::FMul;
      auto denormal = [](std::uint32_t v) {
        return (v & 0x7f800000u) == 0 && (v & 0x007fffffu) != 0;
      };
      if (arithmetic && (denormal(bits) || denormal(values[0]) || denormal(values[1]))) continue;
      result = b.add(Op::Constant(type, bits));
    }
    forward_.resize(b.id_limit());
    forward_[op.def().id()] = result;
    removed_.push_back(op.def());
  }
  if (removed_.empty()) return Status::ok();
  b.replace_uses(forward_);
  for (SsaDef d : removed_) b.remove(d);
  return Status::ok();
}

} // namespace kiln::passes
