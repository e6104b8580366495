#include "bench/execute/vulkan_graphics.h"

#include <algorithm>
#include <utility>

namespace kiln::vulkan {

namespace {

template <typename T>
T make_struct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

std::uint32_t mip(std::uint32_t extent, std::uint32_t level) {
  return std::max(1u, extent >> level);
}

} // namespace

std::uint32_t format_texel_size(VkFormat format) {
  switch (format) {
  case VK_FORMAT_R32G32B32A32_SFLOAT:
  case VK_FORMAT_R32G32B32A32_SINT:
  case VK_FORMAT_R32G32B32A32_UINT:
    return 16;
  case VK_FORMAT_R32G32B32_SFLOAT:
  case VK_FORMAT_R32G32B32_SINT:
  case VK_FORMAT_R32G32B32_UINT:
    return 12;
  case VK_FORMAT_R32G32_SFLOAT:
  case VK_FORMAT_R32G32_SINT:
  case VK_FORMAT_R32G32_UINT:
    return 8;
  case VK_FORMAT_R32_SFLOAT:
  case VK_FORMAT_R32_SINT:
  case VK_FORMAT_R32_UINT:
  case VK_FORMAT_D32_SFLOAT:
  case VK_FORMAT_R8G8B8A8_UNORM:
    return 4;
  default:
    return 0;
  }
}

bool format_is_depth(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT;
}

bool format_is_float(VkFormat format) {
  switch (format) {
  case VK_FORMAT_R32G32B32A32_SFLOAT:
  case VK_FORMAT_R32G32B32_SFLOAT:
  case VK_FORMAT_R32G32_SFLOAT:
  case VK_FORMAT_R32_SFLOAT:
  case VK_FORMAT_R8G8B8A8_UNORM:
    return true;
  default:
    return false;
  }
}

void full_barrier(const VolkDeviceTable& vk, VkCommandBuffer cmd) {
  auto barrier = make_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0, nullptr, 0,
                          nullptr);
}

// ---- Image ----------------------------------------------------------------------------------

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = std::exchange(other.context_, nullptr);
    desc_ = other.desc_;
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    attachment_view_ = std::exchange(other.attachment_view_, VK_NULL_HANDLE);
  }
  return *this;
}

void Image::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  VkDevice device = context_->device();
  if (attachment_view_) vk.vkDestroyImageView(device, attachment_view_, nullptr);
  if (view_) vk.vkDestroyImageView(device, view_, nullptr);
  if (image_) vk.vkDestroyImage(device, image_, nullptr);
  if (memory_) vk.vkFreeMemory(device, memory_, nullptr);
  attachment_view_ = view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

VkImageAspectFlags Image::aspect() const {
  return format_is_depth(desc_.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkDeviceSize Image::level_bytes(std::uint32_t level) const {
  return VkDeviceSize(format_texel_size(desc_.format)) * mip(desc_.width, level) *
         mip(desc_.height, level) * mip(desc_.depth, level) * desc_.layers;
}

Status Image::create(Context& context, const ImageDesc& desc, Image& out) {
  out.destroy();
  out.context_ = &context;
  out.desc_ = desc;
  if (format_texel_size(desc.format) == 0) return Status::error("image format not supported");
  const VolkDeviceTable& vk = context.vk();
  VkDevice device = context.device();
  auto info = make_struct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  if (desc.view_type == VK_IMAGE_VIEW_TYPE_CUBE || desc.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
    info.flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  info.imageType = desc.type;
  info.format = desc.format;
  info.extent = {desc.width, desc.height, desc.depth};
  info.mipLevels = desc.levels;
  info.arrayLayers = desc.layers;
  info.samples = desc.samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = desc.usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vk.vkCreateImage(device, &info, nullptr, &out.image_); r != VK_SUCCESS)
    return vk_error("vkCreateImage", r);
  VkMemoryRequirements requirements{};
  vk.vkGetImageMemoryRequirements(device, out.image_, &requirements);
  auto alloc = make_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = context.find_memory_type(requirements.memoryTypeBits, 0);
  if (alloc.memoryTypeIndex == UINT32_MAX) return Status::error("no memory type for an image");
  if (VkResult r = vk.vkAllocateMemory(device, &alloc, nullptr, &out.memory_); r != VK_SUCCESS)
    return vk_error("vkAllocateMemory", r);
  if (VkResult r = vk.vkBindImageMemory(device, out.image_, out.memory_, 0); r != VK_SUCCESS)
    return vk_error("vkBindImageMemory", r);

  auto view_info = make_struct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  view_info.image = out.image_;
  view_info.viewType = desc.view_type;
  view_info.format = desc.format;
  view_info.subresourceRange = {out.aspect(), 0, desc.levels, 0, desc.layers};
  if (VkResult r = vk.vkCreateImageView(device, &view_info, nullptr, &out.view_); r != VK_SUCCESS)
    return vk_error("vkCreateImageView", r);
  // Attachments: level 0, every layer of an array (layered rendering), else layer 0.
  const bool layered = desc.view_type == VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  view_info.viewType = desc.type == VK_IMAGE_TYPE_3D ? VK_IMAGE_VIEW_TYPE_3D
                       : layered                     ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                                                     : VK_IMAGE_VIEW_TYPE_2D;
  view_info.subresourceRange = {out.aspect(), 0, 1, 0, layered ? desc.layers : 1};
  if (desc.type != VK_IMAGE_TYPE_3D &&
      (desc.usage &
       (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT))) {
    if (VkResult r = vk.vkCreateImageView(device, &view_info, nullptr, &out.attachment_view_);
        r != VK_SUCCESS)
      return vk_error("vkCreateImageView", r);
  }

  const VkImage image = out.image_;
  const VkImageSubresourceRange range = {out.aspect(), 0, desc.levels, 0, desc.layers};
  return context.submit([&](VkCommandBuffer cmd) {
    auto barrier = make_struct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = range;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                            VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1,
                            &barrier);
  });
}

Status Image::upload(std::span<const std::uint8_t> data) {
  if (context_ == nullptr) return Status::error("upload to an image that was not created");
  Buffer staging;
  if (Status s = Buffer::create(*context_, std::max<VkDeviceSize>(data.size(), 4),
                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT, staging);
      !s)
    return s;
  staging.write(data);
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize offset = 0;
  for (std::uint32_t level = 0; level < desc_.levels && offset < data.size(); ++level) {
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {aspect(), level, 0, desc_.layers};
    region.imageExtent = {mip(desc_.width, level), mip(desc_.height, level),
                          mip(desc_.depth, level)};
    offset += level_bytes(level);
    if (offset > data.size()) break; // partial level: leave it undefined rather than overrun
    regions.push_back(region);
  }
  if (regions.empty()) return Status::ok();
  const VolkDeviceTable& vk = context_->vk();
  return context_->submit([&](VkCommandBuffer cmd) {
    vk.vkCmdCopyBufferToImage(cmd, staging.handle(), image_, VK_IMAGE_LAYOUT_GENERAL,
                              std::uint32_t(regions.size()), regions.data());
    full_barrier(vk, cmd);
  });
}

Status Image::read(std::uint32_t level, std::uint32_t layer, std::vector<std::uint8_t>& out) {
  if (context_ == nullptr) return Status::error("read of an image that was not created");
  if (level >= desc_.levels || layer >= desc_.layers)
    return Status::error("read outside the image's levels or layers");
  if (desc_.samples != VK_SAMPLE_COUNT_1_BIT) {
    // Resolve (average the samples) into a single-sampled copy, then read that.
    if (!format_is_float(desc_.format))
      return Status::error("reading multisampled integer images is not supported");
    ImageDesc single = desc_;
    single.samples = VK_SAMPLE_COUNT_1_BIT;
    single.levels = 1, single.layers = 1;
    single.view_type = VK_IMAGE_VIEW_TYPE_2D;
    single.usage = 0;
    Image resolved;
    if (Status s = Image::create(*context_, single, resolved); !s) return s;
    VkImageResolve region{};
    region.srcSubresource = {aspect(), level, layer, 1};
    region.dstSubresource = {aspect(), 0, 0, 1};
    region.extent = {mip(desc_.width, level), mip(desc_.height, level), 1};
    const VolkDeviceTable& vk = context_->vk();
    Status status = context_->submit([&](VkCommandBuffer cmd) {
      full_barrier(vk, cmd);
      vk.vkCmdResolveImage(cmd, image_, VK_IMAGE_LAYOUT_GENERAL, resolved.handle(),
                           VK_IMAGE_LAYOUT_GENERAL, 1, &region);
      full_barrier(vk, cmd);
    });
    if (!status) return status;
    return resolved.read(0, 0, out);
  }
  const VkDeviceSize bytes = level_bytes(level) / desc_.layers;
  Buffer staging;
  if (Status s = Buffer::create(*context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, staging); !s)
    return s;
  VkBufferImageCopy region{};
  region.imageSubresource = {aspect(), level, layer, 1};
  region.imageExtent = {mip(desc_.width, level), mip(desc_.height, level), mip(desc_.depth, level)};
  const VolkDeviceTable& vk = context_->vk();
  Status status = context_->submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdCopyImageToBuffer(cmd, image_, VK_IMAGE_LAYOUT_GENERAL, staging.handle(), 1, &region);
    full_barrier(vk, cmd);
  });
  if (!status) return status;
  out = staging.read<std::uint8_t>();
  return Status::ok();
}

Status Image::clear_color(const std::uint32_t bits[4]) {
  if (context_ == nullptr) return Status::error("clear of an image that was not created");
  VkClearColorValue value{};
  std::copy(bits, bits + 4, value.uint32);
  const VkImageSubresourceRange range = {aspect(), 0, desc_.levels, 0, desc_.layers};
  const VolkDeviceTable& vk = context_->vk();
  return context_->submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdClearColorImage(cmd, image_, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &range);
    full_barrier(vk, cmd);
  });
}

Status Image::clear_depth(float depth) {
  if (context_ == nullptr) return Status::error("clear of an image that was not created");
  const VkClearDepthStencilValue value{depth, 0};
  const VkImageSubresourceRange range = {aspect(), 0, desc_.levels, 0, desc_.layers};
  const VolkDeviceTable& vk = context_->vk();
  return context_->submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdClearDepthStencilImage(cmd, image_, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &range);
    full_barrier(vk, cmd);
  });
}

Status Image::copy_from(const Image& source) {
  if (context_ == nullptr || source.context_ == nullptr)
    return Status::error("copy between images that were not created");
  const ImageDesc& s = source.desc_;
  if (s.width != desc_.width || s.height != desc_.height || s.depth != desc_.depth ||
      s.layers != desc_.layers || s.samples != desc_.samples ||
      format_texel_size(s.format) != format_texel_size(desc_.format) || source.aspect() != aspect())
    return Status::error("copy between images of different shapes or texel sizes");
  std::vector<VkImageCopy> regions;
  for (std::uint32_t level = 0; level < std::min(s.levels, desc_.levels); ++level) {
    VkImageCopy region{};
    region.srcSubresource = {aspect(), level, 0, s.layers};
    region.dstSubresource = {aspect(), level, 0, desc_.layers};
    region.extent = {mip(s.width, level), mip(s.height, level), mip(s.depth, level)};
    regions.push_back(region);
  }
  const VolkDeviceTable& vk = context_->vk();
  return context_->submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdCopyImage(cmd, source.image_, VK_IMAGE_LAYOUT_GENERAL, image_, VK_IMAGE_LAYOUT_GENERAL,
                      std::uint32_t(regions.size()), regions.data());
    full_barrier(vk, cmd);
  });
}

Status copy_buffer(Context& context, const Buffer& source, const Buffer& destination) {
  if (source.handle() == VK_NULL_HANDLE || destination.handle() == VK_NULL_HANDLE)
    return Status::error("copy between buffers that were not created");
  const VkBufferCopy region{0, 0, std::min(source.size(), destination.size())};
  const VolkDeviceTable& vk = context.vk();
  return context.submit([&](VkCommandBuffer cmd) {
    full_barrier(vk, cmd);
    vk.vkCmdCopyBuffer(cmd, source.handle(), destination.handle(), 1, &region);
    full_barrier(vk, cmd);
  });
}

// ---- BufferView, Sampler --------------------------------------------------------------------

BufferView& BufferView::operator=(BufferView&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = std::exchange(other.context_, nullptr);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
  }
  return *this;
}

void BufferView::destroy() {
  if (context_ && view_) context_->vk().vkDestroyBufferView(context_->device(), view_, nullptr);
  view_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status BufferView::create(Context& context, const Buffer& buffer, VkFormat format,
                          BufferView& out) {
  out.destroy();
  out.context_ = &context;
  auto info = make_struct<VkBufferViewCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
  info.buffer = buffer.handle();
  info.format = format;
  info.range = VK_WHOLE_SIZE;
  if (VkResult r = context.vk().vkCreateBufferView(context.device(), &info, nullptr, &out.view_);
      r != VK_SUCCESS)
    return vk_error("vkCreateBufferView", r);
  return Status::ok();
}

Sampler& Sampler::operator=(Sampler&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = std::exchange(other.context_, nullptr);
    sampler_ = std::exchange(other.sampler_, VK_NULL_HANDLE);
  }
  return *this;
}

void Sampler::destroy() {
  if (context_ && sampler_) context_->vk().vkDestroySampler(context_->device(), sampler_, nullptr);
  sampler_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status Sampler::create(Context& context, const SamplerDesc& desc, Sampler& out) {
  out.destroy();
  out.context_ = &context;
  auto info = make_struct<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  info.magFilter = desc.mag_filter;
  info.minFilter = desc.min_filter;
  info.mipmapMode = desc.mip_mode;
  info.addressModeU = desc.address[0];
  info.addressModeV = desc.address[1];
  info.addressModeW = desc.address[2];
  info.compareEnable = desc.compare;
  info.compareOp = desc.compare_op;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  if (VkResult r = context.vk().vkCreateSampler(context.device(), &info, nullptr, &out.sampler_);
      r != VK_SUCCESS)
    return vk_error("vkCreateSampler", r);
  return Status::ok();
}

// ---- DescriptorBinding ----------------------------------------------------------------------

void DescriptorBinding::destroy() {
  if (context_ == nullptr) return;
  const VolkDeviceTable& vk = context_->vk();
  VkDevice device = context_->device();
  if (pool_) vk.vkDestroyDescriptorPool(device, pool_, nullptr);
  if (pipeline_layout_) vk.vkDestroyPipelineLayout(device, pipeline_layout_, nullptr);
  for (VkDescriptorSetLayout layout : set_layouts_)
    vk.vkDestroyDescriptorSetLayout(device, layout, nullptr);
  set_layouts_.clear();
  sets_.clear();
  pool_ = VK_NULL_HANDLE;
  pipeline_layout_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

Status DescriptorBinding::create(Context& context, std::span<const DescriptorWrite> writes,
                                 std::uint32_t push_constant_bytes, DescriptorBinding& out) {
  out.destroy();
  out.context_ = &context;
  const VolkDeviceTable& vk = context.vk();
  VkDevice device = context.device();
  std::uint32_t set_count = 0;
  for (const DescriptorWrite& w : writes) set_count = std::max(set_count, w.set + 1);
  if (set_count > 8) return Status::error("descriptor set index above 7");

  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (std::uint32_t set = 0; set < set_count; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const DescriptorWrite& w : writes) {
      if (w.set != set) continue;
      bindings.push_back({w.binding, w.type, 1, VK_SHADER_STAGE_ALL, nullptr});
      pool_sizes.push_back({w.type, 1});
    }
    auto info = make_struct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    info.bindingCount = std::uint32_t(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    if (VkResult r = vk.vkCreateDescriptorSetLayout(device, &info, nullptr, &layout);
        r != VK_SUCCESS)
      return vk_error("vkCreateDescriptorSetLayout", r);
    out.set_layouts_.push_back(layout);
  }

  auto layout_info =
      make_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = set_count;
  layout_info.pSetLayouts = out.set_layouts_.data();
  const VkPushConstantRange push_range{VK_SHADER_STAGE_ALL, 0, push_constant_bytes};
  if (push_constant_bytes > 0) {
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push_range;
  }
  if (VkResult r = vk.vkCreatePipelineLayout(device, &layout_info, nullptr, &out.pipeline_layout_);
      r != VK_SUCCESS)
    return vk_error("vkCreatePipelineLayout", r);
  if (set_count == 0) return Status::ok();

  if (pool_sizes.empty()) pool_sizes.push_back({VK_DESCRIPTOR_TYPE_SAMPLER, 1});
  auto pool_info =
      make_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  pool_info.maxSets = set_count;
  pool_info.poolSizeCount = std::uint32_t(pool_sizes.size());
  pool_info.pPoolSizes = pool_sizes.data();
  if (VkResult r = vk.vkCreateDescriptorPool(device, &pool_info, nullptr, &out.pool_);
      r != VK_SUCCESS)
    return vk_error("vkCreateDescriptorPool", r);
  out.sets_.resize(set_count);
  auto alloc =
      make_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  alloc.descriptorPool = out.pool_;
  alloc.descriptorSetCount = set_count;
  alloc.pSetLayouts = out.set_layouts_.data();
  if (VkResult r = vk.vkAllocateDescriptorSets(device, &alloc, out.sets_.data()); r != VK_SUCCESS)
    return vk_error("vkAllocateDescriptorSets", r);
  return out.update(writes);
}

Status DescriptorBinding::update(std::span<const DescriptorWrite> writes) {
  if (context_ == nullptr) return Status::error("update of descriptors that were not created");
  if (writes.empty()) return Status::ok();
  // One info per binding: every binding holds one descriptor (descriptor_arrays.h).
  std::vector<VkDescriptorBufferInfo> buffer_infos(writes.size());
  std::vector<VkDescriptorImageInfo> image_infos(writes.size());
  std::vector<VkBufferView> texel_views(writes.size());
  std::vector<VkWriteDescriptorSet> updates(writes.size());
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const DescriptorWrite& w = writes[i];
    VkWriteDescriptorSet& u = updates[i];
    u = make_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    if (w.set >= sets_.size()) return Status::error("descriptor write to a set not in the layout");
    u.dstSet = sets_[w.set];
    u.dstBinding = w.binding;
    u.descriptorCount = 1;
    u.descriptorType = w.type;
    switch (w.type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      if (w.buffer == VK_NULL_HANDLE) return Status::error("buffer descriptor without a buffer");
      buffer_infos[i] = {w.buffer, 0, VK_WHOLE_SIZE};
      u.pBufferInfo = &buffer_infos[i];
      break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      if (w.texel_view == VK_NULL_HANDLE)
        return Status::error("texel buffer descriptor without a view");
      texel_views[i] = w.texel_view;
      u.pTexelBufferView = &texel_views[i];
      break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      image_infos[i] = {w.sampler, w.image_view, VK_IMAGE_LAYOUT_GENERAL};
      u.pImageInfo = &image_infos[i];
      break;
    default:
      return Status::error("descriptor type " + std::to_string(int(w.type)) + " not supported");
    }
  }
  context_->vk().vkUpdateDescriptorSets(context_->device(), std::uint32_t(updates.size()),
                                        updates.data(), 0, nullptr);
  return Status::ok();
}

void DescriptorBinding::bind(VkCommandBuffer cmd, VkPipelineBindPoint point) const {
  if (sets_.empty()) return;
  context_->vk().vkCmdBindDescriptorSets(cmd, point, pipeline_layout_, 0,
                                         std::uint32_t(sets_.size()), sets_.data(), 0, nullptr);
}

} // namespace kiln::vulkan
