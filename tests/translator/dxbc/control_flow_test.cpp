// Structured control flow: every nesting of loop/switch/if with break, breakc, continue,
// continuec, ret and retc in the table of tests/translator/dxbc/control_flow_cases.h translates, survives
// the passes with the IR validator after each, and gives SPIR-V that spirv-val accepts for
// vulkan1.3. (tests/conformance/dxbc_features_test.cpp runs the same table on lavapipe.)

#include "tests/translator/dxbc/control_flow_cases.h"
#include "tests/translator/dxbc/flow_call_program.h"
#include "tests/translator/dxbc/random_flow.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/passes/pipeline.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <gtest/gtest.h>

namespace kiln::dxbc {
namespace {

using namespace test;

TEST(DxbcControlFlow, EveryNestingTranslatesToValidSpirv) {
  Translator translator;
  const std::vector<FlowCase> cases = flow_cases();
  ASSERT_GE(cases.size(), 25u);
  for (const FlowCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<std::uint8_t> bytes = shader_container(flow_program(c.body));
    // The passes, with the IR validator after each.
    Converter converter;
    ir::Builder b;
    Status converted = converter.convert(bytes, {}, b);
    ASSERT_TRUE(converted) << converted.message();
    passes::Pipeline pipeline;
    Status passed = pipeline.run(b, {.validate_each_pass = true});
    ASSERT_TRUE(passed) << passed.message() << "\n" << ir::print(b);
    // The whole translation, validated.
    TranslateResult out;
    Status translated = translator.translate(bytes, {}, out);
    ASSERT_TRUE(translated) << translated.message();
    Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
    EXPECT_TRUE(valid) << valid.message();
  }
}

// Random legal nestings (RandomFlow): the same checks over a thousand programs.
TEST(DxbcControlFlow, RandomNestingsTranslateToValidSpirv) {
  Translator translator;
  Converter converter;
  ir::Builder b;
  passes::Pipeline pipeline;
  TranslateResult out;
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    const FlowBody body = RandomFlow(seed).make();
    const std::vector<std::uint8_t> bytes = shader_container(flow_program(body));
    b.reset();
    Status converted = converter.convert(bytes, {}, b);
    ASSERT_TRUE(converted) << "seed " << seed << ": " << converted.message();
    Status passed = pipeline.run(b, {.validate_each_pass = true});
    ASSERT_TRUE(passed) << "seed " << seed << ": " << passed.message();
    Status translated = translator.translate(bytes, {}, out);
    ASSERT_TRUE(translated) << "seed " << seed << ": " << translated.message();
    Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
    ASSERT_TRUE(valid) << "seed " << seed << ": " << valid.message();
  }
}

// The flow table's cases and 300 random nestings.
std::vector<FlowBody> table_and_random_bodies() {
  std::vector<FlowBody> bodies;
  for (const FlowCase& c : flow_cases()) bodies.push_back(c.body);
  for (std::uint32_t seed = 1; seed <= 300; ++seed) bodies.push_back(RandomFlow(seed).make());
  return bodies;
}

// Each body made into a hull shader by `program` translates to valid SPIR-V.
void expect_hull_shaders_valid(std::vector<std::uint32_t> (*program)(const FlowBody&)) {
  const std::vector<std::uint8_t> io = signature({{"SV_Position", 0, 1, 3, 0, 0xf}});
  const std::vector<std::uint8_t> patch = signature({{"SV_TessFactor", 0, 13, 3, 0, 0x1},
                                                     {"SV_TessFactor", 1, 13, 3, 1, 0x1},
                                                     {"SV_TessFactor", 2, 13, 3, 2, 0x1},
                                                     {"SV_InsideTessFactor", 0, 14, 3, 3, 0x1}});
  const std::vector<FlowBody> bodies = table_and_random_bodies();
  Translator translator;
  TranslateResult out;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::vector<std::uint8_t> bytes =
        make_container({{fourcc('S', 'H', 'E', 'X'), bytes_of(program(bodies[i]))},
                        {fourcc('I', 'S', 'G', 'N'), io},
                        {fourcc('O', 'S', 'G', 'N'), io},
                        {fourcc('P', 'C', 'S', 'G'), patch}});
    Status translated = translator.translate(bytes, {}, out);
    ASSERT_TRUE(translated) << "body " << i << ": " << translated.message();
    Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
    ASSERT_TRUE(valid) << "body " << i << ": " << valid.message();
  }
}

// Every table case and a few hundred random nestings as a hull shader's fork phase (two
// instances): the phase's own returns and its loops, switches and breaks inside the instance
// loop or the phase's function.
TEST(DxbcControlFlow, NestingsInAHullForkPhaseTranslateToValidSpirv) {
  expect_hull_shaders_valid(flow_hull_program);
}

// Every table case and a few hundred random nestings as an inlined subroutine, a subroutine
// called from a loop of another, and a class-linkage function body: returns from any depth of
// the body's control flow leave only the body.
TEST(DxbcControlFlow, NestingsInInlinedBodiesTranslateToValidSpirv) {
  const std::vector<FlowBody> bodies = table_and_random_bodies();
  Translator translator;
  Converter converter;
  ir::Builder b;
  passes::Pipeline pipeline;
  TranslateResult out;
  for (FlowCall form : kFlowCalls) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      SCOPED_TRACE(std::string(flow_call_name(form)) + ", body " + std::to_string(i));
      const std::vector<std::uint8_t> bytes = shader_container(flow_call_program(bodies[i], form));
      b.reset();
      Status converted = converter.convert(bytes, {}, b);
      ASSERT_TRUE(converted) << converted.message();
      Status passed = pipeline.run(b, {.validate_each_pass = true});
      ASSERT_TRUE(passed) << passed.message() << "\n" << ir::print(b);
      Status translated = translator.translate(bytes, {}, out);
      ASSERT_TRUE(translated) << translated.message();
      Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
      ASSERT_TRUE(valid) << valid.message();
    }
  }
}

// The same bodies as a subroutine called from a hull shader's fork phase (two instances): the
// body's loops, switches and returns inside the phase's instance loop or function, with the
// flow-stack bases of the phase and the body one above the other.
TEST(DxbcControlFlow, InlinedBodiesInAHullForkPhaseTranslateToValidSpirv) {
  expect_hull_shaders_valid(flow_hull_call_program);
}

// The CPU interpreter the execution test judges random nestings by agrees with the table's
// expected values (worked out by hand), and finishes every random nesting.
TEST(DxbcControlFlow, TheInterpreterAgreesWithTheTable) {
  for (const FlowCase& c : flow_cases()) {
    SCOPED_TRACE(c.name);
    for (std::uint32_t t = 0; t < kFlowThreads; ++t) {
      std::uint32_t value = 0;
      ASSERT_TRUE(interpret_flow(c.body, t, value));
      EXPECT_EQ(value, c.expected(t)) << "thread " << t;
    }
  }
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    std::uint32_t value = 0;
    for (std::uint32_t t = 0; t < kFlowThreads; ++t)
      ASSERT_TRUE(interpret_flow(RandomFlow(seed).make(), t, value)) << "seed " << seed;
  }
}

// A break or continue with no loop (or switch) around it is still an error, named as such;
// so is one whose loop is outside the subroutine or function body it sits in.
TEST(DxbcControlFlow, BreakOutsideALoopOrSwitchIsRejected) {
  const struct {
    FlowBody body;
    const char* what;
  } bad[] = {
      {FlowBody().break_(), "break outside a loop or switch"},
      {FlowBody().mov(3, 1).if_nz(3).breakc_nz(3).endif(), "break outside a loop or switch"},
      {FlowBody().switch_(1).default_().continue_().endswitch(), "continue outside a loop"},
      {FlowBody().loop().break_().endloop().continue_(), "continue outside a loop"},
  };
  for (const auto& b : bad) {
    Converter converter;
    ir::Builder builder;
    Status s = converter.convert(shader_container(flow_program(b.body)), {}, builder);
    ASSERT_FALSE(s) << b.what;
    EXPECT_NE(s.message().find(b.what), std::string::npos) << s.message();
  }
  // A body's break or continue cannot reach the loop around its call, nor an fcall's switch:
  // flow control does not cross a subroutine's boundary; after a top-level retc (its guard)
  // the body's own loop is still found.
  for (FlowCall form : {FlowCall::NestedInALoop, FlowCall::InterfaceCallInALoop}) {
    SCOPED_TRACE(flow_call_name(form));
    Converter converter;
    ir::Builder builder;
    for (const auto& b : bad) {
      Status s = converter.convert(shader_container(flow_call_program(b.body, form)), {}, builder);
      ASSERT_FALSE(s) << b.what;
      EXPECT_NE(s.message().find(b.what), std::string::npos) << s.message();
    }
    const FlowBody guarded = FlowBody().ult(3, 1, 4).retc_nz(3).loop().breakc_nz(3).endloop();
    Status s = converter.convert(shader_container(flow_call_program(guarded, form)), {}, builder);
    EXPECT_TRUE(s) << s.message();
  }
}

} // namespace
} // namespace kiln::dxbc
