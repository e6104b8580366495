// D3D9 -> IR converter: hand-assembled token streams (the IR must validate and contain the ops
// the mapping promises) and the whole corpus (no crash, IR validates, rejection histogram).
#include "tests/support/shared_data.h"
#include "translator/d3d9/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace kiln::d3d9 {
namespace {

// Token assembly (d3d9types.h layout).
enum Reg : std::uint32_t {
  R = 0,
  V = 1,
  C = 2,
  A = 3,
  RastOut = 4,
  AttrOut = 5,
  TexOut = 6,
  I = 7,
  OC = 8,
  S = 10,
  B = 14,
  AL = 15,
  P = 19
};
constexpr std::uint32_t kXYZW = 0xE4;

std::uint32_t reg_bits(std::uint32_t type, std::uint32_t index) {
  return 0x80000000u | index | ((type & 7u) << 28) | ((type >> 3) << 11);
}
std::uint32_t dst(std::uint32_t type, std::uint32_t index, std::uint32_t mask = 0xF,
                  std::uint32_t mod = 0) {
  return reg_bits(type, index) | (mask << 16) | (mod << 20);
}
std::uint32_t src(std::uint32_t type, std::uint32_t index, std::uint32_t swizzle = kXYZW,
                  std::uint32_t mod = 0) {
  return reg_bits(type, index) | (swizzle << 16) | (mod << 24);
}
std::uint32_t ins(std::uint32_t opcode, std::uint32_t length, std::uint32_t control = 0) {
  return opcode | (control << 16) | (length << 24);
}
std::uint32_t fbits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
std::uint32_t dcl_token(std::uint32_t usage, std::uint32_t index = 0, std::uint32_t tex = 0) {
  return 0x80000000u | usage | (index << 16) | (tex << 27);
}

struct Result {
  Status status;
  std::string text;
  bool has(const std::string& op) const { return text.find(" " + op) != std::string::npos; }
};

Result convert(const std::vector<std::uint32_t>& tokens, ConvertOptions options = {}) {
  std::vector<std::uint8_t> bytes(tokens.size() * 4);
  std::memcpy(bytes.data(), tokens.data(), bytes.size());
  Converter converter;
  ir::Builder builder;
  Result r;
  r.status = converter.convert(bytes, options, builder);
  if (r.status) {
    Status v = ir::validate(builder);
    EXPECT_TRUE(v) << v.message() << "\n" << ir::print(builder);
    r.text = ir::print(builder);
  }
  return r;
}

TEST(D3d9Convert, VertexTransformAndColour) {
  // vs_2_0: dcl_position v0; m4x4 oPos, v0, c0; mov oD0, c4; mov oT0.xy, v0
  Result r = convert({0xFFFE0200, ins(31, 2), dcl_token(0), dst(V, 0), ins(20, 3), dst(RastOut, 0),
                      src(V, 0), src(C, 0), ins(1, 2), dst(AttrOut, 0), src(C, 4), ins(1, 2),
                      dst(TexOut, 0, 0x3), src(V, 0), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("DclOutputBuiltIn vec4<f32> %")) << r.text;
  EXPECT_TRUE(r.has("FMadLegacy")) << r.text; // m4x4 = 4 legacy dot products
  EXPECT_TRUE(r.has("BufferLoad vec4<f32>")) << r.text;
  EXPECT_NE(r.text.find("\"Position\""), std::string::npos) << r.text; // input semantic
  EXPECT_NE(r.text.find("\"Color\""), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("\"TexCoord\""), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("vec4<f32>[5]"), std::string::npos) << r.text; // c0..c4
  EXPECT_TRUE(r.has("FClamp")) << r.text; // oD0 is clamped to [0, 1] before SM3
}

TEST(D3d9Convert, LegacyMultiplyIsAnOption) {
  std::vector<std::uint32_t> tokens = {0xFFFE0200, ins(31, 2), dcl_token(0),
                                       dst(V, 0),  ins(5, 3),  dst(RastOut, 0),
                                       src(V, 0),  src(C, 0),  0x0000FFFF};
  ConvertOptions ieee;
  ieee.legacy_multiply = false;
  Result legacy = convert(tokens), plain = convert(tokens, ieee);
  ASSERT_TRUE(legacy.status && plain.status);
  EXPECT_TRUE(legacy.has("FMulLegacy"));
  EXPECT_FALSE(plain.has("FMulLegacy"));
  EXPECT_TRUE(plain.has("FMul"));
}

TEST(D3d9Convert, PixelShader20Sample) {
  // ps_2_0: dcl t0.xy; dcl_2d s0; texld r0, t0, s0; texkill r0; mov oC0, r0
  Result r = convert({0xFFFF0200, ins(31, 2), 0x80000000u, dst(A, 0, 0x3), ins(31, 2),
                      dcl_token(0, 0, 2), dst(S, 0), ins(66, 3), dst(R, 0), src(A, 0), src(S, 0),
                      ins(65, 1), dst(R, 0), ins(1, 2), dst(OC, 0), src(R, 0), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("ImageSample")) << r.text;
  EXPECT_TRUE(r.has("DclSrv f32 %2 0 0 1 Image2D")) << r.text;
  EXPECT_TRUE(r.has("DclSampler")) << r.text;
  EXPECT_TRUE(r.has("Demote")) << r.text;
  EXPECT_TRUE(r.has("ScopedIf")) << r.text;
}

TEST(D3d9Convert, PixelShader11TexAndCoissue) {
  // ps_1_1: tex t0; mul r0.rgb, t0, v0; +mov r0.a, t0
  Result r = convert({0xFFFF0101, 66, dst(A, 0), 5, dst(R, 0, 0x7), src(A, 0), src(V, 0),
                      0x40000001, dst(R, 0, 0x8), src(A, 0), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("ImageSample")) << r.text;
  EXPECT_TRUE(r.has("OutputStore")) << r.text;
  EXPECT_NE(r.text.find("\"TexCoord\""), std::string::npos) << r.text;
}

TEST(D3d9Convert, PixelShader14PhaseAndBem) {
  // ps_1_4: texcrd r0.xyz, t0; texld r1, t1; phase; bem r2.xy, r0, r1; texkill c0 is not
  // allowed in 1.4, so: mov r0, r2
  Result r =
      convert({0xFFFF0104, 64, dst(R, 0, 0x7), src(A, 0), 66, dst(R, 1), src(A, 1), 0xFFFD, 89,
               dst(R, 2, 0x3), src(R, 0), src(R, 1), 1, dst(R, 0), src(R, 2), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("ImageSample")) << r.text;
  EXPECT_NE(r.text.find("DclCbv vec4<f32>[16] %2 0 3 1"), std::string::npos) << r.text; // bumpenv
  EXPECT_TRUE(r.has("OutputStore")) << r.text;
}

TEST(D3d9Convert, PixelShader11TextureMatrixSpecular) {
  // ps_1_1: tex t0; texm3x3pad t1, t0; texm3x3pad t2, t0; texm3x3spec t3, t0, c0; mov r0, t3
  Result r = convert({0xFFFF0101, 66, dst(A, 0), 73, dst(A, 1), src(A, 0), 73, dst(A, 2), src(A, 0),
                      76, dst(A, 3), src(A, 0), src(C, 0), 1, dst(R, 0), src(A, 3), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("DclSrv f32 %2 0 3 1 ImageCube")) << r.text;
  EXPECT_TRUE(r.has("DclSrv f32 %2 0 0 1 Image2D")) << r.text;
  EXPECT_TRUE(r.has("FDiv")) << r.text; // the reflection divides by dot(N, N)
  // A texm3x3tex without its pad rows is rejected by name.
  Result bad = convert({0xFFFF0101, 66, dst(A, 0), 74, dst(A, 1), src(A, 0), 0x0000FFFF});
  ASSERT_FALSE(bad.status);
  EXPECT_NE(bad.status.message().find("texm3x3tex"), std::string::npos) << bad.status.message();
}

TEST(D3d9Convert, TexkillOfAConstant) {
  // ps_2_0: texkill c0 (HLSL clip() of a uniform); mov oC0, c1
  Result r =
      convert({0xFFFF0200, ins(65, 1), dst(C, 0), ins(1, 2), dst(OC, 0), src(C, 1), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("Demote")) << r.text;
  EXPECT_TRUE(r.has("FLt")) << r.text;
}

TEST(D3d9Convert, RepWithDefi) {
  // vs_3_0: dcl_position v0; dcl_position o0; defi i0, 3,0,0,0; mov r0, v0;
  // rep i0; add r0, r0, c0; endrep; mov o0, r0
  Result r = convert({0xFFFE0300,
                      ins(31, 2),
                      dcl_token(0),
                      dst(V, 0),
                      ins(31, 2),
                      dcl_token(0),
                      dst(TexOut, 0),
                      ins(48, 5),
                      dst(I, 0),
                      3,
                      0,
                      0,
                      0,
                      ins(1, 2),
                      dst(R, 0),
                      src(V, 0),
                      ins(38, 1),
                      src(I, 0),
                      ins(2, 3),
                      dst(R, 0),
                      src(R, 0),
                      src(C, 0),
                      ins(39, 0),
                      ins(1, 2),
                      dst(TexOut, 0),
                      src(R, 0),
                      0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("ScopedLoop")) << r.text;
  EXPECT_TRUE(r.has("ScopedLoopBreak")) << r.text;
  EXPECT_TRUE(r.has("ScopedEndLoop")) << r.text;
  EXPECT_TRUE(r.has("SGe")) << r.text;
}

TEST(D3d9Convert, RelativeConstantFallsBackToDef) {
  // vs_2_0: def c2, 1,2,3,4; dcl_position v0; mova a0.x, v0.x; mov oPos, c[a0.x + 1]
  Result r =
      convert({0xFFFE0200, ins(81, 5), dst(C, 2), fbits(1), fbits(2), fbits(3), fbits(4),
               ins(31, 2), dcl_token(0), dst(V, 0), ins(46, 2), dst(A, 0, 0x1), src(V, 0, 0x00),
               ins(1, 3), dst(RastOut, 0), src(C, 1) | 0x2000, src(A, 0, 0x00), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("ConstantLoad")) << r.text; // the def'd register wins
  EXPECT_TRUE(r.has("ULt")) << r.text;          // out of range reads 0
  EXPECT_TRUE(r.has("FRound")) << r.text;       // mova rounds
  EXPECT_NE(r.text.find("vec4<f32>[256]"), std::string::npos) << r.text;
}

TEST(D3d9Convert, RelativeConstantDefArrayStartsAtTheLowestDef) {
  // vs_2_0: def c243, 1,2,3,4; def c245, ...; mova a0.x, v0.x; mov oPos, c[a0.x + 1]. The
  // constant copy holds c243-c245 (three registers), not all 246 from c0: lavapipe took 20 s
  // to compile a corpus shader whose copy began at c0 (docs/execution.md, "D3D9 shaders").
  Result r =
      convert({0xFFFE0200,      ins(81, 5),         dst(C, 243),     fbits(1),        fbits(2),
               fbits(3),        fbits(4),           ins(81, 5),      dst(C, 245),     fbits(5),
               fbits(6),        fbits(7),           fbits(8),        ins(31, 2),      dcl_token(0),
               dst(V, 0),       ins(46, 2),         dst(A, 0, 0x1),  src(V, 0, 0x00), ins(1, 3),
               dst(RastOut, 0), src(C, 1) | 0x2000, src(A, 0, 0x00), 0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_NE(r.text.find("Constant vec4<f32>[3]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("Constant u32[3]"), std::string::npos) << r.text; // flags: c244 is not
  EXPECT_TRUE(r.has("ISub")) << r.text; // the register's place in the copy
  EXPECT_EQ(r.text.find("vec4<f32>[246]"), std::string::npos) << r.text;
}

TEST(D3d9Convert, SubroutineIfAndPredicate) {
  // vs_2_x: dcl_position v0; setp_gt p0, v0, c0; if b0; call l1; endif;
  // (p0) mov oPos, v0; ret; label l1; mov oD0, c1; ret
  Result r = convert({0xFFFE0201,      ins(31, 2),
                      dcl_token(0),    dst(V, 0),
                      ins(94, 3, 1),   dst(P, 0),
                      src(V, 0),       src(C, 0),
                      ins(40, 1),      src(B, 0),
                      ins(25, 1),      src(18, 1),
                      ins(43, 0),      ins(1, 3) | 0x10000000,
                      dst(RastOut, 0), src(P, 0),
                      src(V, 0),       ins(28, 0),
                      ins(30, 1),      src(18, 1),
                      ins(1, 2),       dst(AttrOut, 0),
                      src(C, 1),       ins(28, 0),
                      0x0000FFFF});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_TRUE(r.has("FGt")) << r.text;
  EXPECT_TRUE(r.has("Select")) << r.text; // predicated write
  EXPECT_TRUE(r.has("IAnd")) << r.text;   // b0 from the boolean bank
  EXPECT_NE(r.text.find("vec4<u32>[1]"), std::string::npos) << r.text;
}

TEST(D3d9Convert, RejectionsNameTheCause) {
  // Truncated stream.
  Result r = convert({0xFFFE0200, ins(1, 2), dst(R, 0)});
  EXPECT_FALSE(r.status);
  EXPECT_NE(r.status.message().find("token"), std::string::npos) << r.status.message();
  // break outside a loop (vs_2_x).
  r = convert({0xFFFE0201, ins(44, 0), 0x0000FFFF});
  ASSERT_FALSE(r.status);
  EXPECT_NE(r.status.message().find("break outside a loop"), std::string::npos)
      << r.status.message();
  // An if left open.
  r = convert({0xFFFE0201, ins(40, 1), src(B, 0), 0x0000FFFF});
  EXPECT_FALSE(r.status);
}

TEST(D3d9Convert, Corpus) {
  auto dir = test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = test::files_with_extension(dir / "d3d9", ".d3d9");
  ASSERT_FALSE(files.empty());
  Converter converter;
  ir::Builder builder;
  std::map<std::string, std::pair<int, std::string>> rejections; // count, first file
  std::size_t ok = 0;
  for (const auto& f : files) {
    auto bytes = test::read_bytes(f);
    builder.reset();
    Status s = converter.convert(bytes, {}, builder);
    if (!s) {
      std::string m = s.message();
      if (m.rfind("token ", 0) == 0) m = m.substr(m.find(": ") + 2);
      auto& entry = rejections[m];
      if (entry.first++ == 0) entry.second = f.filename().string();
      continue;
    }
    Status v = ir::validate(builder);
    EXPECT_TRUE(v) << f << ": " << v.message();
    ++ok;
  }
  std::printf("converted %zu of %zu\n", ok, files.size());
  for (const auto& [m, n] : rejections)
    std::printf("  %4d  %s (%s)\n", n.first, m.c_str(), n.second.c_str());
  EXPECT_GE(double(ok), 0.995 * double(files.size()));
}

// Hand-assembled shaders (tests/translator/d3d9/data) that exercise what the corpus has little of:
// each converts, validates, and goes through the whole pass pipeline.
TEST(D3d9Convert, CoverageShadersThroughPasses) {
  auto files = test::files_with_extension(KILN_D3D9_TEST_DATA, ".d3d9");
  ASSERT_GE(files.size(), 10u);
  Converter converter;
  passes::Pipeline pipeline;
  passes::PipelineOptions options;
  options.validate_each_pass = true;
  ir::Builder builder;
  for (const auto& f : files) {
    auto bytes = test::read_bytes(f);
    builder.reset();
    Status s = converter.convert(bytes, {}, builder);
    ASSERT_TRUE(s) << f << ": " << s.message();
    Status v = ir::validate(builder);
    ASSERT_TRUE(v) << f << ": " << v.message();
    Status p = pipeline.run(builder, options);
    EXPECT_TRUE(p) << f << ": " << p.message();
  }
}

// Damaged shaders (random bytes changed, deterministic seed): a clean rejection or IR that
// validates, never a crash (run it under ASan/UBSan: it is labelled SANITIZE-worthy).
TEST(D3d9Convert, MutatedCorpusIsRejectedOrValid) {
  auto dir = test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = test::files_with_extension(dir / "d3d9", ".d3d9");
  Converter converter;
  ir::Builder builder;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::size_t accepted = 0, rejected = 0;
  for (const auto& f : files) {
    const auto original = test::read_bytes(f);
    if (original.size() < 12) continue;
    for (int round = 0; round < 6; ++round) {
      auto bytes = original;
      const int changes = 1 + int(next() % 3);
      for (int k = 0; k < changes; ++k)
        bytes[4 + next() % (bytes.size() - 8)] = std::uint8_t(next()); // keep version and end
      builder.reset();
      Status s = converter.convert(bytes, {}, builder);
      if (!s) {
        ++rejected;
        EXPECT_FALSE(s.message().empty());
        continue;
      }
      ++accepted;
      Status v = ir::validate(builder);
      EXPECT_TRUE(v) << f << " round " << round << ": " << v.message();
    }
  }
  std::printf("mutated: %zu accepted (IR validated), %zu rejected\n", accepted, rejected);
  EXPECT_GT(accepted + rejected, 0u);
}

// The converter's output through the pass pipeline (validated after every pass): the scoped
// form it emits is what the passes accept.
TEST(D3d9Convert, CorpusThroughPasses) {
  auto dir = test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = test::files_with_extension(dir / "d3d9", ".d3d9");
  Converter converter;
  passes::Pipeline pipeline;
  passes::PipelineOptions options;
  options.validate_each_pass = true;
  ir::Builder builder;
  std::map<std::string, std::pair<int, std::string>> failures;
  std::size_t converted = 0, passed = 0;
  for (const auto& f : files) {
    auto bytes = test::read_bytes(f);
    builder.reset();
    if (!converter.convert(bytes, {}, builder)) continue;
    ++converted;
    Status s = pipeline.run(builder, options);
    if (s) {
      ++passed;
      continue;
    }
    std::string m = s.message().substr(0, 160);
    auto& entry = failures[m];
    if (entry.first++ == 0) entry.second = f.filename().string();
  }
  std::printf("passes accepted %zu of %zu converted\n", passed, converted);
  for (const auto& [m, n] : failures)
    std::printf("  %4d  %s (%s)\n", n.first, m.c_str(), n.second.c_str());
  EXPECT_EQ(passed, converted);
}

} // namespace
} // namespace kiln::d3d9
