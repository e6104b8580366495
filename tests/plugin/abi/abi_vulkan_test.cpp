// The C ABI's Vulkan path with a substitute translator (so it runs whatever the real one can
// do): kiln loads the device's functions through the layer's vkGetInstanceProcAddr, makes the
// VkShaderModule on the worker (or at first request for a cache hit), and the module runs.

#include "plugin/abi/abi_context.h"
#include "tests/plugin/abi/module_compute.h"
#include "tests/translator/spirv/compute_programs.h"

#include <cstring>
#include <filesystem>
#include "tests/support/shared_data.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace kiln::test {
namespace {

constexpr std::uint32_t kElements = 8 * kLocalSize;

std::vector<std::uint8_t> fake_bytecode() {
  std::vector<std::uint8_t> bytes(16, 0);
  std::memcpy(bytes.data(), "FAKECOMPUTE", 11);
  return bytes;
}

// "Translates" by building the Arithmetic compute program; counts its calls.
TranslateFunction fake_translator(int& calls) {
  return [&calls](Translator&, std::span<const std::uint8_t>, const TranslateOptions& options,
                  TranslateResult& out) {
    ++calls; // one worker thread: no race
    out.spirv = build_compute_program(ComputeProgram::Arithmetic, options.target);
    out.reflection.stage = ShaderStage::Compute;
    return Status::ok();
  };
}

class AbiVulkan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    vulkan_ = vulkan::Context::create(why_not);
    if (!vulkan_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
    cache_dir_ =
        std::filesystem::temp_directory_path() / ("kiln-abi-vulkan-" + std::to_string(::getpid()));
    std::filesystem::remove_all(cache_dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(cache_dir_, ec);
  }

  kiln_context* create(int& calls) {
    kiln_vulkan_device_info device{};
    device.type = KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO;
    device.instance = vulkan_->instance();
    device.device = vulkan_->device();
    // The layer's loader entry point (here: the one volk found for the test harness).
    device.get_instance_proc_addr =
        reinterpret_cast<kiln_vk_get_instance_proc_addr>(vkGetInstanceProcAddr);
    kiln_context_create_info info{};
    info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    info.next = &device;
    info.thread_count = 1;
    const std::string path = cache_dir_.string();
    info.cache_path = path.c_str();
    kiln_context* context = nullptr;
    EXPECT_EQ(abi::create_context(info, context, fake_translator(calls)), KILN_SUCCESS);
    return context;
  }

  // Dispatches `module` and compares the output with the CPU's.
  void run_and_check(VkShaderModule module) {
    std::vector<std::uint32_t> in(kElements);
    for (std::uint32_t i = 0; i < kElements; ++i) in[i] = i * 2654435761u;
    vulkan::Buffer input, output;
    ASSERT_TRUE(
        vulkan::Buffer::create(*vulkan_, kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, input));
    ASSERT_TRUE(vulkan::Buffer::create(*vulkan_, kElements * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       output));
    input.write(std::span<const std::uint32_t>(in));
    const vulkan::BufferBinding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &input},
                                              {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &output}};
    const Status status = run_compute_module(*vulkan_, module, bindings, kElements / kLocalSize);
    ASSERT_TRUE(status) << status.message();
    EXPECT_EQ(output.read<std::uint32_t>(), expected_output(ComputeProgram::Arithmetic, in));
  }

  std::unique_ptr<vulkan::Context> vulkan_;
  std::filesystem::path cache_dir_;
};

TEST_F(AbiVulkan, ModuleIsMadeOnTheWorkerAndRuns) {
  int calls = 0;
  kiln_context* context = create(calls);
  ASSERT_NE(context, nullptr);
  const auto bytes = fake_bytecode();
  kiln_submit_info submit{};
  submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.code = bytes.data();
  submit.code_size = bytes.size();
  submit.priority = KILN_PRIORITY_NORMAL;
  kiln_shader* shader = nullptr;
  ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
  ASSERT_EQ(kiln_wait(shader, UINT64_MAX), KILN_SUCCESS);
  // Made before the job was published: already there, nothing created at this call.
  EXPECT_NE(shader->job->shader_module.load(), 0u);
  std::uint64_t module = 0;
  ASSERT_EQ(kiln_get_shader_module(shader, &module), KILN_SUCCESS);
  EXPECT_EQ(module, shader->job->shader_module.load());
  run_and_check(VkShaderModule(module));

  kiln_reflection reflection{};
  reflection.type = KILN_STRUCTURE_TYPE_REFLECTION;
  ASSERT_EQ(kiln_get_reflection(shader, &reflection), KILN_SUCCESS);
  EXPECT_EQ(reflection.stage, KILN_STAGE_COMPUTE);
  // The handle outlives the context: its module stays valid until release.
  kiln_context_destroy(context);
  run_and_check(VkShaderModule(module));
  kiln_shader_release(shader);
  EXPECT_EQ(calls, 1);
}

TEST_F(AbiVulkan, ACacheHitGetsItsModuleOnRequest) {
  int calls = 0;
  const auto bytes = fake_bytecode();
  kiln_submit_info submit{};
  submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.code = bytes.data();
  submit.code_size = bytes.size();
  for (int run = 0; run < 2; ++run) {
    kiln_context* context = create(calls);
    ASSERT_NE(context, nullptr);
    kiln_shader* shader = nullptr;
    ASSERT_EQ(kiln_submit(context, &submit, &shader), KILN_SUCCESS);
    if (run == 1) {
      EXPECT_EQ(kiln_query(shader), KILN_SUCCESS) << "a cache hit is ready at submit";
      EXPECT_EQ(shader->job->shader_module.load(), 0u);
    }
    ASSERT_EQ(kiln_wait(shader, UINT64_MAX), KILN_SUCCESS);
    std::uint64_t module = 0;
    ASSERT_EQ(kiln_get_shader_module(shader, &module), KILN_SUCCESS);
    ASSERT_NE(module, 0u);
    run_and_check(VkShaderModule(module));
    kiln_stats stats{};
    stats.type = KILN_STRUCTURE_TYPE_STATS;
    ASSERT_EQ(kiln_get_stats(context, &stats), KILN_SUCCESS);
    EXPECT_EQ(stats.cache_hits, std::uint64_t(run));
    EXPECT_EQ(stats.cache_enabled, 1u);
    kiln_shader_release(shader);
    kiln_context_destroy(context);
  }
  EXPECT_EQ(calls, 1);
}

TEST_F(AbiVulkan, DeviceInfoWithoutFunctionsIsRejected) {
  kiln_vulkan_device_info device{};
  device.type = KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO;
  device.instance = vulkan_->instance();
  device.device = vulkan_->device();
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.next = &device;
  info.flags = KILN_CONTEXT_DISABLE_CACHE;
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = reinterpret_cast<kiln_context*>(1);
  EXPECT_EQ(kiln_context_create(&info, &context), KILN_ERROR_VULKAN);
  EXPECT_EQ(context, nullptr);
}

} // namespace
} // namespace kiln::test
