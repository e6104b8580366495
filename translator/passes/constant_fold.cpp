#include "translator/passes/constant_fold.h"

#include "translator/passes/pass_util.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

namespace kiln::passes {

using ir::FoldRule;

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

// The scalar function of every op whose Fold column is Exact or Rounded, named after the op: the
// result's bits from the operands' 32-bit patterns (a second operand is 0 for unary ops), or
// nullopt where the result is left to the device (shift by >= 32, division by zero).
using Folded = std::optional<std::uint32_t>;
namespace rule {

Folded IAdd(std::uint32_t a, std::uint32_t b) {
  return a + b;
}
Folded ISub(std::uint32_t a, std::uint32_t b) {
  return a - b;
}
Folded IMul(std::uint32_t a, std::uint32_t b) {
  return a * b;
}
Folded IAnd(std::uint32_t a, std::uint32_t b) {
  return a & b;
}
Folded IOr(std::uint32_t a, std::uint32_t b) {
  return a | b;
}
Folded IXor(std::uint32_t a, std::uint32_t b) {
  return a ^ b;
}
Folded INot(std::uint32_t a, std::uint32_t) {
  return ~a;
}
Folded INeg(std::uint32_t a, std::uint32_t) {
  return 0u - a;
}
Folded IShl(std::uint32_t a, std::uint32_t b) {
  return b < 32 ? a << b : Folded();
}
Folded UShr(std::uint32_t a, std::uint32_t b) {
  return b < 32 ? a >> b : Folded();
}
Folded SShr(std::uint32_t a, std::uint32_t b) {
  return b < 32 ? std::uint32_t(std::int32_t(a) >> b) : Folded();
}
Folded UDiv(std::uint32_t a, std::uint32_t b) {
  return b ? a / b : Folded();
}
Folded UMod(std::uint32_t a, std::uint32_t b) {
  return b ? a % b : Folded();
}
Folded UMin(std::uint32_t a, std::uint32_t b) {
  return a < b ? a : b;
}
Folded UMax(std::uint32_t a, std::uint32_t b) {
  return a > b ? a : b;
}
Folded SMin(std::uint32_t a, std::uint32_t b) {
  return std::uint32_t(std::min(std::int32_t(a), std::int32_t(b)));
}
Folded SMax(std::uint32_t a, std::uint32_t b) {
  return std::uint32_t(std::max(std::int32_t(a), std::int32_t(b)));
}
Folded IEq(std::uint32_t a, std::uint32_t b) {
  return a == b;
}
Folded INe(std::uint32_t a, std::uint32_t b) {
  return a != b;
}
Folded ULt(std::uint32_t a, std::uint32_t b) {
  return a < b;
}
Folded ULe(std::uint32_t a, std::uint32_t b) {
  return a <= b;
}
Folded UGt(std::uint32_t a, std::uint32_t b) {
  return a > b;
}
Folded UGe(std::uint32_t a, std::uint32_t b) {
  return a >= b;
}
Folded SLt(std::uint32_t a, std::uint32_t b) {
  return std::int32_t(a) < std::int32_t(b);
}
Folded SLe(std::uint32_t a, std::uint32_t b) {
  return std::int32_t(a) <= std::int32_t(b);
}
Folded SGt(std::uint32_t a, std::uint32_t b) {
  return std::int32_t(a) > std::int32_t(b);
}
Folded SGe(std::uint32_t a, std::uint32_t b) {
  return std::int32_t(a) >= std::int32_t(b);
}
Folded BAnd(std::uint32_t a, std::uint32_t b) {
  return a && b;
}
Folded BOr(std::uint32_t a, std::uint32_t b) {
  return a || b;
}
Folded BEq(std::uint32_t a, std::uint32_t b) {
  return (a != 0) == (b != 0);
}
Folded BNe(std::uint32_t a, std::uint32_t b) {
  return (a != 0) != (b != 0);
}
Folded BNot(std::uint32_t a, std::uint32_t) {
  return !a;
}
Folded FEq(std::uint32_t a, std::uint32_t b) {
  return f(a) == f(b);
}
Folded FNe(std::uint32_t a, std::uint32_t b) {
  return !(f(a) == f(b)); // unordered
}
Folded FLt(std::uint32_t a, std::uint32_t b) {
  return f(a) < f(b);
}
Folded FLe(std::uint32_t a, std::uint32_t b) {
  return f(a) <= f(b);
}
Folded FGt(std::uint32_t a, std::uint32_t b) {
  return f(a) > f(b);
}
Folded FGe(std::uint32_t a, std::uint32_t b) {
  return f(a) >= f(b);
}
Folded FIsNan(std::uint32_t a, std::uint32_t) {
  return std::isnan(f(a)) ? 1u : 0u;
}
Folded FNeg(std::uint32_t a, std::uint32_t) {
  return a ^ 0x80000000u;
}
Folded FAbs(std::uint32_t a, std::uint32_t) {
  return a & 0x7fffffffu;
}
Folded FAdd(std::uint32_t a, std::uint32_t b) {
  return fb(f(a) + f(b));
}
Folded FSub(std::uint32_t a, std::uint32_t b) {
  return fb(f(a) - f(b));
}
Folded FMul(std::uint32_t a, std::uint32_t b) {
  return fb(f(a) * f(b));
}
Folded Cast(std::uint32_t a, std::uint32_t) {
  return a; // same width: the bits stay
}

} // namespace rule

// Indexed by opcode: the rule of the op's Fold column. A Fold column naming Exact or Rounded
// without a function above fails to compile here; a function no row names is unused (an error
// with -Werror).
using Rule = Folded (*)(std::uint32_t a, std::uint32_t b);
#define KILN_FOLD_NoFold(name) nullptr
#define KILN_FOLD_Operand(name) nullptr
#define KILN_FOLD_Exact(name) &rule::name
#define KILN_FOLD_Rounded(name) &rule::name
constexpr Rule kRules[] = {
#define KILN_X(name, number, category, ret, shape, traits, fold) KILN_FOLD_##fold(name),
    KILN_IR_OPCODES(KILN_X)
#undef KILN_X
};
#undef KILN_FOLD_NoFold
#undef KILN_FOLD_Operand
#undef KILN_FOLD_Exact
#undef KILN_FOLD_Rounded

// The Operand rule is written out below for these two ops; a third one would be missed.
constexpr bool operand_rule_is_select_and_extract() {
  for (const ir::OpInfo& info : ir::kOpInfo)
    if ((info.fold == FoldRule::Operand) !=
        (info.code == OpCode::Select || info.code == OpCode::CompositeExtract))
      return false;
  return true;
}
static_assert(operand_rule_is_select_and_extract());

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
  phis_.clear();
  for (ir::OpView op : b.code()) {
    OpCode code = op.code();
    // Uses follow their definitions in program order, except phis' back edges: an op's operands
    // are patched as the walk reaches it, phis once more at the end, so no walk of its own
    // replaces the folded values' uses.
    if (code == OpCode::Phi) phis_.push_back(op.def());
    if (!removed_.empty()) b.forward_operands(op.def(), forward_);
    FoldRule fold = op.info().fold;
    if (fold == FoldRule::NoFold || op.info().category != ir::OpCategory::Code ||
        op.ref_count() == 0)
      continue;
    Type type = op.type();
    SsaDef result;
    if (fold == FoldRule::Operand && code == OpCode::Select) {
      const ir::ops::Select select(op);
      SsaDef cond = resolve(select.condition().def());
      if (!is_constant(b, cond)) continue;
      result = resolve(ir::ops::Constant(b.op(cond)).values()[0].literal_u32()
                           ? select.if_true().def()
                           : select.if_false().def());
      if (!result || b.op(result).type() != type) continue;
    } else if (fold == FoldRule::Operand) { // CompositeExtract
      const ir::ops::CompositeExtract extract(op);
      SsaDef vec = resolve(extract.composite().def()), idx = resolve(extract.address().def());
      if (!is_constant(b, idx) || !type.is_scalar() || !b.op(idx).type().is_scalar()) continue;
      ir::OpView cv = b.op(vec);
      std::uint32_t i = ir::ops::Constant(b.op(idx)).values()[0].literal_u32();
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
      // Exact or Rounded: the op's scalar function on constant operands.
      if (!foldable_scalar(type) || op.literals().size() != 0 || op.ref_count() > 2) continue;
      // Float results that could differ on the device are left alone.
      bool rounded = fold == FoldRule::Rounded;
      if (rounded && std::uint32_t(op.flags() & ir::OpFlags::Precise) != 0) continue;
      std::uint32_t values[2] = {0, 0};
      bool all_constant = true;
      for (std::uint32_t i = 0; i < op.ref_count(); ++i) {
        SsaDef v = resolve(op.operand(i).def());
        if (!is_constant(b, v) || !foldable_scalar(b.op(v).type())) {
          all_constant = false;
          break;
        }
        values[i] = ir::ops::Constant(b.op(v)).values()[0].literal_u32();
      }
      if (!all_constant) continue;
      if (code == OpCode::Cast &&
          (type.scalar_type() == ScalarType::Bool ||
           b.op(resolve(ir::ops::Cast(op).value().def())).type() == ir::kBool))
        continue;
      // A float result involving a NaN is the device's: which NaN comes out (D3D's 0xffc00000,
      // the operand's payload, another pattern) is up to the hardware, not the host's
      // arithmetic. Float ops that meet or make one are left alone; Cast keeps its bits as
      // they are, and comparisons have an exact answer for NaN operands.
      const bool float_result = type.scalar_type() == ScalarType::F32 && code != OpCode::Cast;
      if (float_result &&
          (std::isnan(f(values[0])) || (op.ref_count() == 2 && std::isnan(f(values[1])))))
        continue;
      Folded folded = kRules[std::size_t(code)](values[0], values[1]);
      if (!folded) continue;
      std::uint32_t bits = *folded;
      if (float_result && std::isnan(f(bits))) continue;
      // Devices may flush f32 denormals (D3D allows it): leave arithmetic that meets one.
      auto denormal = [](std::uint32_t v) {
        return (v & 0x7f800000u) == 0 && (v & 0x007fffffu) != 0;
      };
      if (rounded && (denormal(bits) || denormal(values[0]) || denormal(values[1]))) continue;
      result = b.add(Op::Constant(type, bits));
    }
    forward_.resize(b.id_limit());
    forward_[op.def().id()] = result;
    removed_.push_back(op.def());
  }
  if (removed_.empty()) return Status::ok();
  for (SsaDef phi : phis_) b.forward_operands(phi, forward_);
  for (ir::OpView op : b.declarations()) // debug names may name a folded value
    if (op.info().category == ir::OpCategory::Debug) b.forward_operands(op.def(), forward_);
  for (SsaDef d : removed_) b.remove(d);
  return Status::ok();
}

} // namespace kiln::passes
