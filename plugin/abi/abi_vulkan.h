#pragma once
// The layer's Vulkan device as kiln uses it: kiln's own VolkDeviceTable, filled through the
// layer's vkGetInstanceProcAddr with the device functions kiln calls. No volk loader function
// runs, so neither volk's globals nor the layer's loader state are touched.

#include "cache/driver_cache_file.h"
#include "kiln/kiln.h"
#include "translator/common/status.h"

#include <cstdint>
#include <span>
#include <vector>
#include <volk.h>

namespace kiln::abi {

class VulkanDevice {
 public:
  static Status load(const kiln_vulkan_device_info& info, VulkanDevice& out);

  // A VkShaderModule from SPIR-V words; VK_NULL_HANDLE and `result` set on failure.
  VkShaderModule create_module(std::span<const std::uint32_t> spirv, VkResult& result) const;
  void destroy_module(VkShaderModule module) const;

  // The driver pipeline cache (KILN_REPLAY_DRIVER_CACHE). identity() reads the physical
  // device's properties through the instance.
  Status identity(VkPhysicalDevice physical_device, cache::DriverCacheIdentity& out) const;
  VkPipelineCache create_pipeline_cache(std::span<const std::uint8_t> initial_data) const;
  bool pipeline_cache_data(VkPipelineCache cache, std::vector<std::uint8_t>& out) const;
  void destroy_pipeline_cache(VkPipelineCache cache) const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkInstance instance_ = VK_NULL_HANDLE;
  kiln_vk_get_instance_proc_addr get_instance_proc_addr_ = nullptr;
  VolkDeviceTable table_{};
};

} // namespace kiln::abi
