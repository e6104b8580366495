#pragma once
// Reflection of a translated shader: what the caller needs to build a pipeline layout and to
// match stages. Filled by the SPIR-V backend (translator/spirv/lower.h) from the final IR.

#include "translator/common/shader_stage.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

// What the caller needs to build a pipeline layout. Filled by the SPIR-V backend.
struct ResourceBinding {
  enum class Class : std::uint8_t { Cbv, Srv, Uav, Sampler, UavCounter, PushData };
  // What else a layer needs to know of the descriptor.
  enum Flags : std::uint32_t {
    // A constant buffer read from push constants (the interface's push_constant_buffers):
    // `offset` and `size` are its bytes in the push-constant block; set and binding are 0.
    PushConstant = 0x1,
    // The D3D11 class-linkage selection buffer (docs/abi.md "Class linkage"): the layer
    // writes the bound class instances there; space and register are the interface's
    // selection register.
    ClassInstances = 0x2,
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
};

struct SignatureElement {
  std::string semantic;
  std::uint32_t semantic_index = 0;
  std::uint32_t location = 0;
  std::uint32_t component_mask = 0;
  std::uint32_t builtin = ~0u; // spv::BuiltIn, or ~0u for a plain location
};

struct Reflection {
  ShaderStage stage = ShaderStage::Count;
  std::vector<ResourceBinding> resources;
  std::vector<SignatureElement> inputs;
  std::vector<SignatureElement> outputs;
};

} // namespace kiln
