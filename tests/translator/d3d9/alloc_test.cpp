// After warm-up, converting allocates nothing: the Converter's tables are fixed arrays or
// vectors that keep their capacity, and the ir::Builder reuses its storage across reset().
// Counted by replacing operator new in this executable only.

#include "tests/support/allocation_counter.h"
#include "tests/support/shared_data.h"
#include "translator/d3d9/converter.h"
#include "translator/ir/ir.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace kiln::d3d9 {
namespace {

TEST(D3d9ConvertAllocation, ConvertAllocatesNothingAfterWarmUp) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  Converter converter;
  ir::Builder builder;
  for (const auto& path : test::files_with_extension(corpus / "d3d9", ".d3d9")) {
    auto bytes = test::read_bytes(path);
    builder.reset();
    if (converter.convert(bytes, {}, builder)) shaders.push_back(std::move(bytes)); // warm-up
  }
  ASSERT_FALSE(shaders.empty());
  const std::size_t before = kiln::test::allocation_count();
  std::size_t ops = 0;
  for (int round = 0; round < 2; ++round) {
    for (const auto& shader : shaders) {
      builder.reset();
      const bool ok = converter.convert(shader, {}, builder).is_ok();
      ASSERT_TRUE(ok);
      ops += builder.op_count();
    }
  }
  EXPECT_EQ(kiln::test::allocation_count() - before, 0u);
  EXPECT_GT(ops, 0u);
  // The counter works: a fresh converter and builder allocate.
  Converter fresh;
  ir::Builder fresh_builder;
  const std::size_t fresh_before = kiln::test::allocation_count();
  ASSERT_TRUE(fresh.convert(shaders.back(), {}, fresh_builder));
  EXPECT_GT(kiln::test::allocation_count() - fresh_before, 0u);
}

} // namespace
} // namespace kiln::d3d9
