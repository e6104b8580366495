// Compute programs written as final-form IR, lowered by the backend and run on lavapipe; the
// results are checked against the same computation on the CPU.

#include "tests/translator/spirv/lower_test_util.h"
#include "bench/execute/vulkan_harness.h"

#include <algorithm>
#include <cmath>
#include "tests/support/shared_data.h"

#include <gtest/gtest.h>

namespace kiln::test {
namespace {

constexpr std::uint32_t kThreads = 64;
constexpr std::uint32_t kGroups = 4;
constexpr std::uint32_t kElements = kThreads * kGroups;
// docs/pipeline.md binding model: register * 5 + class.
constexpr std::uint32_t kSrv0 = 1, kUav0 = 2;

class LoweredCompute : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (context_ == nullptr) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  }

  // Lowers `ir`, binds t0 = `in` and u0 = output, dispatches kGroups groups.
  std::vector<std::uint32_t> run(std::string_view ir, const std::vector<std::uint32_t>& in) {
    Lowered lowered;
    lower_and_validate(ir, lowered);
    if (lowered.words.empty()) return {};
    vulkan::Buffer input, output;
    const VkDeviceSize bytes = in.size() * sizeof(std::uint32_t);
    EXPECT_TRUE(
        vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, input));
    EXPECT_TRUE(
        vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, output));
    input.write(std::span<const std::uint32_t>(in));
    const vulkan::BufferBinding bindings[] = {
        {kSrv0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &input},
        {kUav0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &output},
    };
    vulkan::ComputePipeline pipeline;
    Status st =
        vulkan::ComputePipeline::create(*context_, lowered.words, bindings, "main", pipeline);
    EXPECT_TRUE(st) << st.message();
    if (!st) return {};
    st = pipeline.dispatch(bindings, kGroups);
    EXPECT_TRUE(st) << st.message();
    return output.read<std::uint32_t>();
  }

  std::unique_ptr<vulkan::Context> context_;
};

std::vector<std::uint32_t> test_input() {
  std::vector<std::uint32_t> in(kElements);
  std::uint32_t x = 12345;
  for (auto& v : in) {
    x = x * 1103515245u + 12345u;
    v = (x >> 8) & 0xffff;
  }
  return in;
}

TEST_F(LoweredCompute, IntegerAndFloatArithmetic) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 64 1 1
%3 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId 0
%4 = DclUav u32[] %1 0 0 1 RawBuffer 0
%5 = DclSrv u32[] %1 0 0 1 RawBuffer
%6 = Constant u32 0
%7 = Constant u32 3
%8 = Constant u32 7
%9 = Constant f32 0.5
%10 = Constant u32 5
%11 = Constant f32 100.0
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %3 %6
    %23 = DescriptorLoad u32[] %5 %6
    %24 = BufferLoad u32 %23 %22 4
    %25 = IMul u32 %24 %7
    %26 = IAdd u32 %25 %8
    %27 = ConvertItoF f32 %24
    %28 = FMul f32 %27 %9
    %29 = FRound f32 %28 NegativeInf
    %30 = FMin f32 %29 %11
    %31 = ConvertFtoI u32 %30
    %32 = IShl u32 %31 %10
    %33 = IXor u32 %26 %32
    %34 = UFindMsb u32 %24
    %35 = IAdd u32 %33 %34
    %36 = DescriptorLoad u32[] %4 %6
    %37 = BufferStore void %36 %22 %35 4
    %38 = Return void null
%39 = FunctionEnd void
)";
  auto in = test_input();
  auto out = run(ir, in);
  ASSERT_EQ(out.size(), in.size());
  for (std::uint32_t i = 0; i < kElements; ++i) {
    std::uint32_t v = in[i];
    float half = float(v) * 0.5f;
    std::uint32_t f = std::uint32_t(std::min(std::floor(half), 100.0f));
    std::uint32_t msb = ~0u; // FindUMsb of 0 is -1
    for (std::uint32_t b = 0; b < 32; ++b)
      if (v >> b & 1) msb = b;
    std::uint32_t expect = ((v * 3 + 7) ^ (f << 5)) + msb;
    ASSERT_EQ(out[i], expect) << "element " << i << " input " << v;
  }
}

TEST_F(LoweredCompute, LdsBarrierLoopAndSelection) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 64 1 1
%3 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId 0
%4 = DclInputBuiltIn u32 %1 LocalThreadIndex 0
%5 = DclUav u32[] %1 0 0 1 RawBuffer 0
%6 = DclLds u32[64] %1
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant u32 63
%13 = Constant u32 2
%14 = Constant u32 1000
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %3 %10
    %23 = InputLoad u32 %4 null
    %24 = IMul u32 %23 %13
    %25 = LdsStore void %6 %23 %24
    %26 = Barrier void Workgroup Workgroup Lds
    %27 = ISub u32 %12 %23
    %28 = LdsLoad u32 %6 %27
    %29 = Branch void %30
  %30 = Label void %40 %35 StructuredLoop
    %31 = Phi u32 %21 %10 %35 %37
    %32 = Phi u32 %21 %28 %35 %38
    %33 = ULt bool %31 %23
    %34 = BranchConditional void %33 %35 %40
  %35 = Label void None
    %37 = IAdd u32 %31 %11
    %38 = IAdd u32 %32 %31
    %39 = Branch void %30
  %40 = Label void %50 StructuredSelection
    %41 = IAnd u32 %32 %11
    %42 = INe bool %41 %10
    %43 = BranchConditional void %42 %45 %50
  %45 = Label void None
    %46 = IAdd u32 %32 %14
    %47 = Branch void %50
  %50 = Label void None
    %51 = Phi u32 %40 %32 %45 %46
    %52 = DescriptorLoad u32[] %5 %10
    %53 = BufferStore void %52 %22 %51 4
    %54 = Return void null
%55 = FunctionEnd void
)";
  auto in = test_input();
  auto out = run(ir, in);
  ASSERT_EQ(out.size(), in.size());
  for (std::uint32_t i = 0; i < kElements; ++i) {
    std::uint32_t l = i % kThreads;
    std::uint32_t v = 2 * (63 - l) + l * (l - 1) / 2;
    if (l == 0) v = 2 * 63;
    if (v & 1) v += 1000;
    ASSERT_EQ(out[i], v) << "element " << i;
  }
}

TEST_F(LoweredCompute, StructuredBufferVectorsAndAtomics) {
  // Each thread reads a 4-dword structure as one vec4 load, swizzles it through a scratch
  // array and writes it back; thread 0 of each group also counts the group with an atomic.
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 64 1 1
%3 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId 0
%4 = DclUav u32[4][] %1 0 0 1 Structured 0
%5 = DclSrv u32[4][] %1 0 0 1 Structured
%6 = DclScratch u32[4] %1
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant u32 2
%13 = Constant u32 3
%20 = Function void
  %21 = Label void None
    %22 = InputLoad u32 %3 %10
    %23 = UShr u32 %22 %12
    %24 = IAnd u32 %22 %13
    %25 = DescriptorLoad u32[4][] %5 %10
    %26 = CompositeConstruct vec2<u32> %23 %10
    %27 = BufferLoad vec4<u32> %25 %26 4
    %28 = CompositeExtract u32 %27 %10
    %29 = CompositeExtract u32 %27 %13
    %30 = ScratchStore void %6 %10 %29
    %31 = ScratchStore void %6 %11 %28
    %32 = ScratchLoad u32 %6 %24
    %33 = DescriptorLoad u32[4][] %4 %10
    %34 = CompositeConstruct vec2<u32> %23 %24
    %35 = BufferStore void %33 %34 %32 4
    %36 = BufferAtomic void %33 %26 %11 Add
    %37 = Return void null
%38 = FunctionEnd void
)";
  auto in = test_input();
  auto out = run(ir, in);
  ASSERT_EQ(out.size(), in.size());
  // Thread t writes element (t / 4, t % 4) = scratch[t % 4] where scratch = {s.w, s.x, ?, ?};
  // scratch[2..3] are unwritten (undefined), so only dwords 0 and 1 are checked, and every
  // structure's dword 0 was also incremented by its 4 threads (after or before the store).
  for (std::uint32_t s = 0; s < kElements / 4; ++s) {
    const std::uint32_t* src = &in[s * 4];
    std::uint32_t dword0 = out[s * 4], dword1 = out[s * 4 + 1];
    EXPECT_EQ(dword1, src[0]) << "structure " << s;
    EXPECT_GE(dword0, src[3]) << "structure " << s;
    EXPECT_LE(dword0, src[3] + 4) << "structure " << s;
  }
}

} // namespace
} // namespace kiln::test
