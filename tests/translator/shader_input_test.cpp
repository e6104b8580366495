// translator/shader_input.h: a shader's bytes are read once on their way in, and what reads on
// (Translator::translate, the DXBC converter) takes the read input as it is. The inputs here are
// read, then their bytes damaged where only a second classification or container parse would
// look: a translation that reads them again fails.

#include "tests/support/shared_data.h"
#include "translator/shader_input.h"
#include "translator/translate.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace kiln {
namespace {

struct ManifestRow {
  std::string file, kind, stage;
};

// The valid DXBC and D3D9 shaders of the corpus, every `stride`-th one.
std::vector<ManifestRow> valid_shaders(const std::filesystem::path& corpus, int stride) {
  std::ifstream manifest(corpus / "manifest.tsv");
  std::vector<ManifestRow> rows;
  std::string line;
  std::getline(manifest, line); // header
  for (int i = 0; std::getline(manifest, line);) {
    std::istringstream fields(line);
    ManifestRow row;
    std::string group;
    std::getline(fields, row.file, '\t');
    std::getline(fields, row.kind, '\t');
    std::getline(fields, group, '\t');
    std::getline(fields, row.stage, '\t');
    if (group != "valid" || (row.kind != "dxbc" && row.kind != "d3d9")) continue;
    if (i++ % stride == 0) rows.push_back(row);
  }
  return rows;
}

// "DXBC" and the container's size field overwritten: detect_input_kind would call it Unknown and
// parse_container would reject it; the program and signature chunks are untouched.
void damage_container_header(std::vector<std::uint8_t>& bytes) {
  std::fill_n(bytes.begin(), 4, std::uint8_t('X'));
  std::fill_n(bytes.begin() + 24, 4, std::uint8_t(0xff));
}

// Calls check(file, bytes, expected) for every `stride`-th valid shader of the corpus that
// translates (`expected`: its translation from the bytes); returns how many.
template <typename Check>
int for_each_translatable(int stride, Check&& check) {
  const auto corpus = test::corpus_dir();
  Translator translator;
  int translated = 0;
  for (const ManifestRow& row : valid_shaders(corpus, stride)) {
    std::vector<std::uint8_t> bytes = test::read_bytes(corpus / row.file);
    TranslateResult expected;
    if (!translator.translate(bytes, {}, expected)) continue; // rejected either way
    check(row.file, bytes, expected);
    ++translated;
  }
  return translated;
}

// `input` translates, without reading its bytes again, to what `expected` holds.
void expect_translation(const ShaderInput& input, const TranslateResult& expected,
                        const std::string& file) {
  Translator translator;
  TranslateResult result;
  const Status status = translator.translate(input, {}, result);
  ASSERT_TRUE(status) << file << ": read again? " << status.message();
  EXPECT_EQ(result.kind, expected.kind) << file;
  EXPECT_EQ(result.spirv, expected.spirv) << file;
}

TEST(ShaderInput, TranslateTakesTheReadContainerWithoutParsingAgain) {
  KILN_REQUIRE_DIR(test::corpus_dir(), "corpus");
  int dxbc = 0;
  for_each_translatable(16, [&dxbc](const std::string& file, std::vector<std::uint8_t>& bytes,
                                    const TranslateResult& expected) {
    if (expected.kind != InputKind::Dxbc) return;
    const ShaderInput input = read_shader_input(bytes);
    ASSERT_TRUE(input.readable) << file << ": " << input.readable.message();
    damage_container_header(bytes);
    ASSERT_NE(detect_input_kind(bytes).kind, InputKind::Dxbc);
    expect_translation(input, expected, file);
    ++dxbc;
  });
  EXPECT_GT(dxbc, 50);
}

TEST(ShaderInput, RebasedInputReadsOnlyTheCopy) {
  KILN_REQUIRE_DIR(test::corpus_dir(), "corpus");
  const int translated =
      for_each_translatable(64, [](const std::string& file, std::vector<std::uint8_t>& bytes,
                                   const TranslateResult& expected) {
        const ShaderInput read = read_shader_input(bytes);
        const std::vector<std::uint8_t> copy = bytes;
        const ShaderInput rebased = rebased_shader_input(read, copy);
        std::fill(bytes.begin(), bytes.end(), std::uint8_t(0)); // the first bytes are gone
        expect_translation(rebased, expected, file);
      });
  EXPECT_GT(translated, 10);
}

TEST(ShaderInput, DeclaredStageMatchesTheManifest) {
  const auto corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  int checked = 0;
  for (const ManifestRow& row : valid_shaders(corpus, 8)) {
    const std::vector<std::uint8_t> bytes = test::read_bytes(corpus / row.file);
    const ShaderInput input = read_shader_input(bytes);
    ShaderStage stage = ShaderStage::Count;
    const Status status = declared_stage(input, stage);
    ASSERT_TRUE(status) << row.file << ": " << status.message();
    EXPECT_EQ(row.stage, shader_stage_abbrev(stage)) << row.file;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(ShaderInput, WhatIsNoShaderIsUnreadableWithItsDescription) {
  const std::vector<std::uint8_t> garbage = {1, 2, 3, 4, 5, 6, 7, 8};
  const ShaderInput input = read_shader_input(garbage);
  EXPECT_FALSE(input.readable);
  EXPECT_EQ(input.readable.message(), input.info.description);
  ShaderStage stage;
  EXPECT_FALSE(declared_stage(input, stage));
  Translator translator;
  TranslateResult result;
  const Status status = translator.translate(input, {}, result);
  EXPECT_FALSE(status);
  EXPECT_EQ(status.message(), input.info.description);
}

} // namespace
} // namespace kiln
