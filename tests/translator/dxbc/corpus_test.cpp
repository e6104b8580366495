// Every DXBC program of the corpus decodes, instruction counts agree with the manifest, the
// listings agree with fxc's, and damaged blobs never crash the reader.

#include "tests/translator/dxbc/corpus_support.h"
#include "tests/support/shared_data.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/disassembler.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <string>

namespace kiln::dxbc {
namespace {

namespace fs = std::filesystem;

std::string relative_key(const fs::path& corpus, const fs::path& file) {
  return fs::relative(file, corpus).generic_string();
}

TEST(DxbcCorpus, EveryProgramDecodesAndCountsMatchTheManifest) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  const auto manifest = test::read_manifest(corpus);
  const auto files = kiln::test::files_with_extension(corpus / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  Program program;
  PodArray<SignatureElement> elements;
  std::size_t decoded = 0, counted = 0, checksums = 0, padded = 0, elements_seen = 0;
  std::set<std::string> padded_opcodes;
  for (const auto& file : files) {
    const auto bytes = kiln::test::read_bytes(file);
    Container container;
    ASSERT_TRUE(parse_container(bytes, container)) << file;
    ASSERT_TRUE(container.has_program()) << file;
    const Status status = decode_program(container.program, program);
    EXPECT_TRUE(status) << file << ": " << status.message();
    if (!status) continue;
    ++decoded;
    // The opcode table fixes operand counts: an instruction longer than its operands means a
    // wrong row, except for the few padded ones some compilers emit.
    for (const Instruction& inst : program.instructions) {
      if (inst.flags & instruction_flag::kTrailingTokens) {
        ++padded;
        padded_opcodes.insert(std::string(opcode_info(inst.opcode).mnemonic));
      }
    }
    for (const SignatureChunk* chunk :
         {&container.input, &container.output, &container.patch_constant}) {
      EXPECT_TRUE(parse_signature(*chunk, elements)) << file;
      // Every layout (24/28/32-byte elements) must land on sane fields.
      for (const SignatureElement& e : elements) {
        ++elements_seen;
        EXPECT_FALSE(e.semantic_name.empty()) << file;
        for (char c : e.semantic_name) EXPECT_TRUE(c > ' ' && c < 127) << file;
        EXPECT_LE(e.mask, 0xfu) << file;
        EXPECT_LE(e.component_type, 3u) << file;
        EXPECT_LT(e.stream, 4u) << file;
        EXPECT_TRUE(e.register_index < 64 || e.register_index == 0xffffffffu) << file;
      }
    }
    ReflectionView rdef;
    EXPECT_TRUE(rdef.open(container.rdef)) << file;

    const auto row = manifest.find(relative_key(corpus, file));
    if (row == manifest.end()) continue;
    if (row->second.instructions >= 0) {
      ++counted;
      EXPECT_EQ(program.instructions.size(), std::uint64_t(row->second.instructions)) << file;
    }
    if (!row->second.checksum_ok.empty()) {
      ++checksums;
      EXPECT_EQ(container.checksum_ok, row->second.checksum_ok == "True") << file;
    }
  }
  std::printf("decoded %zu programs; %zu instruction counts and %zu checksums compared\n", decoded,
              counted, checksums);
  EXPECT_GT(counted, decoded / 2);
  EXPECT_LE(padded, 10u);
  EXPECT_GT(elements_seen, decoded);
  for (const auto& name : padded_opcodes)
    EXPECT_TRUE(name == "samplepos" || name.ends_with("_cl_s"))
        << name << " has unused trailing tokens";
}

TEST(DxbcCorpus, ContainersWithoutProgramsAndOtherInputsFailCleanly) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::vector<fs::path> files;
  for (const char* dir : {"other", "malformed", "dxil", "d3d9"})
    for (const char* ext : {".dxbc", ".d3d9", ".dxil"})
      for (auto& f : kiln::test::files_with_extension(corpus / dir, ext)) files.push_back(f);
  ASSERT_FALSE(files.empty());
  std::size_t rejected = 0;
  for (const auto& file : files) {
    const auto bytes = kiln::test::read_bytes(file);
    std::string text;
    if (!disassemble(bytes, text)) ++rejected;
  }
  // d3d9 and dxil inputs and program-less containers have nothing to decode.
  EXPECT_GT(rejected, files.size() / 2);
}

// Truncations and bit flips of real programs: any Status is fine, a crash is not (run under
// ASan to check memory safety too).
TEST(DxbcCorpus, DamagedProgramsNeverCrash) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  const auto files = kiln::test::files_with_extension(corpus / "dxbc", ".dxbc");
  std::mt19937 random(1234);
  // KILN_DXBC_FUZZ_ROUNDS=N multiplies the variants per file (for long sanitizer runs).
  int rounds = 1;
  if (const char* env = std::getenv("KILN_DXBC_FUZZ_ROUNDS"); env && std::atoi(env) > 0)
    rounds = std::atoi(env);
  Program program;
  std::size_t tried = 0, failed = 0;
  for (std::size_t n = 0; n < files.size(); n += 3) {
    const auto original = kiln::test::read_bytes(files[n]);
    for (int variant = 0; variant < 12 * rounds; ++variant) {
      std::vector<std::uint8_t> bytes = original;
      if (variant % 12 < 4) {
        bytes.resize(std::uniform_int_distribution<std::size_t>(0, bytes.size())(random));
      } else {
        const int flips = variant % 12 < 8 ? 1 : 8;
        for (int f = 0; f < flips && !bytes.empty(); ++f) {
          const std::size_t at =
              std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(random);
          bytes[at] ^= std::uint8_t(1u << std::uniform_int_distribution<int>(0, 7)(random));
        }
      }
      std::string text;
      ++tried;
      if (!disassemble(bytes, text)) ++failed;
      Container container;
      if (parse_container(bytes, container, {.verify_checksum = false}) &&
          container.has_program()) {
        const Status status = decode_program(container.program, program);
        // A failed decode must say where.
        if (!status) {
          EXPECT_NE(status.message().find("token"), std::string::npos) << status.message();
        }
      }
    }
  }
  std::printf("%zu damaged variants, %zu rejected\n", tried, failed);
  EXPECT_GT(failed, 0u);
}

TEST(DxbcCorpus, ListingsMatchFxcSidecars) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  const auto files = kiln::test::files_with_extension(corpus / "dxbc", ".dxbc");
  std::size_t compared_files = 0, exact_files = 0, lines = 0, matched = 0;
  std::size_t shown = 0;
  for (const auto& file : files) {
    fs::path sidecar = file;
    sidecar.replace_extension(".asm.txt");
    if (!fs::exists(sidecar)) continue;
    const auto listing_bytes = kiln::test::read_bytes(sidecar);
    const std::string listing(listing_bytes.begin(), listing_bytes.end());
    const auto expected = test::normalized_listing_lines(listing);
    if (expected.empty()) continue; // per-token comments, not an fxc listing
    const auto bytes = kiln::test::read_bytes(file);
    std::string text;
    ASSERT_TRUE(disassemble(bytes, text)) << file;
    const auto actual = test::normalized_listing_lines(text);
    ++compared_files;
    std::size_t file_matched = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (i < actual.size() && actual[i] == expected[i]) {
        ++file_matched;
      } else if (shown < 40 && std::getenv("KILN_SHOW_MISMATCHES")) {
        ++shown;
        std::printf("%s:%zu\n  fxc:  %s\n  kiln: %s\n", file.filename().c_str(), i,
                    expected[i].c_str(), i < actual.size() ? actual[i].c_str() : "(missing)");
      }
    }
    lines += expected.size();
    matched += file_matched;
    if (file_matched == expected.size() && actual.size() == expected.size()) ++exact_files;
  }
  std::printf("listings: %zu files compared, %zu identical; %zu of %zu lines match (%.2f%%)\n",
              compared_files, exact_files, matched, lines, lines ? 100.0 * matched / lines : 0.0);
  ASSERT_GT(compared_files, 0u);
  EXPECT_GE(double(matched), 0.995 * double(lines));
}

} // namespace
} // namespace kiln::dxbc
