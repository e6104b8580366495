// The IR's pool views (translator/ir/pool_span.h): spans from OpView::operands()/literals(),
// ops from OpView::to_op() and Builder::users() kept across a change of their pool. Builds with
// KILN_IR_CHECKS (Debug, sanitizers, fuzzers; this test is labelled `sanitize`) stop at the
// first such use, whether or not the pool grew; Release builds skip the death tests.

#include "translator/ir/ir.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

constexpr const char* kStale = "IR check failed: a view into an IR builder pool";

struct Program {
  Builder b;
  SsaDef a, sum;
  Program() {
    b.reset();
    a = b.add(Op::Constant(kF32, 2.0f));
    SsaDef c = b.add(Op::Constant(kF32, 3.0f));
    sum = b.add(Op::FAdd(kF32, a, c));
  }
};

// Views used before the next change read what the op holds, in every build.
TEST(PoolSpan, FreshViewsRead) {
  Program p;
  auto operands = p.b.op(p.sum).operands();
  ASSERT_EQ(operands.size(), 2u);
  EXPECT_EQ(operands[0].def(), p.a);
  std::size_t n = 0;
  for (Operand o : operands) n += o.def() ? 1 : 0;
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(p.b.op(p.a).literals().size(), 1u);
  EXPECT_EQ(p.b.users(p.a).size(), 1u);
  // A view re-taken after an add is fine.
  p.b.add(Op::FMul(kF32, p.sum, p.a));
  EXPECT_EQ(p.b.op(p.sum).operands()[1].def(), p.b.op(p.sum).operand(1).def());
  // Re-adding an op's own operands (the pattern constant folding uses) reads them before the
  // add changes the pool.
  SsaDef copy = p.b.add(Op::with_operands(OpCode::FSub, kF32, p.b.op(p.sum).operands(), 2));
  EXPECT_EQ(p.b.op(copy).operand(0).def(), p.a);
}

class PoolSpanDeath : public testing::Test {
 protected:
  void SetUp() override {
    if (!KILN_IR_CHECKS) GTEST_SKIP() << "KILN_IR_CHECKS is off in this build (Release)";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
};

TEST_F(PoolSpanDeath, OperandsKeptAcrossAdd) {
  Program p;
  auto operands = p.b.op(p.sum).operands();
  auto tail = operands.subspan(1);
  PoolSpan<Operand> copy = operands;
  p.b.add(Op::FMul(kF32, p.sum, p.a)); // the pool need not grow: the check is deterministic
  EXPECT_DEATH((void)operands[0], kStale);
  EXPECT_DEATH((void)tail[0], kStale);
  EXPECT_DEATH((void)copy[0], kStale);
}

TEST_F(PoolSpanDeath, LoopOverOperandsThatAdds) {
  Program p;
  EXPECT_DEATH(
      {
        for (Operand o : p.b.op(p.sum).operands()) p.b.add(Op::FNeg(kF32, o.def()));
      },
      kStale);
}

TEST_F(PoolSpanDeath, LiteralsKeptAcrossRewrite) {
  Program p;
  auto literals = p.b.op(p.a).literals();
  p.b.rewrite_op(p.sum, Op::FSub(kF32, p.a, p.a));
  EXPECT_DEATH((void)literals.size(), kStale);
}

TEST_F(PoolSpanDeath, ToOpKeptAcrossAdd) {
  Program p;
  Op op = p.b.op(p.sum).to_op();
  p.b.add(Op::FMul(kF32, p.sum, p.a));
  EXPECT_DEATH(p.b.add(op), "IR check failed: an Op made from OpView::to_op");
}

TEST_F(PoolSpanDeath, UsersKeptAcrossRebuild) {
  Program p;
  auto users = p.b.users(p.a);
  p.b.add(Op::FMul(kF32, p.sum, p.a));
  (void)p.b.users(p.sum); // rebuilds the use index
  EXPECT_DEATH((void)users.size(), kStale);
}

TEST_F(PoolSpanDeath, IdPastTheOps) {
  Program p;
  EXPECT_DEATH((void)p.b.op(SsaDef(1000)).code(), "IR check failed: IR id past the builder's ops");
}

} // namespace
} // namespace kiln::ir
