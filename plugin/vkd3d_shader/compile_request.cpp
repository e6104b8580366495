#include "plugin/vkd3d_shader/compile_request.h"

#include <cstring>
#include <memory>

namespace kiln::vkd3d {

namespace {

struct ChainHeader {
  vkd3d_shader_structure_type type;
  const void* next;
};

// vkd3d's visibility as kiln's stage mask (0: every stage).
bool stages_of(vkd3d_shader_visibility visibility, StageMask& out) {
  switch (visibility) {
  case VKD3D_SHADER_VISIBILITY_ALL:
    out = 0;
    return true;
  case VKD3D_SHADER_VISIBILITY_VERTEX:
    out = stage_bit(ShaderStage::Vertex);
    return true;
  case VKD3D_SHADER_VISIBILITY_HULL:
    out = stage_bit(ShaderStage::Hull);
    return true;
  case VKD3D_SHADER_VISIBILITY_DOMAIN:
    out = stage_bit(ShaderStage::Domain);
    return true;
  case VKD3D_SHADER_VISIBILITY_GEOMETRY:
    out = stage_bit(ShaderStage::Geometry);
    return true;
  case VKD3D_SHADER_VISIBILITY_PIXEL:
    out = stage_bit(ShaderStage::Pixel);
    return true;
  case VKD3D_SHADER_VISIBILITY_COMPUTE:
    out = stage_bit(ShaderStage::Compute);
    return true;
  default:
    return false;
  }
}

bool class_of(vkd3d_shader_descriptor_type type, DescriptorClass& out) {
  switch (type) {
  case VKD3D_SHADER_DESCRIPTOR_TYPE_CBV:
    out = DescriptorClass::Cbv;
    return true;
  case VKD3D_SHADER_DESCRIPTOR_TYPE_SRV:
    out = DescriptorClass::Srv;
    return true;
  case VKD3D_SHADER_DESCRIPTOR_TYPE_UAV:
    out = DescriptorClass::Uav;
    return true;
  case VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER:
    out = DescriptorClass::Sampler;
    return true;
  default:
    return false;
  }
}

std::uint8_t binding_flags(unsigned flags) {
  std::uint8_t out = 0;
  if (flags & VKD3D_SHADER_BINDING_FLAG_BUFFER) out |= BindingRange::Buffer;
  if (flags & VKD3D_SHADER_BINDING_FLAG_IMAGE) out |= BindingRange::Image;
  return out;
}

struct Reader {
  ShaderInterface& interface;
  bool uav_buffers_as_storage_buffers = false;
  bool has_interface_info = false;

  bool interface_info(const vkd3d_shader_interface_info& info) {
    has_interface_info = true;
    for (unsigned i = 0; i < info.binding_count; ++i) {
      const vkd3d_shader_resource_binding& in = info.bindings[i];
      BindingRange range;
      if (!class_of(in.type, range.register_class) ||
          !stages_of(in.shader_visibility, range.stages))
        return false;
      range.flags = binding_flags(in.flags);
      range.space = in.register_space;
      range.first_register = in.register_index;
      range.register_count = in.binding.count == ~0u ? kRegistersUnbounded : in.binding.count;
      if (range.register_count == 0) return false;
      if (range.register_count != 1) range.flags |= BindingRange::Array;
      // vkd3d-shader 1.2 reads every buffer SRV through a uniform texel buffer, and buffer
      // UAVs through storage texel buffers unless VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV says
      // storage buffers.
      const bool storage_buffer =
          range.register_class == DescriptorClass::Uav && uav_buffers_as_storage_buffers;
      range.buffer_form = storage_buffer ? BindingRange::BufferForm::StorageBuffer
                                         : BindingRange::BufferForm::TexelBuffer;
      range.set = in.binding.set;
      range.binding = in.binding.binding;
      interface.bindings.push_back(range);
    }
    for (unsigned i = 0; i < info.push_constant_buffer_count; ++i) {
      const vkd3d_shader_push_constant_buffer& in = info.push_constant_buffers[i];
      PushConstantBuffer buffer;
      if (!stages_of(in.shader_visibility, buffer.stages)) return false;
      buffer.space = in.register_space;
      buffer.register_index = in.register_index;
      buffer.offset = in.offset;
      buffer.size = in.size;
      interface.push_constant_buffers.push_back(buffer);
    }
    for (unsigned i = 0; i < info.combined_sampler_count; ++i) {
      const vkd3d_shader_combined_resource_sampler& in = info.combined_samplers[i];
      CombinedSampler combined;
      if (!stages_of(in.shader_visibility, combined.stages) || in.binding.count != 1) return false;
      combined.resource_space = in.resource_space;
      combined.resource_index = in.resource_index;
      combined.sampler_space = in.sampler_space;
      // VKD3D_SHADER_DUMMY_SAMPLER_INDEX (reads without a sampler) is kiln's kNoSampler.
      static_assert(VKD3D_SHADER_DUMMY_SAMPLER_INDEX == kNoSampler);
      combined.sampler_index = in.sampler_index;
      combined.flags = binding_flags(in.flags);
      combined.set = in.binding.set;
      combined.binding = in.binding.binding;
      interface.combined_samplers.push_back(combined);
    }
    for (unsigned i = 0; i < info.uav_counter_count; ++i) {
      const vkd3d_shader_uav_counter_binding& in = info.uav_counters[i];
      UavCounterBinding counter;
      // vkd3d-shader 1.2 keeps each counter in an R32ui storage texel buffer; an offset has no
      // meaning there, so a request with one is not what kiln would produce.
      if (!stages_of(in.shader_visibility, counter.stages) || in.binding.count != 1 || in.offset)
        return false;
      counter.space = in.register_space;
      counter.register_index = in.register_index;
      counter.form = UavCounterBinding::Form::StorageTexelBuffer;
      counter.set = in.binding.set;
      counter.binding = in.binding.binding;
      interface.uav_counters.push_back(counter);
    }
    return true;
  }

  bool transform_feedback(const vkd3d_shader_transform_feedback_info& info) {
    StreamOutput& out = interface.stream_output;
    for (unsigned i = 0; i < info.element_count; ++i) {
      const vkd3d_shader_transform_feedback_element& in = info.elements[i];
      StreamOutputElement element;
      element.stream = in.stream_index;
      element.semantic = in.semantic_name ? in.semantic_name : "";
      element.semantic_index = in.semantic_index;
      element.component_index = in.component_index;
      element.component_count = in.component_count;
      element.output_slot = in.output_slot;
      out.elements.push_back(std::move(element));
    }
    if (info.buffer_stride_count > out.buffer_strides.size()) return false;
    for (unsigned i = 0; i < info.buffer_stride_count; ++i)
      out.buffer_strides[i] = info.buffer_strides[i];
    return true;
  }
};

bool read_target_info(const vkd3d_shader_spirv_target_info& info, ShaderInterface& interface,
                      ForwardReason& reason) {
  if (info.entry_point && std::strcmp(info.entry_point, "main") != 0) {
    reason = ForwardReason::EntryPoint;
    return false;
  }
  if (info.environment != VKD3D_SHADER_SPIRV_ENVIRONMENT_NONE &&
      info.environment != VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0) {
    reason = ForwardReason::Environment;
    return false;
  }
  for (unsigned i = 0; i < info.extension_count; ++i) {
    switch (info.extensions[i]) {
    case VKD3D_SHADER_SPIRV_EXTENSION_NONE:
      break;
    case VKD3D_SHADER_SPIRV_EXTENSION_EXT_DEMOTE_TO_HELPER_INVOCATION:
      interface.extensions |= extension_bit(Extension::DemoteToHelperInvocation);
      break;
    default:
      reason = ForwardReason::Extension;
      return false;
    }
  }
  for (unsigned i = 0; i < info.parameter_count; ++i) {
    const vkd3d_shader_parameter& in = info.parameters[i];
    if (in.name != VKD3D_SHADER_PARAMETER_NAME_RASTERIZER_SAMPLE_COUNT ||
        in.data_type != VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32) {
      reason = ForwardReason::Parameter;
      return false;
    }
    ShaderParameter parameter;
    parameter.name = ParameterName::RASTERIZER_SAMPLE_COUNT;
    parameter.data_type = ParameterDataType::U32;
    if (in.type == VKD3D_SHADER_PARAMETER_TYPE_IMMEDIATE_CONSTANT) {
      parameter.type = ShaderParameter::Type::Immediate;
      parameter.value[0] = in.u.immediate_constant.u.u32;
    } else if (in.type == VKD3D_SHADER_PARAMETER_TYPE_SPECIALIZATION_CONSTANT) {
      parameter.type = ShaderParameter::Type::SpecializationConstant;
      parameter.value[0] = in.u.specialization_constant.id;
    } else {
      reason = ForwardReason::Parameter;
      return false;
    }
    interface.parameters.push_back(parameter);
  }
  interface.dual_source_blending = info.dual_source_blending;
  if (info.output_swizzle_count)
    interface.output_swizzles.assign(info.output_swizzles,
                                     info.output_swizzles + info.output_swizzle_count);
  return true;
}

// The optional SPIR-V features vkd3d-shader 1.2 uses without being told (it leaves checking
// them to libvkd3d's device creation); demote-to-helper is the one it is told about.
constexpr ExtensionMask kImplicitExtensions =
    kAllExtensions & ~extension_bit(Extension::DemoteToHelperInvocation);

} // namespace

std::string_view forward_reason_name(ForwardReason reason) {
  switch (reason) {
#define KILN_X(name, text)                                                                         \
  case ForwardReason::name:                                                                        \
    return text;
    KILN_VKD3D_FORWARD_REASONS(KILN_X)
#undef KILN_X
  case ForwardReason::Count:
    break;
  }
  return "unknown";
}

bool read_compile_request(const vkd3d_shader_compile_info& info, CompileRequest& out,
                          ForwardReason& reason) {
  if (info.source_type != VKD3D_SHADER_SOURCE_DXBC_TPF || !info.source.code) {
    reason = ForwardReason::SourceType;
    return false;
  }
  if (info.target_type != VKD3D_SHADER_TARGET_SPIRV_BINARY) {
    reason = ForwardReason::TargetType;
    return false;
  }
  auto interface = std::make_shared<ShaderInterface>();
  interface->extensions = kImplicitExtensions;
  Reader reader{*interface};
  for (unsigned i = 0; i < info.option_count; ++i) {
    const vkd3d_shader_compile_option& option = info.options[i];
    switch (option.name) {
    case VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG:
      break; // kiln emits no debug information
    case VKD3D_SHADER_COMPILE_OPTION_FORMATTING:
      break; // text output only
    case VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV:
      if (option.value > VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER) {
        reason = ForwardReason::Option;
        return false;
      }
      reader.uav_buffers_as_storage_buffers =
          option.value == VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER;
      break;
    default:
      reason = ForwardReason::Option;
      return false;
    }
  }

  bool read = true;
  const void* next = info.next;
  for (int depth = 0; next && read; ++depth) {
    if (depth == 64) {
      reason = ForwardReason::Structure; // a cycle, or a chain no layer builds
      return false;
    }
    const auto* header = static_cast<const ChainHeader*>(next);
    switch (header->type) {
    case VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO:
      read = reader.interface_info(*static_cast<const vkd3d_shader_interface_info*>(next));
      reason = ForwardReason::Binding;
      break;
    case VKD3D_SHADER_STRUCTURE_TYPE_TRANSFORM_FEEDBACK_INFO:
      read = reader.transform_feedback(
          *static_cast<const vkd3d_shader_transform_feedback_info*>(next));
      reason = ForwardReason::Structure;
      break;
    case VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO:
      read = read_target_info(*static_cast<const vkd3d_shader_spirv_target_info*>(next), *interface,
                              reason);
      break;
    case VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_DOMAIN_SHADER_TARGET_INFO:
      // The tessellator's output primitive and partitioning: kiln declares them from the hull
      // shader, where D3D declares them, and Vulkan takes them from either stage.
      break;
    default:
      reason = ForwardReason::Structure;
      return false;
    }
    next = header->next;
  }
  if (!read) return false;
  if (!reader.has_interface_info) {
    // Without one, vkd3d-shader has its own default layout; kiln does not reproduce it.
    reason = ForwardReason::Binding;
    return false;
  }
  out.bytecode = {static_cast<const std::uint8_t*>(info.source.code), info.source.size};
  out.options.target = SpirvTarget::Vulkan10;
  out.options.debug_names = false;
  out.options.interface = std::move(interface);
  return true;
}

} // namespace kiln::vkd3d
