#include "bench/execute/resources.h"

#include "bench/execute/seed.h"

#include <cstring>

namespace kiln::execute {

namespace {

using vulkan::Buffer;
using vulkan::BufferView;
using vulkan::DescriptorWrite;
using vulkan::Image;
using vulkan::ImageDesc;

// Words in a buffer SRV/UAV (texel buffers: elements of up to 4 words) and in a constant buffer
// (D3D's largest: 4096 vectors).
constexpr std::uint32_t kBufferElements = 1024;
constexpr std::uint32_t kConstantBufferBytes = 4096 * 16;
constexpr std::uint32_t kCounterStart = 16; // imm_atomic_consume stays in range
// Which per-stage limit a descriptor type counts against.
enum LimitClass { kSamplers, kUniformBuffers, kStorageBuffers, kSampled, kStorage, kLimitClasses };

LimitClass limit_class(std::uint32_t descriptor_type) {
  switch (descriptor_type) {
  case VK_DESCRIPTOR_TYPE_SAMPLER:
    return kSamplers;
  case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    return kUniformBuffers;
  case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    return kStorageBuffers;
  case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
  case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    return kSampled;
  default:
    return kStorage;
  }
}

char kind_of(ResourceDataType type) {
  switch (type) {
  case ResourceDataType::UInt:
    return 'u';
  case ResourceDataType::SInt:
    return 'i';
  default:
    return 'f';
  }
}

VkFormat format_of(char kind, std::uint32_t components) {
  if (components == 1)
    return kind == 'f'   ? VK_FORMAT_R32_SFLOAT
           : kind == 'i' ? VK_FORMAT_R32_SINT
                         : VK_FORMAT_R32_UINT;
  return kind == 'f'   ? VK_FORMAT_R32G32B32A32_SFLOAT
         : kind == 'i' ? VK_FORMAT_R32G32B32A32_SINT
                       : VK_FORMAT_R32G32B32A32_UINT;
}

// Image extent per dimension: sampled images have mips, storage images one level.
bool shape_of(ResourceDimension dim, bool storage, ImageDesc& d) {
  d.samples = VK_SAMPLE_COUNT_1_BIT;
  switch (dim) {
  case ResourceDimension::Texture1D:
    d.type = VK_IMAGE_TYPE_1D, d.view_type = VK_IMAGE_VIEW_TYPE_1D;
    d.width = 16, d.levels = 5;
    break;
  case ResourceDimension::Texture1DArray:
    d.type = VK_IMAGE_TYPE_1D, d.view_type = VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    d.width = 16, d.layers = 4, d.levels = 5;
    break;
  case ResourceDimension::Texture2D:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_2D;
    d.width = d.height = 16, d.levels = 5;
    break;
  case ResourceDimension::Texture2DArray:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    d.width = d.height = 16, d.layers = 4, d.levels = 5;
    break;
  case ResourceDimension::Texture3D:
    d.type = VK_IMAGE_TYPE_3D, d.view_type = VK_IMAGE_VIEW_TYPE_3D;
    d.width = d.height = d.depth = 8, d.levels = 4;
    break;
  case ResourceDimension::TextureCube:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_CUBE;
    d.width = d.height = 8, d.layers = 6, d.levels = 4;
    break;
  case ResourceDimension::TextureCubeArray:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    d.width = d.height = 8, d.layers = 12, d.levels = 4;
    break;
  case ResourceDimension::Texture2DMS:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_2D;
    d.width = d.height = 8, d.samples = VK_SAMPLE_COUNT_4_BIT;
    break;
  case ResourceDimension::Texture2DMSArray:
    d.type = VK_IMAGE_TYPE_2D, d.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    d.width = d.height = 8, d.layers = 4, d.samples = VK_SAMPLE_COUNT_4_BIT;
    break;
  default:
    return false;
  }
  if (storage) d.levels = 1;
  return true;
}

std::uint32_t image_words(const ImageDesc& d) {
  std::uint64_t words = 0;
  for (std::uint32_t level = 0; level < d.levels; ++level)
    words += std::uint64_t(std::max(1u, d.width >> level)) * std::max(1u, d.height >> level) *
             std::max(1u, d.depth >> level) * d.layers;
  return std::uint32_t(words * (vulkan::format_texel_size(d.format) / 4));
}

std::string register_name(const ResourceBinding& r) {
  const char* prefix = "cb";
  switch (r.register_class) {
  case ResourceBinding::Class::Srv:
    prefix = "t";
    break;
  case ResourceBinding::Class::Uav:
    prefix = "u";
    break;
  case ResourceBinding::Class::Sampler:
    prefix = "s";
    break;
  case ResourceBinding::Class::UavCounter:
    prefix = "counter u";
    break;
  default:
    break;
  }
  std::string name = prefix + std::to_string(r.register_index);
  if (r.space) name += " space" + std::to_string(r.space);
  return name;
}

bool raw_or_structured(const ResourceBinding& r) {
  return r.flags & (ResourceBinding::RawBuffer | ResourceBinding::StructuredBuffer);
}

} // namespace

std::string Resources::unsupported(const Reflection& reflection) {
  for (const ResourceBinding& r : reflection.resources) {
    if (r.flags & ResourceBinding::PushConstant) return "push-constant buffer";
    switch (r.descriptor_type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      break;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: {
      ImageDesc shape;
      if (!shape_of(r.dimension, r.descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, shape))
        return "image of dimension " + std::to_string(int(r.dimension));
      break;
    }
    default:
      return "descriptor type " + std::to_string(r.descriptor_type);
    }
  }
  return {};
}

std::string Resources::past_device_limits(const vulkan::Context& context,
                                          const Reflection& reflection) {
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(context.physical_device(), &properties);
  const VkPhysicalDeviceLimits& l = properties.limits;
  const std::uint32_t limits[kLimitClasses] = {
      l.maxPerStageDescriptorSamplers, l.maxPerStageDescriptorUniformBuffers,
      l.maxPerStageDescriptorStorageBuffers, l.maxPerStageDescriptorSampledImages,
      l.maxPerStageDescriptorStorageImages};
  // Past them (lavapipe: 15 uniform buffers, 32 storage buffers, 128 sampled images and uniform
  // texel buffers, 64 storage images and storage texel buffers, 32 samplers) lavapipe crashes.
  std::uint32_t used[kLimitClasses] = {};
  for (const ResourceBinding& r : reflection.resources) ++used[limit_class(r.descriptor_type)];
  for (int c = 0; c < kLimitClasses; ++c)
    if (used[c] > limits[c]) return "descriptors past the device's per-stage limits";
  return {};
}

Status Resources::create(vulkan::Context& context, const Reflection& reflection, std::uint64_t seed,
                         const ConstantWords& constants) {
  context_ = &context;
  if (std::string why = past_device_limits(context, reflection); !why.empty())
    return Status::error(why);
  for (std::size_t index = 0; index < reflection.resources.size(); ++index) {
    const ResourceBinding& r = reflection.resources[index];
    const std::uint64_t resource_seed = mix64(seed ^ (std::uint64_t(r.binding) << 32 | r.set));
    DescriptorWrite write;
    write.set = r.set;
    write.binding = r.binding;
    write.type = VkDescriptorType(r.descriptor_type);
    const char kind = raw_or_structured(r) || r.register_class == ResourceBinding::Class::UavCounter
                          ? 'u'
                          : kind_of(r.data_type);
    const bool is_uav = r.register_class == ResourceBinding::Class::Uav;
    // A typed UAV the shader reads is R32 (vkd3d-shader 1.2's and the drop-in's read format);
    // one it only writes takes whatever format the view has: four components.
    const std::uint32_t components =
        raw_or_structured(r) || r.register_class == ResourceBinding::Class::UavCounter ||
                (is_uav && (r.flags & ResourceBinding::UavRead))
            ? 1
            : 4;
    switch (write.type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
      const bool counter = r.register_class == ResourceBinding::Class::UavCounter;
      const std::uint32_t bytes = write.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                      ? kConstantBufferBytes
                                  : counter ? 4
                                            : kBufferElements * components * 4;
      auto buffer = std::make_unique<Buffer>();
      const VkBufferUsageFlags usage =
          VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
          VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
      if (Status s = Buffer::create(context, bytes, usage, *buffer); !s) return s;
      auto* words = static_cast<std::uint32_t*>(buffer->mapped());
      const std::uint32_t key = r.set << 16 | r.binding;
      const auto integer_words = constants.integers.find(key);
      const auto given = constants.given.find(key);
      for (std::uint32_t i = 0; i < bytes / 4; ++i)
        words[i] =
            counter                          ? kCounterStart
            : given != constants.given.end() ? (i < given->second.size() ? given->second[i] : 0u)
            : write.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER &&
                    integer_words != constants.integers.end() && integer_words->second.count(i)
                ? seeded_int(resource_seed, i)
                : seeded_word(raw_or_structured(r) ? 'f' : kind, resource_seed, i);
      write.buffer = buffer->handle();
      if (write.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
          write.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
        auto view = std::make_unique<BufferView>();
        if (Status s = BufferView::create(context, *buffer, format_of(kind, components), *view); !s)
          return s;
        write.texel_view = view->handle();
        views_.push_back(std::move(view));
      }
      if (is_uav || counter)
        readable_.push_back({register_name(r), raw_or_structured(r) ? 'x' : kind, components,
                             buffer.get(), nullptr});
      buffers_.push_back(std::move(buffer));
      break;
    }
    case VK_DESCRIPTOR_TYPE_SAMPLER: {
      vulkan::SamplerDesc desc;
      desc.min_filter = desc.mag_filter = VK_FILTER_LINEAR;
      desc.mip_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
      if (r.flags & ResourceBinding::ComparisonSampler) {
        desc.compare = true;
        desc.compare_op = VK_COMPARE_OP_LESS_OR_EQUAL;
      }
      auto sampler = std::make_unique<vulkan::Sampler>();
      if (Status s = vulkan::Sampler::create(context, desc, *sampler); !s) return s;
      write.sampler = sampler->handle();
      samplers_.push_back(std::move(sampler));
      break;
    }
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: {
      const bool storage = write.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      ImageDesc desc;
      if (!shape_of(r.dimension, storage, desc)) return Status::error("image dimension");
      desc.format = format_of(kind, storage ? components : 4);
      desc.usage = storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT;
      auto image = std::make_unique<Image>();
      if (Status s = Image::create(context, desc, *image); !s) return s;
      if (desc.samples != VK_SAMPLE_COUNT_1_BIT) {
        // Multisampled images cannot be uploaded to: one seeded colour everywhere.
        std::uint32_t colour[4];
        for (std::uint32_t i = 0; i < 4; ++i) colour[i] = seeded_word(kind, resource_seed, i);
        if (Status s = image->clear_color(colour); !s) return s;
      } else {
        std::vector<std::uint8_t> data(std::size_t(image_words(desc)) * 4);
        auto* words = reinterpret_cast<std::uint32_t*>(data.data());
        for (std::size_t i = 0; i < data.size() / 4; ++i)
          words[i] = seeded_word(kind, resource_seed, i);
        if (Status s = image->upload(data); !s) return s;
      }
      write.image_view = image->view();
      if (storage) readable_.push_back({register_name(r), kind, components, nullptr, image.get()});
      images_.push_back(std::move(image));
      break;
    }
    default:
      return Status::error("descriptor type " + std::to_string(r.descriptor_type));
    }
    writes_.push_back(write);
  }
  return Status::ok();
}

Status Resources::read(std::vector<Output>& out) {
  for (const Readable& r : readable_) {
    Output o;
    o.name = r.name;
    o.kind = r.kind;
    o.components = r.components;
    o.compare_mask = (1u << r.components) - 1;
    if (r.buffer) {
      o.words = r.buffer->read<std::uint32_t>();
    } else {
      const ImageDesc& d = r.image->desc();
      for (std::uint32_t layer = 0; layer < d.layers; ++layer) {
        std::vector<std::uint8_t> bytes;
        if (Status s = r.image->read(0, layer, bytes); !s) return s;
        const std::size_t at = o.words.size();
        o.words.resize(at + bytes.size() / 4);
        std::memcpy(o.words.data() + at, bytes.data(), bytes.size() / 4 * 4);
      }
    }
    out.push_back(std::move(o));
  }
  return Status::ok();
}

} // namespace kiln::execute
