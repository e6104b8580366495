// The D3D9 reader on hand-written token streams: SM1 lengths, relative addressing,
// predication, modifiers, version-dependent operand counts, errors, the bounded length scan.

#include "tests/translator/d3d9/token_builder.h"
#include "translator/d3d9/constant_table.h"
#include "translator/d3d9/reader.h"

#include <gtest/gtest.h>

namespace kiln::d3d9 {
namespace {

using namespace test;

Program decode_ok(const std::vector<std::uint32_t>& tokens) {
  Program program;
  const auto bytes = to_bytes(tokens);
  Status status = decode(bytes, program);
  EXPECT_TRUE(status) << status.message();
  return program;
}

std::string decode_error(const std::vector<std::uint32_t>& tokens) {
  Program program;
  const auto bytes = to_bytes(tokens);
  Status status = decode(bytes, program);
  EXPECT_FALSE(status);
  return status.message();
}

TEST(D3D9Reader, VersionTokens) {
  ShaderVersion v;
  ASSERT_TRUE(parse_version(vs_version(3, 0), v));
  EXPECT_EQ(v.stage, ShaderStage::Vertex);
  EXPECT_EQ(v.model, Model::Vs3);
  ASSERT_TRUE(parse_version(ps_version(2, 1), v));
  EXPECT_EQ(v.stage, ShaderStage::Pixel);
  EXPECT_EQ(v.model, Model::Ps2x);
  ASSERT_TRUE(parse_version(vs_version(3, 0xFF), v)); // vs_3_sw
  EXPECT_EQ(v.model, Model::Vs3);
  ASSERT_TRUE(parse_version(ps_version(1, 4), v));
  EXPECT_EQ(v.model, Model::Ps14);
  ASSERT_TRUE(parse_version(vs_version(1, 0), v));
  EXPECT_EQ(v.model, Model::Vs1);
  EXPECT_FALSE(parse_version(vs_version(1, 2), v));
  EXPECT_FALSE(parse_version(ps_version(1, 5), v));
  EXPECT_FALSE(parse_version(vs_version(4, 0), v));
  EXPECT_FALSE(parse_version(0x43425844, v)); // "DXBC"
}

// ps_1_x has no length field: the table's operand counts (and def's four literals) walk it.
TEST(D3D9Reader, ShaderModel1LengthsFromTheTable) {
  const Program p = decode_ok({
      ps_version(1, 3),
      op(81),
      dst(kConst, 0),
      float_bits(1.0f),
      float_bits(0.0f),
      float_bits(0.5f),
      kEnd, // def
      op(66),
      dst(kAddr, 0), // tex t0
      op(73),
      dst(kAddr, 1),
      src(kAddr, 0), // texm3x3pad t1, t0
      op(73),
      dst(kAddr, 2),
      src(kAddr, 0), // texm3x3pad t2, t0
      op(76),
      dst(kAddr, 3),
      src(kAddr, 0),
      src(kConst, 0), // texm3x3spec t3, t0, c0
      op(64),
      dst(kAddr, 4), // texcoord t4
      op(1),
      dst(kTemp, 0),
      src(kAddr, 3), // mov r0, t3
      kEnd,
  });
  ASSERT_EQ(p.instructions.size(), 7u);
  EXPECT_EQ(p.instructions[0].opcode, Opcode::Def);
  EXPECT_EQ(p.instructions[0].value[2], float_bits(0.5f));
  EXPECT_EQ(p.instructions[0].value[3], kEnd); // a literal that looks like the end token
  EXPECT_EQ(p.instructions[1].opcode, Opcode::Tex);
  EXPECT_EQ(p.instructions[4].opcode, Opcode::TexM3x3Spec);
  EXPECT_EQ(p.instructions[4].src_count, 2);
  EXPECT_EQ(p.instructions[4].src[1].type, RegisterType::Const);
  EXPECT_EQ(p.instructions[5].opcode, Opcode::TexCoord);
  EXPECT_EQ(p.instructions[5].dst.index, 4);
  EXPECT_EQ(p.instructions[6].offset, 21u);
  EXPECT_EQ(p.token_count, 25u);
}

// The same opcode numbers take different operands in ps_1_3, ps_1_4 and ps_2_0.
TEST(D3D9Reader, TextureFamilyOperandCountsByVersion) {
  Program p = decode_ok({ps_version(1, 4), op(64), dst(kTemp, 0), src(kAddr, 0), // texcrd
                         op(66), dst(kTemp, 1), src(kAddr, 1, 0xE4, 9),          // texld r1, t1_dz
                         op(0xFFFD),                                             // phase
                         op(87), dst(kTemp, 5), kEnd});                          // texdepth r5
  ASSERT_EQ(p.instructions.size(), 4u);
  EXPECT_EQ(p.instructions[0].opcode, Opcode::TexCrd);
  EXPECT_EQ(p.instructions[1].opcode, Opcode::TexLdPs14);
  EXPECT_EQ(p.instructions[1].src[0].modifier, SourceModifier::Dz);
  EXPECT_EQ(p.instructions[2].opcode, Opcode::Phase);
  EXPECT_EQ(p.instructions[3].opcode, Opcode::TexDepth);

  p = decode_ok({ps_version(2, 0), op(66, 3, 1), dst(kTemp, 0), src(kAddr, 0), src(kSampler, 2),
                 kEnd}); // texldp r0, t0, s2
  ASSERT_EQ(p.instructions.size(), 1u);
  EXPECT_EQ(p.instructions[0].opcode, Opcode::TexLd);
  EXPECT_EQ(SampleVariant(p.instructions[0].control), SampleVariant::Project);
  EXPECT_EQ(p.instructions[0].src[1].index, 2);

  // sincos: three sources in 2.0, one in 3.0.
  p = decode_ok({vs_version(2, 0), op(37, 4), dst(kTemp, 0, 0x3), src(kTemp, 1, replicate(0)),
                 src(kConst, 0), src(kConst, 1), kEnd});
  EXPECT_EQ(p.instructions[0].opcode, Opcode::SinCosSm2);
  EXPECT_EQ(p.instructions[0].src_count, 3);
  p = decode_ok(
      {vs_version(3, 0), op(37, 2), dst(kTemp, 0, 0x3), src(kTemp, 1, replicate(0)), kEnd});
  EXPECT_EQ(p.instructions[0].opcode, Opcode::SinCos);
  EXPECT_EQ(p.instructions[0].src_count, 1);
}

TEST(D3D9Reader, RelativeAddressing) {
  // vs_1_1: bit 13 means c[a0.x + n], with no address token.
  Program p = decode_ok({vs_version(1, 1), op(31), 0x80000000u, dst(kInput, 0), // dcl_position
                         op(1), dst(kRastOut, 0), src(kConst, 3) | kRelative, // mov oPos, c3[a0.x]
                         op(1), dst(kAttrOut, 0), src(kInput, 0), kEnd});
  ASSERT_EQ(p.instructions.size(), 3u);
  EXPECT_EQ(p.instructions[0].declaration.usage, Usage::Position);
  const SourceParam& s = p.instructions[1].src[0];
  EXPECT_TRUE(s.relative);
  EXPECT_EQ(s.rel_type, RegisterType::Address);
  EXPECT_EQ(s.rel_component, 0);
  EXPECT_EQ(s.index, 3);
  EXPECT_EQ(p.instructions[2].dst.type, RegisterType::AttrOut);

  // vs_2_0+: an address token follows (a0.y here), counted in the length field.
  p = decode_ok({vs_version(2, 0), op(1, 3), dst(kTemp, 0), src(kConst, 5) | kRelative,
                 src(kAddr, 0, replicate(1)), kEnd});
  EXPECT_TRUE(p.instructions[0].src[0].relative);
  EXPECT_EQ(p.instructions[0].src[0].rel_type, RegisterType::Address);
  EXPECT_EQ(p.instructions[0].src[0].rel_component, 1);

  // vs_3_0: loop aL, i0; mov o[aL], v0[aL]; endloop
  p = decode_ok({vs_version(3, 0), op(27, 2), src(kLoop, 0), src(kConstInt, 0), op(1, 4),
                 dst(kOutput, 1) | kRelative, src(kLoop, 0), src(kInput, 0) | kRelative,
                 src(kLoop, 0), op(29), kEnd});
  ASSERT_EQ(p.instructions.size(), 3u);
  EXPECT_EQ(p.instructions[0].opcode, Opcode::Loop);
  EXPECT_TRUE(p.instructions[1].dst.relative);
  EXPECT_EQ(p.instructions[1].dst.rel_type, RegisterType::Loop);
  EXPECT_EQ(p.instructions[1].src[0].rel_type, RegisterType::Loop);
  EXPECT_EQ(p.instructions[2].opcode, Opcode::EndLoop);

  // Relative through anything but a0/aL is malformed.
  EXPECT_NE(decode_error({vs_version(2, 0), op(1, 3), dst(kTemp, 0), src(kConst, 5) | kRelative,
                          src(kTemp, 0), kEnd})
                .find("token 4"),
            std::string::npos);
}

TEST(D3D9Reader, Predication) {
  const Program p = decode_ok({
      vs_version(2, 1),
      op(94, 3, 4),
      dst(kPredicate, 0, 0x1),
      src(kTemp, 0),
      src(kConst, 0), // setp_lt p0.x
      op(1, 3) | kPredicatedToken,
      dst(kTemp, 1),
      src(kPredicate, 0, replicate(0), 13),
      src(kTemp, 2), // (!p0.x) mov r1, r2
      op(40, 1),
      src(kPredicate, 0, replicate(2)), // if p0.z
      op(43),
      op(41, 2, 2),
      src(kTemp, 0, replicate(0)),
      src(kConst, 1), // endif, if_eq
      op(43),
      kEnd,
  });
  ASSERT_EQ(p.instructions.size(), 6u);
  EXPECT_EQ(p.instructions[0].opcode, Opcode::SetP);
  EXPECT_EQ(Comparison(p.instructions[0].control), Comparison::Lt);
  const Instruction& mov = p.instructions[1];
  EXPECT_TRUE(mov.predicated());
  EXPECT_EQ(mov.predicate.type, RegisterType::Predicate);
  EXPECT_EQ(mov.predicate.modifier, SourceModifier::Not);
  EXPECT_EQ(mov.src_count, 1);
  EXPECT_EQ(mov.src[0].index, 2); // the predicate comes between dst and sources
  EXPECT_EQ(p.instructions[2].opcode, Opcode::If);
  EXPECT_EQ(p.instructions[2].src[0].swizzle, replicate(2));
  EXPECT_EQ(p.instructions[4].opcode, Opcode::IfC);
  EXPECT_EQ(Comparison(p.instructions[4].control), Comparison::Eq);

  // Predication does not exist in shader model 1.
  EXPECT_FALSE(
      decode_error({vs_version(1, 1), op(1) | kPredicatedToken, dst(kTemp, 0), src(kTemp, 1), kEnd})
          .empty());
}

TEST(D3D9Reader, SourceAndResultModifiers) {
  std::vector<std::uint32_t> tokens = {ps_version(2, 0)};
  for (unsigned m = 0; m < 14; ++m) {
    tokens.insert(tokens.end(), {op(1, 2), dst(kTemp, 0), src(kTemp, 1, 0xE4, m)});
  }
  tokens.insert(tokens.end(), {op(1, 2), dst(kColorOut, 0, 0xF, 1 | 2), src(kTemp, 0), // _sat_pp
                               op(31, 2), 0x80000000u, dst(kAddr, 0, 0x3, 4),          // centroid
                               kEnd});
  const Program p = decode_ok(tokens);
  ASSERT_EQ(p.instructions.size(), 16u);
  for (unsigned m = 0; m < 14; ++m) EXPECT_EQ(unsigned(p.instructions[m].src[0].modifier), m);
  EXPECT_EQ(p.instructions[14].dst.modifiers, kSaturate | kPartialPrecision);
  EXPECT_EQ(p.instructions[15].dst.modifiers, kCentroid);
  EXPECT_EQ(p.instructions[15].dst.write_mask, 0x3);

  // ps_1_x result shift (signed 4 bits) and co-issue.
  const Program q =
      decode_ok({ps_version(1, 1), op(1), dst(kTemp, 0, 0x7, 0, 1), src(kAddr, 0),
                 op(5) | kCoissueToken, dst(kTemp, 0, 0x8, 0, 0xF), src(kTemp, 1), src(kTemp, 1),
                 op(1), dst(kTemp, 0, 0xF, 0, 0xD), src(kTemp, 0), kEnd});
  ASSERT_EQ(q.instructions.size(), 3u);
  EXPECT_EQ(q.instructions[0].dst.shift, 1);
  EXPECT_TRUE(q.instructions[1].coissued());
  EXPECT_EQ(q.instructions[1].dst.shift, -1);
  EXPECT_EQ(q.instructions[2].dst.shift, -3);
  // A source modifier past 13 is malformed.
  EXPECT_FALSE(
      decode_error({ps_version(2, 0), op(1, 2), dst(kTemp, 0), src(kTemp, 1, 0xE4, 14), kEnd})
          .empty());
}

TEST(D3D9Reader, DeclarationsAndDefinitions) {
  const Program p = decode_ok({
      ps_version(3, 0),
      op(31, 2),
      0x80000000u | 5 | 1 << 16,
      dst(kInput, 1, 0x3), // dcl_texcoord1 v1.xy
      op(31, 2),
      0x80000000u | 3u << 27,
      dst(kSampler, 0), // dcl_cube s0
      op(48, 5),
      dst(kConstInt, 0),
      4,
      0,
      1,
      0xFFFFFFFFu, // defi i0, 4, 0, 1, -1
      op(47, 2),
      dst(kConstBool, 3),
      1, // defb b3, true
      kEnd,
  });
  ASSERT_EQ(p.instructions.size(), 4u);
  EXPECT_EQ(p.instructions[0].declaration.usage, Usage::TexCoord);
  EXPECT_EQ(p.instructions[0].declaration.usage_index, 1);
  EXPECT_EQ(p.instructions[1].declaration.texture_type, TextureType::Cube);
  EXPECT_EQ(p.instructions[2].opcode, Opcode::DefI);
  EXPECT_EQ(std::int32_t(p.instructions[2].value[3]), -1);
  EXPECT_EQ(p.instructions[3].value[0], 1u);
  EXPECT_EQ(p.instructions[3].dst.index, 3);
}

TEST(D3D9Reader, ErrorsNameTheTokenOffset) {
  // An opcode the model lacks (dsx in ps_1_1).
  EXPECT_NE(
      decode_error({ps_version(1, 1), op(91), dst(kTemp, 0), src(kTemp, 0), kEnd}).find("token 1:"),
      std::string::npos);
  // A length field that disagrees with the operands: too short, too long.
  EXPECT_NE(decode_error({vs_version(2, 0), op(2, 2), dst(kTemp, 0), src(kTemp, 0), kEnd})
                .find("token 4:"),
            std::string::npos);
  EXPECT_NE(
      decode_error({vs_version(2, 0), op(1, 3), dst(kTemp, 0), src(kTemp, 0), src(kTemp, 1), kEnd})
          .find("length field says 3 tokens, its operands take 2"),
      std::string::npos);
  // Truncated in the middle of an instruction.
  EXPECT_FALSE(decode_error({vs_version(2, 0), op(4, 4), dst(kTemp, 0), src(kTemp, 0)}).empty());
  // No end token.
  EXPECT_NE(
      decode_error({vs_version(2, 0), op(1, 2), dst(kTemp, 0), src(kTemp, 0)}).find("token 4:"),
      std::string::npos);
  // Tokens after the end token.
  EXPECT_FALSE(decode_error({vs_version(2, 0), kEnd, 0}).empty());
  // A comment longer than the shader.
  EXPECT_NE(decode_error({vs_version(2, 0), comment(5), 0, kEnd}).find("comment"),
            std::string::npos);
  // A parameter token where an instruction belongs.
  EXPECT_FALSE(decode_error({vs_version(2, 0), dst(kTemp, 0), kEnd}).empty());
  // Bad versions, odd sizes, nothing at all.
  EXPECT_NE(decode_error({0xFFFE0400u, kEnd}).find("token 0:"), std::string::npos);
  Program program;
  const std::vector<std::uint8_t> odd = {0x00, 0x02, 0xFE, 0xFF, 0xFF};
  EXPECT_FALSE(decode(odd, program));
  EXPECT_FALSE(decode({}, program));
}

TEST(D3D9Reader, CommentsAreRecorded) {
  const Program p = decode_ok({vs_version(2, 0), comment(2), 0x12345678, kEnd, op(0), kEnd});
  ASSERT_EQ(p.comments.size(), 1u);
  EXPECT_EQ(p.comments[0].offset, 1u);
  EXPECT_EQ(p.comments[0].length, 2u);
  EXPECT_EQ(p.comments[0].fourcc, 0x12345678u);
  ASSERT_EQ(p.instructions.size(), 1u); // the kEnd inside the comment is not the end
  EXPECT_EQ(p.instructions[0].opcode, Opcode::Nop);
}

TEST(D3D9Reader, BoundedLengthScan) {
  // 0x0000FFFF inside a comment and inside a def literal must not end the scan.
  const std::vector<std::uint32_t> tokens = {
      vs_version(2, 0),
      comment(1),
      kEnd,
      op(81, 5),
      dst(kConst, 0),
      kEnd,
      kEnd,
      kEnd,
      kEnd,
      op(1, 2),
      dst(kTemp, 0),
      src(kConst, 0),
      kEnd,
      0xDEADBEEF,
      0xDEADBEEF, // whatever follows in memory
  };
  std::size_t count = 0;
  ASSERT_TRUE(measure(tokens.data(), tokens.size(), count));
  EXPECT_EQ(count, 13u);
  ASSERT_TRUE(measure(tokens.data(), 13, count));
  EXPECT_EQ(count, 13u);
  EXPECT_FALSE(measure(tokens.data(), 12, count)); // the bound stops it before the end token
  EXPECT_EQ(count, 0u);
  EXPECT_FALSE(measure(nullptr, 10, count));

  // SM1 needs the opcode table: def's literals and dcl's extra token.
  const std::vector<std::uint32_t> sm1 = {vs_version(1, 1),
                                          op(31),
                                          0x80000000u,
                                          dst(kInput, 0),
                                          op(81),
                                          dst(kConst, 0),
                                          kEnd,
                                          kEnd,
                                          kEnd,
                                          kEnd,
                                          op(1),
                                          dst(kRastOut, 0),
                                          src(kInput, 0),
                                          kEnd,
                                          kEnd};
  ASSERT_TRUE(measure(sm1.data(), sm1.size(), count));
  EXPECT_EQ(count, 14u);
  std::size_t bytes = 0;
  const auto sm1_bytes = to_bytes(sm1);
  ASSERT_TRUE(measure(sm1_bytes, bytes));
  EXPECT_EQ(bytes, 56u);
  // An instruction whose length runs past the bound.
  const std::vector<std::uint32_t> runs_past = {vs_version(2, 0), op(4, 15), kEnd};
  EXPECT_FALSE(measure(runs_past.data(), runs_past.size(), count));
}

// A hand-made constant table; a broken one is reported by read_constant_table only.
TEST(D3D9Reader, ConstantTable) {
  // Payload after 'CTAB' (offsets relative to it): header 28, one constant info 20,
  // type info 16, then strings.
  std::vector<std::uint32_t> table = {
      28,
      64,
      0xFFFE0300,
      1,
      28,
      0,
      80, // header: creator @64, 1 constant @28, target @80
      88,
      2 | 4u << 16,
      3 | 0u << 16,
      48,
      0, // name @88, float4 c4, 3 registers, type @48
      2 | 3u << 16,
      3 | 4u << 16,
      0,
      0, // matrix rows, float, 3x4, 0 elements
      0x74736554,
      0x00000000,
      0,
      0, // "Test" creator @64
      0x335F7376,
      0x0000305F, // "vs_3_0" target @80
      0x646C726F,
      0x00000077, // name @88 = "orldw"
  };
  std::vector<std::uint32_t> tokens = {vs_version(3, 0), comment(std::uint32_t(table.size() + 1)),
                                       0x42415443};
  tokens.insert(tokens.end(), table.begin(), table.end());
  tokens.push_back(kEnd);
  const auto bytes = to_bytes(tokens);
  Program p;
  ASSERT_TRUE(decode(bytes, p));
  const Comment* ctab = p.constant_table();
  ASSERT_NE(ctab, nullptr);
  ConstantTable t;
  Status status = read_constant_table(bytes, *ctab, t);
  ASSERT_TRUE(status) << status.message();
  EXPECT_EQ(t.creator, "Test");
  EXPECT_EQ(t.target, "vs_3_0");
  ASSERT_EQ(t.constants.size(), 1u);
  EXPECT_EQ(t.constants[0].name, "orldw");
  EXPECT_EQ(t.constants[0].set, RegisterSet::Float4);
  EXPECT_EQ(t.constants[0].index, 4);
  EXPECT_EQ(t.constants[0].count, 3);
  EXPECT_EQ(t.constants[0].rows, 3);
  EXPECT_EQ(t.constants[0].columns, 4);

  // A name offset past the table: the table is rejected, the shader is not.
  tokens[3 + 7] = 4000;
  const auto broken = to_bytes(tokens);
  ASSERT_TRUE(decode(broken, p));
  EXPECT_FALSE(read_constant_table(broken, *p.constant_table(), t));
  // A constant count that does not fit.
  tokens[3 + 7] = 88;
  tokens[3 + 3] = 0x10000000;
  const auto huge = to_bytes(tokens);
  ASSERT_TRUE(decode(huge, p));
  EXPECT_FALSE(read_constant_table(huge, *p.constant_table(), t));
}

} // namespace
} // namespace kiln::d3d9
