// The generated grammar tables agree with spirv.hpp and have the expected shape.

#include "translator/spirv/grammar.h"

#include <cstring>
#include <gtest/gtest.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <string>

namespace kiln::spirv::grammar {
namespace {

std::string name_of(spv::Op op) {
  const InstructionInfo* info = find_instruction(op);
  return info != nullptr ? info->name : "";
}

TEST(SpirvGrammar, OpcodeNamesMatchSpirvHpp) {
  EXPECT_EQ(name_of(spv::OpNop), "OpNop");
  EXPECT_EQ(name_of(spv::OpFAdd), "OpFAdd");
  EXPECT_EQ(name_of(spv::OpImageSampleExplicitLod), "OpImageSampleExplicitLod");
  EXPECT_EQ(name_of(spv::OpGroupNonUniformBallot), "OpGroupNonUniformBallot");
  EXPECT_EQ(name_of(spv::OpTerminateInvocation), "OpTerminateInvocation");
  EXPECT_EQ(find_instruction(0xFFFF), nullptr);
  EXPECT_EQ(find_instruction(13), nullptr); // a hole in the opcode space
}

TEST(SpirvGrammar, OperandListsCarryKindsAndQuantifiers) {
  const InstructionInfo* load = find_instruction(spv::OpLoad);
  ASSERT_NE(load, nullptr);
  std::span<const OperandSpec> ops = operands(*load);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].kind, OperandKind::IdResultType);
  EXPECT_EQ(ops[1].kind, OperandKind::IdResult);
  EXPECT_EQ(ops[2].kind, OperandKind::IdRef);
  EXPECT_EQ(ops[3].kind, OperandKind::MemoryAccess);
  EXPECT_EQ(ops[3].quantifier, Quantifier::Optional);

  std::span<const OperandSpec> entry = operands(*find_instruction(spv::OpEntryPoint));
  ASSERT_EQ(entry.size(), 4u);
  EXPECT_EQ(entry[2].kind, OperandKind::LiteralString);
  EXPECT_EQ(entry[3].quantifier, Quantifier::Variadic);

  std::span<const OperandSpec> sw = operands(*find_instruction(spv::OpSwitch));
  EXPECT_EQ(kind_info(sw.back().kind).category, OperandCategory::Composite);
  std::span<const OperandKind> bases = composite_bases(sw.back().kind);
  ASSERT_EQ(bases.size(), 2u);
  EXPECT_EQ(bases[0], OperandKind::LiteralInteger);
  EXPECT_EQ(bases[1], OperandKind::IdRef);
}

TEST(SpirvGrammar, EnumerantsMatchSpirvHppValues) {
  const EnumerantInfo* builtin = find_enumerant(OperandKind::Decoration, spv::DecorationBuiltIn);
  ASSERT_NE(builtin, nullptr);
  EXPECT_STREQ(builtin->name, "BuiltIn");
  std::span<const OperandSpec> params = parameters(*builtin);
  ASSERT_EQ(params.size(), 1u);
  EXPECT_EQ(params[0].kind, OperandKind::BuiltIn);
  EXPECT_STREQ(find_enumerant(OperandKind::BuiltIn, spv::BuiltInFragCoord)->name, "FragCoord");
  EXPECT_STREQ(find_enumerant(OperandKind::StorageClass, spv::StorageClassStorageBuffer)->name,
               "StorageBuffer");
  EXPECT_STREQ(find_enumerant(OperandKind::Capability, spv::CapabilityShader)->name, "Shader");
  EXPECT_EQ(find_enumerant(OperandKind::Capability, 0x7FFFFFF0u), nullptr);

  // Bit enums: one enumerant per bit, with the operands the bit brings.
  EXPECT_EQ(kind_info(OperandKind::ImageOperands).category, OperandCategory::BitEnum);
  const EnumerantInfo* lod = find_enumerant(OperandKind::ImageOperands, spv::ImageOperandsLodMask);
  ASSERT_NE(lod, nullptr);
  EXPECT_STREQ(lod->name, "Lod");
  EXPECT_EQ(parameters(*lod).size(), 1u);
  const EnumerantInfo* grad =
      find_enumerant(OperandKind::ImageOperands, spv::ImageOperandsGradMask);
  ASSERT_NE(grad, nullptr);
  EXPECT_EQ(parameters(*grad).size(), 2u);
}

TEST(SpirvGrammar, EnumerantsAreSortedAndUniquePerKind) {
  for (std::uint32_t k = 0; k < kOperandKindCount; ++k) {
    std::span<const EnumerantInfo> all = enumerants(static_cast<OperandKind>(k));
    for (std::size_t i = 1; i < all.size(); ++i)
      EXPECT_LT(all[i - 1].value, all[i].value) << kind_info(static_cast<OperandKind>(k)).name;
  }
}

TEST(SpirvGrammar, GlslStd450Names) {
  EXPECT_STREQ(glsl_std_450_name(GLSLstd450Sqrt), "Sqrt");
  EXPECT_STREQ(glsl_std_450_name(GLSLstd450FMix), "FMix");
  EXPECT_STREQ(glsl_std_450_name(GLSLstd450InterpolateAtOffset), "InterpolateAtOffset");
  EXPECT_EQ(glsl_std_450_name(0), nullptr);
  EXPECT_EQ(glsl_std_450_name(GLSLstd450Count), nullptr);
}

TEST(SpirvGrammar, Generators) {
  const GeneratorInfo* assembler = find_generator(7);
  if (assembler == nullptr) GTEST_SKIP() << "spir-v.xml was not available at build time";
  EXPECT_STREQ(assembler->vendor, "Khronos");
  EXPECT_STREQ(assembler->tool, "SPIR-V Tools Assembler");
}

} // namespace
} // namespace kiln::spirv::grammar
