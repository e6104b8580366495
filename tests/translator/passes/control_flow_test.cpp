// Scoped -> structured control flow and SSA construction, checked on the structure of the
// output: block constructs, branch targets, phis, and dominance of every use.
#include "tests/translator/passes/pass_test_util.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"

#include <gtest/gtest.h>

namespace kiln::passes::test {
namespace {

using ir::Construct;
using ir::OpCode;
using ir::SsaDef;

class PassPipeline : public ::testing::Test {
 protected:
  // Parses, runs every pass with the validator after each, checks the final form.
  void run(std::string_view body, bool add_return = true) {
    Status parsed = ir::parse(pixel_shader(body, add_return), b);
    ASSERT_TRUE(parsed) << parsed.message();
    PipelineOptions options;
    options.validate_each_pass = true;
    Status s = pipeline.run(b, options);
    ASSERT_TRUE(s) << s.message() << "\n" << ir::print(b);
    EXPECT_EQ(check_final_form(b), "") << ir::print(b);
    EXPECT_EQ(check_dominance(b), "") << ir::print(b);
  }
  Construct construct(SsaDef label) {
    ir::OpView op = b.op(label);
    return op.literals()[0].literal_enum<Construct>();
  }
  // The value stored by the only OutputStore to `output`.
  SsaDef stored(std::uint32_t output) {
    SsaDef found;
    for (SsaDef d : find_ops(b, OpCode::OutputStore))
      if (b.op(d).operand(0).def().id() == output) found = b.op(d).operand(2).def();
    return found;
  }
  SsaDef terminator_of(SsaDef label) {
    for (SsaDef d = label; d; d = b.next(d))
      if (b.op(d).info().category == ir::OpCategory::Terminator) return d;
    return {};
  }

  ir::Builder b;
  Pipeline pipeline;
};

TEST_F(PassPipeline, StraightLineTempsBecomeValues) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = TmpStore void %6 %21
%23 = TmpLoad unknown %6
%24 = ConsumeAs f32 %23
%25 = FAdd f32 %24 %24
%26 = OutputStore void %4 null %25)");
  EXPECT_EQ(count_ops(b, OpCode::TmpLoad) + count_ops(b, OpCode::TmpStore), 0u);
  EXPECT_EQ(count_ops(b, OpCode::Label), 1u);
  SsaDef v = stored(4);
  ASSERT_EQ(b.op(v).code(), OpCode::FAdd);
  EXPECT_EQ(b.op(v).operand(0).def(), SsaDef(21));
}

TEST_F(PassPipeline, IfElseMergesWithPhi) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = FLt bool %21 %12
%23 = ScopedIf void %27 %22
%24 = TmpStore void %6 %12
%25 = ScopedElse void %23
%26 = TmpStore void %6 %13
%27 = ScopedEndIf void %23
%28 = TmpLoad unknown %6
%29 = ConsumeAs f32 %28
%30 = OutputStore void %4 null %29)");
  auto labels = find_ops(b, OpCode::Label);
  ASSERT_EQ(labels.size(), 4u);
  // The entry block is the selection header naming the last block as its merge.
  EXPECT_EQ(construct(labels[0]), Construct::StructuredSelection);
  EXPECT_EQ(b.op(labels[0]).operand(0).def(), labels[3]);
  SsaDef bc = terminator_of(labels[0]);
  ASSERT_EQ(b.op(bc).code(), OpCode::BranchConditional);
  EXPECT_EQ(b.op(bc).operand(1).def(), labels[1]);
  EXPECT_EQ(b.op(bc).operand(2).def(), labels[2]);
  EXPECT_EQ(b.op(terminator_of(labels[1])).operand(0).def(), labels[3]);
  EXPECT_EQ(b.op(terminator_of(labels[2])).operand(0).def(), labels[3]);
  SsaDef phi = stored(4);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).type(), ir::kF32);
  ASSERT_EQ(b.op(phi).ref_count(), 4u);
  EXPECT_EQ(b.op(phi).operand(0).def(), labels[1]);
  EXPECT_EQ(b.op(phi).operand(1).def(), SsaDef(12));
  EXPECT_EQ(b.op(phi).operand(2).def(), labels[2]);
  EXPECT_EQ(b.op(phi).operand(3).def(), SsaDef(13));
}

TEST_F(PassPipeline, IfWithoutElseTakesValueFromHeader) {
  run(R"(%21 = TmpStore void %6 %12
%22 = InputLoad f32 %3 null
%23 = FLt bool %22 %12
%24 = ScopedIf void %26 %23
%25 = TmpStore void %6 %22
%26 = ScopedEndIf void %24
%28 = TmpLoad unknown %6
%29 = ConsumeAs f32 %28
%30 = OutputStore void %4 null %29)");
  auto labels = find_ops(b, OpCode::Label);
  ASSERT_EQ(labels.size(), 3u);
  SsaDef bc = terminator_of(labels[0]);
  EXPECT_EQ(b.op(bc).operand(2).def(), labels[2]); // false edge straight to the merge
  SsaDef phi = stored(4);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).operand(0).def(), labels[0]);
  EXPECT_EQ(b.op(phi).operand(1).def(), SsaDef(12));
  EXPECT_EQ(b.op(phi).operand(2).def(), labels[1]);
  EXPECT_EQ(b.op(phi).operand(3).def(), SsaDef(22));
}

TEST_F(PassPipeline, LoopWithBreakAndContinue) {
  // i = 0; loop { if (i >= 1) break; i = i + 1; continue; } out = i
  run(R"(%21 = TmpStore void %6 %10
%22 = ScopedLoop void %35
%23 = TmpLoad unknown %6
%24 = ConsumeAs u32 %23
%25 = UGe bool %24 %11
%26 = ScopedIf void %28 %25
%27 = ScopedLoopBreak void %22
%28 = ScopedEndIf void %26
%29 = TmpLoad unknown %6
%30 = ConsumeAs u32 %29
%31 = IAdd u32 %30 %11
%32 = TmpStore void %6 %31
%33 = ScopedLoopContinue void %22
%34 = TmpStore void %6 %10
%35 = ScopedEndLoop void %22
%36 = TmpLoad unknown %6
%37 = ConsumeAs u32 %36
%38 = OutputStore void %5 null %37)");
  SsaDef header;
  for (SsaDef l : find_ops(b, OpCode::Label))
    if (construct(l) == Construct::StructuredLoop) header = l;
  ASSERT_TRUE(header);
  SsaDef merge = b.op(header).operand(0).def(), cont = b.op(header).operand(1).def();
  EXPECT_NE(merge, cont);
  // The continue block is the only block branching back to the header.
  std::size_t back_edges = 0;
  for (SsaDef l : find_ops(b, OpCode::Label)) {
    SsaDef t = terminator_of(l);
    if (b.op(t).code() == OpCode::Branch && b.op(t).operand(0).def() == header) {
      ++back_edges;
      if (l != cont) {
        EXPECT_LT(l.id(), header.id()); // the entry edge comes from before
      }
    }
  }
  EXPECT_EQ(back_edges, 2u);
  EXPECT_EQ(b.op(terminator_of(cont)).operand(0).def(), header);
  // The header has a phi for i: 0 from the entry, i + 1 from the continue block.
  SsaDef phi = b.next(header);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).type(), ir::kU32);
  bool from_cont = false;
  for (std::uint32_t i = 0; i < b.op(phi).ref_count(); i += 2)
    if (b.op(phi).operand(i).def() == cont) {
      from_cont = true;
      EXPECT_EQ(b.op(b.op(phi).operand(i + 1).def()).code(), OpCode::IAdd);
    }
  EXPECT_TRUE(from_cont);
  // The store after `continue` was unreachable and is gone; the output reads the phi.
  EXPECT_EQ(stored(5), phi);
  // The break branches to the loop merge.
  bool breaks = false;
  for (SsaDef t : find_ops(b, OpCode::Branch))
    if (b.op(t).operand(0).def() == merge) breaks = true;
  EXPECT_TRUE(breaks);
}

TEST_F(PassPipeline, InfiniteLoopGetsUnreachableMerge) {
  run(R"(%21 = ScopedLoop void %25
%22 = InputLoad f32 %3 null
%23 = OutputStore void %4 null %22
%24 = Return void null
%25 = ScopedEndLoop void %21)",
      false);
  SsaDef header;
  for (SsaDef l : find_ops(b, OpCode::Label))
    if (construct(l) == Construct::StructuredLoop) header = l;
  ASSERT_TRUE(header);
  SsaDef merge = b.op(header).operand(0).def();
  EXPECT_EQ(b.op(b.next(merge)).code(), OpCode::Unreachable);
  // The Return stays inside the loop body.
  EXPECT_EQ(count_ops(b, OpCode::Return), 1u);
}

TEST_F(PassPipeline, EarlyReturnInsideIfInsideLoop) {
  run(R"(%21 = ScopedLoop void %31
%22 = InputLoad f32 %3 null
%23 = FLt bool %22 %12
%24 = ScopedIf void %28 %23
%25 = OutputStore void %4 null %12
%26 = Return void null
%27 = OutputStore void %4 null %13
%28 = ScopedEndIf void %24
%29 = ScopedLoopBreak void %21
%31 = ScopedEndLoop void %21
%32 = OutputStore void %4 null %22)");
  EXPECT_EQ(count_ops(b, OpCode::Return), 2u);
  // The store after the early return was unreachable.
  for (SsaDef s : find_ops(b, OpCode::OutputStore)) EXPECT_NE(b.op(s).operand(2).def(), SsaDef(13));
  EXPECT_EQ(count_ops(b, OpCode::OutputStore), 2u);
}

TEST_F(PassPipeline, SwitchWithSharedCasesFallThroughAndDefault) {
  run(R"(%21 = InputLoad f32 %3 null
%22 = ConvertFtoI u32 %21
%23 = ScopedSwitch void %34 %22
%24 = ScopedSwitchCase void %23 1
%25 = ScopedSwitchCase void %23 2
%26 = TmpStore void %6 %12
%27 = ScopedSwitchBreak void %23
%28 = ScopedSwitchCase void %23 3
%29 = TmpStore void %6 %13
%30 = ScopedSwitchDefault void %23
%31 = TmpStore void %7 %13
%32 = TmpStore void %6 %21
%33 = ScopedSwitchBreak void %23
%34 = ScopedEndSwitch void %23
%35 = TmpLoad unknown %6
%36 = ConsumeAs f32 %35
%37 = OutputStore void %4 null %36)");
  auto switches = find_ops(b, OpCode::Switch);
  ASSERT_EQ(switches.size(), 1u);
  ir::OpView sw = b.op(switches[0]);
  ASSERT_EQ(sw.ref_count(), 2u + 3u * 2u); // value, default, three cases
  SsaDef header = find_ops(b, OpCode::Label)[0];
  EXPECT_EQ(construct(header), Construct::StructuredSelection);
  SsaDef merge = b.op(header).operand(0).def();
  SsaDef def_label = sw.operand(1).def();
  EXPECT_NE(def_label, merge);
  // Cases 1 and 2 share a block; case 3 falls through into the default block.
  EXPECT_EQ(sw.operand(3).def(), sw.operand(5).def());
  SsaDef case3 = sw.operand(7).def();
  EXPECT_EQ(b.op(sw.operand(6).def()).operand(0).literal_u32(), 3u);
  SsaDef t3 = terminator_of(case3);
  EXPECT_EQ(b.op(t3).operand(0).def(), def_label);
  SsaDef phi = stored(4);
  ASSERT_EQ(b.op(phi).code(), OpCode::Phi);
  EXPECT_EQ(b.op(phi).ref_count(), 4u); // from the case 1/2 block and from default
}

TEST_F(PassPipeline, SwitchFallThroughAroundDefaultAndContinueInLoop) {
  // loop { switch (x) { case 1: r6 = 1 (falls) default: r6 += 1 (falls) case 2: out = r6;
  // continue } }: the merges after the switch and the loop are unreachable.
  run(R"(%21 = TmpStore void %6 %10
%22 = ScopedLoop void %40
%23 = InputLoad f32 %3 null
%24 = ConvertFtoI u32 %23
%25 = ScopedSwitch void %34 %24
%26 = ScopedSwitchCase void %25 1
%27 = TmpStore void %6 %11
%28 = ScopedSwitchDefault void %25
%29 = TmpLoad unknown %6
%30 = ConsumeAs u32 %29
%31 = IAdd u32 %30 %11
%32 = TmpStore void %6 %31
%33 = ScopedSwitchCase void %25 2
%41 = TmpLoad unknown %6
%42 = ConsumeAs u32 %41
%43 = OutputStore void %5 null %42
%35 = ScopedLoopContinue void %22
%34 = ScopedEndSwitch void %25
%36 = TmpLoad unknown %6
%37 = ConsumeAs u32 %36
%38 = OutputStore void %5 null %37
%39 = ScopedLoopBreak void %22
%40 = ScopedEndLoop void %22)");
  auto switches = find_ops(b, OpCode::Switch);
  ASSERT_EQ(switches.size(), 1u) << ir::print(b);
  ir::OpView sw = b.op(switches[0]);
  ASSERT_EQ(sw.ref_count(), 6u);
  SsaDef def_label = sw.operand(1).def(), case1 = sw.operand(3).def(), case2 = sw.operand(5).def();
  // Source order: case 1 block, default block, case 2 block, each falling into the next.
  EXPECT_LT(case1.id(), def_label.id());
  EXPECT_EQ(b.op(terminator_of(case1)).operand(0).def(), def_label);
  EXPECT_EQ(b.op(terminator_of(def_label)).operand(0).def(), case2);
  SsaDef header;
  for (SsaDef l : find_ops(b, OpCode::Label))
    if (construct(l) == Construct::StructuredLoop) header = l;
  ASSERT_TRUE(header);
  // case 2 continues the loop from inside the switch.
  EXPECT_EQ(b.op(terminator_of(case2)).operand(0).def(), b.op(header).operand(1).def());
  // The default block merges r6 from the case 1 block and from the switch header.
  auto adds = find_ops(b, OpCode::IAdd);
  ASSERT_EQ(adds.size(), 1u) << ir::print(b);
  EXPECT_EQ(b.op(b.op(adds[0]).operand(0).def()).code(), OpCode::Phi) << ir::print(b);
}

TEST_F(PassPipeline, SwitchWithoutDefaultUsesMerge) {
  run(R"(%21 = ScopedSwitch void %25 %11
%22 = ScopedSwitchCase void %21 0
%23 = OutputStore void %4 null %12
%24 = ScopedSwitchBreak void %21
%25 = ScopedEndSwitch void %21)");
  ir::OpView sw = b.op(find_ops(b, OpCode::Switch)[0]);
  SsaDef header = find_ops(b, OpCode::Label)[0];
  EXPECT_EQ(sw.operand(1).def(), b.op(header).operand(0).def());
}

TEST_F(PassPipeline, NeverWrittenTempReadsUndef) {
  run(R"(%21 = TmpLoad unknown %8
%22 = ConsumeAs f32 %21
%23 = OutputStore void %4 null %22)");
  SsaDef v = stored(4);
  EXPECT_EQ(b.op(v).code(), OpCode::Undef);
  EXPECT_EQ(b.op(v).type(), ir::kF32);
}

TEST_F(PassPipeline, LoopInvariantTempNeedsNoPhi) {
  run(R"(%21 = TmpStore void %6 %12
%22 = ScopedLoop void %27
%23 = TmpLoad unknown %6
%24 = ConsumeAs f32 %23
%25 = OutputStore void %4 null %24
%26 = ScopedLoopBreak void %22
%27 = ScopedEndLoop void %22)");
  EXPECT_EQ(count_ops(b, OpCode::Phi), 0u);
  EXPECT_EQ(stored(4), SsaDef(12));
}

TEST_F(PassPipeline, NestedLoopsAndDemote) {
  run(R"(%21 = TmpStore void %6 %10
%22 = ScopedLoop void %40
%23 = TmpStore void %7 %10
%24 = ScopedLoop void %34
%25 = TmpLoad unknown %7
%26 = ConsumeAs u32 %25
%27 = UGe bool %26 %11
%28 = ScopedIf void %30 %27
%29 = ScopedLoopBreak void %24
%30 = ScopedEndIf void %28
%31 = Demote void
%32 = IAdd u32 %26 %11
%33 = TmpStore void %7 %32
%34 = ScopedEndLoop void %24
%35 = TmpLoad unknown %6
%36 = ConsumeAs u32 %35
%37 = IAdd u32 %36 %11
%38 = TmpStore void %6 %37
%39 = ScopedLoopBreak void %22
%40 = ScopedEndLoop void %22
%41 = TmpLoad unknown %6
%42 = ConsumeAs u32 %41
%43 = OutputStore void %5 null %42)");
  std::size_t loops = 0;
  for (SsaDef l : find_ops(b, OpCode::Label))
    if (construct(l) == Construct::StructuredLoop) ++loops;
  EXPECT_EQ(loops, 2u);
  EXPECT_EQ(count_ops(b, OpCode::Demote), 1u);
  // The outer loop always breaks in its first iteration (its continue block is unreachable),
  // so its header phi is trivial and r6 = 0 + 1 folds to a constant.
  ASSERT_EQ(b.op(stored(5)).code(), OpCode::Constant);
  EXPECT_EQ(b.op(stored(5)).operand(0).literal_u32(), 1u);
}

TEST_F(PassPipeline, TempPassedAcrossACallIsRefused) {
  // %2 calls %50, which reads r6 that only %2 writes: its value would have to cross the call.
  Status parsed = ir::parse(R"(%1 = EntryPoint void %2 Pixel
%4 = DclOutput f32 %1 0 0 0
%6 = DclTmp unknown %1
%12 = Constant f32 1
%2 = Function void
%20 = Label void None
%21 = TmpStore void %6 %12
%22 = FunctionCall void %50
%23 = Return void null
%24 = FunctionEnd void
%50 = Function void
%51 = Label void None
%52 = TmpLoad unknown %6
%53 = ConsumeAs f32 %52
%54 = OutputStore void %4 null %53
%55 = Return void null
%56 = FunctionEnd void
)",
                            b);
  ASSERT_TRUE(parsed) << parsed.message();
  Status s = pipeline.run(b, {});
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("shared across functions"), std::string::npos) << s.message();
}

TEST_F(PassPipeline, BrokenInputFailsNamingThePass) {
  Status parsed =
      ir::parse(pixel_shader("%21 = FAdd f32 %12\n%22 = OutputStore void %4 null %21"), b);
  ASSERT_TRUE(parsed) << parsed.message();
  PipelineOptions options;
  options.validate_each_pass = true;
  Status s = pipeline.run(b, options);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("after pass scoped_to_structured"), std::string::npos) << s.message();
}

TEST_F(PassPipeline, UnclosedConstructIsAnError) {
  Status parsed = ir::parse(pixel_shader("%21 = ScopedLoop void %30"), b);
  ASSERT_TRUE(parsed) << parsed.message();
  Status s = pipeline.run(b, {});
  EXPECT_FALSE(s);
}

} // namespace
} // namespace kiln::passes::test
