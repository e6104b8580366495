// Compute programs built with ModuleBuilder (and one assembled from text) run on lavapipe;
// results are checked against the same computation on the CPU.

#include "bench/execute/vulkan_harness.h"
#include "tests/support/shared_data.h"
#include "tests/translator/spirv/compute_programs.h"
#include "tests/translator/spirv/spirv_tools_text.h"
#include "translator/spirv/module_builder.h"
#include "translator/spirv/validate.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace kiln::test {
namespace {

constexpr std::uint32_t kElements = 16 * kLocalSize;

std::uint32_t vulkan_version(SpirvTarget target) {
  return VK_MAKE_API_VERSION(0, 1, vulkan_minor_version(target), 0);
}

class VulkanCompute : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (context_ == nullptr) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
  }

  // Runs `words` over `in`, returns `out` (which starts zeroed).
  std::vector<std::uint32_t> run(std::span<const std::uint32_t> words,
                                 std::span<const std::uint32_t> in) {
    vulkan::Buffer input, output;
    const VkDeviceSize bytes = in.size() * sizeof(std::uint32_t);
    EXPECT_TRUE(
        vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, input));
    EXPECT_TRUE(
        vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, output));
    input.write(in);
    const vulkan::BufferBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &input},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &output},
    };
    vulkan::ComputePipeline pipeline;
    Status status = vulkan::ComputePipeline::create(*context_, words, bindings, "main", pipeline);
    EXPECT_TRUE(status) << status.message();
    if (!status) return {};
    status = pipeline.dispatch(bindings, static_cast<std::uint32_t>(in.size()) / kLocalSize);
    EXPECT_TRUE(status) << status.message();
    return output.read<std::uint32_t>();
  }

  static std::vector<std::uint32_t> random_input(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> in(kElements);
    for (std::uint32_t& x : in) x = rng() % 4096; // float(x)^2 stays exact
    return in;
  }

  std::unique_ptr<vulkan::Context> context_;
};

TEST_F(VulkanCompute, BufferWriteReadRoundTrip) {
  vulkan::Buffer buffer;
  ASSERT_TRUE(vulkan::Buffer::create(*context_, 64, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, buffer));
  EXPECT_EQ(buffer.read<std::uint32_t>(), std::vector<std::uint32_t>(16, 0u));
  const std::uint32_t values[] = {1, 2, 3};
  buffer.write(std::span<const std::uint32_t>(values), 8);
  std::vector<std::uint32_t> back = buffer.read<std::uint32_t>();
  EXPECT_EQ(back[1], 0u);
  EXPECT_EQ(back[2], 1u);
  EXPECT_EQ(back[4], 3u);
}

TEST_F(VulkanCompute, MisuseGivesErrorsNotCrashes) {
  vulkan::ComputePipeline never_created;
  Status status = never_created.dispatch({}, 1);
  EXPECT_FALSE(status);
  EXPECT_NE(status.message().find("not created"), std::string::npos) << status.message();
}

TEST_F(VulkanCompute, BuilderProgramsMatchCpu) {
  int ran = 0;
  for (SpirvTarget target : {SpirvTarget::Vulkan11, SpirvTarget::Vulkan12, SpirvTarget::Vulkan13}) {
    if (context_->api_version() < vulkan_version(target)) continue;
    for (ComputeProgram program : all_compute_programs()) {
      SCOPED_TRACE(std::string(compute_program_name(program)) + " @ " +
                   std::string(spirv_target_name(target)));
      const std::vector<std::uint32_t> words = build_compute_program(program, target);
      Status valid = validate_spirv(words, target);
      ASSERT_TRUE(valid) << valid.message();
      const std::vector<std::uint32_t> in = random_input(static_cast<std::uint32_t>(program) + 1);
      const std::vector<std::uint32_t> out = run(words, in);
      EXPECT_EQ(out, expected_output(program, in));
      ++ran;
    }
  }
  EXPECT_GT(ran, 0) << context_->device_name() << " supports none of the targets";
  RecordProperty("device", context_->device_name());
  RecordProperty("programs_run", ran);
}

// out[i] = in[i] * params.scale + params.bias, with params in a uniform buffer (binding 2).
std::vector<std::uint32_t> build_uniform_program() {
  using spirv::Id;
  spirv::ModuleBuilder b;
  b.reset(SpirvTarget::Vulkan13);
  b.require_capability(spv::CapabilityShader);
  b.set_memory_model(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
  const Id void_type = b.type_void(), u32 = b.type_int(32, false);
  const Id runtime = b.type_runtime_array(u32);
  b.decorate(runtime, spv::DecorationArrayStride, {4});
  const Id ssbo = b.type_struct({&runtime, 1});
  b.decorate(ssbo, spv::DecorationBlock);
  b.decorate_member(ssbo, 0, spv::DecorationOffset, {0});
  const Id params_members[] = {u32, u32};
  const Id params = b.type_struct(params_members);
  b.decorate(params, spv::DecorationBlock);
  b.decorate_member(params, 0, spv::DecorationOffset, {0});
  b.decorate_member(params, 1, spv::DecorationOffset, {4});
  const Id ssbo_ptr = b.type_pointer(spv::StorageClassStorageBuffer, ssbo);
  const Id in = b.global_variable(ssbo_ptr, spv::StorageClassStorageBuffer);
  const Id out = b.global_variable(ssbo_ptr, spv::StorageClassStorageBuffer);
  const Id ubo =
      b.global_variable(b.type_pointer(spv::StorageClassUniform, params), spv::StorageClassUniform);
  const Id vars[] = {in, out, ubo};
  for (std::uint32_t i = 0; i < 3; ++i) {
    b.decorate(vars[i], spv::DecorationDescriptorSet, {0});
    b.decorate(vars[i], spv::DecorationBinding, {i});
  }
  const Id gid_var = b.global_variable(
      b.type_pointer(spv::StorageClassInput, b.type_vector(u32, 3)), spv::StorageClassInput);
  b.decorate(gid_var, spv::DecorationBuiltIn, {spv::BuiltInGlobalInvocationId});
  const Id fn =
      b.begin_function(void_type, spv::FunctionControlMaskNone, b.type_function(void_type, {}));
  b.label();
  const Id zero = b.constant_u32(0), one = b.constant_u32(1);
  const Id gid = b.op(
      spv::OpLoad, u32,
      {b.op(spv::OpAccessChain, b.type_pointer(spv::StorageClassInput, u32), {gid_var, zero})});
  const Id ssbo_elem = b.type_pointer(spv::StorageClassStorageBuffer, u32);
  const Id ubo_elem = b.type_pointer(spv::StorageClassUniform, u32);
  const Id x = b.op(spv::OpLoad, u32, {b.op(spv::OpAccessChain, ssbo_elem, {in, zero, gid})});
  const Id scale = b.op(spv::OpLoad, u32, {b.op(spv::OpAccessChain, ubo_elem, {ubo, zero})});
  const Id bias = b.op(spv::OpLoad, u32, {b.op(spv::OpAccessChain, ubo_elem, {ubo, one})});
  const Id result = b.op(spv::OpIAdd, u32, {b.op(spv::OpIMul, u32, {x, scale}), bias});
  b.op_void(spv::OpStore, {b.op(spv::OpAccessChain, ssbo_elem, {out, zero, gid}), result});
  b.op_void(spv::OpReturn, {});
  b.end_function();
  const Id interface[] = {in, out, ubo, gid_var};
  b.add_entry_point(spv::ExecutionModelGLCompute, fn, "main", interface);
  b.add_execution_mode(fn, spv::ExecutionModeLocalSize, {kLocalSize, 1, 1});
  std::vector<std::uint32_t> words;
  b.finish(words);
  return words;
}

TEST_F(VulkanCompute, UniformBufferParameters) {
  if (context_->api_version() < VK_API_VERSION_1_3) GTEST_SKIP() << "needs Vulkan 1.3";
  const std::vector<std::uint32_t> words = build_uniform_program();
  Status valid = validate_spirv(words, SpirvTarget::Vulkan13);
  ASSERT_TRUE(valid) << valid.message();
  const std::vector<std::uint32_t> in = random_input(5);
  const std::uint32_t params[] = {7, 1000};
  vulkan::Buffer input, output, uniform;
  const VkDeviceSize bytes = in.size() * sizeof(std::uint32_t);
  ASSERT_TRUE(vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, input));
  ASSERT_TRUE(vulkan::Buffer::create(*context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, output));
  ASSERT_TRUE(vulkan::Buffer::create(*context_, 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, uniform));
  input.write(std::span<const std::uint32_t>(in));
  uniform.write(std::span<const std::uint32_t>(params));
  const vulkan::BufferBinding bindings[] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &input},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &output},
      {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &uniform},
  };
  vulkan::ComputePipeline pipeline;
  Status status = vulkan::ComputePipeline::create(*context_, words, bindings, "main", pipeline);
  ASSERT_TRUE(status) << status.message();
  // Dispatch twice with different parameters: descriptors and buffers are reusable.
  for (std::uint32_t bias : {1000u, 3u}) {
    const std::uint32_t now[] = {7, bias};
    uniform.write(std::span<const std::uint32_t>(now));
    status = pipeline.dispatch(bindings, kElements / kLocalSize);
    ASSERT_TRUE(status) << status.message();
    const std::vector<std::uint32_t> out = output.read<std::uint32_t>();
    for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i] * 7 + bias) << i;
  }
}

// The two storage-buffer compute shaders below share this: `in` and `out` (bindings 0 and 1)
// as runtime arrays of uint, the global invocation id, and the constants 0 and 1.
constexpr std::string_view kTwoBufferPrologue = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %in %out
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%pinu = OpTypePointer Input %uint
%gid = OpVariable %pin Input
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%pu = OpTypePointer StorageBuffer %uint
%in = OpVariable %pblk StorageBuffer
%out = OpVariable %pblk StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
)";

std::string two_buffer_shader(std::string_view body) {
  return std::string(kTwoBufferPrologue) + std::string(body);
}

// Collatz step counts with OpPhi-carried loop state, assembled from text by SPIRV-Tools.
constexpr std::string_view kCollatzBody = R"(
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u1000 = OpConstant %uint 1000
%main = OpFunction %void None %fn
%entry = OpLabel
%gx_ptr = OpAccessChain %pinu %gid %u0
%gx = OpLoad %uint %gx_ptr
%src = OpAccessChain %pu %in %u0 %gx
%x0 = OpLoad %uint %src
%start = OpIAdd %uint %x0 %u1
OpBranch %header
%header = OpLabel
%n = OpPhi %uint %start %entry %n_next %continue
%steps = OpPhi %uint %u0 %entry %steps_next %continue
OpLoopMerge %merge %continue None
OpBranch %check
%check = OpLabel
%not_one = OpINotEqual %bool %n %u1
%bounded = OpULessThan %bool %steps %u1000
%go = OpLogicalAnd %bool %not_one %bounded
OpBranchConditional %go %body %merge
%body = OpLabel
%bit = OpBitwiseAnd %uint %n %u1
%odd = OpIEqual %bool %bit %u1
%half = OpUDiv %uint %n %u2
%triple = OpIMul %uint %n %u3
%tp1 = OpIAdd %uint %triple %u1
%n_next = OpSelect %uint %odd %tp1 %half
%steps_next = OpIAdd %uint %steps %u1
OpBranch %continue
%continue = OpLabel
OpBranch %header
%merge = OpLabel
%dst = OpAccessChain %pu %out %u0 %gx
OpStore %dst %steps
OpReturn
OpFunctionEnd
)";

TEST_F(VulkanCompute, TextAssembledLoopWithPhisMatchesCpu) {
  std::string error;
  const std::vector<std::uint32_t> words =
      assemble_spirv(two_buffer_shader(kCollatzBody), &error, false);
  ASSERT_FALSE(words.empty()) << error;
  Status valid = validate_spirv(words, SpirvTarget::Vulkan13);
  ASSERT_TRUE(valid) << valid.message();
  if (context_->api_version() < VK_API_VERSION_1_3) GTEST_SKIP() << "needs Vulkan 1.3";
  const std::vector<std::uint32_t> in = random_input(99);
  std::vector<std::uint32_t> expected(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::uint32_t n = in[i] + 1, steps = 0;
    while (n != 1 && steps < 1000) {
      n = (n & 1) ? 3 * n + 1 : n / 2;
      ++steps;
    }
    expected[i] = steps;
  }
  EXPECT_EQ(run(words, in), expected);
}

// in[0] rounds of a dependent multiply-add in each invocation. llvmpipe ends every loop after
// 65,535 iterations (gallivm's loop limit), so the length comes from the number of groups: 1,024
// of them take hundreds of milliseconds on lavapipe, which a 1 ms fence wait cannot see finish.
constexpr std::string_view kSpinBody = R"(
%mul = OpConstant %uint 1664525
%add = OpConstant %uint 1013904223
%main = OpFunction %void None %fn
%entry = OpLabel
%gx_ptr = OpAccessChain %pinu %gid %u0
%gx = OpLoad %uint %gx_ptr
%bound_ptr = OpAccessChain %pu %in %u0 %u0
%bound = OpLoad %uint %bound_ptr
OpBranch %header
%header = OpLabel
%x = OpPhi %uint %gx %entry %x_next %continue
%i = OpPhi %uint %u0 %entry %i_next %continue
OpLoopMerge %merge %continue None
OpBranch %check
%check = OpLabel
%go = OpULessThan %bool %i %bound
OpBranchConditional %go %body %merge
%body = OpLabel
%scaled = OpIMul %uint %x %mul
%x_next = OpIAdd %uint %scaled %add
%i_next = OpIAdd %uint %i %u1
OpBranch %continue
%continue = OpLabel
OpBranch %header
%merge = OpLabel
%dst = OpAccessChain %pu %out %u0 %gx
OpStore %dst %x
OpReturn
OpFunctionEnd
)";

// The fence wait is the context's (`kiln execute --timeout`), not a fixed one: a 1 ms wait
// gives up on the long dispatch with VK_TIMEOUT, a 60 s one sees it finish.
TEST(VulkanFence, WaitFollowsTheContextsTimeout) {
  std::string error;
  const std::vector<std::uint32_t> words =
      assemble_spirv(two_buffer_shader(kSpinBody), &error, false);
  ASSERT_FALSE(words.empty()) << error;
  constexpr std::uint32_t kGroups = 1024, kInvocations = kGroups * 64;
  std::vector<std::uint32_t> in(64, 0);
  in[0] = 60000;
  std::vector<std::uint32_t> expected(64); // of the first group
  for (std::uint32_t i = 0; i < 64; ++i) {
    std::uint32_t x = i;
    for (std::uint32_t round = 0; round < in[0]; ++round) x = x * 1664525u + 1013904223u;
    expected[i] = x;
  }
  for (const std::uint64_t timeout_ns : {std::uint64_t(1000000), std::uint64_t(60) * 1000000000}) {
    SCOPED_TRACE("fence timeout " + std::to_string(timeout_ns) + " ns");
    vulkan::ContextOptions options;
    options.fence_timeout_ns = timeout_ns;
    std::string why_not;
    std::unique_ptr<vulkan::Context> context = vulkan::Context::create(why_not, options);
    if (context == nullptr) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
    vulkan::Buffer input, output;
    ASSERT_TRUE(
        vulkan::Buffer::create(*context, 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, input));
    ASSERT_TRUE(vulkan::Buffer::create(*context, kInvocations * 4,
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, output));
    input.write(std::span<const std::uint32_t>(in));
    const vulkan::BufferBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &input},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &output},
    };
    vulkan::ComputePipeline pipeline;
    Status status = vulkan::ComputePipeline::create(*context, words, bindings, "main", pipeline);
    ASSERT_TRUE(status) << status.message();
    status = pipeline.dispatch(bindings, kGroups);
    // The pipeline and buffers go before the context: wait for what a timeout left running.
    context->vk().vkDeviceWaitIdle(context->device());
    if (timeout_ns < 1000000000) {
      ASSERT_FALSE(status);
      EXPECT_NE(status.message().find("vkWaitForFences failed (VkResult 2)"), std::string::npos)
          << status.message();
    } else {
      ASSERT_TRUE(status) << status.message();
      std::vector<std::uint32_t> out = output.read<std::uint32_t>();
      out.resize(64);
      EXPECT_EQ(out, expected);
    }
  }
}

} // namespace
} // namespace kiln::test
