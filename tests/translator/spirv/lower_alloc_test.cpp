// A warmed-up spirv::Lowering must not allocate: this binary counts every operator new (its
// own executable, so the replacement allocator affects nothing else).

#include "tests/support/allocation_counter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/spirv/lower.h"
#include "translator/spirv/module_builder.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <vector>

namespace kiln::test {
namespace {

// Pixel shader with I/O, a CBV, a sampled texture, an immediate constant array, control flow.
constexpr const char* kProgram = R"(
%1 = EntryPoint void %20 Pixel
%2 = DclInput vec4<f32> %1 1 0 NoPerspective
%3 = DclInput u32 %1 2 0 Flat
%5 = DclOutput vec4<f32> %1 0 0 0
%6 = DclCbv vec4<f32>[4] %1 0 2 1
%7 = DclSrv f32 %1 0 3 1 Image2D
%8 = DclSampler void %1 0 1 1
%9 = Semantic void %2 0 "TEXCOORD"
%12 = Constant u32 0
%13 = Constant u32 1
%14 = Constant f32[4] 1.0 2.0 3.0 4.0
%16 = Constant f32 0.0
%20 = Function void
  %21 = Label void %50 StructuredSelection
    %22 = InputLoad f32 %2 %12
    %23 = InputLoad f32 %2 %13
    %24 = CompositeConstruct vec2<f32> %22 %23
    %25 = DescriptorLoad f32 %7 %12
    %26 = DescriptorLoad void %8 %12
    %27 = ImageSample vec4<f32> %25 %26 null %24 null null null null null null null
    %28 = DescriptorLoad f32 %6 %12
    %29 = InputLoad u32 %3 null
    %30 = BufferLoad vec4<f32> %28 %29 16
    %31 = FMul vec4<f32> %27 %30
    %32 = ConstantLoad f32 %14 %29
    %33 = FLt bool %32 %22
    %34 = BranchConditional void %33 %40 %50
  %40 = Label void None
    %41 = OutputStore void %5 null %31
    %42 = Branch void %50
  %50 = Label void None
    %51 = Phi f32 %21 %16 %40 %32
    %52 = OutputStore void %5 %12 %51
    %53 = Return void null
%54 = FunctionEnd void
)";

TEST(SpirvLowerAlloc, WarmLoweringDoesNotAllocate) {
  ir::Builder builder;
  ASSERT_TRUE(ir::parse(kProgram, builder));
  spirv::Lowering lowering;
  spirv::LowerOptions options;
  std::vector<std::uint32_t> words;
  Reflection reflection;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(lowering.lower(builder, options, words, reflection));
  const std::size_t size = words.size();
  const std::size_t before = kiln::test::allocation_count();
  ASSERT_TRUE(lowering.lower(builder, options, words, reflection));
  const std::size_t after = kiln::test::allocation_count();
  EXPECT_EQ(after - before, 0u);
  EXPECT_EQ(words.size(), size);
  EXPECT_GT(size, 100u);
}

} // namespace
} // namespace kiln::test
