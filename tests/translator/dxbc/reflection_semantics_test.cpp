// Signature semantics reach the translation's reflection unchanged (the layer matches vertex
// input layouts and stage interfaces by them).
#include "support/shared_data.h"
#include "translator/translate.h"

#include <gtest/gtest.h>

namespace {

TEST(DxbcConvertReflection, VertexInputSemanticsAreTheSignatureNames) {
  auto dir = kiln::test::conformance_dir();
  KILN_REQUIRE_DIR(dir, "conformance package");
  auto bytes = kiln::test::read_bytes(dir / "_common" / "draw-quad.vs.sm4.dxbc");
  ASSERT_FALSE(bytes.empty());
  kiln::Translator translator;
  kiln::TranslateResult result;
  for (int round = 0; round < 2; ++round) { // a warm translator gives the same answer
    kiln::Status s = translator.translate(bytes, {}, result);
    ASSERT_TRUE(s) << s.message();
    ASSERT_EQ(result.reflection.inputs.size(), 1u);
    EXPECT_EQ(result.reflection.inputs[0].semantic, "position");
    EXPECT_EQ(result.reflection.inputs[0].semantic_index, 0u);
    ASSERT_EQ(result.reflection.outputs.size(), 1u);
    EXPECT_EQ(result.reflection.outputs[0].semantic, "sv_position");
  }
}

} // namespace
