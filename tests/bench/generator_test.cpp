// The synthetic corpus: deterministic, detected as what it claims to be, accepted by vkd3d
// when vkd3d-compiler is installed, and shaped like real corpora.

#include "bench/inputs.h"
#include "bench/stats.h"
#include "bench/synth/dxbc_writer.h"
#include "bench/synth/synthetic_corpus.h"
#include "tests/support/shared_data.h"
#include "translator/d3d9/reader.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/reader.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <unistd.h>

namespace kiln::synth {
namespace {

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

// Program length in tokens: the SHDR/SHEX length token, or the whole D3D9 stream.
std::uint32_t program_tokens(const SyntheticShader& shader) {
  if (shader.kind == InputKind::D3D9) return std::uint32_t(shader.bytes.size() / 4);
  const std::uint32_t chunks = u32_at(shader.bytes, 28);
  for (std::uint32_t i = 0; i < chunks; ++i) {
    const std::uint32_t offset = u32_at(shader.bytes, 32 + 4 * i);
    const std::uint32_t tag = u32_at(shader.bytes, offset);
    if (tag == dxbc::fourcc('S', 'H', 'D', 'R') || tag == dxbc::fourcc('S', 'H', 'E', 'X'))
      return u32_at(shader.bytes, offset + 12);
  }
  return 0;
}

// Walks a D3D9 stream by its length fields: every instruction and comment must fit and the
// end token must be the last token.
bool d3d9_well_formed(const std::vector<std::uint8_t>& bytes, std::string& why) {
  const std::size_t count = bytes.size() / 4;
  std::size_t at = 1;
  while (at < count) {
    const std::uint32_t token = u32_at(bytes, 4 * at);
    if (token == 0x0000ffff) {
      if (at + 1 != count) why = "end token before the end";
      return at + 1 == count;
    }
    const std::size_t length =
        (token & 0xffff) == 0xfffe ? (token >> 16) & 0x7fff : (token >> 24) & 0xf;
    if (token & 0x80000000u) {
      why = "parameter token where an instruction was expected at " + std::to_string(at);
      return false;
    }
    for (std::size_t p = 1; (token & 0xffff) != 0xfffe && p <= length; ++p) {
      const std::uint32_t param = u32_at(bytes, 4 * (at + p));
      const std::uint32_t op = token & 0xffff;
      const bool literal = (op == 81 || op == 48 || op == 47) && p > 1; // def/defi/defb values
      if (!literal && !(param & 0x80000000u)) {
        why = "parameter without bit 31 at " + std::to_string(at + p);
        return false;
      }
    }
    at += 1 + length;
  }
  why = "no end token";
  return false;
}

TEST(SyntheticCorpus, SameSeedSameBytes) {
  CorpusOptions options;
  options.seed = 7;
  options.count = 80;
  const auto a = generate_corpus(options);
  const auto b = generate_corpus(options);
  ASSERT_EQ(a.size(), 80u);
  ASSERT_EQ(b.size(), 80u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].bytes, b[i].bytes) << a[i].name;
  }
  options.seed = 8;
  const auto c = generate_corpus(options);
  std::size_t different = 0;
  for (std::size_t i = 0; i < a.size(); ++i) different += a[i].bytes != c[i].bytes;
  EXPECT_GT(different, 70u);
}

TEST(SyntheticCorpus, ShaderDoesNotDependOnCorpusSize) {
  CorpusOptions small, large;
  small.count = 10;
  large.count = 50;
  const auto a = generate_corpus(small);
  const auto b = generate_corpus(large);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].bytes, b[i].bytes);
}

TEST(SyntheticCorpus, DetectedAsTheKindAndStageItClaims) {
  CorpusOptions options;
  options.count = 300;
  for (const SyntheticShader& shader : generate_corpus(options)) {
    EXPECT_EQ(detect_input_kind(shader.bytes).kind, shader.kind) << shader.name;
    EXPECT_EQ(bench::detect_stage(shader.bytes, shader.kind), shader.stage) << shader.name;
    if (shader.kind == InputKind::Dxbc) {
      const auto checksum = dxbc::container_checksum(shader.bytes);
      EXPECT_EQ(std::memcmp(checksum.data(), shader.bytes.data() + 4, 16), 0) << shader.name;
      EXPECT_EQ(u32_at(shader.bytes, 24), shader.bytes.size()) << shader.name;
    } else {
      std::string why;
      EXPECT_TRUE(d3d9_well_formed(shader.bytes, why)) << shader.name << ": " << why;
    }
  }
}

TEST(SyntheticCorpus, ShapedLikeRealCorpora) {
  CorpusOptions options;
  options.count = 1500;
  std::vector<double> dxbc_tokens, d3d9_tokens;
  std::size_t stages[std::size_t(ShaderStage::Count)] = {};
  for (const SyntheticShader& shader : generate_corpus(options)) {
    (shader.kind == InputKind::Dxbc ? dxbc_tokens : d3d9_tokens)
        .push_back(double(program_tokens(shader)));
    if (shader.kind == InputKind::Dxbc) ++stages[std::size_t(shader.stage)];
  }
  const double dxbc = double(dxbc_tokens.size());
  EXPECT_NEAR(d3d9_tokens.size() / double(options.count), 0.33, 0.05);
  EXPECT_NEAR(bench::percentile(dxbc_tokens, 50), 70, 35);
  EXPECT_NEAR(bench::percentile(dxbc_tokens, 90), 1200, 500);
  EXPECT_LE(bench::percentile(dxbc_tokens, 100), kDxbcMaxTokens + 200);
  EXPECT_NEAR(bench::percentile(d3d9_tokens, 50), 85, 35);
  EXPECT_NEAR(bench::percentile(d3d9_tokens, 90), 600, 250);
  EXPECT_NEAR(stages[std::size_t(ShaderStage::Pixel)] / dxbc, 0.65, 0.05);
  EXPECT_NEAR(stages[std::size_t(ShaderStage::Vertex)] / dxbc, 0.20, 0.05);
  EXPECT_NEAR(stages[std::size_t(ShaderStage::Compute)] / dxbc, 0.10, 0.04);
  const double tessellation_and_geometry = stages[std::size_t(ShaderStage::Geometry)] +
                                           stages[std::size_t(ShaderStage::Hull)] +
                                           stages[std::size_t(ShaderStage::Domain)];
  EXPECT_NEAR(tessellation_and_geometry / dxbc, 0.05, 0.03);
  EXPECT_GT(stages[std::size_t(ShaderStage::Hull)], 0u);
  EXPECT_GT(stages[std::size_t(ShaderStage::Domain)], 0u);
}

TEST(DxbcChecksum, MatchesRealContainers) {
  const std::filesystem::path corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "../shared/corpus");
  const auto files = test::files_with_extension(corpus / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < files.size() && checked < 200; i += 7, ++checked) {
    const std::vector<std::uint8_t> bytes = test::read_bytes(files[i]);
    ASSERT_GE(bytes.size(), 32u);
    const auto checksum = dxbc::container_checksum(bytes);
    EXPECT_EQ(std::memcmp(checksum.data(), bytes.data() + 4, 16), 0) << files[i];
  }
}

std::string find_vkd3d_compiler() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
    const std::string path = std::string(dir) + "/vkd3d-compiler";
    if (std::filesystem::exists(path)) return path;
  }
  return {};
}

TEST(SyntheticCorpus, AcceptedByVkd3dCompiler) {
  const std::string compiler = find_vkd3d_compiler();
  if (compiler.empty()) GTEST_SKIP() << "vkd3d-compiler not installed (package vkd3d-compiler)";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kiln_bench_vkd3d_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  CorpusOptions options;
  options.count = 120;
  options.seed = 3;
  std::size_t checked = 0;
  for (const SyntheticShader& shader : generate_corpus(options)) {
    if (shader.kind != InputKind::Dxbc) continue;
    const auto file = dir / "shader.dxbc";
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(shader.bytes.data()),
               std::streamsize(shader.bytes.size()));
    const std::string command = compiler + " -x dxbc-tpf -b spirv-binary -o " +
                                (dir / "out.spv").string() + " " + file.string() + " >" +
                                (dir / "log").string() + " 2>&1";
    const int rc = std::system(command.c_str());
    std::ifstream log(dir / "log");
    const std::string messages((std::istreambuf_iterator<char>(log)), {});
    EXPECT_EQ(rc, 0) << shader.name << ": " << messages;
    ++checked;
  }
  EXPECT_GT(checked, 50u);
  std::filesystem::remove_all(dir);
}

// The generated bytecode must also decode with kiln's own front-end readers (container,
// signatures, every SM4/5 instruction; every D3D9 instruction valid in its shader model).
TEST(SyntheticCorpus, DecodedByKilnsReaders) {
  CorpusOptions options;
  options.count = 400;
  options.seed = 11;
  ::kiln::dxbc::Container container;
  ::kiln::dxbc::Program dxbc_program;
  ::kiln::d3d9::Program d3d9_program;
  for (const SyntheticShader& shader : generate_corpus(options)) {
    if (shader.kind == InputKind::Dxbc) {
      const Status parsed = ::kiln::dxbc::parse_container(shader.bytes, container);
      ASSERT_TRUE(parsed.is_ok()) << shader.name << ": " << parsed.message();
      EXPECT_TRUE(container.checksum_ok) << shader.name;
      const Status decoded = ::kiln::dxbc::decode_program(container.program, dxbc_program);
      EXPECT_TRUE(decoded.is_ok()) << shader.name << ": " << decoded.message();
    } else {
      const Status decoded = ::kiln::d3d9::decode(shader.bytes, d3d9_program);
      EXPECT_TRUE(decoded.is_ok()) << shader.name << ": " << decoded.message();
    }
  }
}

} // namespace
} // namespace kiln::synth
