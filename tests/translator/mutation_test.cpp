// Damaged bytecode through the whole pipeline: corpus shaders with deterministic damage (bit
// flips, overwritten tokens, truncation) must be rejected with one line or translate to valid
// SPIR-V; never a crash, a hang (runs under ASan/UBSan in CI) or invalid SPIR-V. An invalid
// module is printed with the validator's first line. KILN_DAMAGE_ROUNDS=N searches N times as
// many damaged inputs; KILN_DAMAGE_DUMP=DIR saves the inputs that gave invalid modules.

#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace kiln {
namespace {

enum class Damage { FlipBits, OverwriteToken, Truncate };

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
  // KILN_DAMAGE_ROUNDS=N damages every sampled file N times (default once) for a longer search.
  const char* rounds_env = std::getenv("KILN_DAMAGE_ROUNDS");
  const int rounds = rounds_env ? std::max(1, std::atoi(rounds_env)) : 1;
  Translator translator;
  TranslateResult result;
  std::size_t translated = 0, rejected = 0, invalid = 0;
  const auto files = test::files_with_extension(dir, extension);
  ASSERT_FALSE(files.empty());
  for (std::size_t i = 0; i < files.size(); i += stride) {
    const std::vector<std::uint8_t> original = test::read_bytes(files[i]);
    for (int round = 0; round < rounds; ++round) {
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
          // KILN_DAMAGE_DUMP=DIR keeps each such input for a closer look (kiln translate).
          if (const char* dump = std::getenv("KILN_DAMAGE_DUMP")) {
            const std::string name = std::string(dump) + "/" + files[i].stem().string() + "-" +
                                     std::to_string(invalid) + extension;
            if (std::FILE* f = std::fopen(name.c_str(), "wb")) {
              std::fwrite(bytes.data(), 1, bytes.size(), f);
              std::fclose(f);
            }
          }
          std::printf("  invalid: %s damage %d: %s\n", files[i].filename().c_str(), int(damage),
                      valid.message().substr(0, valid.message().find('\n')).c_str());
        }
      }
    }
  }
  std::printf("%s: %zu damaged shaders: %zu rejected, %zu translated, %zu of them invalid\n",
              dir.filename().c_str(), translated + rejected, rejected, translated, invalid);
  EXPECT_EQ(invalid, 0u) << "damaged input was accepted and translated to invalid SPIR-V";
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
