// D3D11 class linkage and subroutines in the DXBC converter (tests/translator/dxbc/linkage_program.h):
// fcall becomes a switch on the selected function table with the bodies inlined, `this` and
// the table come from the selection buffer (or constants when the selection is fixed), a
// constant buffer chosen at run time reads every declared one, a texture or sampler chosen at
// run time is a switch over the declared ones, and bad declarations or calls are one-line
// rejections.

#include "tests/translator/dxbc/linkage_program.h"
#include "translator/common/shader_interface.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln::dxbc {
namespace {

using namespace test;
using ir::OpCode;
using OT = OperandType;

struct Converted {
  ir::Builder b;
  Status status;
  std::size_t count(OpCode code) const {
    std::size_t n = 0;
    for (ir::OpView op : b.ops()) n += op.code() == code;
    return n;
  }
};

void convert(const std::vector<std::uint32_t>& words, Converted& out,
             const ClassLinkage* linkage = nullptr) {
  Converter converter;
  out.b.reset();
  out.status = converter.convert(shader_container(words), {.class_linkage = linkage}, out.b);
}

void expect_pipeline_ok(Converted& c) {
  passes::Pipeline pipeline;
  Status s = pipeline.run(c.b, {.validate_each_pass = true});
  ASSERT_TRUE(s) << s.message() << "\n" << ir::print(c.b);
  Status v = ir::validate(c.b);
  EXPECT_TRUE(v) << v.message();
}

// The selection buffer: the DclCbv flagged ClassInstances (none when there is none).
std::vector<ir::OpView> selection_buffers(const Converted& c) {
  std::vector<ir::OpView> out;
  for (ir::OpView op : c.b.ops())
    if (op.code() == OpCode::DclCbv && ir::has(op.flags(), ir::OpFlags::ClassInstances))
      out.push_back(op);
  return out;
}

TEST(DxbcLinkage, FcallSwitchesOnTheSelectedTableWithTheBodiesInlined) {
  Converted c;
  convert(linkage_compute_program(), c);
  ASSERT_TRUE(c.status) << c.status.message();
  // Two fcalls, each a switch with a case per table of its interface (ft0, ft1).
  EXPECT_EQ(c.count(OpCode::ScopedSwitch), 2u);
  EXPECT_EQ(c.count(OpCode::ScopedSwitchCase), 4u);
  // fb1's retc guards the rest of the body: one if.
  EXPECT_EQ(c.count(OpCode::ScopedIf), 1u);
  const auto selection = selection_buffers(c);
  ASSERT_EQ(selection.size(), 1u);
  EXPECT_EQ(selection[0].operand(1).literal_u32(), KILN_CLASS_LINKAGE_DEFAULT_SPACE);
  EXPECT_EQ(selection[0].operand(2).literal_u32(), KILN_CLASS_LINKAGE_DEFAULT_REGISTER);
  // Three slots (fp0[1], fp1[2]) of two vec4 each.
  EXPECT_NE(ir::print(c.b).find("vec4<f32>[6]"), std::string::npos) << ir::print(c.b);
  expect_pipeline_ok(c);
}

TEST(DxbcLinkage, TheInterfaceMovesTheSelectionRegister) {
  ClassLinkage linkage;
  linkage.space = 3;
  linkage.register_index = 9;
  Converted c;
  convert(linkage_compute_program(), c, &linkage);
  ASSERT_TRUE(c.status) << c.status.message();
  const auto selection = selection_buffers(c);
  ASSERT_EQ(selection.size(), 1u);
  EXPECT_EQ(selection[0].operand(1).literal_u32(), 3u);
  EXPECT_EQ(selection[0].operand(2).literal_u32(), 9u);
}

TEST(DxbcLinkage, AFixedSelectionReadsNoBuffer) {
  ClassLinkage linkage;
  linkage.fixed_instances = {{1, {}}, {0, {0, 0, 0, 0}}, {0, {1, 0, 0, 0}}};
  Converted c;
  convert(linkage_compute_program(), c, &linkage);
  ASSERT_TRUE(c.status) << c.status.message();
  EXPECT_TRUE(selection_buffers(c).empty());
  EXPECT_GT(c.count(OpCode::ConstantLoad), 0u);
  expect_pipeline_ok(c);
}

TEST(DxbcLinkage, TheSelectionRegisterMustNotBeTheShadersOwn) {
  ClassLinkage linkage;
  linkage.register_index = 1; // the program declares cb1
  Converted c;
  convert(linkage_compute_program(), c, &linkage);
  ASSERT_FALSE(c.status);
  EXPECT_NE(c.status.message().find("selection register cb1"), std::string::npos)
      << c.status.message();
}

// t[r1.x + 1] with s[r1.y + 0] (sample_l), t[r1.x + 0] (ld), u[r1.x + 1] (store_raw): a
// switch over the three declared texture2d registers (the buffer t3 is no candidate), each
// case a switch over both samplers for sample_l, and one over the three raw UAVs; every
// switch's default writes zeros (or nothing). Valid SPIR-V at the end.
TEST(DxbcLinkage, AClassInstancesResourcesAreSwitchesOverTheDeclaredOnes) {
  Converted c;
  convert(linkage_texture_program(), c);
  ASSERT_TRUE(c.status) << c.status.message();
  const std::size_t switches = 1 + 1 + kChosenTextures + 1 + 1; // fcall, t, s per t, t, u
  EXPECT_EQ(c.count(OpCode::ScopedSwitch), switches);
  EXPECT_EQ(c.count(OpCode::ScopedSwitchDefault), switches - 1);
  EXPECT_EQ(c.count(OpCode::ScopedSwitchCase),
            1 + kChosenTextures * (1 + 2) + kChosenTextures + kChosenUavs);
  EXPECT_EQ(c.count(OpCode::ImageSample), kChosenTextures * 2);
  EXPECT_EQ(c.count(OpCode::ImageLoad), kChosenTextures);
  EXPECT_EQ(c.count(OpCode::BufferStore), kChosenUavs + 2); // the main program's two stores
  expect_pipeline_ok(c);
  Translator translator;
  TranslateResult out;
  Status s = translator.translate(shader_container(linkage_texture_program()), {}, out);
  ASSERT_TRUE(s) << s.message();
  Status valid = validate_spirv(out.spirv, SpirvTarget::Vulkan13);
  EXPECT_TRUE(valid) << valid.message();
}

// A pixel shader with one interface (fp0[1][1] = {ft0}, ft0 = {fb0}) calling `fcall`'s tokens.
std::vector<std::uint32_t> with_linkage(std::initializer_list<std::uint32_t> fcall) {
  ProgramBuilder p(ProgramType::Pixel, 5, 0);
  p.inst(Opcode::DclTemps, {1});
  p.inst(Opcode::DclFunctionBody, {0});
  p.inst(Opcode::DclFunctionTable, {0, 1, 0});
  p.inst(Opcode::DclInterface, {0, 1, 1u << 16 | 1, 0});
  p.inst(Opcode::InterfaceCall, fcall);
  p.inst(Opcode::Ret, {});
  p.inst(Opcode::Label, {operand_token(OT::FunctionBody, kComp0, 0, 1), 0});
  p.inst(Opcode::Ret, {});
  return p.finish();
}

void expect_rejected(const std::vector<std::uint32_t>& words, const std::string& what) {
  Converted c;
  convert(words, c);
  ASSERT_FALSE(c.status) << "accepted; wanted: " << what;
  EXPECT_NE(c.status.message().find(what), std::string::npos) << c.status.message();
  EXPECT_EQ(c.status.message().find('\n'), std::string::npos);
}

TEST(DxbcLinkage, BadDeclarationsAndCallsAreRejectedByName) {
  const std::uint32_t fp = operand_token(OT::Interface, kComp0, 0, 2);
  {
    Converted ok;
    convert(with_linkage({0, fp, 0, 0}), ok);
    EXPECT_TRUE(ok.status) << ok.status.message();
  }
  expect_rejected(with_linkage({0, fp, 4, 0}), "fp4, which is not declared");
  expect_rejected(with_linkage({1, fp, 0, 0}), "call site 1 is beyond function table ft0");
  ProgramBuilder undeclared_body(ProgramType::Pixel, 5, 0);
  undeclared_body.inst(Opcode::DclFunctionTable, {0, 1, 7}).inst(Opcode::Ret, {});
  expect_rejected(undeclared_body.finish(), "names fb7, which is not declared");
  ProgramBuilder too_many(ProgramType::Pixel, 5, 0);
  too_many.inst(Opcode::DclInterface, {250, 0, 8u << 16}).inst(Opcode::Ret, {});
  expect_rejected(too_many.finish(), "253");
  ProgramBuilder stray_this(ProgramType::Pixel, 5, 0);
  stray_this.inst(Opcode::DclTemps, {1});
  stray_this.inst(Opcode::Mov, {operand_token(OT::Temp, kComp4, mask(1), 1), 0,
                                operand_token(OT::ThisPointer, kComp4, select1(0), 1), 0});
  stray_this.inst(Opcode::Ret, {});
  expect_rejected(stray_this.finish(), "without an interface declaration");
  // Without the instructions' resource-dimension tokens, t# chosen at run time among a
  // texture2d and a buffer has no way to tell which the instruction can use.
  expect_rejected(linkage_texture_program(false), "declarations of different dimensions");
}

// call l0 -> l0 calls l1 -> l1 calls l0: the nesting bound stops it with a message.
TEST(DxbcLinkage, SubroutinesAreInlinedAndRecursionIsRejected) {
  const std::uint32_t label = operand_token(OT::Label, kComp0, 0, 1);
  const std::uint32_t r0x = operand_token(OT::Temp, kComp4, mask(1), 1);
  const std::uint32_t imm = operand_token(OT::Immediate32, kComp1, 0, 0);
  ProgramBuilder good(ProgramType::Pixel, 5, 0);
  good.inst(Opcode::DclOutput, {operand_token(OT::Output, kComp4, mask(1), 1), 0});
  good.inst(Opcode::DclTemps, {1});
  good.inst(Opcode::Call, {label, 0});
  good.inst(Opcode::Mov, {operand_token(OT::Output, kComp4, mask(1), 1), 0,
                          operand_token(OT::Temp, kComp4, select1(0), 1), 0});
  good.inst(Opcode::Ret, {});
  good.inst(Opcode::Label, {label, 0});
  good.inst(Opcode::Mov, {r0x, 0, imm, 0x3f800000u});
  good.inst(Opcode::Ret, {});
  Converted c;
  convert(good.finish(), c);
  ASSERT_TRUE(c.status) << c.status.message();
  EXPECT_EQ(c.count(OpCode::OutputStore), 1u);
  expect_pipeline_ok(c);

  ProgramBuilder recursive(ProgramType::Pixel, 5, 0);
  recursive.inst(Opcode::Call, {label, 0}).inst(Opcode::Ret, {});
  recursive.inst(Opcode::Label, {label, 0}).inst(Opcode::Call, {label, 1}).inst(Opcode::Ret, {});
  recursive.inst(Opcode::Label, {label, 1}).inst(Opcode::Call, {label, 0}).inst(Opcode::Ret, {});
  expect_rejected(recursive.finish(), "nested deeper than 32");
}

} // namespace
} // namespace kiln::dxbc
