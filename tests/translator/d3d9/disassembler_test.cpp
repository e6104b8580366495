// `kiln disasm --source` for D3D9 on hand-written token streams: the conventional syntax.

#include "tests/translator/d3d9/token_builder.h"
#include "translator/d3d9/disassembler.h"

#include <gtest/gtest.h>

namespace kiln::d3d9 {
namespace {

using namespace test;

std::string disasm(const std::vector<std::uint32_t>& tokens) {
  std::string text;
  const auto bytes = to_bytes(tokens);
  Status status = disassemble(bytes, text);
  EXPECT_TRUE(status) << status.message();
  return text;
}

TEST(D3D9Disassembler, VertexShader3) {
  EXPECT_EQ(disasm({
                vs_version(3, 0),
                op(81, 5),
                dst(kConst, 0),
                float_bits(1),
                float_bits(0),
                float_bits(0.5f),
                float_bits(-2),
                op(31, 2),
                0x80000000u,
                dst(kInput, 0), // dcl_position v0
                op(31, 2),
                0x80000000u | 5 | 1 << 16,
                dst(kOutput, 1, 0x3), // dcl_texcoord1 o1.xy
                op(31, 2),
                0x80000000u | 2u << 27,
                dst(kSampler, 0), // dcl_2d s0
                op(4, 4),
                dst(kTemp, 0),
                src(kInput, 0, replicate(0)),
                src(kConst, 0),
                src(kTemp, 1),
                op(41, 2, 4),
                src(kTemp, 0, replicate(0)),
                src(kConst, 1, replicate(1)),
                op(95, 3),
                dst(kOutput, 1, 0x3),
                src(kConst, 0, replicate(0)),
                src(kSampler, 0),
                op(43),
                op(1, 3),
                dst(kOutput, 0),
                src(kConst, 2) | kRelative,
                src(kAddr, 0, 0),
                op(1, 2),
                dst(kTemp, 2, 0x7),
                src(kInput, 0, 0x1B, 1), // -v0.wzyx
                kEnd,
            }),
            "vs_3_0\n"
            "def c0, 1, 0, 0.5, -2\n"
            "dcl_position v0\n"
            "dcl_texcoord1 o1.xy\n"
            "dcl_2d s0\n"
            "mad r0, v0.x, c0, r1\n"
            "if_lt r0.x, c1.y\n"
            "texldl o1.xy, c0.x, s0\n"
            "endif\n"
            "mov o0, c2[a0.x]\n"
            "mov r2.xyz, -v0.wzyx\n");
}

TEST(D3D9Disassembler, PixelShader2) {
  EXPECT_EQ(disasm({
                ps_version(2, 1),
                op(31, 2),
                0x80000000u,
                dst(kAddr, 0, 0x3), // dcl t0.xy
                op(31, 2),
                0x80000000u | 3u << 27,
                dst(kSampler, 1), // dcl_cube s1
                op(66, 3),
                dst(kTemp, 0),
                src(kAddr, 0),
                src(kSampler, 1),
                op(66, 3, 1),
                dst(kTemp, 1),
                src(kAddr, 0),
                src(kSampler, 1),
                op(66, 3, 2),
                dst(kTemp, 1),
                src(kAddr, 0),
                src(kSampler, 1),
                op(94, 3, 3),
                dst(kPredicate, 0),
                src(kTemp, 0),
                src(kConst, 0),
                op(1, 3) | kPredicatedToken,
                dst(kTemp, 0),
                src(kPredicate, 0),
                src(kTemp, 1),
                op(1, 3) | kPredicatedToken,
                dst(kTemp, 0),
                src(kPredicate, 0, replicate(3), 13),
                src(kTemp, 1, 0xA4), // .xyzz -> .xyz
                op(1, 2),
                dst(kColorOut, 0, 0xF, 1),
                src(kTemp, 0), // mov_sat oC0, r0
                op(4, 4),
                dst(kTemp, 0, 0xF, 2),
                src(kTemp, 0, 0xE4, 11),
                src(kTemp, 1, 0xE4, 12),
                src(kTemp, 2, 0xE4, 6), // mad_pp
                kEnd,
            }),
            "ps_2_x\n"
            "dcl t0.xy\n"
            "dcl_cube s1\n"
            "texld r0, t0, s1\n"
            "texldp r1, t0, s1\n"
            "texldb r1, t0, s1\n"
            "setp_ge p0, r0, c0\n"
            "(p0) mov r0, r1\n"
            "(!p0.w) mov r0, r1.xyz\n"
            "mov_sat oC0, r0\n"
            "mad_pp r0, r0_abs, -r1_abs, 1-r2\n");
}

TEST(D3D9Disassembler, PixelShader1) {
  EXPECT_EQ(disasm({
                ps_version(1, 1),
                op(81),
                dst(kConst, 0),
                float_bits(0.25f),
                float_bits(1),
                float_bits(0),
                float_bits(0),
                op(66),
                dst(kAddr, 0), // tex t0
                op(67),
                dst(kAddr, 1),
                src(kAddr, 0), // texbem t1, t0
                op(1),
                dst(kTemp, 0, 0x7, 0, 1),
                src(kAddr, 0, 0xE4, 4), // mov_x2 r0.xyz, t0_bx2
                op(1) | kCoissueToken,
                dst(kTemp, 0, 0x8, 1, 0xF),
                src(kAddr, 1, 0xFF, 2),
                op(80),
                dst(kTemp, 0),
                src(kTemp, 0, 0xFF),
                src(kAddr, 0),
                src(kAddr, 1, 0xE4, 5),
                kEnd,
            }),
            "ps_1_1\n"
            "def c0, 0.25, 1, 0, 0\n"
            "tex t0\n"
            "texbem t1, t0\n"
            "mov_x2 r0.xyz, t0_bx2\n"
            "+mov_d2_sat r0.w, t1_bias.w\n"
            "cnd r0, r0.w, t0, -t1_bx2\n");
}

TEST(D3D9Disassembler, VertexShader1AndFlowControl) {
  EXPECT_EQ(disasm({vs_version(1, 1), op(31), 0x80000000u | 10 | 1 << 16, dst(kInput, 3), op(1),
                    dst(kAttrOut, 0), src(kConst, 7) | kRelative, kEnd}),
            "vs_1_1\ndcl_color1 v3\nmov oD0, c7[a0.x]\n");
  EXPECT_EQ(disasm({vs_version(2, 0),
                    op(48, 5),
                    dst(kConstInt, 0),
                    3,
                    0,
                    1,
                    0,
                    op(47, 2),
                    dst(kConstBool, 0),
                    0,
                    op(27, 2),
                    src(kLoop, 0),
                    src(kConstInt, 0),
                    op(2, 4),
                    dst(kTemp, 0),
                    src(kTemp, 0),
                    src(kConst, 1) | kRelative,
                    src(kLoop, 0),
                    op(29),
                    op(40, 1),
                    src(kConstBool, 0),
                    op(25, 1),
                    src(18, 2),
                    op(43),
                    op(28),
                    op(30, 1),
                    src(18, 2),
                    op(28),
                    kEnd}),
            "vs_2_0\n"
            "defi i0, 3, 0, 1, 0\n"
            "defb b0, false\n"
            "loop aL, i0\n"
            "add r0, r0, c1[aL]\n"
            "endloop\n"
            "if b0\n"
            "call l2\n"
            "endif\n"
            "ret\n"
            "label l2\n"
            "ret\n");
}

TEST(D3D9Disassembler, RejectsWhatTheReaderRejects) {
  std::string text;
  const auto bytes = to_bytes({vs_version(2, 0), op(1, 2), dst(kTemp, 0)});
  Status status = disassemble(bytes, text);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find("token"), std::string::npos);
}

} // namespace
} // namespace kiln::d3d9
