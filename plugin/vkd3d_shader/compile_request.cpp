#include "plugin/vkd3d_shader/compile_request.h"

#include "plugin/vkd3d_shader/bindings.h"
#include "translator/dxbc/scan.h"

#include <cstring>
#include <memory>

namespace kiln::vkd3d {

namespace {

struct ChainHeader {
  vkd3d_shader_structure_type type;
  const void* next;
};

} // namespace

bool stage_mask_of(vkd3d_shader_visibility visibility, StageMask& out) {
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

namespace {

std::uint8_t binding_flags(unsigned flags) {
  std::uint8_t out = 0;
  if (flags & VKD3D_SHADER_BINDING_FLAG_BUFFER) out |= BindingRange::Buffer;
  if (flags & VKD3D_SHADER_BINDING_FLAG_IMAGE) out |= BindingRange::Image;
  return out;
}

struct Reader {
  ShaderInterface& interface;
  LayerBindings layer;

  bool interface_info(const vkd3d_shader_interface_info& info) {
    // Descriptor bindings and UAV counters are placed per shader (bindings.h); push constants
    // and combined samplers are kiln's to look up.
    layer.interface = &info;
    for (unsigned i = 0; i < info.push_constant_buffer_count; ++i) {
      const vkd3d_shader_push_constant_buffer& in = info.push_constant_buffers[i];
      PushConstantBuffer buffer;
      if (!stage_mask_of(in.shader_visibility, buffer.stages)) return false;
      buffer.space = in.register_space;
      buffer.register_index = in.register_index;
      buffer.offset = in.offset;
      buffer.size = in.size;
      interface.push_constant_buffers.push_back(buffer);
    }
    for (unsigned i = 0; i < info.combined_sampler_count; ++i) {
      const vkd3d_shader_combined_resource_sampler& in = info.combined_samplers[i];
      CombinedSampler combined;
      if (!stage_mask_of(in.shader_visibility, combined.stages) || in.binding.count != 1)
        return false;
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

// Reads the compile options: each one kiln knows, with the values whose behaviour kiln has;
// any other option or value is a request kiln cannot honour exactly.
bool read_options(const vkd3d_shader_compile_info& info, Reader& reader, CompileRequest& out,
                  ForwardReason& reason) {
  for (unsigned i = 0; i < info.option_count; ++i) {
    const vkd3d_shader_compile_option& option = info.options[i];
    switch (unsigned(option.name)) {
    case kOptionStripDebug:
      break; // kiln emits no debug information
    case kOptionFormatting:
      break; // text output only
    case kOptionBufferUav:
      if (option.value > VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER) {
        reason = ForwardReason::Option;
        return false;
      }
      reader.layer.uav_buffers_as_storage_buffers =
          option.value == VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER;
      break;
    case kOptionApiVersion:
      if (option.value > kNewestApiVersion) {
        reason = ForwardReason::ApiVersion;
        return false;
      }
      break;
    case kOptionTypedUav:
      // READ_FORMAT_R32 is what a request without the option gets (vkd3d_request_interface());
      // READ_FORMAT_UNKNOWN declares a read typed UAV Unknown (StorageImageReadWithoutFormat).
      if (option.value != kTypedUavReadFormatR32 && option.value != kTypedUavReadFormatUnknown) {
        reason = ForwardReason::Option;
        return false;
      }
      reader.interface.typed_uav_read_r32 = option.value == kTypedUavReadFormatR32;
      break;
    case kOptionWriteTessGeomPointSize:
      // 0: no point size anywhere (vkd3d-shader 1.2 writes one in geometry shaders that emit
      // points, which a request without the option gets); otherwise in every tessellation and
      // geometry shader, which kiln does not do (the library forwards those).
      reader.interface.geometry_point_size = false;
      out.tess_geom_point_size = option.value != 0;
      break;
    default:
      reason = ForwardReason::Option;
      return false;
    }
  }
  return true;
}

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
  std::shared_ptr<ShaderInterface> interface = vkd3d_request_interface();
  Reader reader{*interface, {}};
  if (!read_options(info, reader, out, reason)) return false;

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
  const std::span bytecode(static_cast<const std::uint8_t*>(info.source.code), info.source.size);
  out.input = read_shader_input(bytecode);
  SourceReflection source;
  if (out.input.info.kind != InputKind::Dxbc || !out.input.readable ||
      !dxbc::scan_dxbc(out.input.container, source)) {
    reason = ForwardReason::Scan;
    return false;
  }
  if (!resolve_bindings(source, reader.layer, *interface, reason)) return false;
  out.stage = source.stage;
  finish_vkd3d_request(std::move(interface), out.options);
  return true;
}

std::shared_ptr<ShaderInterface> vkd3d_request_interface() {
  auto interface = std::make_shared<ShaderInterface>();
  // The optional SPIR-V features vkd3d-shader 1.2 uses without being told (it leaves checking
  // them to libvkd3d's device creation); demote-to-helper is the one it is told about.
  interface->extensions = kAllExtensions & ~extension_bit(Extension::DemoteToHelperInvocation);
  interface->geometry_point_size = true;
  interface->typed_uav_read_r32 = true;
  return interface;
}

void finish_vkd3d_request(std::shared_ptr<ShaderInterface> interface, TranslateOptions& options) {
  interface->convention = InterfaceConvention::Vkd3dShader;
  options.target = SpirvTarget::Vulkan10;
  options.debug_names = false;
  options.interface = std::move(interface);
}

} // namespace kiln::vkd3d
