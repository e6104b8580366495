#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/shared_data.h"
#include "translator/common/input_kind.h"

namespace kiln {
namespace {

InputKind detect(std::initializer_list<std::uint32_t> words) {
  std::vector<std::uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), std::data(words), bytes.size());
  return detect_input_kind(bytes).kind;
}

TEST(InputKind, D3D9VersionTokens) {
  EXPECT_EQ(detect({0xfffe0300, 0x0000ffff}), InputKind::D3D9); // vs_3_0
  EXPECT_EQ(detect({0xffff0104, 0x0000ffff}), InputKind::D3D9); // ps_1_4
  EXPECT_EQ(detect({0xfeff0901, 0}), InputKind::Effect);        // fx_2_0
  EXPECT_EQ(detect({0xffff0500, 0x0000ffff}), InputKind::Unknown);
}

TEST(InputKind, GarbageAndTruncation) {
  EXPECT_EQ(detect_input_kind({}).kind, InputKind::Unknown);
  EXPECT_EQ(detect({0x12345678}), InputKind::Unknown);
  // "DXBC" followed by nothing: a corrupt header, not a crash.
  EXPECT_EQ(detect({0x43425844}), InputKind::Unknown);
  // A chunk count far beyond the data.
  EXPECT_EQ(detect({0x43425844, 0, 0, 0, 0, 1, 32, 0xffffff}), InputKind::Unknown);
}

// Every file of the corpus is classified as its manifest says.
TEST(InputKind, MatchesCorpusManifest) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::ifstream manifest(corpus / "manifest.tsv");
  ASSERT_TRUE(manifest) << "manifest.tsv missing";
  std::string line;
  std::getline(manifest, line); // header
  int checked = 0;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string file, kind, group, stage, model;
    std::getline(fields, file, '\t');
    std::getline(fields, kind, '\t');
    std::getline(fields, group, '\t');
    std::getline(fields, stage, '\t');
    std::getline(fields, model, '\t');
    const auto bytes = test::read_bytes(corpus / file);
    const InputKind got = detect_input_kind(bytes).kind;
    InputKind expected = InputKind::Unknown;
    if (kind == "dxbc") expected = InputKind::Dxbc;
    if (kind == "d3d9" && group == "valid") expected = InputKind::D3D9;
    if (kind == "dxil") expected = InputKind::Dxil;
    if (kind == "container" && model == "effect") expected = InputKind::Effect;
    if (kind == "container" && model == "rootsig") expected = InputKind::RootSignature;
    if (expected != InputKind::Unknown) {
      EXPECT_EQ(got, expected) << file;
    } else if (kind == "container") {
      EXPECT_NE(got, InputKind::Dxbc) << file << " has no program chunk";
    }
    ++checked;
  }
  EXPECT_GT(checked, 2000);
}

} // namespace
} // namespace kiln
