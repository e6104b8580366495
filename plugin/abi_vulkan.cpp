#include "plugin/abi_vulkan.h"

#include <string>

namespace kiln::abi {

Status VulkanDevice::load(const kiln_vulkan_device_info& info, VulkanDevice& out) {
  if (!info.instance || !info.device || !info.get_instance_proc_addr)
    return Status::error("kiln_vulkan_device_info needs instance, device and "
                         "get_instance_proc_addr");
  const auto get_device_proc_addr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
      info.get_instance_proc_addr(info.instance, "vkGetDeviceProcAddr"));
  if (!get_device_proc_addr)
    return Status::error("vkGetInstanceProcAddr(instance, \"vkGetDeviceProcAddr\") is null");
  out.device_ = static_cast<VkDevice>(info.device);
  out.table_ = {};
  out.table_.vkCreateShaderModule = reinterpret_cast<PFN_vkCreateShaderModule>(
      get_device_proc_addr(out.device_, "vkCreateShaderModule"));
  out.table_.vkDestroyShaderModule = reinterpret_cast<PFN_vkDestroyShaderModule>(
      get_device_proc_addr(out.device_, "vkDestroyShaderModule"));
  if (!out.table_.vkCreateShaderModule || !out.table_.vkDestroyShaderModule)
    return Status::error("the device does not expose vkCreateShaderModule/vkDestroyShaderModule");
  return Status::ok();
}

VkShaderModule VulkanDevice::create_module(std::span<const std::uint32_t> spirv,
                                           VkResult& result) const {
  VkShaderModuleCreateInfo create_info{};
  create_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  create_info.codeSize = spirv.size_bytes();
  create_info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  result = table_.vkCreateShaderModule(device_, &create_info, nullptr, &module);
  return result == VK_SUCCESS ? module : VK_NULL_HANDLE;
}

void VulkanDevice::destroy_module(VkShaderModule module) const {
  if (module != VK_NULL_HANDLE) table_.vkDestroyShaderModule(device_, module, nullptr);
}

} // namespace kiln::abi
