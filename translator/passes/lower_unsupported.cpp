#include "translator/passes/lower_unsupported.h"

#include "translator/passes/pass_util.h"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>

namespace kiln::passes {

using ir::Op;
using ir::OpCode;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

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

// D3D9 multiplication: 0 * anything (inf and NaN included) is 0. Scalar.
SsaDef LowerUnsupported::mul_legacy(ir::Builder& b, Type type, SsaDef x, SsaDef y,
                                    ir::OpFlags flags, SsaDef before) {
  SsaDef zero = float_constant(b, type, 0.0);
  SsaDef product = b.add_before(before, Op::FMul(type, x, y).set_flags(flags));
  SsaDef x_zero = b.add_before(before, Op::FEq(x, zero));
  SsaDef y_zero = b.add_before(before, Op::FEq(y, zero));
  SsaDef any_zero = b.add_before(before, Op::BOr(x_zero, y_zero));
  return b.add_before(before, Op::Select(type, any_zero, zero, product));
}

Status LowerUnsupported::run(ir::Builder& b) {
  removed_.clear();
  forward_.clear();
  auto forward = [&](SsaDef from, SsaDef to) {
    if (forward_.size() <= from.id()) forward_.resize(b.id_limit() + 16);
    forward_[from.id()] = to;
    removed_.push_back(from);
  };
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
      SsaDef x = op.operand(0).def(), y = op.operand(1).def();
      Type vt = b.op(x).type();
      unsigned n = vt.is_basic() ? vt.vector_size() : 1;
      bool legacy = code == OpCode::FDotLegacy;
      SsaDef acc;
      for (unsigned i = 0; i < n; ++i) {
        SsaDef xi = component(b, x, i, d);
        SsaDef yi = y == x ? xi : component(b, y, i, d);
        SsaDef p =
            legacy ? mul_legacy(b, type, xi, yi, flags, d)
                   : (acc ? SsaDef() : b.add_before(d, Op::FMul(type, xi, yi).set_flags(flags)));
        if (!acc)
          acc = p;
        else if (legacy)
          acc = b.add_before(d, Op::FAdd(type, acc, p).set_flags(flags));
        else
          acc = b.add_before(d, Op::FMad(type, xi, yi, acc).set_flags(flags));
      }
      forward(d, acc);
      break;
    }
    case OpCode::FMulLegacy:
    case OpCode::FMadLegacy: {
      SsaDef x = op.operand(0).def(), y = op.operand(1).def();
      SsaDef z = code == OpCode::FMadLegacy ? op.operand(2).def() : SsaDef();
      unsigned n = type.is_basic() ? type.vector_size() : 1;
      Type scalar = type.with_vector_size(1);
      SsaDef parts[4];
      for (unsigned i = 0; i < n; ++i) {
        SsaDef p = mul_legacy(b, scalar, component(b, x, i, d), component(b, y, i, d), flags, d);
        if (z) p = b.add_before(d, Op::FAdd(scalar, p, component(b, z, i, d)).set_flags(flags));
        parts[i] = p;
      }
      SsaDef result = parts[0];
      if (n > 1) {
        Op construct(OpCode::CompositeConstruct, type);
        for (unsigned i = 0; i < n; ++i) construct.ref(parts[i]);
        result = b.add_before(d, construct);
      }
      forward(d, result);
      break;
    }
    case OpCode::FPowLegacy: {
      SsaDef log = b.add_before(d, Op::FLog2(type, op.operand(0).def()).set_flags(flags));
      SsaDef e = op.operand(1).def();
      unsigned n = type.is_basic() ? type.vector_size() : 1;
      Type scalar = type.with_vector_size(1);
      SsaDef parts[4];
      for (unsigned i = 0; i < n; ++i)
        parts[i] = mul_legacy(b, scalar, component(b, e, i, d), component(b, log, i, d), flags, d);
      SsaDef product = parts[0];
      if (n > 1) {
        Op construct(OpCode::CompositeConstruct, type);
        for (unsigned i = 0; i < n; ++i) construct.ref(parts[i]);
        product = b.add_before(d, construct);
      }
      forward(d, b.add_before(d, Op::FExp2(type, product).set_flags(flags)));
      break;
    }
    case OpCode::Drain: {
      SsaDef v = op.operand(0).def();
      if (type.is_void() || !v)
        b.remove(d);
      else
        forward(d, v);
      break;
    }
    default:
      if (is_conversion(code)) {
        SsaDef v = op.operand(0).def();
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
