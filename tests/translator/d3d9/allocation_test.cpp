// After warm-up, decoding allocates nothing: the Program's vectors keep their capacity and the
// reader itself never touches the heap on success. Counted by replacing operator new in this
// test executable only (its own binary, so no other test sees the replacement).

#include "tests/support/allocation_counter.h"
#include "tests/support/shared_data.h"
#include "translator/d3d9/reader.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace kiln::d3d9 {
namespace {

TEST(D3D9Allocation, DecodeAllocatesNothingAfterWarmUp) {
  const auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  for (const auto& path : kiln::test::files_with_extension(corpus / "d3d9", ".d3d9"))
    shaders.push_back(kiln::test::read_bytes(path));
  ASSERT_FALSE(shaders.empty());
  Program program;
  for (const auto& shader : shaders) ASSERT_TRUE(decode(shader, program)); // warm-up
  const std::size_t before = kiln::test::allocation_count();
  std::size_t instructions = 0;
  for (int round = 0; round < 3; ++round) {
    for (const auto& shader : shaders) {
      const bool ok = decode(shader, program).is_ok();
      ASSERT_TRUE(ok);
      instructions += program.instructions.size();
    }
  }
  EXPECT_EQ(kiln::test::allocation_count() - before, 0u);
  EXPECT_GT(instructions, 0u);
  // The counter works: a fresh Program allocates on its first decode.
  Program fresh;
  const std::size_t fresh_before = kiln::test::allocation_count();
  ASSERT_TRUE(decode(shaders.back(), fresh));
  EXPECT_GT(kiln::test::allocation_count() - fresh_before, 0u);
}

} // namespace
} // namespace kiln::d3d9
