// Constant folding follows the opcode table's Fold column: every Exact and Rounded op folds on
// constant operands, NoFold ops stay.
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/passes/constant_fold.h"

#include <bit>
#include <gtest/gtest.h>

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

// A pixel shader storing `code` applied to two (or one) constants; returns the stored value
// after constant folding.
SsaDef fold_one(ir::Builder& b, const ir::OpInfo& info) {
  b.reset();
  SsaDef fn = b.add(ir::Op::Function(ir::kVoid));
  SsaDef ep = b.add(ir::Op::EntryPoint(fn, ir::ShaderStage::Pixel));
  Type type = result_type(info);
  SsaDef out = b.add(ir::Op::DclOutput(type, ep, 0u, 0u, 0u));
  b.add(ir::Op::Label(ir::Construct::None));
  Type in = operand_type(info);
  SsaDef a = in == ir::kF32    ? b.constant_f32(1.5f)
             : in == ir::kBool ? b.constant_bool(true)
             : in == ir::kI32  ? b.constant_i32(-7)
                               : b.constant_u32(6);
  SsaDef c = in == ir::kF32    ? b.constant_f32(0.25f)
             : in == ir::kBool ? b.constant_bool(false)
             : in == ir::kI32  ? b.constant_i32(2)
                               : b.constant_u32(2);
  ir::Op op(info.code, type);
  op.ref(a);
  if (info.shape.size() == 2) op.ref(c);
  SsaDef value = b.add(op);
  SsaDef store = b.add(ir::Op::OutputStore(out, SsaDef(), value));
  b.add(ir::Op::Return(SsaDef()));
  b.add(ir::Op::FunctionEnd());
  ConstantFold fold;
  Status s = fold.run(b);
  EXPECT_TRUE(s) << s.message();
  return b.op(store).operand(2).def();
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

} // namespace
} // namespace kiln::passes::test
