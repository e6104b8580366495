// The corpus gate: every shader of ../shared/corpus through the whole pipeline (front end,
// passes, SPIR-V backend) and the SPIR-V validator, as the "done when" measures it.
// Translation time is measured by `kiln bench`, never here.

#include "bench/stats.h"
#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln {
namespace {

// What the issues require of each directory: the share of files that must translate to
// SPIR-V that passes spirv-val --target-env vulkan1.3, and the same share for Vulkan 1.0 under
// an interface that enables no optional extension (issue 14; what needs one is rejected with
// a one-line error naming it, docs/abi.md "Extensions and fallbacks").
constexpr double kRequiredValidShareDxbc = 0.995;
constexpr double kRequiredValidShareD3D9 = 0.995;

TranslateOptions vulkan13_options() {
  return TranslateOptions{};
}

TranslateOptions vulkan10_no_extensions() {
  TranslateOptions options;
  options.target = SpirvTarget::Vulkan10;
  options.interface = std::make_shared<ShaderInterface>(); // extensions = 0
  return options;
}

struct GateTally {
  std::size_t files = 0;
  std::size_t valid = 0;
  std::size_t rejected = 0;
  std::vector<std::string> invalid;              // "file: validator message"
  std::map<std::string, std::size_t> rejections; // message without file-specific numbers
};

GateTally run_gate(const std::filesystem::path& dir, const std::string& extension,
                   const TranslateOptions& options = vulkan13_options()) {
  GateTally tally;
  Translator translator;
  TranslateResult result;
  for (const auto& path : test::files_with_extension(dir, extension)) {
    const std::vector<std::uint8_t> bytes = test::read_bytes(path);
    ++tally.files;
    Status status = translator.translate(bytes, options, result);
    if (!status) {
      ++tally.rejected;
      EXPECT_FALSE(status.message().empty()) << path;
      EXPECT_EQ(status.message().find('\n'), std::string::npos) << path << ": " << status.message();
      EXPECT_TRUE(result.spirv.empty()) << path;
      // One cause, one row: numbers that differ per file are folded.
      ++tally.rejections[bench::rejection_group(status.message())];
      continue;
    }
    Status valid = validate_spirv(result.spirv, options.target);
    if (valid)
      ++tally.valid;
    else
      tally.invalid.push_back(path.filename().string() + ": " + valid.message());
  }
  return tally;
}

void report(const char* name, const GateTally& t) {
  std::printf("%s: %zu files, %zu valid (%.2f%%), %zu rejected, %zu invalid SPIR-V\n", name,
              t.files, t.valid, t.files ? 100.0 * double(t.valid) / double(t.files) : 0.0,
              t.rejected, t.invalid.size());
  std::vector<std::pair<std::size_t, std::string>> rows;
  for (const auto& [message, count] : t.rejections) rows.emplace_back(count, message);
  std::sort(rows.rbegin(), rows.rend());
  for (std::size_t i = 0; i < rows.size() && i < 15; ++i)
    std::printf("  rejected %5zu  %s\n", rows[i].first, rows[i].second.c_str());
  for (std::size_t i = 0; i < t.invalid.size() && i < 15; ++i)
    std::printf("  invalid  %s\n", t.invalid[i].c_str());
}

void check_share(const char* name, const GateTally& t, double required) {
  report(name, t);
  ASSERT_GT(t.files, 0u) << name << ": no files";
  const double share = double(t.valid) / double(t.files);
  EXPECT_GE(share, required) << name << ": " << t.valid << " of " << t.files
                             << " translate to valid SPIR-V";
}

TEST(CorpusGate, DxbcTranslatesToValidSpirv) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  check_share("dxbc", run_gate(corpus / "dxbc", ".dxbc"), kRequiredValidShareDxbc);
}

TEST(CorpusGate, D3D9TranslatesToValidSpirv) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  check_share("d3d9", run_gate(corpus / "d3d9", ".d3d9"), kRequiredValidShareD3D9);
}

TEST(CorpusGate, DxbcTranslatesToValidVulkan10WithoutExtensions) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  check_share("dxbc vulkan1.0", run_gate(corpus / "dxbc", ".dxbc", vulkan10_no_extensions()),
              kRequiredValidShareDxbc);
}

TEST(CorpusGate, D3D9TranslatesToValidVulkan10WithoutExtensions) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  check_share("d3d9 vulkan1.0", run_gate(corpus / "d3d9", ".d3d9", vulkan10_no_extensions()),
              kRequiredValidShareD3D9);
}

// DXIL, effects, root signatures and damaged files: never a crash, never invalid SPIR-V; a
// rejection is one line.
TEST(CorpusGate, EverythingElseIsRejectedCleanlyOrValid) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  for (const char* sub : {"dxil", "other", "malformed"}) {
    GateTally total;
    for (const char* ext : {".dxil", ".dxbc", ".d3d9"}) {
      GateTally t = run_gate(corpus / sub, ext);
      total.files += t.files;
      total.valid += t.valid;
      total.rejected += t.rejected;
      total.invalid.insert(total.invalid.end(), t.invalid.begin(), t.invalid.end());
      for (const auto& [m, c] : t.rejections) total.rejections[m] += c;
    }
    report(sub, total);
    EXPECT_TRUE(total.invalid.empty()) << sub << ": " << total.invalid.front();
  }
}

} // namespace
} // namespace kiln
