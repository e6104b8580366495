// GraphicsPipeline, ComputeProgram, draw() and dispatch() of vulkan_graphics.h.

#include "bench/execute/vulkan_graphics.h"

#include <algorithm>

namespace kiln::vulkan {

namespace {

template <typename T>
T make_struct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

Status create_module(Context& context, std::span<const std::uint32_t> spirv, VkShaderModule& out) {
  auto info = make_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  if (VkResult r = context.vk().vkCreateShaderModule(context.device(), &info, nullptr, &out);
      r != VK_SUCCESS)
    return vk_error("vkCreateShaderModule", r);
  return Status::ok();
}

} // namespace

void GraphicsPipeline::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  if (pipeline_) vk.vkDestroyPipeline(context_->device(), pipeline_, nullptr);
  for (VkShaderModule m : modules_) vk.vkDestroyShaderModule(context_->device(), m, nullptr);
  modules_.clear();
  pipeline_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status GraphicsPipeline::create(Context& context, const GraphicsPipelineDesc& desc,
                                GraphicsPipeline& out) {
  out.destroy();
  out.context_ = &context;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (const ShaderStageCode& code : desc.stages) {
    VkShaderModule module = VK_NULL_HANDLE;
    if (Status s = create_module(context, code.spirv, module); !s) return s;
    out.modules_.push_back(module);
    auto stage = make_struct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    stage.stage = code.stage;
    stage.module = module;
    stage.pName = code.entry_point;
    stage.pSpecializationInfo = code.specialization;
    stages.push_back(stage);
  }

  auto vertex_input = make_struct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  vertex_input.vertexBindingDescriptionCount = std::uint32_t(desc.vertex_bindings.size());
  vertex_input.pVertexBindingDescriptions = desc.vertex_bindings.data();
  vertex_input.vertexAttributeDescriptionCount = std::uint32_t(desc.vertex_attributes.size());
  vertex_input.pVertexAttributeDescriptions = desc.vertex_attributes.data();
  auto assembly = make_struct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = desc.topology;
  auto tessellation = make_struct<VkPipelineTessellationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO);
  tessellation.patchControlPoints = desc.patch_control_points;
  auto viewport = make_struct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewport.viewportCount = desc.viewport_count;
  viewport.scissorCount = desc.viewport_count;
  auto raster = make_struct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_CLOCKWISE;
  raster.lineWidth = 1.0f;
  raster.rasterizerDiscardEnable = desc.rasterizer_discard;
  auto multisample = make_struct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples = desc.samples;
  const VkSampleMask sample_mask = desc.sample_mask;
  multisample.pSampleMask = &sample_mask;
  auto depth = make_struct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  depth.depthTestEnable = desc.depth_format != VK_FORMAT_UNDEFINED;
  depth.depthWriteEnable = depth.depthTestEnable;
  depth.depthCompareOp = desc.depth_compare;
  depth.depthBoundsTestEnable = desc.depth_bounds;
  depth.minDepthBounds = desc.depth_bounds_range[0];
  depth.maxDepthBounds = desc.depth_bounds_range[1];
  std::vector<VkPipelineColorBlendAttachmentState> blend(desc.color_formats.size());
  for (auto& attachment : blend)
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  if (desc.dual_source_blend && !blend.empty()) {
    blend[0].blendEnable = VK_TRUE;
    blend[0].srcColorBlendFactor = blend[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend[0].dstColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
    blend[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_SRC1_ALPHA;
    blend[0].colorBlendOp = blend[0].alphaBlendOp = VK_BLEND_OP_ADD;
  }
  auto blend_state = make_struct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  blend_state.attachmentCount = std::uint32_t(blend.size());
  blend_state.pAttachments = blend.data();
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  auto dynamic = make_struct<VkPipelineDynamicStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO);
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  auto rendering =
      make_struct<VkPipelineRenderingCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
  rendering.colorAttachmentCount = std::uint32_t(desc.color_formats.size());
  rendering.pColorAttachmentFormats = desc.color_formats.data();
  rendering.depthAttachmentFormat = desc.depth_format;

  auto info =
      make_struct<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  info.pNext = &rendering;
  info.stageCount = std::uint32_t(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pTessellationState = desc.patch_control_points ? &tessellation : nullptr;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend_state;
  info.pDynamicState = &dynamic;
  info.layout = desc.layout;
  if (VkResult r = context.vk().vkCreateGraphicsPipelines(context.device(), VK_NULL_HANDLE, 1,
                                                          &info, nullptr, &out.pipeline_);
      r != VK_SUCCESS)
    return vk_error("vkCreateGraphicsPipelines", r);
  return Status::ok();
}

void ComputeProgram::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  if (pipeline_) vk.vkDestroyPipeline(context_->device(), pipeline_, nullptr);
  if (module_) vk.vkDestroyShaderModule(context_->device(), module_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status ComputeProgram::create(Context& context, const ShaderStageCode& code,
                              VkPipelineLayout layout, ComputeProgram& out) {
  out.destroy();
  out.context_ = &context;
  if (Status s = create_module(context, code.spirv, out.module_); !s) return s;
  auto info =
      make_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = out.module_;
  info.stage.pName = code.entry_point;
  info.layout = layout;
  if (VkResult r = context.vk().vkCreateComputePipelines(context.device(), VK_NULL_HANDLE, 1, &info,
                                                         nullptr, &out.pipeline_);
      r != VK_SUCCESS)
    return vk_error("vkCreateComputePipelines", r);
  return Status::ok();
}

Status draw(Context& context, const DrawDesc& desc) {
  if (desc.pipeline == nullptr || desc.pipeline->handle() == VK_NULL_HANDLE)
    return Status::error("draw without a pipeline");
  if (!desc.xfb_buffers.empty() && !context.has_transform_feedback())
    return Status::error("transform feedback without VK_EXT_transform_feedback");
  const VolkDeviceTable& vk = context.vk();
  std::vector<VkRenderingAttachmentInfo> colors(desc.color.size());
  for (std::size_t i = 0; i < desc.color.size(); ++i) {
    colors[i] = make_struct<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
    if (desc.color[i].image == nullptr) continue;
    colors[i].imageView = desc.color[i].image->attachment_view();
    colors[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    colors[i].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    colors[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  auto depth = make_struct<VkRenderingAttachmentInfo>(VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO);
  if (desc.depth != nullptr) {
    depth.imageView = desc.depth->attachment_view();
    depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  auto rendering = make_struct<VkRenderingInfo>(VK_STRUCTURE_TYPE_RENDERING_INFO);
  rendering.renderArea = desc.render_area;
  rendering.layerCount = std::max(1u, desc.layer_count);
  rendering.colorAttachmentCount = std::uint32_t(colors.size());
  rendering.pColorAttachments = colors.data();
  rendering.pDepthAttachment = desc.depth != nullptr ? &depth : nullptr;

  return context.submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdBeginRendering(cmd, &rendering);
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.pipeline->handle());
    if (desc.descriptors != nullptr) {
      desc.descriptors->bind(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS);
      if (!desc.push_constants.empty())
        vk.vkCmdPushConstants(cmd, desc.descriptors->layout(), VK_SHADER_STAGE_ALL, 0,
                              std::uint32_t(desc.push_constants.size()),
                              desc.push_constants.data());
    }
    vk.vkCmdSetViewport(cmd, 0, std::uint32_t(desc.viewports.size()), desc.viewports.data());
    std::vector<VkRect2D> scissors(desc.viewports.size(), desc.render_area);
    vk.vkCmdSetScissor(cmd, 0, std::uint32_t(scissors.size()), scissors.data());
    for (std::size_t i = 0; i < desc.vertex_buffers.size(); ++i) {
      if (desc.vertex_buffers[i] == VK_NULL_HANDLE) continue;
      const VkDeviceSize offset = 0;
      vk.vkCmdBindVertexBuffers(cmd, std::uint32_t(i), 1, &desc.vertex_buffers[i], &offset);
    }
    const std::vector<VkDeviceSize> offsets(desc.xfb_buffers.size(), 0);
    if (!desc.xfb_buffers.empty()) {
      vk.vkCmdBindTransformFeedbackBuffersEXT(cmd, 0, std::uint32_t(desc.xfb_buffers.size()),
                                              desc.xfb_buffers.data(), offsets.data(), nullptr);
      vk.vkCmdBeginTransformFeedbackEXT(cmd, 0, 0, nullptr, nullptr);
    }
    vk.vkCmdDraw(cmd, desc.vertex_count, desc.instance_count, 0, 0);
    if (!desc.xfb_buffers.empty()) vk.vkCmdEndTransformFeedbackEXT(cmd, 0, 0, nullptr, nullptr);
    vk.vkCmdEndRendering(cmd);
    full_barrier(vk, cmd);
  });
}

Status dispatch(Context& context, const ComputeProgram& program,
                const DescriptorBinding& descriptors, std::span<const std::uint8_t> push_constants,
                std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  const VolkDeviceTable& vk = context.vk();
  return context.submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, program.handle());
    descriptors.bind(cmd, VK_PIPELINE_BIND_POINT_COMPUTE);
    if (!push_constants.empty())
      vk.vkCmdPushConstants(cmd, descriptors.layout(), VK_SHADER_STAGE_ALL, 0,
                            std::uint32_t(push_constants.size()), push_constants.data());
    vk.vkCmdDispatch(cmd, x, y, z);
    full_barrier(vk, cmd);
  });
}

} // namespace kiln::vulkan
