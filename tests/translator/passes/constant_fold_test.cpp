// Constant folding follows the opcode table's Fold column: every Exact and Rounded op folds on
// constant operands, NoFold ops stay.
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/passes/constant_fold.h"

#include <bit>
#include <gtest/gtest.h>
#include <utility>

namespace kiln::passes::test {
namespace {

using ir::OpCode;
using ir::ReturnClass;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

// The operand type an op of the table works on, told by its name and return class: F* are
// float ops, B* bool ops, S* signed, the rest unsigned.
Type operand_type(const ir::OpInfo& info) {
  char first = info.name[0];
  if (info.code == OpCode::Cast) return ir::kU32;
  if (first == 'F') return ir::kF32;
  if (first == 'B') return ir::kBool;
  if (first == 'S') return ir::kI32;
  return ir::kU32;
}

Type result_type(const ir::OpInfo& info) {
  if (info.code == OpCode::Cast) return ir::kI32;
  if (info.return_class == ReturnClass::Bool) return ir::kBool;
  return operand_type(info);
}

// A pixel shader storing `code` (result `type`) applied to the constant `operands` adds
// (the second one only for a binary op); returns the stored value after constant folding.
template <typename Operands>
SsaDef fold_stored(ir::Builder& b, OpCode code, Type type, Operands operands) {
  b.reset();
  SsaDef fn = b.add(ir::Op::Function(ir::kVoid));
  SsaDef ep = b.add(ir::Op::EntryPoint(fn, ir::ShaderStage::Pixel));
  SsaDef out = b.add(ir::Op::DclOutput(type, ep, 0u, 0u, 0u));
  b.add(ir::Op::Label(ir::Construct::None));
  const auto [a, c] = operands();
  ir::Op op(code, type);
  op.ref(a);
  if (ir::op_info(code).shape.size() == 2) op.ref(c);
  SsaDef value = b.add(op);
  SsaDef store = b.add(ir::Op::OutputStore(out, SsaDef(), value));
  b.add(ir::Op::Return(SsaDef()));
  b.add(ir::Op::FunctionEnd());
  ConstantFold fold;
  Status s = fold.run(b);
  EXPECT_TRUE(s) << s.message();
  return b.op(store).operand(2).def();
}

// A pixel shader storing `code` applied to two (or one) constants; returns the stored value
// after constant folding.
SsaDef fold_one(ir::Builder& b, const ir::OpInfo& info) {
  const Type in = operand_type(info);
  return fold_stored(b, info.code, result_type(info), [&] {
    SsaDef a = in == ir::kF32    ? b.constant_f32(1.5f)
               : in == ir::kBool ? b.constant_bool(true)
               : in == ir::kI32  ? b.constant_i32(-7)
                                 : b.constant_u32(6);
    SsaDef c = in == ir::kF32    ? b.constant_f32(0.25f)
               : in == ir::kBool ? b.constant_bool(false)
               : in == ir::kI32  ? b.constant_i32(2)
                                 : b.constant_u32(2);
    return std::pair(a, c);
  });
}

TEST(ConstantFold, EveryExactAndRoundedOpFolds) {
  ir::Builder b;
  for (const ir::OpInfo& info : ir::kOpInfo) {
    if (info.fold != ir::FoldRule::Exact && info.fold != ir::FoldRule::Rounded) continue;
    SsaDef stored = fold_one(b, info);
    EXPECT_EQ(b.op(stored).code(), OpCode::Constant) << info.name << ":\n" << ir::print(b);
  }
}

TEST(ConstantFold, NoFoldOpsStay) {
  ir::Builder b;
  for (OpCode code : {OpCode::FMin, OpCode::FMax, OpCode::FDiv, OpCode::FRcp, OpCode::FSqrt,
                      OpCode::IBitCount, OpCode::IAbs, OpCode::FExp2}) {
    SsaDef stored = fold_one(b, ir::op_info(code));
    EXPECT_EQ(b.op(stored).code(), code) << ir::op_name(code) << ":\n" << ir::print(b);
  }
}

TEST(ConstantFold, ScalarRulesGiveTheDeviceResult) {
  ir::Builder b;
  auto folded = [&](OpCode code) {
    SsaDef d = fold_one(b, ir::op_info(code));
    return b.op(d).operand(0).literal_u32();
  };
  EXPECT_EQ(folded(OpCode::SShr), std::uint32_t(-7 >> 2));
  EXPECT_EQ(folded(OpCode::SMin), std::uint32_t(-7));
  EXPECT_EQ(folded(OpCode::UDiv), 3u);
  EXPECT_EQ(folded(OpCode::IShl), 24u);
  EXPECT_EQ(folded(OpCode::FMul), std::bit_cast<std::uint32_t>(0.375f));
  EXPECT_EQ(folded(OpCode::FNeg), std::bit_cast<std::uint32_t>(-1.5f));
  EXPECT_EQ(folded(OpCode::FLt), 0u);
  EXPECT_EQ(folded(OpCode::BOr), 1u);
  EXPECT_EQ(folded(OpCode::Cast), 6u);
}

// A pixel shader storing `code` (result `type`) applied to constants of `in` with the bit
// patterns `a` and, for a binary op, `c`; returns the stored value after constant folding.
SsaDef fold_bits(ir::Builder& b, OpCode code, Type type, Type in, std::uint32_t a,
                 std::uint32_t c = 0) {
  return fold_stored(b, code, type, [&] {
    SsaDef first = b.constant_scalar(in, a);
    SsaDef second = ir::op_info(code).shape.size() == 2 ? b.constant_scalar(in, c) : SsaDef();
    return std::pair(first, second);
  });
}

constexpr std::uint32_t kInf = 0x7f800000u, kNegInf = 0xff800000u, kD3dNan = 0xffc00000u,
                        kPositiveNan = 0x7fc00000u, kOne = 0x3f800000u;

// Which NaN a float op gives is the device's (D3D's is 0xffc00000; the host's arithmetic may
// give another): an op that meets or makes one is left to the device, never folded to the
// host's NaN.
TEST(ConstantFold, FloatOpsMakingANanStay) {
  ir::Builder b;
  struct Case {
    OpCode code;
    std::uint32_t a, c;
  };
  const Case cases[] = {
      {OpCode::FAdd, kInf, kNegInf}, // inf - inf
      {OpCode::FSub, kInf, kInf},
      {OpCode::FMul, 0, kInf}, // 0 * inf
      {OpCode::FMul, kNegInf, 0x80000000u},
  };
  for (const Case& k : cases) {
    SsaDef stored = fold_bits(b, k.code, ir::kF32, ir::kF32, k.a, k.c);
    EXPECT_EQ(b.op(stored).code(), k.code) << ir::op_name(k.code) << ":\n" << ir::print(b);
  }
}

TEST(ConstantFold, FloatOpsOnANanStay) {
  ir::Builder b;
  for (std::uint32_t nan : {kD3dNan, kPositiveNan, 0x7f800001u /* signalling */}) {
    for (OpCode code : {OpCode::FAdd, OpCode::FSub, OpCode::FMul}) {
      EXPECT_EQ(b.op(fold_bits(b, code, ir::kF32, ir::kF32, nan, kOne)).code(), code);
      EXPECT_EQ(b.op(fold_bits(b, code, ir::kF32, ir::kF32, kOne, nan)).code(), code);
    }
    for (OpCode code : {OpCode::FNeg, OpCode::FAbs})
      EXPECT_EQ(b.op(fold_bits(b, code, ir::kF32, ir::kF32, nan)).code(), code)
          << ir::op_name(code);
  }
}

// A bit cast is exact whatever the bits: a NaN pattern reaches the device as written.
TEST(ConstantFold, CastKeepsANansBits) {
  ir::Builder b;
  for (std::uint32_t nan : {kD3dNan, kPositiveNan, 0x7f800001u, 0xffffffffu}) {
    SsaDef stored = fold_bits(b, OpCode::Cast, ir::kF32, ir::kU32, nan);
    ASSERT_EQ(b.op(stored).code(), OpCode::Constant) << ir::print(b);
    EXPECT_EQ(b.op(stored).operand(0).literal_u32(), nan);
  }
}

// Comparisons have one answer for NaN operands (ordered, except FNe), and still fold.
TEST(ConstantFold, ComparisonsOfANanFold) {
  ir::Builder b;
  auto compare = [&](OpCode code, std::uint32_t a, std::uint32_t c) {
    SsaDef d = fold_bits(b, code, ir::kBool, ir::kF32, a, c);
    EXPECT_EQ(b.op(d).code(), OpCode::Constant) << ir::op_name(code);
    return b.op(d).code() == OpCode::Constant ? b.op(d).operand(0).literal_u32() : 2u;
  };
  EXPECT_EQ(compare(OpCode::FEq, kD3dNan, kD3dNan), 0u);
  EXPECT_EQ(compare(OpCode::FNe, kD3dNan, kD3dNan), 1u);
  EXPECT_EQ(compare(OpCode::FLt, kD3dNan, kOne), 0u);
  EXPECT_EQ(compare(OpCode::FGe, kOne, kD3dNan), 0u);
  SsaDef d = fold_bits(b, OpCode::FIsNan, ir::kBool, ir::kF32, kD3dNan);
  ASSERT_EQ(b.op(d).code(), OpCode::Constant);
  EXPECT_EQ(b.op(d).operand(0).literal_u32(), 1u);
}

// Arithmetic reaching infinity without a NaN is exact IEEE and folds.
TEST(ConstantFold, InfinitiesWithoutANanFold) {
  ir::Builder b;
  SsaDef d = fold_bits(b, OpCode::FAdd, ir::kF32, ir::kF32, kInf, kOne);
  ASSERT_EQ(b.op(d).code(), OpCode::Constant) << ir::print(b);
  EXPECT_EQ(b.op(d).operand(0).literal_u32(), kInf);
  d = fold_bits(b, OpCode::FMul, ir::kF32, ir::kF32, 0x7f000000u, 0x7f000000u); // overflow
  ASSERT_EQ(b.op(d).code(), OpCode::Constant) << ir::print(b);
  EXPECT_EQ(b.op(d).operand(0).literal_u32(), kInf);
  d = fold_bits(b, OpCode::FNeg, ir::kF32, ir::kF32, kInf);
  ASSERT_EQ(b.op(d).code(), OpCode::Constant) << ir::print(b);
  EXPECT_EQ(b.op(d).operand(0).literal_u32(), kNegInf);
}

// Ops where D3D and the host differ on NaN (min/max, conversions, square roots, logarithms,
// division) are NoFold: the front end spells out D3D's rule (ftoi/ftou NaN -> 0) around them.
TEST(ConstantFold, NanSensitiveOpsStayOnANan) {
  ir::Builder b;
  for (OpCode code : {OpCode::FMin, OpCode::FMax, OpCode::FDiv, OpCode::FSqrt, OpCode::FRsq,
                      OpCode::FLog2, OpCode::FRcp}) {
    SsaDef d = fold_bits(b, code, ir::kF32, ir::kF32, kD3dNan, 0);
    EXPECT_EQ(b.op(d).code(), code) << ir::op_name(code);
  }
  for (OpCode code : {OpCode::ConvertFtoI}) {
    SsaDef d = fold_bits(b, code, ir::kI32, ir::kF32, kD3dNan);
    EXPECT_EQ(b.op(d).code(), code) << ir::op_name(code);
  }
}

} // namespace
} // namespace kiln::passes::test
