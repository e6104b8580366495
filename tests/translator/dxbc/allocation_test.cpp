// After warm-up, container parsing and program decoding allocate nothing: the Program's arrays
// keep their capacity and the reader never touches the heap on success. Counted by replacing
// operator new in this executable only.

#include "tests/support/allocation_counter.h"
#include "tests/support/shared_data.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace kiln::dxbc {
namespace {

TEST(DxbcAllocation, DecodeAllocatesNothingAfterWarmUp) {
  const auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  for (const auto& path : kiln::test::files_with_extension(corpus / "dxbc", ".dxbc"))
    shaders.push_back(kiln::test::read_bytes(path));
  ASSERT_FALSE(shaders.empty());

  Program program;
  PodArray<SignatureElement> signature;
  auto decode_all = [&] {
    std::size_t ok = 0;
    for (const auto& bytes : shaders) {
      Container container;
      if (!parse_container(bytes, container)) continue;
      if (!parse_signature(container.input, signature)) continue;
      if (decode_program(container.program, program)) ++ok;
    }
    return ok;
  };
  const std::size_t warm = decode_all();
  EXPECT_EQ(warm, shaders.size());
  const std::size_t before = kiln::test::allocation_count();
  const std::size_t again = decode_all();
  const std::size_t allocations = kiln::test::allocation_count() - before;
  EXPECT_EQ(again, warm);
  EXPECT_EQ(allocations, 0u) << "heap allocations while decoding " << shaders.size()
                             << " warm shaders";
}

} // namespace
} // namespace kiln::dxbc
