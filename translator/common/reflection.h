#pragma once
// Reflection of a translated shader: what the caller needs to build a pipeline layout, to match
// stages, and what layers scan (vkd3d_shader_scan's descriptor info, signature elements).
// Bindings and locations are filled by the SPIR-V backend (translator/spirv/lower.h) from the
// final IR; the bytecode's own facts (dimension, data type, use, signature registers) by the
// front end's scan (SourceReflection below, attached with attach_source_facts()).

#include "translator/common/shader_stage.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

// A descriptor's resource dimension; numbered as vkd3d_shader_resource_type, the C ABI's
// kiln_resource_dimension (asserted in plugin/abi/abi_context.cpp). The DXBC front end maps its
// token's dimension field to it by table (KILN_DXBC_RESOURCE_DIMENSIONS, dxbc/program.h).
enum class ResourceDimension : std::uint8_t {
  None = 0, // samplers, push data
  Buffer,   // constant, typed, raw and structured buffers
  Texture1D,
  Texture2D,
  Texture2DMS,
  Texture3D,
  TextureCube,
  Texture1DArray,
  Texture2DArray,
  Texture2DMSArray,
  TextureCubeArray,
};

// The data a resource returns; numbered as D3D_RESOURCE_RETURN_TYPE (vkd3d's 1..5 alike), the
// C ABI's kiln_resource_data_type. The DXBC front end maps its token's return-type field to it
// by table (KILN_DXBC_RETURN_TYPES, dxbc/program.h).
enum class ResourceDataType : std::uint8_t {
  None = 0, // constant buffers, samplers, push data
  Unorm,
  Snorm,
  SInt,
  UInt, // also raw and structured buffers (their dwords)
  Float,
  Mixed,
  Double,
};

// What the caller needs to build a pipeline layout. Filled by the SPIR-V backend.
struct ResourceBinding {
  enum class Class : std::uint8_t { Cbv, Srv, Uav, Sampler, UavCounter, PushData };
  // What else a layer needs to know of the descriptor.
  enum Flags : std::uint32_t {
    // A constant buffer read from push constants (the interface's push_constant_buffers):
    // `offset` and `size` are its bytes in the push-constant block; set and binding are 0.
    PushConstant = 0x1,
    UavRead = 0x2,           // a UAV the shader reads (loads, atomics)
    UavCounter = 0x4,        // a UAV whose counter the shader uses (and the counter itself)
    ComparisonSampler = 0x8, // a sampler declared in comparison mode
    RawBuffer = 0x10,        // an SRV/UAV declared raw (byte address)
    StructuredBuffer = 0x20, // an SRV/UAV declared structured; structure_stride is its stride
    // The D3D11 class-linkage selection buffer (docs/abi.md "Class linkage"): the layer
    // writes the bound class instances there; space and register are the interface's
    // selection register.
    ClassInstances = 0x40,
  };
  Class register_class = Class::Cbv;
  std::uint32_t space = 0;
  std::uint32_t register_index = 0;
  std::uint32_t array_size = 1;      // 0 = unbounded
  std::uint32_t descriptor_type = 0; // VkDescriptorType
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  std::uint32_t flags = 0;  // Flags
  std::uint32_t offset = 0; // PushConstant: bytes
  std::uint32_t size = 0;   // PushConstant: bytes
  ResourceDimension dimension = ResourceDimension::None;
  ResourceDataType data_type = ResourceDataType::None;
  std::uint32_t structure_stride = 0; // StructuredBuffer: bytes
};

// A D3D system value as the signature names it (D3D_NAME): 0 none, 1 position, ... 64 target.
inline constexpr std::uint32_t kSystemValueNone = 0;

// The component type of a signature element (D3D_REGISTER_COMPONENT_TYPE).
enum class ComponentType : std::uint8_t { Unknown = 0, UInt, SInt, Float };

struct SignatureElement {
  std::string semantic;
  std::uint32_t semantic_index = 0;
  std::uint32_t location = 0;
  std::uint32_t component_mask = 0;
  std::uint32_t builtin = ~0u; // spv::BuiltIn, or ~0u for a plain location
  // The bytecode's signature entry (DXBC ISGN/OSGN/PCSG; D3D9: the declaration).
  std::uint32_t system_value = kSystemValueNone; // D3D_NAME
  ComponentType component_type = ComponentType::Unknown;
  std::uint32_t register_index = 0;
  std::uint32_t mask = 0;      // components the element occupies in its register
  std::uint32_t used_mask = 0; // inputs: components read; outputs: components not always written
  std::uint32_t stream = 0;    // geometry shader output stream
};

struct Reflection {
  ShaderStage stage = ShaderStage::Count;
  std::vector<ResourceBinding> resources;
  std::vector<SignatureElement> inputs;
  std::vector<SignatureElement> outputs;

  // Empty again, with the vectors' capacity kept: a warm translation writes into the same
  // result without touching the heap.
  void clear() {
    stage = ShaderStage::Count;
    resources.clear();
    inputs.clear();
    outputs.clear();
  }
};

// Heap buffers of semantic names, kept from one translation to the next: a name longer than
// std::string's inline buffer would otherwise cost an allocation each time a result is written
// again. Buffers are taken from elements about to be cleared and handed out to long names.
class SemanticNamePool {
 public:
  void take_from(std::vector<SignatureElement>& elements) {
    for (SignatureElement& e : elements)
      if (e.semantic.capacity() > kInline) spare_.push_back(std::move(e.semantic));
  }
  void take_from(Reflection& reflection) {
    take_from(reflection.inputs);
    take_from(reflection.outputs);
  }
  // target = name, in a kept buffer when target's own is too small and one is large enough.
  void assign(std::string& target, std::string_view name) {
    if (name.size() > target.capacity())
      for (std::size_t i = 0; i < spare_.size(); ++i)
        if (spare_[i].capacity() >= name.size()) {
          target.swap(spare_[i]); // spare_[i] now holds target's old buffer
          if (spare_[i].capacity() <= kInline) {
            spare_[i].swap(spare_.back());
            spare_.pop_back();
          }
          break;
        }
    target.assign(name);
  }

 private:
  static inline const std::size_t kInline = std::string().capacity();
  std::vector<std::string> spare_;
};

// What the bytecode declares, before any translation: every descriptor range with its class,
// space, registers (array_size 0: unbounded), dimension, data type and use flags, and the
// signatures' elements. Bindings, locations and built-ins are not set here.
struct SourceReflection {
  ShaderStage stage = ShaderStage::Count;
  std::vector<ResourceBinding> descriptors; // Cbv, Srv, Uav, Sampler
  // SM5.1: a declaration names its range by an id other than its first register, or sits in a
  // register space other than 0 (where instructions and registers stop agreeing).
  bool renamed_ranges = false;
  std::vector<SignatureElement> inputs, outputs, patch_constants;
};

// Copies the bytecode's facts into a translation's reflection: each descriptor takes its
// dimension, data type, flags and stride from the source range of the same class, space and
// first register (a UAV counter from its UAV); each input/output its signature entry of the
// same semantic, index and stream (outputs of hull shaders and inputs of domain shaders also
// from the patch-constant signature).
void attach_source_facts(const SourceReflection& source, Reflection& reflection);

} // namespace kiln
