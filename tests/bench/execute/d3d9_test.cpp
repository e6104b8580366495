// D3D9 shaders in the execution harness (bench/execute/d3d9.h): the seeded render state both
// forms are translated under, and corpus shaders of each model whose immediate and
// specialization-constant forms must give the same words, and must not once the specialized
// form is given other values than the immediate one.

#include "bench/execute/d3d9.h"
#include "tests/support/shared_data.h"

#include <algorithm>
#include <gtest/gtest.h>

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
