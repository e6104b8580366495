#include "plugin/abi/abi_interface.h"

#include <cstring>
#include <string>

namespace kiln::abi {

namespace {

constexpr std::uint32_t kMaxListLength = 1u << 16; // as ShaderInterface::decode bounds lists
constexpr std::uint32_t kMaxSemanticLength = 256;
constexpr std::uint32_t kMaxOutputSwizzles = 8;

Status bad(const std::string& what) {
  return Status::error("interface: " + what);
}

std::string at(const char* list, std::uint32_t i, const char* field) {
  return std::string(list) + "[" + std::to_string(i) + "]." + field;
}

// A C stage mask (bit 1 << kiln_shader_stage, vertex = 1) as the C++ one (bit 1 << ShaderStage,
// vertex = 0); 0 stays "every stage".
bool stages_from_c(std::uint32_t mask, StageMask& out) {
  constexpr std::uint32_t kKnown =
      KILN_STAGE_BIT(KILN_STAGE_VERTEX) | KILN_STAGE_BIT(KILN_STAGE_HULL) |
      KILN_STAGE_BIT(KILN_STAGE_DOMAIN) | KILN_STAGE_BIT(KILN_STAGE_GEOMETRY) |
      KILN_STAGE_BIT(KILN_STAGE_PIXEL) | KILN_STAGE_BIT(KILN_STAGE_COMPUTE);
  if (mask & ~kKnown) return false;
  out = mask >> 1;
  return true;
}

// A list of `count` items at `items`: NULL only when empty, and within the decodable bound.
template <typename T>
Status check_list(const char* name, std::uint32_t count, const T* items) {
  if (count > kMaxListLength)
    return bad(std::string(name) + ": more than " + std::to_string(kMaxListLength) + " entries");
  if (count && !items)
    return bad(std::string(name) + " is NULL with a count of " + std::to_string(count));
  return Status::ok();
}

Status convert_binding(const kiln_binding_range& in, std::uint32_t i, BindingRange& out) {
  if (std::uint32_t(in.register_class) > KILN_DESCRIPTOR_SAMPLER)
    return bad(at("bindings", i, "register_class") + " " +
               std::to_string(std::uint32_t(in.register_class)) + " is not a descriptor class");
  if (in.flags & ~std::uint32_t(KILN_BINDING_BUFFER | KILN_BINDING_IMAGE | KILN_BINDING_ARRAY))
    return bad(at("bindings", i, "flags") + " has unknown bits");
  if (std::uint32_t(in.buffer_form) > KILN_BUFFER_FORM_TEXEL_BUFFER)
    return bad(at("bindings", i, "buffer_form") + " " +
               std::to_string(std::uint32_t(in.buffer_form)) + " is not a buffer form");
  if (in.register_count == 0) return bad(at("bindings", i, "register_count") + " is 0");
  if (in.register_count != KILN_REGISTERS_UNBOUNDED &&
      std::uint64_t(in.first_register) + in.register_count > 0xffffffffull)
    return bad(at("bindings", i, "register_count") + " runs past register 2^32 - 1");
  if (!(in.flags & KILN_BINDING_ARRAY) && in.register_count != KILN_REGISTERS_UNBOUNDED &&
      std::uint64_t(in.binding) + in.register_count > 0x100000000ull)
    return bad(at("bindings", i, "binding") + " + register_count runs past binding 2^32 - 1");
  out.register_class = DescriptorClass(in.register_class);
  out.flags = std::uint8_t(in.flags);
  out.buffer_form = BindingRange::BufferForm(in.buffer_form);
  out.space = in.space;
  out.first_register = in.first_register;
  out.register_count = in.register_count;
  if (!stages_from_c(in.stages, out.stages))
    return bad(at("bindings", i, "stages") + " has bits of no shader stage");
  out.set = in.set;
  out.binding = in.binding;
  return Status::ok();
}

Status convert_push(const kiln_push_constant_buffer& in, std::uint32_t i, PushConstantBuffer& out) {
  if (in.offset % 4 != 0)
    return bad(at("push_constant_buffers", i, "offset") + " is not a multiple of 4");
  if (in.size == 0 || in.size % 4 != 0)
    return bad(at("push_constant_buffers", i, "size") + " is not a positive multiple of 4");
  if (std::uint64_t(in.offset) + in.size > 0xffffffffull)
    return bad(at("push_constant_buffers", i, "size") + " runs past 4 GiB");
  out = {in.space, in.register_index, 0, in.offset, in.size};
  if (!stages_from_c(in.stages, out.stages))
    return bad(at("push_constant_buffers", i, "stages") + " has bits of no shader stage");
  return Status::ok();
}

Status convert_combined(const kiln_combined_sampler& in, std::uint32_t i, CombinedSampler& out) {
  if (in.flags & ~std::uint32_t(KILN_BINDING_BUFFER | KILN_BINDING_IMAGE))
    return bad(at("combined_samplers", i, "flags") + " has unknown bits");
  out.resource_space = in.resource_space;
  out.resource_index = in.resource_index;
  out.sampler_space = in.sampler_space;
  out.sampler_index = in.sampler_index;
  out.flags = std::uint8_t(in.flags);
  out.set = in.set;
  out.binding = in.binding;
  if (!stages_from_c(in.stages, out.stages))
    return bad(at("combined_samplers", i, "stages") + " has bits of no shader stage");
  return Status::ok();
}

Status convert_counter(const kiln_uav_counter_binding& in, std::uint32_t i,
                       UavCounterBinding& out) {
  if (std::uint32_t(in.form) > KILN_COUNTER_FORM_STORAGE_TEXEL_BUFFER)
    return bad(at("uav_counters", i, "form") + " " + std::to_string(std::uint32_t(in.form)) +
               " is not a counter form");
  if (in.offset % 4 != 0) return bad(at("uav_counters", i, "offset") + " is not a multiple of 4");
  out.space = in.space;
  out.register_index = in.register_index;
  out.form = UavCounterBinding::Form(in.form);
  out.set = in.set;
  out.binding = in.binding;
  out.offset = in.offset;
  if (!stages_from_c(in.stages, out.stages))
    return bad(at("uav_counters", i, "stages") + " has bits of no shader stage");
  return Status::ok();
}

Status convert_parameter(const kiln_parameter& in, std::uint32_t i, ShaderParameter& out) {
  switch (in.name) {
#define KILN_X(id, value, data_type)                                                               \
  case KILN_PARAMETER_##id:                                                                        \
    out.name = ParameterName::id;                                                                  \
    break;
    KILN_PARAMETER_LIST(KILN_X)
#undef KILN_X
  default:
    return bad(at("parameters", i, "name") + " " + std::to_string(std::uint32_t(in.name)) +
               " is not a parameter");
  }
  if (std::uint32_t(in.type) > KILN_PARAMETER_TYPE_SPECIALIZATION_CONSTANT)
    return bad(at("parameters", i, "type") + " is not a parameter type");
  if (std::uint32_t(in.data_type) != std::uint32_t(parameter_data_type(out.name)))
    return bad(at("parameters", i, "data_type") + " is not the parameter's data type");
  out.type = ShaderParameter::Type(in.type);
  out.data_type = parameter_data_type(out.name);
  if (out.type == ShaderParameter::Type::SpecializationConstant) {
    out.value[0] = in.value.specialization_id;
  } else if (out.data_type == ParameterDataType::F32_VEC4) {
    std::memcpy(out.value.data(), in.value.f32_vec4, 16);
  } else {
    out.value[0] = in.value.u32; // f32 bits alike
  }
  return Status::ok();
}

Status convert_stream_output(const kiln_stream_output_info& in, StreamOutput& out) {
  if (Status s = check_list("stream_output.elements", in.element_count, in.elements); !s) return s;
  if (in.buffer_stride_count > 4) return bad("stream_output.buffer_stride_count is above 4");
  if (in.buffer_stride_count && !in.buffer_strides)
    return bad("stream_output.buffer_strides is NULL with a count");
  out.elements.resize(in.element_count);
  for (std::uint32_t i = 0; i < in.element_count; ++i) {
    const kiln_stream_output_element& e = in.elements[i];
    StreamOutputElement& o = out.elements[i];
    if (e.semantic_name) {
      const std::size_t length = strnlen(e.semantic_name, kMaxSemanticLength + 1);
      if (length > kMaxSemanticLength)
        return bad(at("stream_output.elements", i, "semantic_name") + " is longer than " +
                   std::to_string(kMaxSemanticLength) + " characters");
      o.semantic.assign(e.semantic_name, length);
    }
    o.stream = e.stream;
    o.semantic_index = e.semantic_index;
    o.component_index = e.component_index;
    o.component_count = e.component_count;
    o.output_slot = e.output_slot;
  }
  for (std::uint32_t i = 0; i < in.buffer_stride_count; ++i)
    out.buffer_strides[i] = in.buffer_strides[i];
  out.rasterized_stream = in.rasterized_stream;
  return Status::ok();
}

// The 253 interface slots D3D11 allows a shader (dcl_interface).
constexpr std::uint32_t kMaxClassInstances = 253;

Status convert_class_linkage(const kiln_class_linkage_info& in, ClassLinkage& out) {
  if (in.fixed_instance_count > kMaxClassInstances)
    return bad("class_linkage.fixed_instance_count is above " + std::to_string(kMaxClassInstances));
  if (in.fixed_instance_count && !in.fixed_instances)
    return bad("class_linkage.fixed_instances is NULL with a count");
  out.space = in.selection_space;
  out.register_index = in.selection_register;
  out.fixed_instances.resize(in.fixed_instance_count);
  for (std::uint32_t i = 0; i < in.fixed_instance_count; ++i) {
    const kiln_class_instance& c = in.fixed_instances[i];
    out.fixed_instances[i] = {c.function_table,
                              {c.this_data[0], c.this_data[1], c.this_data[2], c.this_data[3]}};
  }
  return Status::ok();
}

template <typename C, typename T, typename F>
Status convert_list(const char* name, std::uint32_t count, const C* items, std::vector<T>& out,
                    F&& convert) {
  if (Status s = check_list(name, count, items); !s) return s;
  out.resize(count);
  for (std::uint32_t i = 0; i < count; ++i)
    if (Status s = convert(items[i], i, out[i]); !s) return s;
  return Status::ok();
}

} // namespace

Status interface_from_c(const kiln_interface_info& info, ShaderInterface& out) {
  out = {};
  if (info.type != KILN_STRUCTURE_TYPE_INTERFACE_INFO)
    return bad("type is not KILN_STRUCTURE_TYPE_INTERFACE_INFO");
  if (Status s = convert_list("bindings", info.binding_count, info.bindings, out.bindings,
                              convert_binding);
      !s)
    return s;
  if (Status s = convert_list("push_constant_buffers", info.push_constant_buffer_count,
                              info.push_constant_buffers, out.push_constant_buffers, convert_push);
      !s)
    return s;
  if (Status s = convert_list("combined_samplers", info.combined_sampler_count,
                              info.combined_samplers, out.combined_samplers, convert_combined);
      !s)
    return s;
  if (Status s = convert_list("uav_counters", info.uav_counter_count, info.uav_counters,
                              out.uav_counters, convert_counter);
      !s)
    return s;
  if (Status s = check_list("extensions", info.extension_count, info.extensions); !s) return s;
  for (std::uint32_t i = 0; i < info.extension_count; ++i) {
    const std::uint32_t e = std::uint32_t(info.extensions[i]);
    if (e >= 32 || !(kAllExtensions & (ExtensionMask(1) << e)))
      return bad("extensions[" + std::to_string(i) + "] " + std::to_string(e) +
                 " is not an extension");
    out.extensions |= extension_bit(Extension(e));
  }
  out.dual_source_blending = info.dual_source_blending != 0;
  if (info.output_swizzle_count > kMaxOutputSwizzles)
    return bad("output_swizzle_count is above " + std::to_string(kMaxOutputSwizzles));
  if (info.output_swizzle_count && !info.output_swizzles)
    return bad("output_swizzles is NULL with a count");
  for (std::uint32_t i = 0; i < info.output_swizzle_count; ++i) {
    const std::uint32_t swizzle = info.output_swizzles[i];
    if (swizzle & 0xfcfcfcfcu)
      return bad("output_swizzles[" + std::to_string(i) + "] names a component above 3");
    out.output_swizzles.push_back(swizzle);
  }
  if (Status s = convert_list("parameters", info.parameter_count, info.parameters, out.parameters,
                              convert_parameter);
      !s)
    return s;
  if (Status s =
          convert_list("varyings", info.varying_count, info.varyings, out.varyings,
                       [](const kiln_varying_location& in, std::uint32_t, VaryingLocation& v) {
                         v = {in.usage, in.usage_index, in.location};
                         return Status::ok();
                       });
      !s)
    return s;
  // Chained: stream output, class linkage.
  struct Header {
    kiln_structure_type type;
    const void* next;
  };
  const void* next = info.next;
  for (int depth = 0; next && depth < 64; ++depth) {
    const auto* header = static_cast<const Header*>(next);
    Status s;
    if (header->type == KILN_STRUCTURE_TYPE_STREAM_OUTPUT_INFO)
      s = convert_stream_output(*static_cast<const kiln_stream_output_info*>(next),
                                out.stream_output);
    else if (header->type == KILN_STRUCTURE_TYPE_CLASS_LINKAGE_INFO)
      s = convert_class_linkage(*static_cast<const kiln_class_linkage_info*>(next),
                                out.class_linkage);
    if (!s) return s;
    next = header->next;
  }
  return Status::ok();
}

} // namespace kiln::abi
