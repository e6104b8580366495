// Type resolution, lowering, constant folding and dead code, checked op by op.
#include "tests/translator/passes/pass_test_util.h"
#include "translator/ir/ir_text.h"
#include "translator/passes/pipeline.h"

#include <bit>
#include <cfloat>
#include <gtest/gtest.h>

namespace kiln::passes::test {
namespace {

using ir::OpCode;
using ir::SsaDef;

class Passes : public ::testing::Test {
 protected:
  void run(std::string_view body) {
    Status parsed = ir::parse(pixel_shader(body), b);
    ASSERT_TRUE(parsed) << parsed.message();
    PipelineOptions options;
    options.validate_each_pass = true;
    Status s = pipeline.run(b, options);
    ASSERT_TRUE(s) << s.message() << "\n" << ir::print(b);
    EXPECT_EQ(check_final_form(b), "") << ir::print(b);
    EXPECT_EQ(check_dominance(b), "") << ir::print(b);
  }
  SsaDef stored(std::uint32_t output) {
    SsaDef found;
    for (SsaDef d : find_ops(b, OpCode::OutputStore))
      if (b.op(d).operand(0).def().id() == output) found = b.op(d).operand(2).def();
    return found;
  }
  ir::OpView op_of(SsaDef d) { return b.op(d); }
  std::uint32_t constant_bits(SsaDef d) {
    EXPECT_EQ(b.op(d).code(), OpCode::Constant) << ir::print_op(b, d);
    return b.op(d).operand(0).literal_u32();
  }

  ir::Builder b;
  Pipeline pipeline;
};

TEST_F(Passes, ConsumeAsOfAnotherTypeBecomesCast) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = TmpStore void %6 %21
%23 = TmpLoad unknown %6
%24 = ConsumeAs u32 %23
%25 = OutputStore void %5 null %24)");
  SsaDef v = stored(5);
  ASSERT_EQ(b.op(v).code(), OpCode::Cast);
  EXPECT_EQ(b.op(v).type(), ir::kU32);
  EXPECT_EQ(b.op(v).operand(0).def(), SsaDef(21));
}

TEST_F(Passes, ConsumeAsOfConstantIsReinterpreted) {
  run(R"(%22 = TmpStore void %6 %12
%23 = TmpLoad unknown %6
%24 = ConsumeAs u32 %23
%25 = OutputStore void %5 null %24)");
  EXPECT_EQ(constant_bits(stored(5)), 0x3f800000u);
  EXPECT_EQ(b.op(stored(5)).type(), ir::kU32);
}

TEST_F(Passes, PhiTakesTheTypeConsumersAskFor) {
  // Both incoming values are u32, the consumer wants f32: the phi is f32, casts go at the end
  // of each predecessor.
  run(R"(%21 = InputLoad f32 %3 null
%22 = FLt bool %21 %12
%23 = ConvertFtoI u32 %21
%24 = IAdd u32 %23 %11
%25 = ScopedIf void %29 %22
%26 = TmpStore void %6 %23
%27 = ScopedElse void %25
%28 = TmpStore void %6 %24
%29 = ScopedEndIf void %25
%30 = TmpLoad unknown %6
%31 = ConsumeAs f32 %30
%32 = OutputStore void %4 null %31)");
  SsaDef phi = stored(4);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).type(), ir::kF32);
  for (std::uint32_t i = 1; i < b.op(phi).ref_count(); i += 2) {
    SsaDef v = b.op(phi).operand(i).def();
    ASSERT_EQ(b.op(v).code(), OpCode::Cast);
    // The cast sits right before the predecessor's terminator.
    EXPECT_EQ(b.op(b.next(v)).code(), OpCode::Branch);
  }
}

TEST_F(Passes, PhiWithoutConsumersTakesIncomingType) {
  // Mixed consumers (f32 and u32): the incoming values agree on f32.
  run(R"(%21 = InputLoad f32 %3 null
%22 = FLt bool %21 %12
%23 = FAdd f32 %21 %12
%25 = ScopedIf void %29 %22
%26 = TmpStore void %6 %21
%27 = ScopedElse void %25
%28 = TmpStore void %6 %23
%29 = ScopedEndIf void %25
%30 = TmpLoad unknown %6
%31 = ConsumeAs f32 %30
%32 = OutputStore void %4 null %31
%33 = ConsumeAs u32 %30
%34 = OutputStore void %5 null %33)");
  SsaDef phi = stored(4);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).type(), ir::kF32);
  EXPECT_EQ(b.op(stored(5)).code(), OpCode::Cast);
}

TEST_F(Passes, AmbiguousPhiBecomesU32) {
  // Incoming f32 and u32, consumers f32 and i32: nothing agrees.
  run(R"(%21 = InputLoad f32 %3 null
%22 = FLt bool %21 %12
%23 = ConvertFtoI u32 %21
%25 = ScopedIf void %29 %22
%26 = TmpStore void %6 %21
%27 = ScopedElse void %25
%28 = TmpStore void %6 %23
%29 = ScopedEndIf void %25
%30 = TmpLoad unknown %6
%31 = ConsumeAs f32 %30
%32 = OutputStore void %4 null %31
%33 = ConsumeAs i32 %30
%34 = Cast u32 %33
%35 = OutputStore void %5 null %34)");
  SsaDef cast = stored(4);
  ASSERT_EQ(b.op(cast).code(), OpCode::Cast);
  SsaDef phi = b.op(cast).operand(0).def();
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).type(), ir::kU32);
}

TEST_F(Passes, FDotOfInputVectorExtractsEachComponentOnce) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = CompositeConstruct vec4<f32> %21 %21 %21 %21
%23 = OutputStore void %4 null %21
%24 = Drain vec4<f32> %22
%25 = FDot f32 %24 %24
%26 = OutputStore void %4 null %25)");
  EXPECT_EQ(count_ops(b, OpCode::FMul), 1u);
  EXPECT_EQ(count_ops(b, OpCode::FMad), 3u);
}

TEST_F(Passes, FDotBecomesMulAndMads) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = CompositeConstruct vec3<f32> %21 %21 %21
%23 = FDot f32 %22 %22
%24 = OutputStore void %4 null %23)");
  SsaDef v = stored(4);
  ASSERT_EQ(b.op(v).code(), OpCode::FMad);
  SsaDef inner = b.op(v).operand(2).def();
  ASSERT_EQ(b.op(inner).code(), OpCode::FMad);
  SsaDef first = b.op(inner).operand(2).def();
  ASSERT_EQ(b.op(first).code(), OpCode::FMul);
  // The components of the constructed vector are extracted once and then folded to %21.
  EXPECT_EQ(b.op(first).operand(0).def(), SsaDef(21));
  EXPECT_EQ(b.op(first).operand(1).def(), SsaDef(21));
  EXPECT_EQ(count_ops(b, OpCode::CompositeExtract), 0u);
  EXPECT_EQ(count_ops(b, OpCode::CompositeConstruct), 0u);
}

TEST_F(Passes, LegacyMultiplyGuardsZero) {
  run(R"(%21 = InputLoad f32 %3 null
%24 = FAdd f32 %21 %12
%25 = FMulLegacy f32 %21 %24
%26 = OutputStore void %4 null %25)");
  SsaDef v = stored(4);
  ASSERT_EQ(b.op(v).code(), OpCode::Select);
  EXPECT_EQ(v, SsaDef(25)); // the Select took the lowered op's id
  EXPECT_EQ(b.op(b.op(v).operand(0).def()).code(), OpCode::BOr);
  EXPECT_EQ(constant_bits(b.op(v).operand(1).def()), 0u);
  EXPECT_EQ(b.op(b.op(v).operand(2).def()).code(), OpCode::FMul);
}

TEST_F(Passes, LegacyMultiplyByFiniteConstantIsPlain) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = FMulLegacy f32 %21 %13
%23 = OutputStore void %4 null %22)");
  EXPECT_EQ(b.op(stored(4)).code(), OpCode::FMul);
  EXPECT_EQ(count_ops(b, OpCode::Select), 0u);
}

TEST_F(Passes, LegacyMadAndPowAndDot) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = FMadLegacy f32 %21 %13 %12
%23 = FPowLegacy f32 %21 %22
%24 = CompositeConstruct vec2<f32> %21 %23
%25 = FDotLegacy f32 %24 %24
%26 = OutputStore void %4 null %25)");
  SsaDef v = stored(4);
  ASSERT_EQ(b.op(v).code(), OpCode::FAdd); // legacy dot: sum of guarded products
  EXPECT_EQ(count_ops(b, OpCode::FExp2), 1u);
  EXPECT_EQ(count_ops(b, OpCode::FLog2), 1u);
  EXPECT_EQ(count_ops(b, OpCode::FPow), 0u);
}

TEST_F(Passes, MinMaxValueBecomeConstants) {
  run(R"(%21 = MaxValue i32
%22 = Cast u32 %21
%23 = OutputStore void %5 null %22
%24 = MinValue f32
%25 = OutputStore void %4 null %24)");
  EXPECT_EQ(constant_bits(stored(5)), 0x7fffffffu); // folded through the Cast
  EXPECT_EQ(constant_bits(stored(4)), std::bit_cast<std::uint32_t>(-FLT_MAX));
}

TEST_F(Passes, NoOpConversionsGoAndSignednessOnlyBecomesCast) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = Cast f32 %21
%23 = ConvertFtoI i32 %22
%24 = ConvertItoI u32 %23
%25 = ConvertItoI u32 %24
%26 = OutputStore void %5 null %25
%27 = OutputStore void %4 null %22)");
  EXPECT_EQ(stored(4), SsaDef(21));
  SsaDef v = stored(5);
  ASSERT_EQ(b.op(v).code(), OpCode::Cast);
  EXPECT_EQ(b.op(b.op(v).operand(0).def()).code(), OpCode::ConvertFtoI);
}

TEST_F(Passes, ConstantsFoldInChains) {
  run(R"(%21 = IAdd u32 %11 %11
%22 = IShl u32 %21 %11
%23 = ULt bool %22 %11
%24 = Select u32 %23 %10 %22
%25 = OutputStore void %5 null %24
%26 = FMul f32 %13 %13
%27 = OutputStore void %4 null %26)");
  EXPECT_EQ(constant_bits(stored(5)), 4u);
  EXPECT_EQ(constant_bits(stored(4)), std::bit_cast<std::uint32_t>(4.0f));
  EXPECT_EQ(count_ops(b, OpCode::IAdd) + count_ops(b, OpCode::Select), 0u);
}

TEST_F(Passes, PreciseFloatIsNotFolded) {
  run(R"(%21 = FMul[Precise] f32 %13 %13
%22 = OutputStore void %4 null %21)");
  EXPECT_EQ(b.op(stored(4)).code(), OpCode::FMul);
}

TEST_F(Passes, DeadValuesGoEffectsStay) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = FAdd f32 %21 %12
%23 = FMul f32 %22 %22
%24 = OutputStore void %4 null %21
%25 = Demote void)");
  EXPECT_EQ(count_ops(b, OpCode::FAdd) + count_ops(b, OpCode::FMul), 0u);
  EXPECT_EQ(count_ops(b, OpCode::Demote), 1u);
  EXPECT_EQ(count_ops(b, OpCode::OutputStore), 1u);
  // Unused constants go too; %13 (2.0) was never used.
  EXPECT_FALSE(b.is_live(SsaDef(13)));
}

TEST_F(Passes, DeadPhiCycleInLoopIsRemoved) {
  run(R"(%21 = TmpStore void %6 %10
%22 = ScopedLoop void %30
%23 = TmpLoad unknown %6
%24 = ConsumeAs u32 %23
%25 = IAdd u32 %24 %11
%26 = TmpStore void %6 %25
%27 = InputLoad f32 %3 null
%28 = FLt bool %27 %12
%29 = ScopedIf void %31 %28
%32 = ScopedLoopBreak void %22
%31 = ScopedEndIf void %29
%30 = ScopedEndLoop void %22)");
  EXPECT_EQ(count_ops(b, OpCode::Phi), 0u);
  EXPECT_EQ(count_ops(b, OpCode::IAdd), 0u);
}

} // namespace
} // namespace kiln::passes::test
