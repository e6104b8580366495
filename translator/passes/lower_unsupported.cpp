#include "translator/passes/lower_unsupported.h"

#include "translator/passes/pass_util.h"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace kiln::passes {

namespace {

SsaDef float_constant(ir::Builder& b, Type scalar, double value) {
  switch (scalar.scalar_type()) {
  case ScalarType::F64:
    return b.add(Op::Constant(scalar, value));
  case ScalarType::F16: {
    // Only 0 and 1 are asked for.
    std::uint32_t bits = value == 1.0 ? 0x3c00u : value == -1.0 ? 0xbc00u : 0u;
    return b.add(Op::Constant(scalar, bits));
  }
  default:
    return b.add(Op::Constant(scalar, float(value)));
  }
}

// Bits of the lowest / highest finite value of a scalar type.
std::uint64_t limit_bits(ScalarType s, bool max) {
  switch (s) {
  case ScalarType::F32:
  case ScalarType::MinF16:
  case ScalarType::MinF10: {
    float v = s == ScalarType::F32 ? FLT_MAX : s == ScalarType::MinF16 ? 65504.0f : 2.0f;
    if (!max) v = -v;
    return std::bit_cast<std::uint32_t>(v);
  }
  case ScalarType::F16:
    return max ? 0x7bffu : 0xfbffu;
  case ScalarType::F64:
    return std::bit_cast<std::uint64_t>(max ? DBL_MAX : -DBL_MAX);
  case ScalarType::I8:
    return std::uint8_t(max ? 127 : -128);
  case ScalarType::I16:
  case ScalarType::MinI16:
    return std::uint32_t(max ? 32767 : -32768);
  case ScalarType::MinI12:
    return std::uint32_t(max ? 2047 : -2048);
  case ScalarType::I32:
    return std::uint32_t(max ? INT32_MAX : INT32_MIN);
  case ScalarType::I64:
    return std::uint64_t(max ? INT64_MAX : INT64_MIN);
  case ScalarType::U8:
    return max ? 0xffu : 0;
  case ScalarType::U16:
  case ScalarType::MinU16:
    return max ? 0xffffu : 0;
  case ScalarType::U64:
    return max ? ~0ull : 0;
  case ScalarType::Bool:
    return max ? 1 : 0;
  default:
    return max ? 0xffffffffu : 0;
  }
}

bool is_conversion(OpCode c) {
  return c == OpCode::ConvertFtoF || c == OpCode::ConvertFtoI || c == OpCode::ConvertItoF ||
         c == OpCode::ConvertItoI || c == OpCode::Cast;
}

} // namespace

SsaDef LowerUnsupported::component(ir::Builder& b, SsaDef vector, unsigned index, SsaDef before) {
  Type type = b.op(vector).type();
  if (!type.is_vector()) return vector;
  return b.add_before(
      before, Op::CompositeExtract(type.with_vector_size(1), vector, b.constant_u32(index)));
}

SsaDef LowerUnsupported::zero(ir::Builder& b, Type scalar) {
  if (zero_type_ == scalar && zero_) return zero_;
  zero_type_ = scalar;
  zero_ = float_constant(b, scalar, 0.0);
  return zero_;
}

// D3D9 multiplication: 0 * anything (inf and NaN included) is 0. Scalar. Returns the final op
// (not added) so that the caller can put it in place of the op being lowered. When one factor
// is a finite non-zero constant, or both are the same value, IEEE already agrees.
Op LowerUnsupported::mul_legacy(ir::Builder& b, Type type, SsaDef x, SsaDef y, ir::OpFlags flags,
                                SsaDef before) {
  auto finite_nonzero = [&](SsaDef v) {
    ir::OpView op = b.op(v);
    if (op.code() != OpCode::Constant || type != ir::kF32) return false;
    float f = ir::ops::Constant(op).values()[0].literal_f32();
    return f != 0.0f && std::isfinite(f);
  };
  if (x == y || finite_nonzero(x) || finite_nonzero(y))
    return Op::FMul(type, x, y).set_flags(flags);
  SsaDef z = zero(b, type);
  SsaDef product = b.add_before(before, Op::FMul(type, x, y).set_flags(flags));
  SsaDef x_zero = b.add_before(before, Op::FEq(x, z));
  SsaDef y_zero = b.add_before(before, Op::FEq(y, z));
  SsaDef any_zero = b.add_before(before, Op::BOr(x_zero, y_zero));
  return Op::Select(type, any_zero, z, product);
}

Status LowerUnsupported::run(ir::Builder& b) {
  removed_.clear();
  forward_.clear();
  zero_ = SsaDef();
  auto forward = [&](SsaDef from, SsaDef to) {
    if (forward_.size() <= from.id()) forward_.resize(b.id_limit() + 16);
    forward_[from.id()] = to;
    removed_.push_back(from);
  };
  // Expansions end with an op that takes the lowered op's place (same id): no uses to patch.
  auto add = [&](SsaDef before, const Op& op) { return b.add_before(before, op); };
  for (SsaDef d = b.first(); d;) {
    SsaDef next = b.next(d);
    ir::OpView op = b.op(d);
    OpCode code = op.code();
    Type type = op.type();
    ir::OpFlags flags = op.flags();
    switch (code) {
    case OpCode::MinValue:
    case OpCode::MaxValue: {
      if (!type.is_scalar()) return Status::error("lower: MinValue/MaxValue of a non-scalar type");
      std::uint64_t bits = limit_bits(type.scalar_type(), code == OpCode::MaxValue);
      forward(d, b.add(Op::Constant(type, bits)));
      break;
    }
    case OpCode::FDot:
    case OpCode::FDotLegacy: {
      const ir::ops::FDot dot(op); // FDotLegacy's roles are FDot's
      SsaDef x = dot.a().def(), y = dot.b().def();
      Type vt = b.op(x).type();
      unsigned n = vt.is_basic() ? vt.vector_size() : 1;
      bool legacy = code == OpCode::FDotLegacy;
      SsaDef acc;
      for (unsigned i = 0; i < n; ++i) {
        SsaDef xi = component(b, x, i, d);
        SsaDef yi = y == x ? xi : component(b, y, i, d);
        bool last = i + 1 == n;
        Op step = Op::FMul(type, xi, yi).set_flags(flags);
        if (legacy) {
          step = mul_legacy(b, type, xi, yi, flags, d);
          if (acc) {
            SsaDef p = add(d, step);
            step = Op::FAdd(type, acc, p).set_flags(flags);
          }
        } else if (acc) {
          step = Op::FMad(type, xi, yi, acc).set_flags(flags);
        }
        if (last)
          b.rewrite_op(d, step);
        else
          acc = add(d, step);
      }
      break;
    }
    case OpCode::FMulLegacy:
    case OpCode::FMadLegacy:
    case OpCode::FPowLegacy: {
      // pow: exp2(exp *legacy log2(base)), so that pow(x, 0) = 1 and pow(0, y > 0) = 0.
      bool pow = code == OpCode::FPowLegacy;
      const ir::ops::FMulLegacy factors(op); // the first two roles of all three
      SsaDef x = factors.a().def(), y = factors.b().def();
      SsaDef z = code == OpCode::FMadLegacy ? ir::ops::FMadLegacy(op).c().def() : SsaDef();
      if (pow) {
        SsaDef log = add(d, Op::FLog2(type, x).set_flags(flags));
        x = y;
        y = log;
      }
      unsigned n = type.is_basic() ? type.vector_size() : 1;
      Type scalar = type.with_vector_size(1);
      auto place = [&](const Op& result) {
        if (pow)
          b.rewrite_op(d, Op::FExp2(type, add(d, result)).set_flags(flags));
        else
          b.rewrite_op(d, result);
      };
      // One component: its product (plus the addend) takes the op's place.
      auto component_op = [&](unsigned i, bool in_place) {
        Op m = mul_legacy(b, scalar, component(b, x, i, d), component(b, y, i, d), flags, d);
        if (!z) {
          if (in_place) place(m);
          return in_place ? SsaDef() : add(d, m);
        }
        Op sum = Op::FAdd(scalar, add(d, m), component(b, z, i, d)).set_flags(flags);
        if (in_place) place(sum);
        return in_place ? SsaDef() : add(d, sum);
      };
      if (n == 1) {
        component_op(0, true);
      } else {
        SsaDef parts[4]; // a basic type has at most 4 components
        for (unsigned i = 0; i < n; ++i) parts[i] = component_op(i, false);
        place(Op::CompositeConstruct(type, std::span<const SsaDef>(parts, n)));
      }
      break;
    }
    case OpCode::Drain: {
      SsaDef v = ir::ops::Drain(op).value().def();
      if (type.is_void() || !v)
        b.remove(d);
      else
        forward(d, v);
      break;
    }
    default:
      if (is_conversion(code)) {
        SsaDef v = ir::ops::Cast(op).value().def(); // every conversion's one role
        Type from = v ? b.op(v).type() : Type();
        if (from == type) {
          forward(d, v);
        } else if (code == OpCode::ConvertItoI && from.is_basic() && type.is_basic() &&
                   scalar_bits(from.scalar_type()) == scalar_bits(type.scalar_type())) {
          b.rewrite_op(d, Op::Cast(type, v).set_flags(flags));
        }
      }
      break;
    }
    d = next;
  }
  if (!removed_.empty()) {
    forward_.resize(b.id_limit());
    b.replace_uses(forward_);
    for (SsaDef d : removed_) b.remove(d);
  }
  return Status::ok();
}

} // namespace kiln::passes
