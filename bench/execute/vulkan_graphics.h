#pragma once
// Graphics and resource objects for the Vulkan test harness (vulkan_harness.h): images with
// upload and readback, buffer views, samplers, descriptor sets and graphics pipelines drawn
// with dynamic rendering.
//
// Every image lives in VK_IMAGE_LAYOUT_GENERAL from creation on, so callers never track
// layouts; Context::submit() work is separated by full memory barriers (full_barrier()). This
// is slow on a real GPU and irrelevant on lavapipe, which is what the harness is for.

#include "bench/execute/vulkan_harness.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::vulkan {

// Bytes per texel of the uncompressed formats the harness uses (0 for anything else).
std::uint32_t format_texel_size(VkFormat format);
bool format_is_depth(VkFormat format);
bool format_is_float(VkFormat format); // float or unorm colour: resolvable

struct ImageDesc {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  std::uint32_t width = 1, height = 1, depth = 1, layers = 1, levels = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageUsageFlags usage = 0; // transfer src/dst are always added
};

class Image {
 public:
  Image() = default;
  ~Image() { destroy(); }
  Image(Image&& other) noexcept { *this = std::move(other); }
  Image& operator=(Image&& other) noexcept;

  // Device memory, optimal tiling, moved to GENERAL layout; one view over everything.
  static Status create(Context& context, const ImageDesc& desc, Image& out);

  // `data` holds every level, each level layer by layer, each slice by slice, tightly packed.
  // Shorter data fills what it covers.
  Status upload(std::span<const std::uint8_t> data);
  // Tightly packed texels of one level and layer (all slices); a multisampled float image is
  // resolved (samples averaged) first.
  Status read(std::uint32_t level, std::uint32_t layer, std::vector<std::uint8_t>& out);
  // Clears every level and layer: colour as four raw 32-bit patterns, or depth.
  Status clear_color(const std::uint32_t bits[4]);
  Status clear_depth(float depth);
  // Copies every level and layer of `source` (same extent, same texel size).
  Status copy_from(const Image& source);

  // The view attachments use (created once, kept with the image): level 0, and layer 0 or,
  // for a 2D array, every layer.
  VkImageView attachment_view() const { return attachment_view_; }
  VkImageView view() const { return view_; }
  VkImage handle() const { return image_; }
  const ImageDesc& desc() const { return desc_; }
  VkImageAspectFlags aspect() const;

 private:
  void destroy();
  VkDeviceSize level_bytes(std::uint32_t level) const; // all layers of one level

  Context* context_ = nullptr;
  ImageDesc desc_;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkImageView attachment_view_ = VK_NULL_HANDLE;
};

// A texel-buffer view over a Buffer.
class BufferView {
 public:
  BufferView() = default;
  ~BufferView() { destroy(); }
  BufferView(BufferView&& other) noexcept { *this = std::move(other); }
  BufferView& operator=(BufferView&& other) noexcept;
  static Status create(Context& context, const Buffer& buffer, VkFormat format, BufferView& out);
  VkBufferView handle() const { return view_; }

 private:
  void destroy();
  Context* context_ = nullptr;
  VkBufferView view_ = VK_NULL_HANDLE;
};

struct SamplerDesc {
  VkFilter min_filter = VK_FILTER_NEAREST, mag_filter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mip_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address[3] = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                     VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                     VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
  bool compare = false;
  VkCompareOp compare_op = VK_COMPARE_OP_ALWAYS;
};

class Sampler {
 public:
  Sampler() = default;
  ~Sampler() { destroy(); }
  Sampler(Sampler&& other) noexcept { *this = std::move(other); }
  Sampler& operator=(Sampler&& other) noexcept;
  static Status create(Context& context, const SamplerDesc& desc, Sampler& out);
  VkSampler handle() const { return sampler_; }

 private:
  void destroy();
  Context* context_ = nullptr;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

// One descriptor of a set: the binding, its type, and what it points at (the field matching
// the type: buffer for uniform/storage buffers, texel_view for texel buffers, image_view
// and/or sampler for images and samplers).
struct DescriptorWrite {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkBufferView texel_view = VK_NULL_HANDLE;
  VkImageView image_view = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
};

// Descriptor set layouts (sets 0..N-1, every binding visible to all stages), the pipeline
// layout with an optional push-constant range, and one allocated set per layout.
class DescriptorBinding {
 public:
  DescriptorBinding() = default;
  ~DescriptorBinding() { destroy(); }
  DescriptorBinding(const DescriptorBinding&) = delete;
  DescriptorBinding& operator=(const DescriptorBinding&) = delete;

  // `writes` names the bindings (one descriptor each: the harness runs kiln's descriptor arrays
  // reduced to element 0, descriptor_arrays.h); the sets are written at once.
  static Status create(Context& context, std::span<const DescriptorWrite> writes,
                       std::uint32_t push_constant_bytes, DescriptorBinding& out);

  // Points the descriptors at new objects; `writes` must name the same bindings and types.
  Status update(std::span<const DescriptorWrite> writes);

  VkPipelineLayout layout() const { return pipeline_layout_; }
  void bind(VkCommandBuffer cmd, VkPipelineBindPoint point) const;

 private:
  void destroy();
  Context* context_ = nullptr;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  std::vector<VkDescriptorSet> sets_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

struct ShaderStageCode {
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_VERTEX_BIT;
  std::span<const std::uint32_t> spirv;
  const char* entry_point = "main";
  const VkSpecializationInfo* specialization = nullptr;
};

struct GraphicsPipelineDesc {
  std::vector<ShaderStageCode> stages;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  std::vector<VkVertexInputBindingDescription> vertex_bindings;
  std::vector<VkVertexInputAttributeDescription> vertex_attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::uint32_t patch_control_points = 0;
  std::vector<VkFormat> color_formats; // VK_FORMAT_UNDEFINED for an unused location
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  VkCompareOp depth_compare = VK_COMPARE_OP_ALWAYS;
  bool depth_bounds = false;
  float depth_bounds_range[2] = {0.0f, 1.0f};
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  std::uint32_t sample_mask = ~0u;
  std::uint32_t viewport_count = 1; // viewports and scissors are dynamic state
  // Attachment 0 blends colour and alpha as src0 + dst * src1 (dual-source blending).
  bool dual_source_blend = false;
  bool rasterizer_discard = false;
};

class GraphicsPipeline {
 public:
  GraphicsPipeline() = default;
  ~GraphicsPipeline() { destroy(); }
  GraphicsPipeline(const GraphicsPipeline&) = delete;
  GraphicsPipeline& operator=(const GraphicsPipeline&) = delete;
  static Status create(Context& context, const GraphicsPipelineDesc& desc, GraphicsPipeline& out);
  VkPipeline handle() const { return pipeline_; }

 private:
  void destroy();
  Context* context_ = nullptr;
  std::vector<VkShaderModule> modules_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// A compute pipeline on a caller-made layout (ComputePipeline owns its own simple layout).
class ComputeProgram {
 public:
  ComputeProgram() = default;
  ~ComputeProgram() { destroy(); }
  ComputeProgram(const ComputeProgram&) = delete;
  ComputeProgram& operator=(const ComputeProgram&) = delete;
  static Status create(Context& context, const ShaderStageCode& code, VkPipelineLayout layout,
                       ComputeProgram& out);
  VkPipeline handle() const { return pipeline_; }

 private:
  void destroy();
  Context* context_ = nullptr;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

struct RenderTarget {
  const Image* image = nullptr; // null: an unused location
};

struct DrawDesc {
  const GraphicsPipeline* pipeline = nullptr;
  const DescriptorBinding* descriptors = nullptr;
  std::span<const std::uint8_t> push_constants;
  std::vector<RenderTarget> color;
  const Image* depth = nullptr;
  std::vector<VkBuffer> vertex_buffers; // indexed by binding; VK_NULL_HANDLE allowed for gaps
  std::vector<VkViewport> viewports;
  VkRect2D render_area{};
  std::uint32_t layer_count = 1; // layered rendering into array attachments
  std::uint32_t vertex_count = 0, instance_count = 1;
  // Transform feedback buffers, by XfbBuffer (needs Context::has_transform_feedback()): the
  // draw runs inside vkCmdBegin/EndTransformFeedbackEXT writing from offset 0.
  std::vector<VkBuffer> xfb_buffers;
};

// Records and submits one draw with dynamic rendering (load and store every attachment).
Status draw(Context& context, const DrawDesc& desc);

Status dispatch(Context& context, const ComputeProgram& program,
                const DescriptorBinding& descriptors, std::span<const std::uint8_t> push_constants,
                std::uint32_t x, std::uint32_t y, std::uint32_t z);

// Copies min(source, destination) bytes between two buffers.
Status copy_buffer(Context& context, const Buffer& source, const Buffer& destination);

// Whole-range memory barrier: all earlier writes visible to all later accesses.
void full_barrier(const VolkDeviceTable& vk, VkCommandBuffer cmd);

} // namespace kiln::vulkan
