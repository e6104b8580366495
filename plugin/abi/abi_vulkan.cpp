#include "plugin/abi/abi_vulkan.h"

#include <cstring>
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
  out.instance_ = static_cast<VkInstance>(info.instance);
  out.get_instance_proc_addr_ = info.get_instance_proc_addr;
  out.table_ = {};
  // Optional: only the driver pipeline cache uses them.
  out.table_.vkCreatePipelineCache = reinterpret_cast<PFN_vkCreatePipelineCache>(
      get_device_proc_addr(out.device_, "vkCreatePipelineCache"));
  out.table_.vkDestroyPipelineCache = reinterpret_cast<PFN_vkDestroyPipelineCache>(
      get_device_proc_addr(out.device_, "vkDestroyPipelineCache"));
  out.table_.vkGetPipelineCacheData = reinterpret_cast<PFN_vkGetPipelineCacheData>(
      get_device_proc_addr(out.device_, "vkGetPipelineCacheData"));
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

Status VulkanDevice::identity(VkPhysicalDevice physical_device,
                              cache::DriverCacheIdentity& out) const {
  const auto get_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
      get_instance_proc_addr_(instance_, "vkGetPhysicalDeviceProperties"));
  if (!physical_device || !get_properties || !table_.vkCreatePipelineCache ||
      !table_.vkDestroyPipelineCache || !table_.vkGetPipelineCacheData)
    return Status::error("the driver pipeline cache needs physical_device and the device's "
                         "pipeline-cache functions");
  VkPhysicalDeviceProperties properties{};
  get_properties(physical_device, &properties);
  out.vendor_id = properties.vendorID;
  out.device_id = properties.deviceID;
  out.driver_version = properties.driverVersion;
  std::memcpy(out.uuid.data(), properties.pipelineCacheUUID, VK_UUID_SIZE);
  return Status::ok();
}

VkPipelineCache VulkanDevice::create_pipeline_cache(std::span<const std::uint8_t> data) const {
  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  info.initialDataSize = data.size();
  info.pInitialData = data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (table_.vkCreatePipelineCache(device_, &info, nullptr, &cache) == VK_SUCCESS) return cache;
  // Data the driver refuses after all: start empty.
  info.initialDataSize = 0;
  info.pInitialData = nullptr;
  return table_.vkCreatePipelineCache(device_, &info, nullptr, &cache) == VK_SUCCESS
             ? cache
             : VK_NULL_HANDLE;
}

bool VulkanDevice::pipeline_cache_data(VkPipelineCache cache,
                                       std::vector<std::uint8_t>& out) const {
  for (int attempt = 0; attempt < 4; ++attempt) { // it may grow between the two calls
    std::size_t size = 0;
    if (table_.vkGetPipelineCacheData(device_, cache, &size, nullptr) != VK_SUCCESS) return false;
    out.resize(size);
    const VkResult result = table_.vkGetPipelineCacheData(device_, cache, &size, out.data());
    if (result == VK_SUCCESS) {
      out.resize(size);
      return true;
    }
    if (result != VK_INCOMPLETE) return false;
  }
  return false;
}

void VulkanDevice::destroy_pipeline_cache(VkPipelineCache cache) const {
  if (cache != VK_NULL_HANDLE) table_.vkDestroyPipelineCache(device_, cache, nullptr);
}

} // namespace kiln::abi
