// ModuleBuilder: deduplication, layout order, header, id bound, reuse, and that its modules
// pass spirv-val for every Vulkan target.

#include "tests/translator/spirv/compute_programs.h"
#include "translator/spirv/module_builder.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <bit>
#include <gtest/gtest.h>
#include <vector>

namespace kiln::test {
namespace {

using spirv::Id;
using spirv::ModuleBuilder;
using spirv::Section;

struct Instruction {
  spv::Op opcode;
  std::span<const std::uint32_t> operands;
};

std::vector<Instruction> instructions(std::span<const std::uint32_t> words) {
  std::vector<Instruction> result;
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) break;
    result.push_back({static_cast<spv::Op>(words[at] & 0xFFFF), words.subspan(at + 1, count - 1)});
    at += count;
  }
  return result;
}

std::size_t count_op(std::span<const std::uint32_t> words, spv::Op opcode) {
  std::size_t n = 0;
  for (const Instruction& i : instructions(words)) n += i.opcode == opcode;
  return n;
}

TEST(ModuleBuilder, TypesAndConstantsAreDeduplicated) {
  ModuleBuilder b;
  b.reset();
  const Id f32 = b.type_float(32);
  EXPECT_EQ(b.type_float(32), f32);
  EXPECT_NE(b.type_int(32, true), b.type_int(32, false));
  const Id v4 = b.type_vector(f32, 4);
  EXPECT_EQ(b.type_vector(f32, 4), v4);
  EXPECT_NE(b.type_vector(f32, 3), v4);
  EXPECT_EQ(b.type_pointer(spv::StorageClassFunction, v4),
            b.type_pointer(spv::StorageClassFunction, v4));
  EXPECT_NE(b.type_pointer(spv::StorageClassPrivate, v4),
            b.type_pointer(spv::StorageClassFunction, v4));
  const Id one = b.constant_f32(1.0f);
  EXPECT_EQ(b.constant_f32(1.0f), one);
  EXPECT_NE(b.constant_f32(-0.0f), b.constant_f32(0.0f)); // distinct bit patterns
  EXPECT_NE(b.constant_u32(1), b.constant_i32(1));        // distinct types
  const Id parts[] = {one, one, one, one};
  EXPECT_EQ(b.constant_composite(v4, parts), b.constant_composite(v4, parts));
  EXPECT_EQ(b.constant_null(v4), b.constant_null(v4));
  EXPECT_NE(b.constant_null(v4), b.constant_null(f32));
  EXPECT_EQ(b.constant_bool(true), b.constant_bool(true));
  EXPECT_NE(b.constant_bool(true), b.constant_bool(false));
  // Structs and spec constants are never merged.
  EXPECT_NE(b.type_struct(parts), b.type_struct(parts));
  const std::uint32_t seven = 7;
  EXPECT_NE(b.spec_constant(f32, {&seven, 1}), b.spec_constant(f32, {&seven, 1}));
  // Spec constants keyed by SpecId, and pure functions of spec constants, are merged.
  const Id by_id = b.spec_constant_with_id(f32, {&seven, 1}, 3);
  EXPECT_EQ(b.spec_constant_with_id(f32, {&seven, 1}, 3), by_id);
  EXPECT_NE(b.spec_constant_with_id(f32, {&seven, 1}, 4), by_id);
  const Id spec_parts[] = {by_id, by_id, one, one};
  EXPECT_EQ(b.spec_constant_composite(v4, spec_parts), b.spec_constant_composite(v4, spec_parts));
  const std::uint32_t negate[] = {by_id};
  EXPECT_EQ(b.spec_constant_op(f32, spv::OpFNegate, negate),
            b.spec_constant_op(f32, spv::OpFNegate, negate));
  EXPECT_EQ(b.glsl_std_450(), b.glsl_std_450());

  std::vector<std::uint32_t> words;
  b.finish(words);
  EXPECT_EQ(count_op(words, spv::OpTypeFloat), 1u);
  EXPECT_EQ(count_op(words, spv::OpTypeVector), 2u);
  EXPECT_EQ(count_op(words, spv::OpConstantComposite), 1u);
  EXPECT_EQ(count_op(words, spv::OpExtInstImport), 1u);
  EXPECT_EQ(count_op(words, spv::OpTypeStruct), 2u);
  EXPECT_EQ(count_op(words, spv::OpSpecConstant), 4u); // 2 plain + SpecId 3 and 4
  EXPECT_EQ(count_op(words, spv::OpSpecConstantComposite), 1u);
  EXPECT_EQ(count_op(words, spv::OpSpecConstantOp), 1u);
  EXPECT_EQ(count_op(words, spv::OpDecorate), 2u); // SpecId 3 and 4, once each
}

TEST(ModuleBuilder, DecorationsCapabilitiesExtensionsRecordedOnce) {
  ModuleBuilder b;
  b.reset();
  const Id var = b.allocate_id();
  b.decorate(var, spv::DecorationBinding, {2});
  b.decorate(var, spv::DecorationBinding, {2});
  b.decorate(var, spv::DecorationBinding, {3}); // different literal: a different fact
  b.decorate_member(var, 0, spv::DecorationOffset, {0});
  b.decorate_member(var, 0, spv::DecorationOffset, {0});
  b.decorate_member(var, 1, spv::DecorationOffset, {0});
  b.require_capability(spv::CapabilityShader);
  b.require_capability(spv::CapabilityShader);
  b.type_float(64);
  b.type_float(64); // Float64 once, and only because a double type exists
  b.require_extension("SPV_KHR_a");
  b.require_extension("SPV_KHR_b");
  b.require_extension("SPV_KHR_a");
  EXPECT_TRUE(b.has_capability(spv::CapabilityFloat64));
  EXPECT_FALSE(b.has_capability(spv::CapabilityInt64));
  std::vector<std::uint32_t> words;
  b.finish(words);
  EXPECT_EQ(count_op(words, spv::OpDecorate), 2u);
  EXPECT_EQ(count_op(words, spv::OpMemberDecorate), 2u);
  EXPECT_EQ(count_op(words, spv::OpCapability), 2u);
  EXPECT_EQ(count_op(words, spv::OpExtension), 2u);
}

// Decorations are deduplicated per target: the same fact on another target, a decoration
// without literals next to one with, OpDecorateId next to OpDecorate, ids far past any seen
// before, and a reset (which forgets every target's decorations) all count.
TEST(ModuleBuilder, DecorationsAreDeduplicatedPerTarget) {
  ModuleBuilder b;
  for (int module = 0; module < 2; ++module) {
    b.reset();
    std::vector<Id> ids;
    for (int i = 0; i < 3000; ++i) ids.push_back(b.allocate_id());
    for (int round = 0; round < 2; ++round) {
      for (Id id : ids) {
        b.decorate(id, spv::DecorationFlat);
        b.decorate(id, spv::DecorationLocation, {id % 7});
        b.decorate_id(id, spv::DecorationCounterBuffer, {ids[0]});
      }
      b.decorate(ids.back(), spv::DecorationLocation, {1234}); // a second Location: distinct
    }
    std::vector<std::uint32_t> words;
    b.finish(words);
    EXPECT_EQ(count_op(words, spv::OpDecorate), 2u * 3000u + 1u) << module;
    EXPECT_EQ(count_op(words, spv::OpDecorateId), 3000u) << module;
  }
}

TEST(ModuleBuilder, HeaderVersionPerTargetAndCompactBound) {
  const std::pair<SpirvTarget, std::uint32_t> cases[] = {{SpirvTarget::Vulkan10, 0x00010000u},
                                                         {SpirvTarget::Vulkan11, 0x00010300u},
                                                         {SpirvTarget::Vulkan12, 0x00010500u},
                                                         {SpirvTarget::Vulkan13, 0x00010600u}};
  for (auto [target, version] : cases) {
    std::vector<std::uint32_t> words = build_compute_program(ComputeProgram::Loop, target);
    ASSERT_GE(words.size(), 5u);
    EXPECT_EQ(words[0], 0x07230203u);
    EXPECT_EQ(words[1], version);
    EXPECT_EQ(words[4], 0u);
    // Compact bound: every id below it is defined exactly once, none at or above it.
    std::vector<int> defined(words[3], 0);
    for (const Instruction& i : instructions(words)) {
      // Result id position: after the result type when there is one. Only check opcodes
      // whose shape is known here.
      Id result = 0;
      switch (i.opcode) {
      case spv::OpTypeVoid:
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
      case spv::OpTypeBool:
      case spv::OpTypeVector:
      case spv::OpTypeStruct:
      case spv::OpTypePointer:
      case spv::OpTypeRuntimeArray:
      case spv::OpTypeArray:
      case spv::OpTypeFunction:
      case spv::OpLabel:
      case spv::OpExtInstImport:
        result = i.operands[0];
        break;
      case spv::OpConstant:
      case spv::OpVariable:
      case spv::OpLoad:
      case spv::OpIAdd:
      case spv::OpAccessChain:
      case spv::OpFunction:
      case spv::OpIMul:
      case spv::OpUMod:
      case spv::OpULessThanEqual:
        result = i.operands[1];
        break;
      default:
        break;
      }
      if (result == 0) continue;
      ASSERT_LT(result, words[3]);
      ++defined[result];
    }
    for (std::size_t id = 1; id < defined.size(); ++id) EXPECT_EQ(defined[id], 1) << id;
  }
}

TEST(ModuleBuilder, SectionsComeOutInLogicalLayoutOrder) {
  ModuleBuilder b;
  b.reset();
  // Emit in scrambled order; finish() must sort by section.
  const Id void_type = b.type_void();
  const Id fn_type = b.type_function(void_type, {});
  const Id fn = b.begin_function(void_type, spv::FunctionControlMaskNone, fn_type);
  b.label();
  b.op_void(spv::OpReturn, {});
  b.end_function();
  b.decorate(void_type, spv::DecorationRelaxedPrecision);
  b.add_name(fn, "main");
  b.add_execution_mode(fn, spv::ExecutionModeLocalSize, {1, 1, 1});
  b.add_entry_point(spv::ExecutionModelGLCompute, fn, "main", {});
  b.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  b.glsl_std_450();
  b.require_extension("SPV_KHR_x");
  b.require_capability(spv::CapabilityShader);
  std::vector<std::uint32_t> words;
  b.finish(words);
  const spv::Op expected[] = {spv::OpCapability,   spv::OpExtension,  spv::OpExtInstImport,
                              spv::OpMemoryModel,  spv::OpEntryPoint, spv::OpExecutionMode,
                              spv::OpName,         spv::OpDecorate,   spv::OpTypeVoid,
                              spv::OpTypeFunction, spv::OpFunction,   spv::OpLabel,
                              spv::OpReturn,       spv::OpFunctionEnd};
  std::vector<spv::Op> got;
  for (const Instruction& i : instructions(words)) got.push_back(i.opcode);
  EXPECT_EQ(got, std::vector<spv::Op>(std::begin(expected), std::end(expected)));
}

TEST(ModuleBuilder, LocalVariablesAreHoistedIntoTheEntryBlock) {
  ModuleBuilder b;
  b.reset();
  const Id u32 = b.type_int(32, false);
  const Id ptr = b.type_pointer(spv::StorageClassFunction, u32);
  const Id void_type = b.type_void();
  b.begin_function(void_type, spv::FunctionControlMaskNone, b.type_function(void_type, {}));
  b.label();
  const Id early = b.op(spv::OpIAdd, u32, {b.constant_u32(1), b.constant_u32(2)});
  const Id var = b.local_variable(ptr); // asked for after a body instruction
  b.op_void(spv::OpStore, {var, early});
  b.op_void(spv::OpReturn, {});
  std::vector<std::uint32_t> words;
  b.finish(words); // also ends the open function
  std::vector<spv::Op> body;
  bool in_function = false;
  for (const Instruction& i : instructions(words)) {
    in_function |= i.opcode == spv::OpFunction;
    if (in_function) body.push_back(i.opcode);
  }
  const std::vector<spv::Op> expected = {spv::OpFunction,   spv::OpLabel, spv::OpVariable,
                                         spv::OpIAdd,       spv::OpStore, spv::OpReturn,
                                         spv::OpFunctionEnd};
  EXPECT_EQ(body, expected);
}

TEST(ModuleBuilder, UniqueArraysAndSpecConstantOps) {
  ModuleBuilder b;
  b.reset();
  const Id u32 = b.type_int(32, false);
  const Id four = b.constant_u32(4);
  const Id shared = b.type_array(u32, four);
  EXPECT_EQ(b.type_array(u32, four), shared);
  const Id laid_out = b.type_array_unique(u32, four);
  EXPECT_NE(laid_out, shared);
  EXPECT_NE(b.type_array_unique(u32, four), laid_out);
  const std::uint32_t three = 3;
  const Id spec = b.spec_constant(u32, {&three, 1});
  const std::uint32_t operands[] = {spec, four};
  const Id sum = b.spec_constant_op(u32, spv::OpIAdd, operands);
  std::vector<std::uint32_t> words;
  b.finish(words);
  EXPECT_EQ(count_op(words, spv::OpTypeArray), 3u);
  bool found = false;
  for (const Instruction& i : instructions(words)) {
    if (i.opcode != spv::OpSpecConstantOp) continue;
    found = true;
    ASSERT_EQ(i.operands.size(), 5u);
    EXPECT_EQ(i.operands[0], u32);
    EXPECT_EQ(i.operands[1], sum);
    EXPECT_EQ(i.operands[2], static_cast<std::uint32_t>(spv::OpIAdd));
    EXPECT_EQ(i.operands[3], spec);
    EXPECT_EQ(i.operands[4], four);
  }
  EXPECT_TRUE(found);
}

TEST(ModuleBuilder, RawEmissionPatchesWordCount) {
  ModuleBuilder b;
  b.reset();
  b.begin(Section::DebugStrings, spv::OpSourceExtension);
  b.string("GL_GOOGLE_cpp_style_line_directive"); // 34 chars -> 9 words
  b.end();
  std::vector<std::uint32_t> words;
  b.finish(words);
  ASSERT_EQ(words.size(), 5u + 1 + 9);
  EXPECT_EQ(words[5], (10u << 16) | spv::OpSourceExtension);
  EXPECT_EQ(words.back() >> 16, 0u); // NUL padding in the last word
}

TEST(ModuleBuilder, ResetGivesIdenticalModules) {
  ModuleBuilder b;
  std::vector<std::uint32_t> first, second;
  for (std::vector<std::uint32_t>* out : {&first, &second}) {
    b.reset(SpirvTarget::Vulkan12);
    const Id f32 = b.type_float(32);
    b.constant_f32(2.0f);
    b.decorate(f32, spv::DecorationRelaxedPrecision);
    b.require_capability(spv::CapabilityShader);
    b.finish(*out);
  }
  EXPECT_EQ(first, second);
  EXPECT_EQ(first[3], 3u); // ids 1 (float) and 2 (constant)
}

TEST(ModuleBuilder, ComputeProgramsValidateForEveryTarget) {
  for (SpirvTarget target : {SpirvTarget::Vulkan11, SpirvTarget::Vulkan12, SpirvTarget::Vulkan13}) {
    for (ComputeProgram program : all_compute_programs()) {
      std::vector<std::uint32_t> words = build_compute_program(program, target);
      Status status = validate_spirv(words, target);
      EXPECT_TRUE(status) << compute_program_name(program) << " @ " << spirv_target_name(target)
                          << ": " << status.message();
    }
  }
}

TEST(ModuleBuilder, ManyTypesGrowTheTablesWithoutLosingEntries) {
  ModuleBuilder b;
  b.reset();
  std::vector<Id> ids;
  for (std::uint32_t i = 0; i < 5000; ++i) ids.push_back(b.constant_u32(i * 2654435761u));
  for (std::uint32_t i = 0; i < 5000; ++i) EXPECT_EQ(b.constant_u32(i * 2654435761u), ids[i]);
  std::vector<std::uint32_t> words;
  b.finish(words);
  EXPECT_EQ(count_op(words, spv::OpConstant), 5000u);
}

// One-word constants and pointer types are deduplicated in tables of their own (not the general
// one): many keys, the same constant made through constant(), constant_u32() and in another
// order, and a reset between modules must still give one instruction per key and the same id
// for the same key.
TEST(ModuleBuilder, CachedConstantsAndPointerTypesStayDeduplicated) {
  ModuleBuilder b;
  std::vector<std::uint32_t> first, second;
  for (std::vector<std::uint32_t>* out : {&first, &second}) {
    b.reset();
    const Id u32 = b.type_int(32, false);
    const std::uint32_t seven = 7;
    const Id made_by_constant = b.constant(u32, {&seven, 1});
    EXPECT_EQ(b.constant_u32(7), made_by_constant);
    std::vector<Id> constants, pointers;
    for (std::uint32_t i = 0; i < 300; ++i)
      constants.push_back(b.constant_u32(i * 64)); // one entry
    const spv::StorageClass classes[] = {spv::StorageClassInput, spv::StorageClassOutput,
                                         spv::StorageClassPrivate};
    for (spv::StorageClass sc : classes)
      for (Id pointee : constants) pointers.push_back(b.type_pointer(sc, pointee));
    for (std::uint32_t i = 300; i-- > 0;) EXPECT_EQ(b.constant_u32(i * 64), constants[i]);
    std::size_t at = 0;
    for (spv::StorageClass sc : classes)
      for (Id pointee : constants) EXPECT_EQ(b.type_pointer(sc, pointee), pointers[at++]);
    b.finish(*out);
    EXPECT_EQ(count_op(*out, spv::OpConstant), 301u); // 7 and 0, 64, ..., 19136
    EXPECT_EQ(count_op(*out, spv::OpTypePointer), 900u);
  }
  EXPECT_EQ(first, second);
}

} // namespace
} // namespace kiln::test
