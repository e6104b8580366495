// A warm translation allocates nothing: after one pass over the shared corpus has grown every
// pool of a Translator and of the TranslateResult it writes to, a second pass over the same
// shaders makes no heap allocation at all (operator new is counted in this executable only).
// Front end, passes, SPIR-V lowering and the result's reflection are all on that path. A
// rejected shader is left out of the count: its error message is a string of its own.

#include "tests/support/allocation_counter.h"
#include "tests/support/shared_data.h"
#include "translator/translate.h"

#include <gtest/gtest.h>

namespace kiln {
namespace {

void expect_warm_translation_allocates_nothing(const char* kind, const char* extension) {
#ifndef NDEBUG
  GTEST_SKIP() << "a debug build validates the IR after every pass (Translator::build_ir_to_spirv),"
                  " which allocates: the guarantee is for NDEBUG builds (CI: RelWithDebInfo)";
#endif
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  for (const auto& path : test::files_with_extension(corpus / kind, extension))
    shaders.push_back(test::read_bytes(path));
  ASSERT_FALSE(shaders.empty());

  Translator translator;
  TranslateOptions options;
  TranslateResult result;
  std::vector<std::vector<std::uint8_t>> accepted;
  for (auto& bytes : shaders)
    if (translator.translate(bytes, options, result)) accepted.push_back(std::move(bytes));
  EXPECT_GT(accepted.size(), shaders.size() * 99 / 100);
  std::size_t again = 0;
  const std::size_t allocations = test::count_allocations([&] {
    for (const auto& bytes : accepted)
      if (translator.translate(bytes, options, result)) ++again;
  });
  EXPECT_EQ(again, accepted.size());
  EXPECT_EQ(allocations, 0u) << "heap allocations while translating " << shaders.size() << " warm "
                             << kind << " shaders";
}

TEST(TranslateAllocation, WarmDxbcTranslationAllocatesNothing) {
  expect_warm_translation_allocates_nothing("dxbc", ".dxbc");
}

TEST(TranslateAllocation, WarmD3d9TranslationAllocatesNothing) {
  expect_warm_translation_allocates_nothing("d3d9", ".d3d9");
}

} // namespace
} // namespace kiln
