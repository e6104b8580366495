#include "bench/execute/vulkan_harness.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <string_view>
#include <utility>

namespace kiln::vulkan {

namespace {

// Value-initialised Vulkan struct with its sType set.
template <typename T>
T make_struct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

// Lavapipe's ICD manifest; the loader reads these variables when it first initialises.
void point_loader_at_lavapipe() {
  if (std::getenv("VK_ICD_FILENAMES") != nullptr || std::getenv("VK_DRIVER_FILES") != nullptr)
    return;
  std::error_code ec;
  for (const char* dir : {"/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("lvp_icd", 0) == 0 && entry.path().extension() == ".json") {
        const std::string path = entry.path().string();
        setenv("VK_ICD_FILENAMES", path.c_str(), 0);
        setenv("VK_DRIVER_FILES", path.c_str(), 0);
        return;
      }
    }
  }
}

} // namespace

Status vk_error(const char* what, VkResult result) {
  return Status::error(std::string(what) + " failed (VkResult " +
                       std::to_string(static_cast<int>(result)) + ")");
}

// ---- Context --------------------------------------------------------------------------------

std::unique_ptr<Context> Context::create(std::string& why_not, const ContextOptions& options) {
  std::unique_ptr<Context> context(new Context());
  Status status = context->init(options);
  if (!status) {
    why_not = status.message();
    return nullptr;
  }
  return context;
}

Status Context::init(const ContextOptions& options) {
  fence_timeout_ns_ = options.fence_timeout_ns;
  point_loader_at_lavapipe();
  if (VkResult r = volkInitialize(); r != VK_SUCCESS) return vk_error("loading libvulkan", r);
  std::uint32_t instance_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion != nullptr) vkEnumerateInstanceVersion(&instance_version);
  if (instance_version < VK_API_VERSION_1_1)
    return Status::error("Vulkan loader is older than 1.1");

  auto app = make_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "kiln-tests";
  app.apiVersion = std::min<std::uint32_t>(instance_version, VK_API_VERSION_1_3);
  auto instance_info = make_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instance_info.pApplicationInfo = &app;
  if (VkResult r = vkCreateInstance(&instance_info, nullptr, &instance_); r != VK_SUCCESS)
    return vk_error("vkCreateInstance", r);
  volkLoadInstanceOnly(instance_);
  // Keep lavapipe mapped after the loader unloads it at vkDestroyInstance, so sanitizer leak
  // reports from inside the driver stay attributable (and suppressible) instead of showing as
  // "<unknown module>". A no-op when lavapipe is not the loaded driver.
  dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  VkPhysicalDeviceProperties properties{};
  for (VkPhysicalDevice candidate : devices) {
    vkGetPhysicalDeviceProperties(candidate, &properties);
    if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU || options.any_device) {
      physical_device_ = candidate;
      break;
    }
  }
  if (physical_device_ == VK_NULL_HANDLE)
    return Status::error("no CPU Vulkan device (lavapipe) among " + std::to_string(count));
  device_name_ = properties.deviceName;
  api_version_ = std::min(app.apiVersion, properties.apiVersion);
  if (api_version_ < VK_API_VERSION_1_1)
    return Status::error(device_name_ + " supports only Vulkan 1.0");
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);

  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, families.data());
  queue_family_ = UINT32_MAX;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queue_family_ = i;
      break;
    }
  }
  if (queue_family_ == UINT32_MAX) return Status::error(device_name_ + " has no compute queue");

  // Enable whatever core features the device has, so tests never trip on a missing toggle.
  auto features13 = make_struct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto features12 = make_struct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto features11 = make_struct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto features =
      make_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  if (api_version_ >= VK_API_VERSION_1_2) {
    features.pNext = &features11;
    features11.pNext = &features12;
    if (api_version_ >= VK_API_VERSION_1_3) features12.pNext = &features13;
  }
  // Transform feedback, where the device has it (lavapipe does): stream-output tests.
  auto xfb_features = make_struct<VkPhysicalDeviceTransformFeedbackFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT);
  std::vector<const char*> device_extensions;
  vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions) {
    const std::string_view name = e.extensionName;
    if (name == VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME) {
      device_extensions.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
      xfb_features.pNext = features.pNext;
      features.pNext = &xfb_features;
      transform_feedback_ = true;
    } else if (name == VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME &&
               options.viewport_index_layer) {
      // Layers and viewports chosen by vertex and domain shaders (kiln declares the
      // ShaderViewportIndexLayerEXT capability, which needs the extension, not only the 1.2
      // features). The extension has no feature structure of its own.
      device_extensions.push_back(VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME);
      viewport_index_layer_ = true;
    }
  }
  vkGetPhysicalDeviceFeatures2(physical_device_, &features);
  if (!options.viewport_index_layer)
    features12.shaderOutputViewportIndex = features12.shaderOutputLayer = VK_FALSE;

  const float priority = 1.0f;
  auto queue_info =
      make_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  auto device_info = make_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.pNext = &features;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = std::uint32_t(device_extensions.size());
  device_info.ppEnabledExtensionNames = device_extensions.data();
  if (VkResult r = vkCreateDevice(physical_device_, &device_info, nullptr, &device_);
      r != VK_SUCCESS)
    return vk_error("vkCreateDevice", r);
  volkLoadDeviceTable(&table_, device_);
  table_.vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  auto pool_info = make_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  if (VkResult r = table_.vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_);
      r != VK_SUCCESS)
    return vk_error("vkCreateCommandPool", r);
  return Status::ok();
}

Context::~Context() {
  if (device_ != VK_NULL_HANDLE) {
    table_.vkDeviceWaitIdle(device_);
    for (VkFence fence : abandoned_fences_) table_.vkDestroyFence(device_, fence, nullptr);
    if (command_pool_ != VK_NULL_HANDLE)
      table_.vkDestroyCommandPool(device_, command_pool_, nullptr);
    table_.vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::uint32_t Context::find_memory_type(std::uint32_t type_bits,
                                        VkMemoryPropertyFlags properties) const {
  for (std::uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) &&
        (memory_properties_.memoryTypes[i].propertyFlags & properties) == properties)
      return i;
  }
  return UINT32_MAX;
}

Status Context::submit(const std::function<void(VkCommandBuffer)>& record) {
  auto alloc =
      make_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (VkResult r = table_.vkAllocateCommandBuffers(device_, &alloc, &cmd); r != VK_SUCCESS)
    return vk_error("vkAllocateCommandBuffers", r);
  VkFence fence = VK_NULL_HANDLE;
  Status status;
  bool timed_out = false;
  auto begin = make_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  auto fence_info = make_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  auto submit_info = make_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit_info.commandBufferCount = 1;
  submit_info.pCommandBuffers = &cmd;
  if (VkResult r = table_.vkBeginCommandBuffer(cmd, &begin); r != VK_SUCCESS) {
    status = vk_error("vkBeginCommandBuffer", r);
  } else {
    record(cmd);
    if (VkResult e = table_.vkEndCommandBuffer(cmd); e != VK_SUCCESS)
      status = vk_error("vkEndCommandBuffer", e);
    else if (VkResult f = table_.vkCreateFence(device_, &fence_info, nullptr, &fence);
             f != VK_SUCCESS)
      status = vk_error("vkCreateFence", f);
    else if (VkResult s = table_.vkQueueSubmit(queue_, 1, &submit_info, fence); s != VK_SUCCESS)
      status = vk_error("vkQueueSubmit", s);
    else if (VkResult w = table_.vkWaitForFences(device_, 1, &fence, VK_TRUE, fence_timeout_ns_);
             w != VK_SUCCESS) {
      status = vk_error("vkWaitForFences", w);
      timed_out = w == VK_TIMEOUT;
    }
  }
  if (timed_out) {
    // The device may still run the command buffer: the fence and the command buffer stay
    // alive until the destructor has waited for the device (freeing them now is invalid).
    abandoned_fences_.push_back(fence);
    return status;
  }
  if (fence != VK_NULL_HANDLE) table_.vkDestroyFence(device_, fence, nullptr);
  table_.vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
  return status;
}

// ---- Buffer ---------------------------------------------------------------------------------

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = std::exchange(other.context_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

void Buffer::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  if (buffer_ != VK_NULL_HANDLE) vk.vkDestroyBuffer(context_->device(), buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vk.vkFreeMemory(context_->device(), memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  context_ = nullptr;
}

Status Buffer::create(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, Buffer& out) {
  out.destroy();
  out.context_ = &context;
  out.size_ = size;
  const VolkDeviceTable& vk = context.vk();
  auto info = make_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vk.vkCreateBuffer(context.device(), &info, nullptr, &out.buffer_);
      r != VK_SUCCESS)
    return vk_error("vkCreateBuffer", r);
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(context.device(), out.buffer_, &requirements);
  auto alloc = make_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = context.find_memory_type(requirements.memoryTypeBits,
                                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (alloc.memoryTypeIndex == UINT32_MAX)
    return Status::error("no host-visible coherent memory type for a buffer");
  if (VkResult r = vk.vkAllocateMemory(context.device(), &alloc, nullptr, &out.memory_);
      r != VK_SUCCESS)
    return vk_error("vkAllocateMemory", r);
  if (VkResult r = vk.vkBindBufferMemory(context.device(), out.buffer_, out.memory_, 0);
      r != VK_SUCCESS)
    return vk_error("vkBindBufferMemory", r);
  if (VkResult r = vk.vkMapMemory(context.device(), out.memory_, 0, VK_WHOLE_SIZE, 0, &out.mapped_);
      r != VK_SUCCESS)
    return vk_error("vkMapMemory", r);
  std::memset(out.mapped_, 0, size);
  return Status::ok();
}

// ---- ComputePipeline ------------------------------------------------------------------------

void ComputePipeline::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  VkDevice device = context_->device();
  if (descriptor_pool_) vk.vkDestroyDescriptorPool(device, descriptor_pool_, nullptr);
  if (pipeline_) vk.vkDestroyPipeline(device, pipeline_, nullptr);
  if (pipeline_layout_) vk.vkDestroyPipelineLayout(device, pipeline_layout_, nullptr);
  if (set_layout_) vk.vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
  if (module_) vk.vkDestroyShaderModule(device, module_, nullptr);
  descriptor_pool_ = VK_NULL_HANDLE;
  pipeline_ = VK_NULL_HANDLE;
  pipeline_layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
  descriptor_set_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status ComputePipeline::create(Context& context, std::span<const std::uint32_t> spirv,
                               std::span<const BufferBinding> layout, const char* entry_point,
                               ComputePipeline& out) {
  out.destroy();
  out.context_ = &context;
  const VolkDeviceTable& vk = context.vk();
  VkDevice device = context.device();

  auto module_info =
      make_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  module_info.codeSize = spirv.size_bytes();
  module_info.pCode = spirv.data();
  if (VkResult r = vk.vkCreateShaderModule(device, &module_info, nullptr, &out.module_);
      r != VK_SUCCESS)
    return vk_error("vkCreateShaderModule", r);

  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (const BufferBinding& b : layout) {
    bindings.push_back({b.binding, b.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    pool_sizes.push_back({b.type, 1});
  }
  auto set_info = make_struct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  set_info.bindingCount = static_cast<std::uint32_t>(bindings.size());
  set_info.pBindings = bindings.data();
  if (VkResult r = vk.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &out.set_layout_);
      r != VK_SUCCESS)
    return vk_error("vkCreateDescriptorSetLayout", r);

  auto layout_info =
      make_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &out.set_layout_;
  if (VkResult r = vk.vkCreatePipelineLayout(device, &layout_info, nullptr, &out.pipeline_layout_);
      r != VK_SUCCESS)
    return vk_error("vkCreatePipelineLayout", r);

  auto pipeline_info =
      make_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = out.module_;
  pipeline_info.stage.pName = entry_point;
  pipeline_info.layout = out.pipeline_layout_;
  if (VkResult r = vk.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr,
                                               &out.pipeline_);
      r != VK_SUCCESS)
    return vk_error("vkCreateComputePipelines", r);

  if (!pool_sizes.empty()) {
    auto pool_info =
        make_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = static_cast<std::uint32_t>(pool_sizes.size());
    pool_info.pPoolSizes = pool_sizes.data();
    if (VkResult r = vk.vkCreateDescriptorPool(device, &pool_info, nullptr, &out.descriptor_pool_);
        r != VK_SUCCESS)
      return vk_error("vkCreateDescriptorPool", r);
    auto set_alloc =
        make_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    set_alloc.descriptorPool = out.descriptor_pool_;
    set_alloc.descriptorSetCount = 1;
    set_alloc.pSetLayouts = &out.set_layout_;
    if (VkResult r = vk.vkAllocateDescriptorSets(device, &set_alloc, &out.descriptor_set_);
        r != VK_SUCCESS)
      return vk_error("vkAllocateDescriptorSets", r);
  }
  return Status::ok();
}

Status ComputePipeline::dispatch(std::span<const BufferBinding> buffers, std::uint32_t groups_x,
                                 std::uint32_t groups_y, std::uint32_t groups_z) {
  if (context_ == nullptr || pipeline_ == VK_NULL_HANDLE)
    return Status::error("dispatch on a pipeline that was not created");
  const VolkDeviceTable& vk = context_->vk();
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].buffer == nullptr) return Status::error("null buffer in a binding");
    infos[i] = {buffers[i].buffer->handle(), 0, VK_WHOLE_SIZE};
    writes[i] = make_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[i].dstSet = descriptor_set_;
    writes[i].dstBinding = buffers[i].binding;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = buffers[i].type;
    writes[i].pBufferInfo = &infos[i];
  }
  if (!writes.empty()) {
    if (descriptor_set_ == VK_NULL_HANDLE)
      return Status::error("buffers given to a pipeline without descriptor bindings");
    vk.vkUpdateDescriptorSets(context_->device(), static_cast<std::uint32_t>(writes.size()),
                              writes.data(), 0, nullptr);
  }
  return context_->submit([&](VkCommandBuffer cmd) {
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    if (descriptor_set_ != VK_NULL_HANDLE)
      vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1,
                                 &descriptor_set_, 0, nullptr);
    vk.vkCmdDispatch(cmd, groups_x, groups_y, groups_z);
    auto barrier = make_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                            0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
}

} // namespace kiln::vulkan
