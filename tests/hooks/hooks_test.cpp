// The d3d11/d3d9-shaped hooks: HRESULT codes, the stage check against the bytecode, stream
// output declarations, and the bounded D3D9 length scan.

#include "kiln/kiln_hooks.h"
#include "plugin/abi/abi_context.h"
#include "tests/support/shared_data.h"

#include <bit>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace kiln::test {
namespace {

using CreateShader = PFN_kiln_d3d11_create_shader;

const std::map<std::string, CreateShader>& d3d11_hooks() {
  static const std::map<std::string, CreateShader> hooks = {
      {"vs", &kiln_d3d11_create_vertex_shader}, {"hs", &kiln_d3d11_create_hull_shader},
      {"ds", &kiln_d3d11_create_domain_shader}, {"gs", &kiln_d3d11_create_geometry_shader},
      {"ps", &kiln_d3d11_create_pixel_shader},  {"cs", &kiln_d3d11_create_compute_shader},
  };
  return hooks;
}

struct ManifestEntry {
  std::filesystem::path path;
  std::string kind, group, stage;
};

std::vector<ManifestEntry> manifest(const std::filesystem::path& corpus) {
  std::ifstream in(corpus / "manifest.tsv");
  std::vector<ManifestEntry> entries;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    ManifestEntry entry;
    std::string file;
    std::getline(fields, file, '\t');
    std::getline(fields, entry.kind, '\t');
    std::getline(fields, entry.group, '\t');
    std::getline(fields, entry.stage, '\t');
    entry.path = corpus / file;
    entries.push_back(std::move(entry));
  }
  return entries;
}

class Hooks : public ::testing::Test {
 protected:
  void SetUp() override {
    kiln_context_create_info info{};
    info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    info.flags = KILN_CONTEXT_DISABLE_CACHE;
    info.thread_count = 1;
    info.log_callback = [](void*, kiln_log_level, const char*) {};
    ASSERT_EQ(kiln_context_create(&info, &context_), KILN_SUCCESS);
  }
  void TearDown() override { kiln_context_destroy(context_); }
  kiln_context* context_ = nullptr;
};

TEST_F(Hooks, D3D11StageIsCheckedAgainstTheBytecode) {
  const auto corpus = corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::map<std::string, int> per_stage;
  for (const ManifestEntry& entry : manifest(corpus)) {
    if (entry.kind != "dxbc" || entry.group != "valid" || per_stage[entry.stage] >= 8) continue;
    ++per_stage[entry.stage];
    const auto bytes = read_bytes(entry.path);
    for (const auto& [stage, hook] : d3d11_hooks()) {
      kiln_shader* shader = reinterpret_cast<kiln_shader*>(0x1);
      const kiln_hresult hr = hook(context_, bytes.data(), bytes.size(), &shader);
      if (stage == entry.stage) {
        EXPECT_EQ(hr, KILN_S_OK) << entry.path;
        ASSERT_NE(shader, nullptr);
        EXPECT_EQ(shader->job->bytecode.size(), bytes.size());
      } else {
        EXPECT_EQ(hr, KILN_E_INVALIDARG) << entry.path << " created as " << stage;
        EXPECT_EQ(shader, nullptr);
      }
      kiln_shader_release(shader);
    }
  }
  EXPECT_EQ(per_stage.size(), 6u) << "every D3D11 stage has corpus shaders";
}

TEST_F(Hooks, D3D11RejectsWhatIsNotDxbc) {
  const auto corpus = corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::size_t checked = 0;
  for (const ManifestEntry& entry : manifest(corpus)) {
    if (entry.kind == "dxbc" || checked >= 60) continue; // d3d9, dxil, effects, malformed
    if (entry.path.extension() == ".txt") continue;
    ++checked;
    const auto bytes = read_bytes(entry.path);
    for (const auto& [stage, hook] : d3d11_hooks()) {
      kiln_shader* shader = nullptr;
      const kiln_hresult hr = hook(context_, bytes.data(), bytes.size(), &shader);
      // A D3D9 vs/ps file is still refused by every d3d11 hook.
      EXPECT_EQ(hr, KILN_E_INVALIDARG) << entry.path << " as " << stage;
      kiln_shader_release(shader);
    }
  }
  EXPECT_GT(checked, 0u);
}

TEST_F(Hooks, D3D11ArgumentChecks) {
  const std::uint8_t bytes[] = {'D', 'X', 'B', 'C'};
  kiln_shader* shader = nullptr;
  EXPECT_EQ(kiln_d3d11_create_pixel_shader(nullptr, bytes, 4, &shader), KILN_E_INVALIDARG);
  EXPECT_EQ(kiln_d3d11_create_pixel_shader(context_, bytes, 4, nullptr), KILN_E_INVALIDARG);
  EXPECT_EQ(kiln_d3d11_create_pixel_shader(context_, nullptr, 100, &shader), KILN_E_INVALIDARG);
  EXPECT_EQ(kiln_d3d11_create_pixel_shader(context_, bytes, 0, &shader), KILN_E_INVALIDARG);
  EXPECT_EQ(kiln_d3d11_create_pixel_shader(context_, bytes, 4, &shader), KILN_E_INVALIDARG);
  EXPECT_EQ(shader, nullptr);
}

class StreamOutput : public Hooks {
 protected:
  void SetUp() override {
    Hooks::SetUp();
    const auto corpus = corpus_dir();
    if (corpus.empty()) KILN_SKIP_OR_FAIL_IN_CI("corpus not found");
    for (const ManifestEntry& entry : manifest(corpus)) {
      if (entry.kind != "dxbc" || entry.group != "valid") continue;
      if (entry.stage == "gs" && geometry_.empty()) geometry_ = read_bytes(entry.path);
      if (entry.stage == "ps" && pixel_.empty()) pixel_ = read_bytes(entry.path);
    }
    ASSERT_FALSE(geometry_.empty());
  }
  kiln_hresult create(const std::vector<std::uint8_t>& bytes,
                      std::vector<kiln_so_declaration_entry> entries,
                      std::vector<std::uint32_t> strides, std::uint32_t rasterized = 0) {
    kiln_shader* shader = nullptr;
    const kiln_hresult hr = kiln_d3d11_create_geometry_shader_with_stream_output(
        context_, bytes.data(), bytes.size(), entries.data(), std::uint32_t(entries.size()),
        strides.data(), std::uint32_t(strides.size()), rasterized, &shader);
    EXPECT_EQ(shader != nullptr, hr == KILN_S_OK);
    kiln_shader_release(shader);
    return hr;
  }
  std::vector<std::uint8_t> geometry_, pixel_;
};

TEST_F(StreamOutput, WithoutDeclarationsItIsAPlainGeometryShader) {
  EXPECT_EQ(create(geometry_, {}, {}), KILN_S_OK);
  EXPECT_EQ(create(geometry_, {}, {}, ~0u), KILN_S_OK);
  EXPECT_EQ(create(pixel_, {}, {}), KILN_E_INVALIDARG);
}

// The module has an OpExecutionMode ... Xfb.
bool has_xfb_mode(const std::vector<std::uint32_t>& words) {
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t count = words[i] >> 16;
    if (count == 0) return false;
    if ((words[i] & 0xffff) == 16 /* OpExecutionMode */ && count >= 3 &&
        words[i + 2] == 11 /* Xfb */)
      return true;
    i += count;
  }
  return false;
}

TEST_F(StreamOutput, DeclarationsBecomeTransformFeedback) {
  // The geometry shader's first output, as its reflection names it, captured whole.
  kiln_shader* plain = nullptr;
  ASSERT_EQ(kiln_d3d11_create_geometry_shader(context_, geometry_.data(), geometry_.size(), &plain),
            KILN_S_OK);
  ASSERT_EQ(kiln_wait(plain, ~0ull), KILN_SUCCESS);
  EXPECT_FALSE(has_xfb_mode(plain->job->result.spirv));
  ASSERT_FALSE(plain->job->result.reflection.outputs.empty());
  const SignatureElement first = plain->job->result.reflection.outputs[0];
  kiln_shader_release(plain);
  ASSERT_NE(first.component_mask, 0u);
  const kiln_so_declaration_entry entry{0,
                                        first.semantic.c_str(),
                                        first.semantic_index,
                                        std::uint8_t(std::countr_zero(first.component_mask)),
                                        std::uint8_t(std::popcount(first.component_mask)),
                                        0};
  const std::uint32_t stride = 4u * entry.component_count;
  kiln_shader* shader = nullptr;
  ASSERT_EQ(kiln_d3d11_create_geometry_shader_with_stream_output(
                context_, geometry_.data(), geometry_.size(), &entry, 1, &stride, 1, 0, &shader),
            KILN_S_OK)
      << first.semantic;
  ASSERT_EQ(kiln_wait(shader, ~0ull), KILN_SUCCESS) << kiln_shader_error(shader);
  EXPECT_TRUE(has_xfb_mode(shader->job->result.spirv)) << first.semantic;
  kiln_shader_release(shader);

  // A declaration naming no output of the shader fails its handle with the reason.
  const kiln_so_declaration_entry missing{0, "NO_SUCH_OUTPUT", 0, 0, 4, 0};
  ASSERT_EQ(kiln_d3d11_create_geometry_shader_with_stream_output(
                context_, geometry_.data(), geometry_.size(), &missing, 1, &stride, 1, 0, &shader),
            KILN_S_OK);
  EXPECT_EQ(kiln_wait(shader, ~0ull), KILN_ERROR_TRANSLATION_FAILED);
  EXPECT_NE(std::string(kiln_shader_error(shader)).find("matches no output"), std::string::npos)
      << kiln_shader_error(shader);
  kiln_shader_release(shader);
  EXPECT_EQ(create(geometry_, {}, {}, 2), KILN_S_OK); // the rasterized stream is pipeline state
}

TEST_F(StreamOutput, DeclarationsAreCheckedAsD3D11ChecksThem) {
  const kiln_so_declaration_entry position{0, "SV_Position", 0, 0, 4, 0};
  auto bad = position;
  bad.component_count = 0;
  EXPECT_EQ(create(geometry_, {bad}, {16}), KILN_E_INVALIDARG);
  bad = position;
  bad.start_component = 2; // 2 + 4 > 4
  EXPECT_EQ(create(geometry_, {bad}, {16}), KILN_E_INVALIDARG);
  bad = position;
  bad.stream = 4;
  EXPECT_EQ(create(geometry_, {bad}, {16}), KILN_E_INVALIDARG);
  bad = position;
  bad.output_slot = 4;
  EXPECT_EQ(create(geometry_, {bad}, {16}), KILN_E_INVALIDARG);
  EXPECT_EQ(create(geometry_, {position}, {18}), KILN_E_INVALIDARG);   // not a multiple of 4
  EXPECT_EQ(create(geometry_, {position}, {4096}), KILN_E_INVALIDARG); // above 2048
  EXPECT_EQ(create(geometry_, {position}, {16, 16, 16, 16, 16}), KILN_E_INVALIDARG);
  EXPECT_EQ(create(geometry_, {position}, {16}, 4), KILN_E_INVALIDARG); // no stream 4
  EXPECT_EQ(create(pixel_, {position}, {16}), KILN_E_INVALIDARG);
}

TEST_F(Hooks, D3D9LengthIsFoundByWalkingTheTokens) {
  const auto corpus = corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::size_t checked = 0;
  for (const ManifestEntry& entry : manifest(corpus)) {
    if (entry.kind != "d3d9" || entry.group != "valid" || checked >= 200) continue;
    ++checked;
    const auto bytes = read_bytes(entry.path);
    // What follows the shader in memory is not the shader's business: pad with junk that
    // contains an end token, so a scan that searched for 0x0000FFFF would stop wrongly.
    std::vector<std::uint32_t> tokens(bytes.size() / 4 + 64, 0x0000FFFFu);
    std::memcpy(tokens.data(), bytes.data(), bytes.size());
    const bool vertex = entry.stage == "vs";
    kiln_shader* shader = nullptr;
    const auto right = vertex ? &kiln_d3d9_create_vertex_shader : &kiln_d3d9_create_pixel_shader;
    const auto wrong = vertex ? &kiln_d3d9_create_pixel_shader : &kiln_d3d9_create_vertex_shader;
    ASSERT_EQ(right(context_, tokens.data(), &shader), KILN_D3D_OK) << entry.path;
    EXPECT_EQ(shader->job->bytecode, bytes) << entry.path << ": measured a different length";
    kiln_shader_release(shader);
    EXPECT_EQ(wrong(context_, tokens.data(), &shader), KILN_D3DERR_INVALIDCALL) << entry.path;
    EXPECT_EQ(shader, nullptr);
  }
  EXPECT_GT(checked, 100u);
}

TEST_F(Hooks, D3D9ScanIsBounded) {
  // vs_3_0 followed by nothing but nops: no end token within the bound.
  std::vector<std::uint32_t> tokens(KILN_D3D9_MAX_TOKENS + 64, 0u);
  tokens[0] = 0xFFFE0300u;
  kiln_shader* shader = nullptr;
  EXPECT_EQ(kiln_d3d9_create_vertex_shader(context_, tokens.data(), &shader),
            KILN_D3DERR_INVALIDCALL);
  EXPECT_EQ(shader, nullptr);
  EXPECT_EQ(kiln_d3d9_create_vertex_shader(context_, nullptr, &shader), KILN_D3DERR_INVALIDCALL);
  const std::uint32_t not_a_shader[] = {0x12345678u, 0x0000FFFFu};
  EXPECT_EQ(kiln_d3d9_create_pixel_shader(context_, not_a_shader, &shader),
            KILN_D3DERR_INVALIDCALL);
  EXPECT_EQ(kiln_d3d9_create_pixel_shader(nullptr, not_a_shader, &shader), KILN_D3DERR_INVALIDCALL);
}

} // namespace
} // namespace kiln::test
