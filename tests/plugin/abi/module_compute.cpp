#include "tests/plugin/abi/module_compute.h"

#include <vector>

namespace kiln::test {

namespace {

// The objects of one dispatch, destroyed in reverse order of creation.
struct DispatchObjects {
  const vulkan::Context& context;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ~DispatchObjects() {
    const VolkDeviceTable& vk = context.vk();
    VkDevice device = context.device();
    if (pool) vk.vkDestroyDescriptorPool(device, pool, nullptr);
    if (pipeline) vk.vkDestroyPipeline(device, pipeline, nullptr);
    if (pipeline_layout) vk.vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    if (set_layout) vk.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
  }
};

} // namespace

Status run_compute_module(vulkan::Context& context, VkShaderModule module,
                          std::span<const vulkan::BufferBinding> buffers, std::uint32_t groups_x) {
  const VolkDeviceTable& vk = context.vk();
  VkDevice device = context.device();
  DispatchObjects objects{context};

  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (const vulkan::BufferBinding& b : buffers) {
    bindings.push_back({b.binding, b.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    pool_sizes.push_back({b.type, 1});
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = std::uint32_t(bindings.size());
  set_info.pBindings = bindings.data();
  if (VkResult r = vk.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &objects.set_layout))
    return vulkan::vk_error("vkCreateDescriptorSetLayout", r);

  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &objects.set_layout;
  if (VkResult r =
          vk.vkCreatePipelineLayout(device, &layout_info, nullptr, &objects.pipeline_layout))
    return vulkan::vk_error("vkCreatePipelineLayout", r);

  VkComputePipelineCreateInfo pipeline_info{};
  pipeline_info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = module;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = objects.pipeline_layout;
  if (VkResult r = vk.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr,
                                               &objects.pipeline))
    return vulkan::vk_error("vkCreateComputePipelines", r);

  VkDescriptorSet set = VK_NULL_HANDLE;
  if (!pool_sizes.empty()) {
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = std::uint32_t(pool_sizes.size());
    pool_info.pPoolSizes = pool_sizes.data();
    if (VkResult r = vk.vkCreateDescriptorPool(device, &pool_info, nullptr, &objects.pool))
      return vulkan::vk_error("vkCreateDescriptorPool", r);
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = objects.pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &objects.set_layout;
    if (VkResult r = vk.vkAllocateDescriptorSets(device, &alloc, &set))
      return vulkan::vk_error("vkAllocateDescriptorSets", r);
    std::vector<VkDescriptorBufferInfo> infos(buffers.size());
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      infos[i] = {buffers[i].buffer->handle(), 0, VK_WHOLE_SIZE};
      writes[i] = {};
      writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[i].dstSet = set;
      writes[i].dstBinding = buffers[i].binding;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = buffers[i].type;
      writes[i].pBufferInfo = &infos[i];
    }
    vk.vkUpdateDescriptorSets(device, std::uint32_t(writes.size()), writes.data(), 0, nullptr);
  }
  return context.submit([&](VkCommandBuffer cmd) {
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, objects.pipeline);
    if (set)
      vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, objects.pipeline_layout, 0, 1,
                                 &set, 0, nullptr);
    vk.vkCmdDispatch(cmd, groups_x, 1, 1);
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                            0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
}

} // namespace kiln::test
