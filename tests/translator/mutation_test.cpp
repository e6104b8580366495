// Damaged bytecode through the whole pipeline: corpus shaders with deterministic damage (bit
// flips, overwritten tokens, truncation) must be rejected with one line or translate to SPIR-V;
// never a crash or a hang (runs under ASan/UBSan in CI). Invalid SPIR-V from damaged input is
// printed and held under kMaxInvalidShare: a few damaged programs that the front ends accept
// still reach the backend with values used outside the blocks that define them (known gap).

#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace kiln {
namespace {

enum class Damage { FlipBits, OverwriteToken, Truncate };

constexpr double kMaxInvalidShare = 0.02; // of the damaged shaders that translate

// Damage past the first 32 bytes: headers are checked up front, so damaging them only tests
// input detection; the interesting paths are the readers and converters behind it.
std::vector<std::uint8_t> damaged(std::vector<std::uint8_t> bytes, Damage damage,
                                  std::mt19937& rng) {
  if (bytes.size() <= 40) return bytes;
  std::uniform_int_distribution<std::size_t> position(32, bytes.size() - 1);
  switch (damage) {
  case Damage::FlipBits:
    for (int i = 0; i < 4; ++i) bytes[position(rng)] ^= std::uint8_t(1u << (rng() % 8));
    break;
  case Damage::OverwriteToken: {
    std::size_t at = position(rng) & ~std::size_t(3);
    const std::uint32_t values[] = {0u, 0xffffffffu, 0x80000000u, 0x7fffffffu,
                                    std::uint32_t(rng())};
    const std::uint32_t value = values[rng() % 5];
    for (int i = 0; i < 4 && at + i < bytes.size(); ++i)
      bytes[at + i] = std::uint8_t(value >> (8 * i));
    break;
  }
  case Damage::Truncate:
    bytes.resize(position(rng));
    break;
  }
  return bytes;
}

void run_damaged(const std::filesystem::path& dir, const std::string& extension,
                 std::size_t stride) {
  std::mt19937 rng(20261123);
  Translator translator;
  TranslateResult result;
  std::size_t translated = 0, rejected = 0, invalid = 0;
  const auto files = test::files_with_extension(dir, extension);
  ASSERT_FALSE(files.empty());
  for (std::size_t i = 0; i < files.size(); i += stride) {
    const std::vector<std::uint8_t> original = test::read_bytes(files[i]);
    for (Damage damage : {Damage::FlipBits, Damage::OverwriteToken, Damage::Truncate}) {
      const std::vector<std::uint8_t> bytes = damaged(original, damage, rng);
      Status status = translator.translate(bytes, TranslateOptions{}, result);
      if (!status) {
        ++rejected;
        EXPECT_EQ(status.message().find('\n'), std::string::npos) << files[i];
        continue;
      }
      ++translated;
      Status valid = validate_spirv(result.spirv, SpirvTarget::Vulkan13);
      if (!valid) {
        ++invalid;
        std::printf("  invalid: %s damage %d: %s\n", files[i].filename().c_str(), int(damage),
                    valid.message().substr(0, valid.message().find('\n')).c_str());
      }
    }
  }
  std::printf("%s: %zu damaged shaders: %zu rejected, %zu translated, %zu of them invalid\n",
              dir.filename().c_str(), translated + rejected, rejected, translated, invalid);
  EXPECT_LE(double(invalid), kMaxInvalidShare * double(translated));
}

TEST(DamagedBytecode, DxbcIsRejectedOrValid) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  run_damaged(corpus / "dxbc", ".dxbc", 3);
}

TEST(DamagedBytecode, D3D9IsRejectedOrValid) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  run_damaged(corpus / "d3d9", ".d3d9", 2);
}

} // namespace
} // namespace kiln
