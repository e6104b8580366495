// Hand-written token streams, one per encoding the reader must understand.

#include "tests/translator/dxbc/token_builder.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/disassembler.h"
#include "translator/dxbc/reader.h"
#include "translator/dxbc/signature.h"

#include <gtest/gtest.h>
#include <string>

namespace kiln::dxbc {
namespace {

using namespace test;
using OT = OperandType;

constexpr std::uint32_t kR0Mask(std::uint32_t m) {
  return operand_token(OT::Temp, kComp4, mask(m), 1);
}

Status decode(const std::vector<std::uint32_t>& words, Program& program,
              std::vector<std::uint8_t>& storage) {
  storage = bytes_of(words);
  return decode_program(storage, program);
}

std::string listing(const std::vector<std::uint32_t>& words) {
  const auto container = shader_container(words);
  std::string text;
  const Status status = disassemble(container, text);
  return status ? text : "error: " + status.message();
}

// The listing without its first (version) line.
std::string body(const std::vector<std::uint32_t>& words) {
  const std::string text = listing(words);
  const auto nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

TEST(DxbcTokens, VersionAndLengthHeader) {
  Program program;
  std::vector<std::uint8_t> storage;
  auto words = ProgramBuilder(ProgramType::Compute, 5, 1).inst(Opcode::Ret, {}).finish();
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_EQ(program.type, ProgramType::Compute);
  EXPECT_EQ(program.major, 5);
  EXPECT_EQ(program.minor, 1);
  ASSERT_EQ(program.instructions.size(), 1u);
  EXPECT_EQ(program.instructions[0].opcode, Opcode::Ret);
  EXPECT_EQ(program.instructions[0].token_offset, 2u);
  EXPECT_EQ(listing(words), "cs_5_1\nret\n");
}

TEST(DxbcTokens, MaskSwizzleAndSelect1) {
  auto words = ProgramBuilder(ProgramType::Pixel, 5, 0)
                   .inst(Opcode::Mov, {kR0Mask(0b0101), 0,
                                       operand_token(OT::Input, kComp4, swizzle(3, 2, 1, 0), 1), 2})
                   .inst(Opcode::Mov,
                         {kR0Mask(0b1000), 0, operand_token(OT::Temp, kComp4, select1(2), 1), 7})
                   .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  const Operand& dst = program.operands[0];
  EXPECT_EQ(dst.selection, SelectionMode::Mask);
  EXPECT_EQ(dst.mask, 0b0101);
  const Operand& src = program.operands[1];
  EXPECT_EQ(src.type, OT::Input);
  EXPECT_EQ(src.index[0], 2u);
  EXPECT_EQ(src.component(0), 3u);
  EXPECT_EQ(src.component(3), 0u);
  EXPECT_EQ(program.operands[3].selection, SelectionMode::Select1);
  EXPECT_EQ(program.operands[3].component(1), 2u);
  EXPECT_EQ(body(words), "mov r0.xz, v2.wzyx\nmov r0.w, r7.z\n");
}

TEST(DxbcTokens, Immediates32And64) {
  auto words =
      ProgramBuilder(ProgramType::Pixel, 5, 0)
          .inst(Opcode::Add, {kR0Mask(0xf), 0, operand_token(OT::Immediate32, kComp4, 0, 0),
                              0x3f800000, 0x3f000000, 0, 0xbf800000,
                              operand_token(OT::Immediate32, kComp1, 0, 0), 0x40000000})
          .inst(Opcode::IAdd, {kR0Mask(1), 0, operand_token(OT::Temp, kComp4, select1(0), 1), 0,
                               operand_token(OT::Immediate32, kComp1, 0, 0), 0xffffffff})
          .inst(Opcode::DMov, {kR0Mask(0b0011), 0, operand_token(OT::Immediate64, kComp4, 0, 0), 0,
                               0x3ff00000, 0, 0x40000000})
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_EQ(program.operands[1].type, OT::Immediate32);
  EXPECT_EQ(program.operands[1].value[1], 0x3f000000u);
  EXPECT_EQ(program.operands[7].type, OT::Immediate64);
  EXPECT_EQ(program.operands[7].value[3], 0x40000000u);
  EXPECT_EQ(body(words), "add r0.xyzw, l(1.000000, 0.500000, 0.000000, -1.000000), l(2.000000)\n"
                         "iadd r0.x, r0.x, l(-1)\n"
                         "dmov r0.xy, d(1.000000l, 2.000000l)\n");
}

TEST(DxbcTokens, TwoDimensionalAndRelativeIndices) {
  const std::uint32_t r1x = operand_token(OT::Temp, kComp4, select1(0), 1);
  auto words =
      ProgramBuilder(ProgramType::Vertex, 4, 0)
          // cb0[3].xyzw
          .inst(Opcode::Mov,
                {kR0Mask(0xf), 0, operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2),
                 0, 3})
          // cb0[r1.x + 3].xyzw: immediate + relative in the second index
          .inst(Opcode::Mov,
                {kR0Mask(0xf), 0,
                 operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2, 0, 3), 0, 3, r1x,
                 1})
          // x2[r1.x + 0].y: relative only
          .inst(Opcode::Mov,
                {kR0Mask(1), 0, operand_token(OT::IndexableTemp, kComp4, select1(1), 2, 0, 2), 2,
                 r1x, 1})
          // o[r1.x + 1].xyzw: relative register index
          .inst(Opcode::Mov, {operand_token(OT::Output, kComp4, mask(0xf), 1, 3), 1, r1x, 1,
                              operand_token(OT::Temp, kComp4, swizzle(0, 1, 2, 3), 1), 0})
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  const Operand& cb = program.operands[3];
  EXPECT_EQ(cb.index_dimension, 2);
  EXPECT_EQ(cb.index_representation[1], IndexRepresentation::Immediate32PlusRelative);
  ASSERT_TRUE(cb.has_relative(1));
  EXPECT_EQ(program.relative[cb.relative[1]].type, OT::Temp);
  EXPECT_EQ(program.relative[cb.relative[1]].index[0], 1u);
  EXPECT_EQ(program.relative.size(), 3u);
  EXPECT_EQ(body(words), "mov r0.xyzw, cb0[3].xyzw\n"
                         "mov r0.xyzw, cb0[r1.x + 3].xyzw\n"
                         "mov r0.x, x2[r1.x + 0].y\n"
                         "mov o[r1.x + 1].xyzw, r0.xyzw\n");
}

TEST(DxbcTokens, SixtyFourBitIndex) {
  auto words =
      ProgramBuilder(ProgramType::Vertex, 4, 0)
          .inst(Opcode::Mov,
                {kR0Mask(0xf), 0,
                 operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2, 0, 1), 1, 0, 5})
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_EQ(program.operands[1].index[1], 5u);
  EXPECT_EQ(program.operands[1].index_representation[1], IndexRepresentation::Immediate64);
}

TEST(DxbcTokens, ModifiersSaturatePrecisionAndNonUniform) {
  const std::uint32_t neg_abs = 1u | 3u << 6;
  const std::uint32_t min16f_nonuniform = 1u | 1u << 14 | 1u << 17;
  auto words =
      ProgramBuilder(ProgramType::Pixel, 5, 0)
          .inst(Opcode::Add,
                {kR0Mask(1), 0, operand_token(OT::Temp, kComp4, select1(0), 1, 0, 0, 0, true),
                 neg_abs, 1, operand_token(OT::Temp, kComp4, select1(1), 1, 0, 0, 0, true),
                 1u | 1u << 6, 2},
                control::kSaturate)
          .inst(Opcode::Mul,
                {kR0Mask(1), 0, operand_token(OT::Temp, kComp4, select1(0), 1, 0, 0, 0, true),
                 1u | 2u << 6, 1, operand_token(OT::Temp, kComp4, select1(0), 1, 0, 0, 0, true),
                 min16f_nonuniform, 3},
                0xfu << control::kPreciseShift)
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_TRUE(program.instructions[0].saturate());
  EXPECT_EQ(program.operands[1].modifier, OperandModifier::AbsNeg);
  EXPECT_EQ(program.operands[2].modifier, OperandModifier::Neg);
  EXPECT_EQ(program.instructions[1].precise_mask(), 0xfu);
  EXPECT_EQ(program.operands[5].min_precision, MinPrecision::Float16);
  EXPECT_TRUE(program.operands[5].non_uniform);
  EXPECT_EQ(body(words), "add_sat r0.x, -|r1.x|, -r2.y\n"
                         "mul [precise] r0.x, |r1.x|, r3.x {min16f, nonuniform}\n");
}

TEST(DxbcTokens, SampleWithOffsetsDimensionAndReturnType) {
  // aoffimmi(-1, 2, 0), texture2d, float x4
  const std::uint32_t offsets = 1u | (0xfu << 9) | (2u << 13) | 1u << 31;
  const std::uint32_t dim = 2u | 3u << 6 | 1u << 31;
  const std::uint32_t ret = 3u | 0x5555u << 6;
  auto words = ProgramBuilder(ProgramType::Pixel, 5, 0)
                   .inst(Opcode::Sample,
                         {offsets, dim, ret, kR0Mask(0xf), 0,
                          operand_token(OT::Input, kComp4, swizzle(0, 1, 0, 0), 1), 1,
                          operand_token(OT::Resource, kComp4, swizzle(0, 1, 2, 3), 1), 0,
                          operand_token(OT::Sampler, kComp0, 0, 1), 0},
                         1u << 31)
                   .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  const Instruction& inst = program.instructions[0];
  EXPECT_EQ(inst.texel_offset[0], -1);
  EXPECT_EQ(inst.texel_offset[1], 2);
  EXPECT_EQ(inst.resource_dimension, ResourceDimension::Texture2D);
  EXPECT_EQ(inst.resource_return[3], std::uint8_t(ReturnType::Float));
  EXPECT_EQ(inst.operand_count, 4);
  EXPECT_EQ(body(words), "sample_aoffimmi_indexable(-1,2,0)(texture2d)(float,float,float,float) "
                         "r0.xyzw, v1.xyxx, t0.xyzw, s0\n");
}

TEST(DxbcTokens, Declarations) {
  auto words = ProgramBuilder(ProgramType::Compute, 5, 0)
                   .inst(Opcode::DclGlobalFlags, {}, 1u << 11)
                   .inst(Opcode::DclConstantBuffer,
                         {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 2), 0, 4})
                   .inst(Opcode::DclResource,
                         {operand_token(OT::Resource, kComp0, 0, 1), 2, 0x5555}, 3u << 11)
                   .inst(Opcode::DclUavStructured, {operand_token(OT::Uav, kComp0, 0, 1), 1, 16},
                         1u << 16 | 1u << 23)
                   .inst(Opcode::DclTgsmStructured,
                         {operand_token(OT::ThreadGroupSharedMemory, kComp0, 0, 1), 0, 4, 64})
                   .inst(Opcode::DclInput, {operand_token(OT::InputThreadId, kComp4, mask(3), 0)})
                   .inst(Opcode::DclTemps, {3})
                   .inst(Opcode::DclIndexableTemp, {0, 8, 4})
                   .inst(Opcode::DclThreadGroup, {8, 4, 1})
                   .inst(Opcode::Ret, {})
                   .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_EQ(program.temp_count, 3u);
  const Declaration& cb = program.declarations[program.instructions[1].declaration];
  EXPECT_EQ(cb.value, 4u);
  const Declaration& uav = program.declarations[program.instructions[3].declaration];
  EXPECT_EQ(uav.value2, 16u);
  EXPECT_EQ(uav.uav_flags, uav_flag::kGloballyCoherent | uav_flag::kHasCounter);
  const Declaration& group = program.declarations[program.instructions[8].declaration];
  EXPECT_EQ(group.thread_group[1], 4u);
  EXPECT_EQ(body(words), "dcl_globalFlags refactoringAllowed\n"
                         "dcl_constantbuffer CB0[4], immediateIndexed\n"
                         "dcl_resource_texture2d (float,float,float,float) t2\n"
                         "dcl_uav_structured_glc_opc u1, 16\n"
                         "dcl_tgsm_structured g0, 4, 64\n"
                         "dcl_input vThreadID.xy\n"
                         "dcl_temps 3\n"
                         "dcl_indexableTemp x0[8], 4\n"
                         "dcl_thread_group 8, 4, 1\n"
                         "ret\n");
}

TEST(DxbcTokens, PixelInputsAndSystemValues) {
  auto words =
      ProgramBuilder(ProgramType::Pixel, 4, 0)
          .inst(Opcode::DclInputPsSiv, {operand_token(OT::Input, kComp4, mask(0xf), 1), 0, 1},
                4u << 11)
          .inst(Opcode::DclInputPs, {operand_token(OT::Input, kComp4, mask(3), 1), 1}, 2u << 11)
          .inst(Opcode::DclOutputSgv, {operand_token(OT::Output, kComp4, mask(1), 1), 0, 9})
          .finish();
  EXPECT_EQ(body(words), "dcl_input_ps_siv linear noperspective v0.xyzw, position\n"
                         "dcl_input_ps linear v1.xy\n"
                         "dcl_output_sgv o0.x, is_front_face\n");
}

TEST(DxbcTokens, ShaderModel51RangesAndSpaces) {
  auto words =
      ProgramBuilder(ProgramType::Pixel, 5, 1)
          .inst(Opcode::DclConstantBuffer,
                {operand_token(OT::ConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 3), 0, 0, 0, 2, 1})
          .inst(Opcode::DclResource,
                {operand_token(OT::Resource, kComp0, 0, 3), 1, 4, 0xffffffff, 0x5555, 3}, 3u << 11)
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  const Declaration& cb = program.declarations[program.instructions[0].declaration];
  EXPECT_EQ(cb.value, 2u);
  EXPECT_EQ(cb.space, 1u);
  const Declaration& tex = program.declarations[program.instructions[1].declaration];
  EXPECT_EQ(tex.space, 3u);
  EXPECT_EQ(program.operands[1].index[2], 0xffffffffu);
  EXPECT_EQ(body(words), "dcl_constantbuffer CB0[0:0][2], immediateIndexed, space=1\n"
                         "dcl_resource_texture2d (float,float,float,float) T1[4:*], space=3\n");
}

TEST(DxbcTokens, HullShaderPhasesAndTessellation) {
  auto words = ProgramBuilder(ProgramType::Hull, 5, 0)
                   .inst(Opcode::HsDecls, {})
                   .inst(Opcode::DclInputControlPointCount, {}, 3u << 11)
                   .inst(Opcode::DclTessDomain, {}, 2u << 11)
                   .inst(Opcode::DclTessPartitioning, {}, 3u << 11)
                   .inst(Opcode::DclTessOutputPrimitive, {}, 3u << 11)
                   .inst(Opcode::DclHsMaxTessFactor, {0x42800000})
                   .inst(Opcode::HsForkPhase, {})
                   .inst(Opcode::DclHsForkPhaseInstanceCount, {3})
                   .inst(Opcode::Ret, {})
                   .finish();
  EXPECT_EQ(body(words), "hs_decls\n"
                         "dcl_input_control_point_count 3\n"
                         "dcl_tessellator_domain domain_tri\n"
                         "dcl_tessellator_partitioning partitioning_fractional_odd\n"
                         "dcl_tessellator_output_primitive output_triangle_cw\n"
                         "dcl_hs_max_tessfactor l(64.000000)\n"
                         "hs_fork_phase\n"
                         "dcl_hs_fork_phase_instance_count 3\n"
                         "ret\n");
}

TEST(DxbcTokens, ClassLinkageDeclarations) {
  auto words =
      ProgramBuilder(ProgramType::Pixel, 5, 0)
          .inst(Opcode::DclFunctionBody, {0})
          .inst(Opcode::DclFunctionBody, {1})
          .inst(Opcode::DclFunctionTable, {0, 2, 0, 1})
          .inst(Opcode::DclInterface, {0, 2, 1u << 16 | 1u, 0})
          .inst(Opcode::Mov,
                {kR0Mask(3), 0, operand_token(OT::ThisPointer, kComp4, swizzle(2, 3, 2, 2), 1), 0})
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  // fxc prints the this register's index in brackets.
  EXPECT_NE(body(words).find("mov r0.xy, this[0].zwzz\n"), std::string::npos) << body(words);
  const Declaration& table = program.declarations[program.instructions[2].declaration];
  ASSERT_EQ(table.list_count, 2u);
  EXPECT_EQ(program.lists[table.list_first + 1], 1u);
  const Declaration& iface = program.declarations[program.instructions[3].declaration];
  EXPECT_EQ(iface.function_count, 2u);
  EXPECT_EQ(iface.value2, 1u);
  EXPECT_EQ(iface.list_count, 1u);
}

TEST(DxbcTokens, ImmediateConstantBufferAndComments) {
  auto words =
      ProgramBuilder(ProgramType::Pixel, 4, 0)
          .raw({std::uint32_t(Opcode::CustomData) | 3u << 11, 6, 0x3f800000, 0, 0, 7})
          .raw({std::uint32_t(Opcode::CustomData), 3, 0x12345678})
          .inst(Opcode::Mov,
                {kR0Mask(0xf), 0,
                 operand_token(OT::ImmediateConstantBuffer, kComp4, swizzle(0, 1, 2, 3), 1, 2),
                 operand_token(OT::Temp, kComp4, select1(0), 1), 1})
          .finish();
  Program program;
  std::vector<std::uint8_t> storage;
  ASSERT_TRUE(decode(words, program, storage));
  EXPECT_EQ(program.icb_first, 4u);
  EXPECT_EQ(program.icb_count, 4u);
  EXPECT_EQ(program.instructions.size(), 3u);
  EXPECT_EQ(program.instructions[1].opcode, Opcode::CustomData);
  EXPECT_EQ(body(words), "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 7} }\n"
                         "// customdata class 0, 1 dwords\n"
                         "mov r0.xyzw, icb[r1.x + 0].xyzw\n");
}

TEST(DxbcTokens, ConditionalsAndSync) {
  auto words =
      ProgramBuilder(ProgramType::Compute, 5, 0)
          .inst(Opcode::If, {operand_token(OT::Temp, kComp4, select1(0), 1), 0},
                control::kTestNonZero)
          .inst(Opcode::Breakc, {operand_token(OT::Temp, kComp4, select1(1), 1), 0})
          .inst(Opcode::EndIf, {})
          .inst(Opcode::Sync, {}, control::kSyncThreadsInGroup | control::kSyncGroupSharedMemory)
          .finish();
  EXPECT_EQ(body(words), "if_nz r0.x\nbreakc_z r0.y\nendif\nsync_g_t\n");
}

// Errors name the token and never read outside the program.
struct BadStream {
  const char* what;
  std::vector<std::uint32_t> words;
  const char* message_part;
};

TEST(DxbcTokens, MalformedStreamsGiveErrorsWithOffsets) {
  const std::vector<BadStream> cases = {
      {"unknown opcode", ProgramBuilder(ProgramType::Pixel, 5, 0).inst(Opcode(300), {}).finish(),
       "token 2: unknown opcode"},
      {"zero length",
       ProgramBuilder(ProgramType::Pixel, 5, 0).raw({std::uint32_t(Opcode::Ret)}).finish(),
       "token 2: instruction length 0"},
      {"past the end",
       ProgramBuilder(ProgramType::Pixel, 5, 0)
           .raw({std::uint32_t(Opcode::Ret) | 5u << 24})
           .finish(),
       "token 2: instruction runs past"},
      {"missing operand",
       ProgramBuilder(ProgramType::Pixel, 5, 0).inst(Opcode::Mov, {kR0Mask(1), 0}).finish(),
       "operand missing"},
      {"truncated index",
       ProgramBuilder(ProgramType::Pixel, 5, 0)
           .inst(Opcode::Mov,
                 {kR0Mask(1), 0, operand_token(OT::ConstantBuffer, kComp4, select1(0), 2), 0})
           .finish(),
       "operand index truncated"},
      {"bad operand type",
       ProgramBuilder(ProgramType::Pixel, 5, 0)
           .inst(Opcode::Mov, {kR0Mask(1), 0, 0xff000u | kComp1})
           .finish(),
       "unknown operand type"},
      {"customdata overflow",
       ProgramBuilder(ProgramType::Pixel, 5, 0)
           .raw({std::uint32_t(Opcode::CustomData), 99})
           .finish(),
       "token 2: customdata length"},
      {"declaration truncated",
       ProgramBuilder(ProgramType::Pixel, 5, 0).inst(Opcode::DclThreadGroup, {8, 8}).finish(),
       "declaration truncated"},
      {"bad index representation",
       ProgramBuilder(ProgramType::Pixel, 5, 0)
           .inst(Opcode::Mov, {kR0Mask(1), 0, operand_token(OT::Temp, kComp4, select1(0), 1, 7), 0})
           .finish(),
       "bad index representation"},
  };
  for (const auto& c : cases) {
    Program program;
    std::vector<std::uint8_t> storage;
    const Status status = decode(c.words, program, storage);
    ASSERT_FALSE(status) << c.what;
    EXPECT_NE(status.message().find(c.message_part), std::string::npos)
        << c.what << ": " << status.message();
  }
}

TEST(DxbcTokens, RelativeAddressingNestingIsBounded) {
  // Each index is relative to an operand whose index is relative again, deeper than allowed.
  ProgramBuilder builder(ProgramType::Pixel, 5, 0);
  std::vector<std::uint32_t> nested;
  for (int i = 0; i < 10; ++i)
    nested.push_back(operand_token(OT::IndexableTemp, kComp4, select1(0), 2, 0, 2));
  std::vector<std::uint32_t> words = {std::uint32_t(ProgramType::Pixel) << 16 | 0x50, 0};
  words.push_back(std::uint32_t(Opcode::Mov) | std::uint32_t(3 + 2 * nested.size() + 2) << 24);
  words.push_back(kR0Mask(1));
  words.push_back(0);
  for (auto tok : nested) {
    words.push_back(tok);
    words.push_back(0);
  }
  words.push_back(operand_token(OT::Temp, kComp4, select1(0), 1));
  words.push_back(0);
  words[1] = std::uint32_t(words.size());
  words[2] = std::uint32_t(Opcode::Mov) | std::uint32_t(words.size() - 2) << 24;
  Program program;
  std::vector<std::uint8_t> storage;
  const Status status = decode(words, program, storage);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find("nested too deep"), std::string::npos) << status.message();
}

TEST(DxbcTokens, ProgramHeaderChecks) {
  Program program;
  std::vector<std::uint8_t> storage;
  EXPECT_FALSE(decode({0x50}, program, storage));
  EXPECT_FALSE(decode({0x00090050, 2}, program, storage)); // program type 9
  EXPECT_FALSE(decode({0x00000030, 2}, program, storage)); // shader model 3
  std::vector<std::uint32_t> huge((1u << 20) + 8, 0);
  huge[0] = 0x50;
  huge[1] = std::uint32_t(huge.size());
  const Status too_long = decode(huge, program, storage);
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.message().find("above the limit"), std::string::npos) << too_long.message();
  const Status status = decode({0x00000050, 40}, program, storage);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find("token 1"), std::string::npos);
}

TEST(DxbcContainer, ChecksumDirectoryAndChunks) {
  auto program = ProgramBuilder(ProgramType::Pixel, 5, 0).inst(Opcode::Ret, {}).finish();
  std::vector<std::uint8_t> sfi0(8, 0);
  sfi0[0] = 0x01;
  sfi0[4] = 0x02;
  auto bytes = make_container({{fourcc('S', 'F', 'I', '0'), sfi0},
                               {fourcc('X', 'Y', 'Z', 'W'), {1, 2, 3, 4}},
                               {fourcc('I', 'F', 'C', 'E'), {0, 0, 0, 0}},
                               {fourcc('S', 'H', 'E', 'X'), bytes_of(program)}});
  Container container;
  ASSERT_TRUE(parse_container(bytes, container));
  EXPECT_TRUE(container.checksum_ok);
  EXPECT_TRUE(container.program_is_shex);
  EXPECT_TRUE(container.has_class_linkage);
  EXPECT_EQ(container.feature_flags, 0x0000000200000001ull);
  std::uint32_t seen = 0;
  for_each_chunk(container, [&](std::uint32_t, std::span<const std::uint8_t>) { ++seen; });
  EXPECT_EQ(seen, 4u);

  bytes[10] ^= 1; // corrupt the stored checksum: accepted, flagged
  ASSERT_TRUE(parse_container(bytes, container));
  EXPECT_TRUE(container.checksum_checked);
  EXPECT_FALSE(container.checksum_ok);
  std::string text;
  ASSERT_TRUE(disassemble(bytes, text));
  EXPECT_NE(text.find("checksum mismatch"), std::string::npos);
}

TEST(DxbcContainer, BadDirectoriesAreRejected) {
  auto good =
      shader_container(ProgramBuilder(ProgramType::Pixel, 5, 0).inst(Opcode::Ret, {}).finish());
  Container container;
  auto bad_magic = good;
  bad_magic[0] = 'X';
  EXPECT_FALSE(parse_container(bad_magic, container));
  auto bad_size = good;
  bad_size[24] += 4; // total size beyond the blob
  EXPECT_FALSE(parse_container(bad_size, container));
  auto bad_offset = good;
  bad_offset[32] = 0xf0; // chunk offset beyond the blob
  EXPECT_FALSE(parse_container(bad_offset, container));
  auto bad_chunk_size = good;
  bad_chunk_size[36 + 4] = 0xff; // chunk size beyond the blob
  const Status status = parse_container(bad_chunk_size, container);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find("offset 36"), std::string::npos) << status.message();
  EXPECT_FALSE(parse_container(std::span<const std::uint8_t>(good).first(16), container));
}

TEST(DxbcContainer, SignatureElements) {
  // ISGN with two elements: TEXCOORD1 (v1.xy, float, read .x) and SV_Position (v0, position).
  std::vector<std::uint32_t> words = {2,           8,
                                      /*name*/ 56, 1, 0, 3, 1, 0x0103,
                                      /*name*/ 65, 0, 1, 3, 0, 0x000f};
  std::vector<std::uint8_t> payload = bytes_of(words);
  const char names[] = "TEXCOORD\0SV_Position";
  payload.insert(payload.end(), names, names + sizeof names);
  while (payload.size() % 4) payload.push_back(0);
  auto bytes = make_container({{fourcc('I', 'S', 'G', 'N'), payload}});
  Container container;
  ASSERT_TRUE(parse_container(bytes, container));
  ASSERT_TRUE(container.input.present());
  PodArray<SignatureElement> elements;
  ASSERT_TRUE(parse_signature(container.input, elements));
  ASSERT_EQ(elements.size(), 2u);
  EXPECT_EQ(elements[0].semantic_name, "TEXCOORD");
  EXPECT_EQ(elements[0].semantic_index, 1u);
  EXPECT_EQ(elements[0].register_index, 1u);
  EXPECT_EQ(elements[0].mask, 0x3);
  EXPECT_EQ(elements[0].read_write_mask, 0x1);
  EXPECT_EQ(elements[1].semantic_name, "SV_Position");
  EXPECT_EQ(elements[1].system_value, 1u);

  // A name offset outside the chunk is an error, not a read past it.
  payload[8] = 0xf0;
  bytes = make_container({{fourcc('I', 'S', 'G', 'N'), payload}});
  ASSERT_TRUE(parse_container(bytes, container));
  EXPECT_FALSE(parse_signature(container.input, elements));
}

} // namespace
} // namespace kiln::dxbc
