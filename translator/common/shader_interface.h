#pragma once
// The layer's interface description, as the translator takes it (the C ABI's
// kiln_interface_info in include/kiln/kiln_interface.h is its public form; docs/abi.md is the
// contract). It says where each D3D register lands (descriptor set and binding, push
// constants, combined image/samplers), the form of buffer views and UAV counters, which
// optional SPIR-V features the device has, dual-source blending, output swizzles, render-state
// parameters, the D3D9 varying map and stream output.
//
// A translation with no interface (TranslateOptions::interface null) uses kiln's own model
// (docs/pipeline.md, "Binding model"). An interface is immutable once built and shared between
// the jobs that use it; its canonical encoding (encode()) is what the translation key hashes
// and what the cache stores, so it is defined once, here.

#include "kiln/kiln_interface.h"
#include "translator/common/shader_stage.h"
#include "translator/common/status.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

enum class DescriptorClass : std::uint8_t { Cbv, Srv, Uav, Sampler };

// Bit (1 << ShaderStage) per stage; 0 = every stage.
using StageMask = std::uint32_t;
constexpr StageMask stage_bit(ShaderStage stage) {
  return StageMask(1) << std::uint32_t(stage);
}
constexpr bool stage_visible(StageMask mask, ShaderStage stage) {
  return mask == 0 || (mask & stage_bit(stage)) != 0;
}

constexpr std::uint32_t kRegistersUnbounded = KILN_REGISTERS_UNBOUNDED;
constexpr std::uint32_t kNoSampler = KILN_NO_SAMPLER;
constexpr std::uint32_t kNoRasterizedStream = KILN_NO_RASTERIZED_STREAM;

struct BindingRange {
  enum Flags : std::uint8_t {
    Buffer = KILN_BINDING_BUFFER,
    Image = KILN_BINDING_IMAGE,
    Array = KILN_BINDING_ARRAY
  };
  enum class BufferForm : std::uint8_t { StorageBuffer, TexelBuffer };
  DescriptorClass register_class = DescriptorClass::Cbv;
  std::uint8_t flags = 0;
  BufferForm buffer_form = BufferForm::StorageBuffer;
  std::uint32_t space = 0;
  std::uint32_t first_register = 0;
  std::uint32_t register_count = 1; // or kRegistersUnbounded
  StageMask stages = 0;
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
};

struct PushConstantBuffer {
  std::uint32_t space = 0;
  std::uint32_t register_index = 0;
  StageMask stages = 0;
  std::uint32_t offset = 0; // bytes
  std::uint32_t size = 0;   // bytes
};

struct CombinedSampler {
  std::uint32_t resource_space = 0;
  std::uint32_t resource_index = 0;
  std::uint32_t sampler_space = 0;
  std::uint32_t sampler_index = kNoSampler;
  StageMask stages = 0;
  std::uint8_t flags = 0; // BindingRange::Buffer / Image
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
};

struct UavCounterBinding {
  enum class Form : std::uint8_t { StorageBuffer, StorageTexelBuffer };
  std::uint32_t space = 0;
  std::uint32_t register_index = 0;
  StageMask stages = 0;
  Form form = Form::StorageBuffer;
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::uint32_t offset = 0; // bytes, StorageBuffer form
};

// Optional SPIR-V features, numbered as kiln_extension. One row each:
// X(enumerator, kiln_extension value, CLI name, Vulkan extension, SPIR-V extension,
//   first Vulkan 1.x minor version where the feature is core *and* required, or kNeverCore).
// Under an interface kiln uses a feature only where it is enabled or core and required in the
// target (docs/abi.md, "Extensions and fallbacks").
constexpr std::uint32_t kNeverCore = 0xff;
#define KILN_EXTENSIONS(X)                                                                         \
  X(DemoteToHelperInvocation, KILN_EXTENSION_DEMOTE_TO_HELPER_INVOCATION, "demote-to-helper",      \
    "VK_EXT_shader_demote_to_helper_invocation", "SPV_EXT_demote_to_helper_invocation", 3)         \
  X(StencilExport, KILN_EXTENSION_STENCIL_EXPORT, "stencil-export",                                \
    "VK_EXT_shader_stencil_export", "SPV_EXT_shader_stencil_export", kNeverCore)                   \
  X(ViewportIndexLayer, KILN_EXTENSION_VIEWPORT_INDEX_LAYER, "viewport-index-layer",               \
    "VK_EXT_shader_viewport_index_layer", "SPV_EXT_shader_viewport_index_layer", kNeverCore)       \
  X(FragmentShaderInterlock, KILN_EXTENSION_FRAGMENT_SHADER_INTERLOCK,                             \
    "fragment-shader-interlock", "VK_EXT_fragment_shader_interlock",                               \
    "SPV_EXT_fragment_shader_interlock", kNeverCore)                                               \
  X(FragmentFullyCovered, KILN_EXTENSION_FRAGMENT_FULLY_COVERED, "fragment-fully-covered",         \
    "VK_EXT_conservative_rasterization", "SPV_EXT_fragment_fully_covered", kNeverCore)             \
  X(DescriptorIndexing, KILN_EXTENSION_DESCRIPTOR_INDEXING, "descriptor-indexing",                 \
    "VK_EXT_descriptor_indexing", "SPV_EXT_descriptor_indexing", kNeverCore)                       \
  X(TransformFeedback, KILN_EXTENSION_TRANSFORM_FEEDBACK, "transform-feedback",                    \
    "VK_EXT_transform_feedback", "", kNeverCore)                                                   \
  X(ShaderDrawParameters, KILN_EXTENSION_SHADER_DRAW_PARAMETERS, "shader-draw-parameters",         \
    "VK_KHR_shader_draw_parameters", "SPV_KHR_shader_draw_parameters", kNeverCore)

enum class Extension : std::uint8_t {
#define KILN_X(name, value, cli, vulkan, spirv, core) name = value,
  KILN_EXTENSIONS(KILN_X)
#undef KILN_X
};
constexpr Extension kAllExtensionValues[] = {
#define KILN_X(name, value, cli, vulkan, spirv, core) Extension::name,
    KILN_EXTENSIONS(KILN_X)
#undef KILN_X
};
using ExtensionMask = std::uint32_t; // bit (1 << Extension)
constexpr ExtensionMask extension_bit(Extension e) {
  return ExtensionMask(1) << std::uint32_t(e);
}
constexpr ExtensionMask kAllExtensions = [] {
  ExtensionMask all = 0;
  for (Extension e : kAllExtensionValues) all |= extension_bit(e);
  return all;
}();

struct ExtensionInfo {
  std::string_view cli_name;          // "demote-to-helper" (kiln translate --extensions)
  std::string_view vulkan_extension;  // "VK_EXT_shader_demote_to_helper_invocation"
  std::string_view spirv_extension;   // "SPV_EXT_demote_to_helper_invocation"; empty: none
  std::uint32_t core_in_vulkan_minor; // or kNeverCore
};
constexpr ExtensionInfo extension_info(Extension e) {
  switch (e) {
#define KILN_X(name, value, cli, vulkan, spirv, core)                                              \
  case Extension::name:                                                                            \
    return {cli, vulkan, spirv, core};
    KILN_EXTENSIONS(KILN_X)
#undef KILN_X
  }
  return {};
}
// A comma-separated list of CLI names (or "none", "all") as a mask; false naming nothing it knows.
bool parse_extension_list(std::string_view list, ExtensionMask& out);

// Render-state parameters: one row per kiln_parameter_name (KILN_PARAMETER_LIST).
enum class ParameterName : std::uint8_t {
  None = 0,
#define KILN_X(name, value, data_type) name = value,
  KILN_PARAMETER_LIST(KILN_X)
#undef KILN_X
};
enum class ParameterDataType : std::uint8_t { U32, F32, F32_VEC4 };
constexpr ParameterDataType parameter_data_type(ParameterName name) {
  switch (name) {
#define KILN_X(name, value, data_type)                                                             \
  case ParameterName::name:                                                                        \
    return ParameterDataType::data_type;
    KILN_PARAMETER_LIST(KILN_X)
#undef KILN_X
  default:
    return ParameterDataType::U32;
  }
}

// A parameter's value when the layer does not pass it (docs/abi.md, "Parameters"): the bits of
// its u32, f32 or four f32.
std::array<std::uint32_t, 4> parameter_default(ParameterName name);

// How component `component` of a parameter reaches a shader (the one decision, shared by the
// front ends and the SPIR-V backend): its bits (immediate, or the default when `interface` is
// null or does not pass it) or, for a specialization constant, its SpecId.
struct ParameterValue {
  bool specialization = false;
  std::uint32_t bits = 0; // the value's bits, or the SpecId
};
struct ShaderInterface;
ParameterValue parameter_value(const ShaderInterface* interface, ParameterName name,
                               unsigned component = 0);

struct ShaderParameter {
  enum class Type : std::uint8_t { Immediate, SpecializationConstant };
  ParameterName name = ParameterName::None;
  Type type = Type::Immediate;
  ParameterDataType data_type = ParameterDataType::U32;
  // Immediate: the value's bits (u32, f32 bits, or four f32 bits). Specialization constant:
  // value[0] is the id (F32_VEC4: ids value[0] .. value[0] + 3).
  std::array<std::uint32_t, 4> value{};
};

struct VaryingLocation {
  std::uint32_t usage = 0; // D3DDECLUSAGE
  std::uint32_t usage_index = 0;
  std::uint32_t location = 0;
};

// D3D semantic names compare without regard to ASCII case ("texcoord" is "TEXCOORD"),
// whatever the C locale says.
constexpr bool same_semantic_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

struct StreamOutputElement {
  std::uint32_t stream = 0;
  std::string semantic; // empty: a gap of component_count components
  std::uint32_t semantic_index = 0;
  std::uint8_t component_index = 0;
  std::uint8_t component_count = 0;
  std::uint8_t output_slot = 0;
};

struct StreamOutput {
  std::vector<StreamOutputElement> elements;
  std::array<std::uint32_t, 4> buffer_strides{};
  std::uint32_t rasterized_stream = 0; // or kNoRasterizedStream
  bool enabled() const { return !elements.empty(); }
};

// D3D11 class linkage (kiln_class_linkage_info; docs/abi.md "Class linkage"): where the
// class-instance selection is read, or the selection itself.
struct ClassInstance {
  std::uint32_t function_table = 0;         // ft#
  std::array<std::uint32_t, 4> this_data{}; // cb register, cb offset (vectors), t base, s base
};
struct ClassLinkage {
  std::uint32_t space = KILN_CLASS_LINKAGE_DEFAULT_SPACE;
  std::uint32_t register_index = KILN_CLASS_LINKAGE_DEFAULT_REGISTER; // a cb register
  std::vector<ClassInstance> fixed_instances; // non-empty: baked in, per interface slot
  bool fixed() const { return !fixed_instances.empty(); }
};

// Whose rules decide what an interface leaves open.
//  - Kiln: a descriptor the binding map does not cover fails the shader; stage-interface
//    locations are kiln's (docs/pipeline.md).
//  - Vkd3dShader (the drop-in libvkd3d-shader, docs/vkd3d-shader.md): vkd3d-shader 1.2's, so a
//    layer that relies on them, or mixes the two libraries stage by stage, cannot tell them
//    apart. Stage-interface locations, components and decorations are vkd3d-shader's (patch
//    constants after the control-point signature's elements, pass-through outputs where the
//    output signature puts them). Descriptors follow the binding map, which the drop-in fills
//    with vkd3d-shader's placement of every declared descriptor (its fallback layout
//    included: plugin/vkd3d_shader/bindings.h), so one not covered still fails the shader.
enum class InterfaceConvention : std::uint8_t { Kiln, Vkd3dShader };

struct ShaderInterface {
  std::vector<BindingRange> bindings;
  std::vector<PushConstantBuffer> push_constant_buffers;
  std::vector<CombinedSampler> combined_samplers;
  std::vector<UavCounterBinding> uav_counters;
  ExtensionMask extensions = 0;
  bool dual_source_blending = false;
  std::vector<std::uint32_t> output_swizzles; // per render target; 0x03020100 = identity
  std::vector<ShaderParameter> parameters;
  std::vector<VaryingLocation> varyings; // empty: kiln's own D3D9 varying table
  StreamOutput stream_output;
  ClassLinkage class_linkage;
  InterfaceConvention convention = InterfaceConvention::Kiln;
  // A geometry shader that emits a point list writes PointSize = 1 (vkd3d-shader 1.2 does;
  // VKD3D_SHADER_COMPILE_OPTION_WRITE_TESS_GEOM_POINT_SIZE = 0 asks it not to). Off by default:
  // Vulkan reads PointSize only where the layer enables shaderTessellationAndGeometryPointSize.
  bool geometry_point_size = false;
  // A typed UAV the shader reads (not only with atomics) declares the R32 format of its type,
  // as vkd3d-shader does by default (VKD3D_SHADER_COMPILE_OPTION_TYPED_UAV_READ_FORMAT_R32): the
  // layer then needs no shaderStorageImageReadWithoutFormat and binds R32 views. Off by default:
  // kiln's own model declares such a UAV Unknown (StorageImageReadWithoutFormat) and reads any
  // format the view has.
  bool typed_uav_read_r32 = false;

  // Whether the layer lays out the descriptors: any binding range, push-constant buffer,
  // combined sampler or UAV counter, or vkd3d-shader's convention (whose map is complete even
  // when empty: a descriptor of kiln's own, such as the class-linkage selection, fails there).
  // Without one (an interface that only carries extensions, parameters, varyings or stream output)
  // kiln's own binding model applies.
  bool has_binding_map() const {
    return !bindings.empty() || !push_constant_buffers.empty() || !combined_samplers.empty() ||
           !uav_counters.empty() || convention == InterfaceConvention::Vkd3dShader;
  }

  // The parameter of that name, or null (its default applies).
  const ShaderParameter* parameter(ParameterName name) const;
  // The D3D9 varying map's location for (usage, usage_index), or -1 when it has none.
  int varying_location(std::uint32_t usage, std::uint32_t usage_index) const;

  // The canonical byte encoding (little-endian words, lists in the order given): hashed into
  // the translation key, stored in cache records so a stale entry can be translated again.
  void encode(std::vector<std::uint8_t>& out) const;
  // The inverse of encode(); an error for bytes encode() cannot produce.
  static Status decode(std::span<const std::uint8_t> bytes, ShaderInterface& out);
};

} // namespace kiln
