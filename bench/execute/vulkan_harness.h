#pragma once
// A small Vulkan harness for running SPIR-V on lavapipe (Mesa's CPU driver): kiln's tests and
// `kiln execute` (bench/execute/).
//
//   Context     instance + device on the CPU device, one compute-capable queue, one-shot
//               command submission. Device functions come from a per-context VolkDeviceTable.
//   Buffer      host-visible, coherent, persistently mapped buffer (storage/uniform/...).
//   ComputePipeline  shader module + descriptor set layout + pipeline + one descriptor set.
//
// Later users (the conformance runner: graphics pipelines, images, render targets) build on
// Context::vk(), find_memory_type() and submit(); nothing here is compute-only except
// ComputePipeline itself.
//
// Creation never aborts: Context::create() returns null with a reason when there is no loader,
// no lavapipe or no suitable device, and tests GTEST_SKIP with that reason.

#include "translator/common/status.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include <volk.h>

namespace kiln::vulkan {

// What a test may leave off a device that has it (by default everything it has is enabled).
struct ContextOptions {
  // VK_EXT_shader_viewport_index_layer and Vulkan 1.2's shaderOutputViewportIndex and
  // shaderOutputLayer: SV_ViewportArrayIndex / SV_RenderTargetArrayIndex written by vertex and
  // domain shaders. Off: a device like one without them, for tests that must fail there.
  bool viewport_index_layer = true;
  // Take the first physical device of any type instead of requiring a CPU one (lavapipe): for
  // `kiln execute` run on the ICD that VK_ICD_FILENAMES names.
  bool any_device = false;
  // How long submit() waits for the device before it fails with VK_TIMEOUT. `kiln execute`
  // passes its --timeout (a shader that LLVM compiles for minutes must be able to finish).
  std::uint64_t fence_timeout_ns = 30ull * 1000 * 1000 * 1000;
};

class Context {
 public:
  // Points the loader at the lavapipe ICD (unless VK_ICD_FILENAMES/VK_DRIVER_FILES are set),
  // then creates an instance and a device on the first CPU-type physical device with every
  // core 1.1-1.3 feature it supports enabled. Null and `why_not` set on failure.
  static std::unique_ptr<Context> create(std::string& why_not, const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const VolkDeviceTable& vk() const { return table_; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return queue_family_; }
  std::uint32_t api_version() const { return api_version_; } // min(instance, device)
  // VK_EXT_transform_feedback is enabled (with its features) where the device has it.
  bool has_transform_feedback() const { return transform_feedback_; }
  // VK_EXT_shader_viewport_index_layer is enabled where the device has it (lavapipe does)
  // unless ContextOptions left it off.
  bool has_viewport_index_layer() const { return viewport_index_layer_; }
  const std::string& device_name() const { return device_name_; }

  // Index of a memory type allowed by `type_bits` with all of `properties`, or UINT32_MAX.
  std::uint32_t find_memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags properties) const;

  // Records `record` into a one-shot primary command buffer, submits it and waits for it, at
  // most ContextOptions::fence_timeout_ns (then it fails with "vkWaitForFences ... VkResult 2",
  // the work maybe still running).
  Status submit(const std::function<void(VkCommandBuffer)>& record);

 private:
  Context() = default;
  Status init(const ContextOptions& options);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  std::uint32_t api_version_ = 0;
  bool transform_feedback_ = false;
  bool viewport_index_layer_ = false;
  std::string device_name_;
  std::uint64_t fence_timeout_ns_ = 0;
  std::vector<VkFence> abandoned_fences_; // of submissions that timed out (submit())
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VolkDeviceTable table_{};
};

class Buffer {
 public:
  Buffer() = default;
  ~Buffer() { destroy(); }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;

  // Host-visible, coherent, mapped for its whole life; contents start zeroed.
  static Status create(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, Buffer& out);

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }

  template <typename T>
  void write(std::span<const T> values, VkDeviceSize offset = 0) {
    std::memcpy(static_cast<char*>(mapped_) + offset, values.data(),
                std::min<VkDeviceSize>(values.size_bytes(), size_ - offset));
  }
  template <typename T>
  std::vector<T> read() const {
    std::vector<T> values(size_ / sizeof(T));
    std::memcpy(values.data(), mapped_, values.size() * sizeof(T));
    return values;
  }

 private:
  void destroy();

  const Context* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

// One buffer bound at `binding` of descriptor set 0.
struct BufferBinding {
  std::uint32_t binding;
  VkDescriptorType type; // STORAGE_BUFFER or UNIFORM_BUFFER
  const Buffer* buffer;
};

class ComputePipeline {
 public:
  ComputePipeline() = default;
  ~ComputePipeline() { destroy(); }
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  // `layout` lists set 0's bindings (binding number and descriptor type of each).
  static Status create(Context& context, std::span<const std::uint32_t> spirv,
                       std::span<const BufferBinding> layout, const char* entry_point,
                       ComputePipeline& out);

  // Binds `buffers` (same binding numbers and types as the layout), dispatches, waits, and
  // makes shader writes visible to the host.
  Status dispatch(std::span<const BufferBinding> buffers, std::uint32_t groups_x,
                  std::uint32_t groups_y = 1, std::uint32_t groups_z = 1);

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return pipeline_layout_; }

 private:
  void destroy();

  Context* context_ = nullptr;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet descriptor_set_ = VK_NULL_HANDLE;
};

// "vkCreateDevice failed (VkResult -3)"
Status vk_error(const char* what, VkResult result);

} // namespace kiln::vulkan
