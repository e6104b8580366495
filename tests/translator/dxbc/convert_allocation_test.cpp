// After warm-up, converting the corpus again allocates (next to) nothing: the converter's
// arrays, the decoded program and the ir::Builder keep their capacity. Rejections build their
// message (a std::string) and are excluded. Counted by replacing operator new in this
// executable only.

#include "support/shared_data.h"
#include "tests/support/allocation_counter.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace {

TEST(DxbcConvertAllocation, WarmConversionAllocatesNothing) {
  const auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::vector<std::vector<std::uint8_t>> shaders;
  for (const auto& path : kiln::test::files_with_extension(corpus / "dxbc", ".dxbc"))
    shaders.push_back(kiln::test::read_bytes(path));
  ASSERT_FALSE(shaders.empty());
  kiln::dxbc::Converter converter;
  kiln::ir::Builder builder;
  std::vector<bool> converted(shaders.size());
  const std::size_t cold_before = kiln::test::allocation_count();
  for (std::size_t i = 0; i < shaders.size(); ++i) {
    builder.reset();
    converted[i] = converter.convert(shaders[i], {}, builder).is_ok();
  }
  // The counter works: the cold pass grew the storage.
  EXPECT_GT(kiln::test::allocation_count(), cold_before);
  std::size_t ok = 0, allocating = 0, total = 0;
  for (std::size_t i = 0; i < shaders.size(); ++i) {
    if (!converted[i]) continue;
    ++ok;
    const std::size_t before = kiln::test::allocation_count();
    builder.reset();
    EXPECT_TRUE(converter.convert(shaders[i], {}, builder).is_ok());
    const std::size_t n = kiln::test::allocation_count() - before;
    total += n;
    allocating += n != 0;
  }
  EXPECT_GT(ok, shaders.size() * 99 / 100);
  EXPECT_EQ(allocating, 0u) << total << " allocations in " << allocating << " shaders";
}

} // namespace
