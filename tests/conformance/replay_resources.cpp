// Resource sections -> Vulkan objects, and descriptor bindings for a set of stages.

#include "tests/conformance/replay.h"
#include "tests/support/shared_data.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace kiln::conformance {

namespace {

// The uniform area is a whole 64 KiB constant buffer (4096 registers, D3D's limit).
constexpr VkDeviceSize kUniformBytes = 65536;
constexpr std::uint32_t kUnwrittenWord = 0x7f7f7f7f;
constexpr std::uint32_t kPushBytes = 128; // Vulkan's guaranteed push-constant size

std::uint32_t bytes_per_element(const ResourceDesc& d) {
  if (d.dim == ResourceDim::StructuredBuffer) return std::max(1u, d.stride);
  return 4 * format_info(d.format).components;
}

VkSamplerAddressMode vk_address(AddressMode mode) {
  switch (mode) {
  case AddressMode::Wrap:
    return VK_SAMPLER_ADDRESS_MODE_REPEAT;
  case AddressMode::Mirror:
    return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  case AddressMode::MirrorOnce:
    return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
  case AddressMode::Border:
    return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  case AddressMode::Clamp:
    break;
  }
  return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

const char* register_letter(ResourceBinding::Class c) {
  switch (c) {
  case ResourceBinding::Class::Cbv:
    return "cb";
  case ResourceBinding::Class::Srv:
    return "t";
  case ResourceBinding::Class::Uav:
  case ResourceBinding::Class::UavCounter:
    return "u";
  case ResourceBinding::Class::Sampler:
    return "s";
  case ResourceBinding::Class::PushData:
    break;
  }
  return "push";
}

} // namespace

VkFormat vk_format(Format format) {
  switch (format) {
  case Format::Rgba32Float:
    return VK_FORMAT_R32G32B32A32_SFLOAT;
  case Format::Rgba32Sint:
    return VK_FORMAT_R32G32B32A32_SINT;
  case Format::Rgba32Uint:
    return VK_FORMAT_R32G32B32A32_UINT;
  case Format::Rg32Float:
    return VK_FORMAT_R32G32_SFLOAT;
  case Format::Rg32Sint:
    return VK_FORMAT_R32G32_SINT;
  case Format::Rg32Uint:
    return VK_FORMAT_R32G32_UINT;
  case Format::R32Float:
  case Format::R32FloatShadow:
    return VK_FORMAT_R32_SFLOAT;
  case Format::R32Sint:
    return VK_FORMAT_R32_SINT;
  case Format::R32Uint:
  case Format::R32Typeless:
    return VK_FORMAT_R32_UINT;
  case Format::D32Float:
    return VK_FORMAT_D32_SFLOAT;
  }
  return VK_FORMAT_UNDEFINED;
}

Executor::Replay::Replay(vulkan::Context& c, ShaderSource& s, const TestFile& f, std::string m)
    : context(c), source(s), file(f), model(std::move(m)) {
  d3d9 = model == "sm2" || model == "sm3";
  fixed_function = d3d9;
}

GpuResource* Executor::Replay::find(ResourceKind kind, unsigned slot) {
  for (auto& r : resources)
    if (r->desc.kind == kind && r->desc.slot == slot) return r.get();
  return nullptr;
}

Status Executor::Replay::create_resource(const ResourceDesc& desc, GpuResource& out) {
  out.desc = desc;
  const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(desc.data.data()),
                                           desc.data.size() * 4);
  if (out.is_buffer()) {
    VkDeviceSize size =
        std::max<VkDeviceSize>(VkDeviceSize(desc.width) * bytes_per_element(desc), data.size());
    size = std::max<VkDeviceSize>((size + 15) & ~VkDeviceSize(15), 16);
    const VkBufferUsageFlags usage =
        desc.kind == ResourceKind::Vb
            ? VkBufferUsageFlags(VK_BUFFER_USAGE_VERTEX_BUFFER_BIT)
            : VkBufferUsageFlags(VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                 VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (Status s = vulkan::Buffer::create(context, size,
                                          usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                          out.buffer);
        !s)
      return s;
    out.buffer.write(data);
    if (desc.kind == ResourceKind::Vb) return Status::ok();
    const VkFormat format =
        desc.dim == ResourceDim::Buffer ? vk_format(desc.format) : VK_FORMAT_R32_UINT;
    return vulkan::BufferView::create(context, out.buffer, format, out.texel_view);
  }
  vulkan::ImageDesc image;
  image.format = vk_format(desc.format);
  image.width = desc.width;
  image.height = desc.height;
  image.levels = std::max(1u, desc.levels);
  switch (desc.dim) {
  case ResourceDim::Tex3D:
    image.type = VK_IMAGE_TYPE_3D, image.view_type = VK_IMAGE_VIEW_TYPE_3D;
    image.depth = desc.depth_or_layers;
    break;
  case ResourceDim::Cube:
    image.view_type = VK_IMAGE_VIEW_TYPE_CUBE, image.layers = 6;
    break;
  case ResourceDim::Tex2DArray:
    image.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, image.layers = desc.depth_or_layers;
    break;
  case ResourceDim::Tex2DMS:
    image.samples = VkSampleCountFlagBits(desc.samples);
    break;
  default:
    break;
  }
  if (desc.kind == ResourceKind::Dsv) {
    image.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  } else {
    image.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
    if (image.type == VK_IMAGE_TYPE_2D) image.usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (image.samples != VK_SAMPLE_COUNT_1_BIT) image.usage &= ~VK_IMAGE_USAGE_STORAGE_BIT;
  }
  if (Status s = vulkan::Image::create(context, image, out.image); !s) return s;
  if (desc.has_data) return out.image.upload(data);
  return Status::ok();
}

Status Executor::Replay::apply_section(const Section& section) {
  std::string error;
  switch (section.kind) {
  case SectionKind::Sampler: {
    SamplerDesc desc;
    if (!parse_sampler(section, desc, error)) return Status::error(error);
    auto same = std::find_if(samplers.begin(), samplers.end(),
                             [&](const SamplerDesc& s) { return s.slot == desc.slot; });
    if (same != samplers.end())
      *same = desc;
    else
      samplers.push_back(desc);
    sampler_objects.erase(desc.slot);
    return Status::ok();
  }
  case SectionKind::InputLayout:
    if (!parse_input_layout(section, input_layout, error)) return Status::error(error);
    return Status::ok();
  case SectionKind::Srv:
  case SectionKind::Uav:
  case SectionKind::Rtv:
  case SectionKind::Dsv:
  case SectionKind::Vb: {
    ResourceDesc desc;
    if (!parse_resource(section, desc, error)) return Status::error(error);
    auto resource = std::make_unique<GpuResource>();
    if (Status s = create_resource(desc, *resource); !s)
      return Status::error("[" + section.header + "]: " + s.message());
    if (GpuResource* old = find(desc.kind, desc.slot)) {
      *std::find_if(resources.begin(), resources.end(),
                    [&](const auto& r) { return r.get() == old; }) = std::move(resource);
    } else {
      resources.push_back(std::move(resource));
    }
    pipelines.clear(); // attachment formats or layouts may have changed
    return Status::ok();
  }
  default:
    return Status::ok();
  }
}

Status Executor::Replay::ensure_default_render_target() {
  if (find(ResourceKind::Rtv, 0) != nullptr || find(ResourceKind::Dsv, 0) != nullptr)
    return Status::ok();
  ResourceDesc desc;
  desc.kind = ResourceKind::Rtv;
  desc.width = 640;
  desc.height = 480;
  auto resource = std::make_unique<GpuResource>();
  if (Status s = create_resource(desc, *resource); !s) return s;
  resources.push_back(std::move(resource));
  pipelines.clear();
  return Status::ok();
}

Status Executor::Replay::write_uniforms() {
  if (uniform_buffer.handle() == VK_NULL_HANDLE) {
    if (Status s = vulkan::Buffer::create(context, kUniformBytes,
                                          VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                          uniform_buffer);
        !s)
      return s;
  }
  std::vector<std::uint32_t> words(kUniformBytes / 4, kUnwrittenWord);
  std::copy_n(uniforms.begin(), std::min(uniforms.size(), words.size()), words.begin());
  uniform_buffer.write(std::span<const std::uint32_t>(words));
  return Status::ok();
}

CommandResult Executor::Replay::translate(const std::string& stage,
                                          const std::shared_ptr<const ShaderInterface>& interface,
                                          const StageProgram*& out) {
  out = nullptr;
  const auto blob = current->blobs.find(stage);
  if (blob == current->blobs.end()) return CommandResult::ok();
  std::string key = blob->second.string();
  if (interface) {
    std::vector<std::uint8_t> encoded;
    interface->encode(encoded);
    key += "#" + std::to_string(std::hash<std::string_view>{}(std::string_view(
                     reinterpret_cast<const char*>(encoded.data()), encoded.size())));
  }
  if (auto it = rejections.find(key); it != rejections.end())
    return CommandResult::rejected(it->second);
  if (auto it = invalid_modules.find(key); it != invalid_modules.end())
    return CommandResult::fail(it->second);
  if (auto it = programs.find(key); it != programs.end()) {
    out = &it->second;
    return CommandResult::ok();
  }
  const std::vector<std::uint8_t> bytes = test::read_bytes(blob->second);
  if (bytes.empty()) return CommandResult::fail("cannot read " + blob->second.filename().string());
  StageProgram program;
  if (Status s = source.translate_with(bytes, interface, program); !s) {
    const std::string message = blob->second.filename().string() + ": " + s.message();
    rejections[key] = message;
    return CommandResult::rejected(message);
  }
  if (!program.invalid.empty()) {
    const std::string message = blob->second.filename().string() + ": " + program.invalid;
    invalid_modules[key] = message;
    return CommandResult::fail(message);
  }
  if (const char* dump = std::getenv("KILN_CONFORMANCE_DUMP"); dump && *dump) {
    // Debugging aid (docs/conformance.md): every translated module, named after its blob.
    const auto path =
        std::filesystem::path(dump) / (file.name + "." + blob->second.filename().string() + ".spv");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(program.spirv.data()),
               std::streamsize(program.spirv.size() * 4));
    std::ofstream text(path.string() + ".txt"); // what the executor binds it by
    for (const ResourceBinding& r : program.resources)
      text << "resource " << register_letter(r.register_class) << r.register_index << " space "
           << r.space << " set " << r.set << " binding " << r.binding << " type "
           << r.descriptor_type << " array " << r.array_size << "\n";
    for (const SignatureElement& e : program.inputs)
      text << "input " << e.semantic << e.semantic_index << " location " << e.location
           << " builtin " << std::int64_t(e.builtin == ~0u ? -1 : e.builtin) << "\n";
    for (const SignatureElement& e : program.outputs)
      text << "output " << e.semantic << e.semantic_index << " location " << e.location
           << " builtin " << std::int64_t(e.builtin == ~0u ? -1 : e.builtin) << "\n";
  }
  out = &(programs[key] = std::move(program));
  return CommandResult::ok();
}

CommandResult Executor::Replay::descriptor_writes(const std::vector<const StageProgram*>& stages,
                                                  std::vector<vulkan::DescriptorWrite>& writes,
                                                  std::uint32_t& push_bytes) {
  writes.clear();
  push_bytes = 0;
  std::vector<ResourceBinding> bindings;
  for (const StageProgram* program : stages) {
    if (program->has_resources) {
      bindings.insert(bindings.end(), program->resources.begin(), program->resources.end());
      continue;
    }
    // A source without reflection (vkd3d): the script's resources at kiln's binding numbers.
    ResourceBinding cb;
    cb.register_class = ResourceBinding::Class::Cbv;
    cb.descriptor_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    bindings.push_back(cb);
    for (const auto& r : resources) {
      if (r->desc.kind != ResourceKind::Srv && r->desc.kind != ResourceKind::Uav) continue;
      ResourceBinding b;
      const bool srv = r->desc.kind == ResourceKind::Srv;
      b.register_class = srv ? ResourceBinding::Class::Srv : ResourceBinding::Class::Uav;
      b.register_index = r->desc.slot;
      b.binding = kiln_binding(b.register_class, r->desc.slot);
      b.descriptor_type = r->is_buffer() ? (srv ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                                : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
                                         : (srv ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                                                : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
      bindings.push_back(b);
    }
    for (const SamplerDesc& s : samplers) {
      ResourceBinding b;
      b.register_class = ResourceBinding::Class::Sampler;
      b.register_index = s.slot;
      b.binding = kiln_binding(b.register_class, s.slot);
      b.descriptor_type = VK_DESCRIPTOR_TYPE_SAMPLER;
      bindings.push_back(b);
    }
  }
  std::sort(bindings.begin(), bindings.end(), [](const auto& a, const auto& b) {
    return a.set != b.set ? a.set < b.set : a.binding < b.binding;
  });

  const auto sampler_for = [&](unsigned slot, VkSampler& out) -> Status {
    auto it = sampler_objects.find(slot);
    if (it == sampler_objects.end()) {
      SamplerDesc desc; // a shader sampling with no [sampler] section gets the defaults
      for (const SamplerDesc& s : samplers)
        if (s.slot == slot) desc = s;
      vulkan::SamplerDesc vk;
      vk.min_filter = desc.min == Filter::Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      vk.mag_filter = desc.mag == Filter::Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      vk.mip_mode = desc.mip == Filter::Linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                               : VK_SAMPLER_MIPMAP_MODE_NEAREST;
      for (int i = 0; i < 3; ++i) vk.address[i] = vk_address(desc.address[i]);
      vk.compare = desc.comparison;
      vk.compare_op = VkCompareOp(desc.func); // same order as VkCompareOp
      vulkan::Sampler sampler;
      if (Status s = vulkan::Sampler::create(context, vk, sampler); !s) return s;
      it = sampler_objects.emplace(slot, std::move(sampler)).first;
    }
    out = it->second.handle();
    return Status::ok();
  };

  const ResourceBinding* previous = nullptr; // the last descriptor (not push constants)
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const ResourceBinding& b = bindings[i];
    const std::string name = register_letter(b.register_class) + std::to_string(b.register_index);
    if (b.register_class == ResourceBinding::Class::PushData) {
      push_bytes = std::max(push_bytes, kPushBytes);
      continue;
    }
    if (b.flags & ResourceBinding::PushConstant) {
      // The layout's push-constant cb0 holds the script's uniforms, as cb0 would.
      if (b.register_index != 0 || b.space != 0 || b.offset != 0)
        return CommandResult::fail(name + " in push constants at offset " +
                                   std::to_string(b.offset) + ": the runner pushes cb0 only");
      push_bytes = std::max(push_bytes, b.size);
      continue;
    }
    if (previous && previous->set == b.set && previous->binding == b.binding) {
      if (previous->descriptor_type != b.descriptor_type)
        return CommandResult::fail("stages disagree on the descriptor type of binding " +
                                   std::to_string(b.binding));
      continue;
    }
    previous = &b;
    if (b.array_size != 1) return CommandResult::skipped("descriptor arrays (" + name + ")");
    vulkan::DescriptorWrite w;
    w.set = b.set;
    w.binding = b.binding;
    w.type = VkDescriptorType(b.descriptor_type);
    switch (b.register_class) {
    case ResourceBinding::Class::Cbv:
      if (b.register_index != 0 || b.space != 0) {
        // Scripts fill only cb0 (FORMAT.md 6); others read zeros, which is what D3D9's
        // integer and boolean constants (kiln's cb1/cb2) hold when never set.
        if (zero_buffer.handle() == VK_NULL_HANDLE) {
          if (Status s = vulkan::Buffer::create(context, kUniformBytes,
                                                VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                zero_buffer);
              !s)
            return CommandResult::fail(s.message());
        }
        w.buffer = zero_buffer.handle();
        break;
      }
      if (Status s = write_uniforms(); !s) return CommandResult::fail(s.message());
      w.buffer = uniform_buffer.handle();
      break;
    case ResourceBinding::Class::Sampler:
      if (Status s = sampler_for(b.register_index, w.sampler); !s)
        return CommandResult::fail(s.message());
      break;
    case ResourceBinding::Class::Srv:
    case ResourceBinding::Class::Uav:
    case ResourceBinding::Class::UavCounter: {
      const bool srv = b.register_class == ResourceBinding::Class::Srv;
      GpuResource* r = find(srv ? ResourceKind::Srv : ResourceKind::Uav, b.register_index);
      if (r == nullptr)
        return CommandResult::fail("shader uses " + name + " but the script declares no [" +
                                   (srv ? "srv " : "uav ") + std::to_string(b.register_index) +
                                   "]");
      if (b.register_class == ResourceBinding::Class::UavCounter) {
        if (r->counter.handle() == VK_NULL_HANDLE) {
          if (Status s = vulkan::Buffer::create(context, 16,
                                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                    VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                                                r->counter);
              !s)
            return CommandResult::fail(s.message());
        }
        if (w.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER &&
            r->counter_view.handle() == VK_NULL_HANDLE) {
          if (Status s = vulkan::BufferView::create(context, r->counter, VK_FORMAT_R32_UINT,
                                                    r->counter_view);
              !s)
            return CommandResult::fail(s.message());
        }
        w.buffer = r->counter.handle();
        w.texel_view = r->counter_view.handle();
        break;
      }
      w.buffer = r->buffer.handle();
      w.texel_view = r->texel_view.handle();
      w.image_view = r->image.view();
      if (w.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
        if (Status s = sampler_for(b.register_index, w.sampler); !s)
          return CommandResult::fail(s.message());
      }
      const bool wants_buffer = w.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
                                w.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER ||
                                w.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                                w.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      if (wants_buffer != r->is_buffer())
        return CommandResult::fail("shader binds " + name + " as a " +
                                   (wants_buffer ? "buffer" : "texture") +
                                   " but the script declares the other kind");
      break;
    }
    case ResourceBinding::Class::PushData:
      break;
    }
    writes.push_back(w);
  }
  return CommandResult::ok();
}

} // namespace kiln::conformance
