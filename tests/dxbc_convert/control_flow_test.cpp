// Structured control flow: every nesting of loop/switch/if with break, breakc, continue,
// continuec, ret and retc in the table of tests/dxbc/control_flow_cases.h translates, survives
// the passes with the IR validator after each, and gives SPIR-V that spirv-val accepts for
// vulkan1.3. (tests/conformance/dxbc_features_test.cpp runs the same table on lavapipe.)

#include "tests/dxbc/control_flow_cases.h"
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

// A break or continue with no loop (or switch) around it is still an error, named as such;
// so is one whose loop is outside the hull shader phase it sits in.
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
}

} // namespace
} // namespace kiln::dxbc
