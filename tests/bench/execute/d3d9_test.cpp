// D3D9 shaders in the execution harness (bench/execute/d3d9.h): the seeded render state both
// forms are translated under, and corpus shaders of each model whose immediate and
// specialization-constant forms must give the same words, and must not once the specialized
// form is given other values than the immediate one.

#include "bench/execute/d3d9.h"
#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>
#include <unistd.h>

namespace kiln::test {
namespace {

using namespace kiln::execute;

// The words a parameter's immediate form holds (one, or four for a vector).
std::vector<std::uint32_t> immediate_words(const ShaderParameter& p) {
  const std::size_t n = p.data_type == ParameterDataType::F32_VEC4 ? 4 : 1;
  return {p.value.begin(), p.value.begin() + std::ptrdiff_t(n)};
}

TEST(ExecuteD3D9, SeededRenderStateIsNotTheDefault) {
  const RenderStateForms forms = seeded_render_state(7, false);
  ASSERT_EQ(forms.immediate.size(), forms.specialized.size());
  ASSERT_FALSE(forms.immediate.empty());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < forms.immediate.size(); ++i) {
    const ShaderParameter& imm = forms.immediate[i];
    const ShaderParameter& spec = forms.specialized[i];
    EXPECT_EQ(imm.type, ShaderParameter::Type::Immediate);
    EXPECT_EQ(spec.type, ShaderParameter::Type::SpecializationConstant);
    EXPECT_EQ(imm.name, spec.name);
    EXPECT_EQ(imm.data_type, parameter_data_type(imm.name));
    // The specialized form's ids hold the immediate form's values.
    const std::vector<std::uint32_t> words = immediate_words(imm);
    for (std::size_t w = 0; w < words.size(); ++w) {
      const std::uint32_t id = spec.value[0] + std::uint32_t(w);
      ASSERT_LT(id, forms.data.size());
      EXPECT_EQ(forms.data[id], words[w]) << int(imm.name);
      EXPECT_EQ(forms.entries[id].constantID, id);
      EXPECT_EQ(forms.entries[id].offset, id * 4);
    }
    const auto fallback = parameter_default(imm.name);
    differing += !std::equal(words.begin(), words.end(), fallback.begin());
  }
  // The state matters: the alpha test, fog and clip planes are on.
  for (const ShaderParameter& p : forms.immediate) {
    if (p.name == ParameterName::ALPHA_TEST_FUNC) {
      EXPECT_NE(p.value[0], std::uint32_t(KILN_COMPARE_ALWAYS));
      EXPECT_NE(p.value[0], std::uint32_t(KILN_COMPARE_NEVER));
    }
    if (p.name == ParameterName::FOG_FRAGMENT_MODE || p.name == ParameterName::CLIP_PLANE_MASK) {
      EXPECT_NE(p.value[0], 0u);
    }
  }
  EXPECT_GE(differing, forms.immediate.size() - 2); // FOG_SOURCE and POINT_SPRITE may be default
  // Another seed, another state.
  EXPECT_NE(seeded_render_state(8, false).data, forms.data);
}

TEST(ExecuteD3D9, CorruptedStateDiffersInEveryParameter) {
  const RenderStateForms good = seeded_render_state(7, false);
  const RenderStateForms bad = seeded_render_state(7, true);
  ASSERT_EQ(good.data.size(), bad.data.size());
  for (const ShaderParameter& spec : good.specialized) {
    const std::size_t n = spec.data_type == ParameterDataType::F32_VEC4 ? 4 : 1;
    bool differs = false;
    for (std::size_t w = 0; w < n; ++w)
      differs |= good.data[spec.value[0] + w] != bad.data[spec.value[0] + w];
    EXPECT_TRUE(differs) << int(spec.name);
  }
  // Only the specialization data is corrupted: the immediate form is the same.
  for (std::size_t i = 0; i < good.immediate.size(); ++i)
    EXPECT_EQ(good.immediate[i].value, bad.immediate[i].value);
}

TEST(ExecuteD3D9, ModelFromTheVersionToken) {
  const std::vector<std::uint8_t> vs20 = {0x00, 0x02, 0xfe, 0xff}, ps14 = {0x04, 0x01, 0xff, 0xff},
                                  dxbc = {'D', 'X', 'B', 'C'};
  EXPECT_EQ(d3d9_model(vs20), "vs_2_0");
  EXPECT_EQ(d3d9_model(ps14), "ps_1_4");
  EXPECT_EQ(d3d9_model(dxbc), "");
  EXPECT_EQ(d3d9_model(std::vector<std::uint8_t>{0x01, 0x02, 0xff, 0xff}), "ps_2_x");
  EXPECT_EQ(d3d9_model(std::vector<std::uint8_t>{0xff, 0x03, 0xfe, 0xff}), "vs_3_sw");
}

// vs_3_0 `dcl_position o0; mov o0, c0`: no output with a semantic but the position (whose
// reflection has none), so a stream output names nothing of it.
std::vector<std::uint8_t> position_only_vs() {
  const std::uint32_t tokens[] = {0xfffe0300, 0x0200001f, 0x80000000, 0xe00f0000,
                                  0x02000001, 0xe00f0000, 0xa0e40000, 0x0000ffff};
  std::vector<std::uint8_t> bytes(sizeof tokens);
  std::memcpy(bytes.data(), tokens, sizeof tokens);
  return bytes;
}

std::vector<std::uint32_t> translate_vs(const std::vector<std::uint8_t>& bytes) {
  TranslateOptions options;
  options.target = SpirvTarget::Vulkan10;
  auto interface = std::make_shared<ShaderInterface>();
  interface->extensions = extension_bit(Extension::TransformFeedback);
  interface->parameters = seeded_render_state(7, false).immediate;
  options.interface = interface;
  Translator translator;
  TranslateResult result;
  EXPECT_TRUE(translator.translate(bytes, options, result));
  return result.spirv;
}

bool has_decoration(const std::vector<std::uint32_t>& spirv, spv::Decoration decoration) {
  for (std::size_t at = 5; at < spirv.size() && (spirv[at] >> 16); at += spirv[at] >> 16)
    if ((spirv[at] & 0xffff) == spv::OpDecorate && spirv[at + 2] == std::uint32_t(decoration))
      return true;
  return false;
}

// A vertex module that captures nothing yet gets transform feedback for its Position,
// PointSize and clip distances, and stays valid; one without them is left alone.
TEST(ExecuteD3D9, BuiltInsAreCapturedWithoutAStreamOutput) {
  std::vector<std::uint32_t> spirv = translate_vs(position_only_vs());
  ASSERT_FALSE(spirv.empty());
  ASSERT_FALSE(has_decoration(spirv, spv::DecorationXfbStride));
  const CapturedBuiltins captured = capture_vertex_builtins(spirv);
  EXPECT_TRUE(captured.position);
  EXPECT_GT(captured.clip_distances, 0); // the seeded state enables some clip planes
  EXPECT_EQ(captured.words(), 5u + std::uint32_t(captured.clip_distances));
  EXPECT_TRUE(has_decoration(spirv, spv::DecorationXfbStride));
  const Status valid = validate_spirv(spirv, SpirvTarget::Vulkan10);
  EXPECT_TRUE(valid) << valid.message();

  // vs_3_0 with no instruction writes no position, so no point size either.
  const std::uint32_t empty_tokens[] = {0xfffe0300, 0x0000ffff};
  std::vector<std::uint8_t> empty(sizeof empty_tokens);
  std::memcpy(empty.data(), empty_tokens, sizeof empty_tokens);
  std::vector<std::uint32_t> untouched = translate_vs(empty);
  const std::vector<std::uint32_t> before = untouched;
  EXPECT_EQ(capture_vertex_builtins(untouched).words(), 0u);
  EXPECT_EQ(untouched, before);
}

// The position-only shader runs, its Position compared between the two forms (4 words a
// vertex on top of the fog varying, the point size and the clip distances).
TEST(ExecuteD3D9, PositionOnlyVertexShaderIsCompared) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("kiln-execute-position-" + std::to_string(::getpid()) + ".d3d9");
  {
    const std::vector<std::uint8_t> bytes = position_only_vs();
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  ExecuteOptions options;
  options.paths = {file.string()};
  options.progress = false;
  const ExecuteSummary summary = run_execute(options);
  std::filesystem::remove(file);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), 1u);
  const ShaderRecord& r = summary.records[0];
  EXPECT_EQ(r.verdict, Verdict::Match) << verdict_name(r.verdict) << ": " << r.reason;
  // 4 vertices x (Position 4 + fog 4 + PointSize 1 + at least one clip distance).
  EXPECT_GE(r.words_compared, 4u * 10u);
  EXPECT_EQ(r.words_compared % 4, 0u);
}

// Corpus shaders of each model, whose outputs the render state changes (fog, alpha test, fog
// source, clip distances and point size).
const char* const kSubset[] = {
#include "d3d9_subset.inc"
};

ExecuteSummary run_subset(bool corrupt) {
  ExecuteOptions options;
  for (const char* name : kSubset) options.paths.push_back((corpus_dir() / "d3d9" / name).string());
  options.progress = false;
  options.corrupt_kiln = corrupt;
  return run_execute(options);
}

TEST(ExecuteD3D9, CorpusSubsetFormsAgree) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  const ExecuteSummary summary = run_subset(false);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), std::size(kSubset));
  for (const ShaderRecord& r : summary.records) {
    EXPECT_TRUE(r.d3d9) << r.file;
    EXPECT_EQ(r.verdict, Verdict::Match)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
    EXPECT_GT(r.words_compared, 0u) << r.file;
  }
}

TEST(ExecuteD3D9, BrokenSpecializationIsCaught) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  const ExecuteSummary summary = run_subset(true);
  if (!summary.setup_error.empty()) KILN_SKIP_OR_FAIL_IN_CI(summary.setup_error);
  ASSERT_EQ(summary.records.size(), std::size(kSubset));
  for (const ShaderRecord& r : summary.records)
    EXPECT_EQ(r.verdict, Verdict::Differ)
        << r.file << ": " << verdict_name(r.verdict) << ": " << r.reason;
}

} // namespace
} // namespace kiln::test
