// Damaged programs: every corpus shader with bits flipped in its program tokens (a fixed
// seed) is either rejected with a one-line message or converts to IR that the pass pipeline
// takes to valid final form. Never a crash (run under ASan/UBSan with the SANITIZE label).

#include "support/shared_data.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <random>

namespace {

TEST(DxbcConvertMangled, FlippedBitsAreRejectedOrConvertedToValidIr) {
  const auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  auto files = kiln::test::files_with_extension(corpus / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(12345);
  kiln::dxbc::Converter converter;
  kiln::ir::Builder builder;
  kiln::passes::Pipeline pipeline;
  std::size_t converted = 0, rejected = 0, tried = 0;
  for (std::size_t f = 0; f < files.size(); f += 3) {
    const auto original = kiln::test::read_bytes(files[f]);
    kiln::dxbc::Container container;
    if (!kiln::dxbc::parse_container(original, container, {.verify_checksum = false}) ||
        !container.has_program())
      continue;
    const std::size_t begin = std::size_t(container.program.data() - original.data());
    const std::size_t size = container.program.size();
    if (size < 16) continue;
    for (int round = 0; round < 4; ++round) {
      auto bytes = original;
      for (int flips = 0; flips < 3; ++flips) {
        std::size_t at = begin + 8 + rng() % (size - 8); // keep the version/length tokens
        bytes[at] ^= std::uint8_t(1u << (rng() % 8));
      }
      ++tried;
      builder.reset();
      kiln::Status s = converter.convert(bytes, {}, builder);
      if (!s) {
        ++rejected;
        EXPECT_EQ(s.message().find('\n'), std::string::npos) << files[f];
        continue;
      }
      kiln::Status v = pipeline.run(builder, {.validate_each_pass = true});
      if (v) v = kiln::ir::validate(builder);
      EXPECT_TRUE(v) << files[f] << " round " << round << ": " << v.message();
      ++converted;
    }
  }
  std::printf("mangled: %zu tried, %zu converted, %zu rejected\n", tried, converted, rejected);
  EXPECT_EQ(converted + rejected, tried);
}

} // namespace
