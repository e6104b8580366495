#pragma once
// The layer's Vulkan device as kiln uses it: kiln's own VolkDeviceTable, filled through the
// layer's vkGetInstanceProcAddr with the device functions kiln calls. No volk loader function
// runs, so neither volk's globals nor the layer's loader state are touched.

#include "kiln/kiln.h"
#include "translator/common/status.h"

#include <cstdint>
#include <span>
#include <volk.h>

namespace kiln::abi {

class VulkanDevice {
 public:
  static Status load(const kiln_vulkan_device_info& info, VulkanDevice& out);

  // A VkShaderModule from SPIR-V words; VK_NULL_HANDLE and `result` set on failure.
  VkShaderModule create_module(std::span<const std::uint32_t> spirv, VkResult& result) const;
  void destroy_module(VkShaderModule module) const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable table_{};
};

} // namespace kiln::abi
