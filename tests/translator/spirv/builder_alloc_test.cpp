// ModuleBuilder must stop allocating once warmed up: this binary counts every operator new.
// (Its own executable, so the replacement allocator affects nothing else.)

#include "tests/support/allocation_counter.h"
#include "translator/spirv/module_builder.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <vector>

namespace kiln::test {
namespace {

using spirv::Id;

// A module of typical shader shape: types, constants, decorations, a function of ~300 ops.
void build_typical(spirv::ModuleBuilder& b, std::vector<std::uint32_t>& out) {
  b.reset(SpirvTarget::Vulkan13);
  b.require_capability(spv::CapabilityShader);
  b.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  const Id void_type = b.type_void();
  const Id f32 = b.type_float(32);
  const Id v4 = b.type_vector(f32, 4);
  const Id ptr = b.type_pointer(spv::StorageClassPrivate, v4);
  const Id var = b.global_variable(ptr, spv::StorageClassPrivate);
  b.decorate(var, spv::DecorationRelaxedPrecision);
  const Id fn =
      b.begin_function(void_type, spv::FunctionControlMaskNone, b.type_function(void_type, {}));
  b.label();
  Id value = b.op(spv::OpLoad, v4, {var});
  for (std::uint32_t i = 0; i < 300; ++i) {
    const Id c = b.constant_f32(static_cast<float>(i % 40));
    const Id splat[] = {c, c, c, c};
    value = b.op(spv::OpFAdd, v4, {value, b.constant_composite(v4, splat)});
  }
  b.op_void(spv::OpStore, {var, value});
  b.op_void(spv::OpReturn, {});
  b.end_function();
  const Id interface[] = {var};
  b.add_entry_point(spv::ExecutionModelGLCompute, fn, "main", interface);
  b.add_execution_mode(fn, spv::ExecutionModeLocalSize, {8, 8, 1});
  b.finish(out);
}

TEST(ModuleBuilderAllocations, NoneAfterWarmUp) {
  spirv::ModuleBuilder builder;
  std::vector<std::uint32_t> words;
  build_typical(builder, words); // warm-up: buffers and tables reach their working size
  const std::vector<std::uint32_t> reference = words;
  const std::size_t before = kiln::test::allocation_count();
  for (int i = 0; i < 10; ++i) build_typical(builder, words);
  const std::size_t after = kiln::test::allocation_count();
  EXPECT_EQ(after - before, 0u);
  EXPECT_EQ(words, reference);
  EXPECT_GT(before, 0u); // the counter does count
}

} // namespace
} // namespace kiln::test
