#pragma once
// Where a D3D register lands under a layer's interface description (shader_interface.h):
// the lookups the SPIR-V backend makes for each declaration, kept apart from the backend so
// they can be tested on their own. Kiln's own model (no interface) is not here: it lives in the
// backend (docs/pipeline.md, "Binding model").

#include "translator/common/shader_interface.h"
#include "translator/common/status.h"

#include <cstdint>
#include <string>

namespace kiln {

// A declaration's descriptor: set, binding, and the array it is part of.
struct DescriptorSlot {
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
  // Elements of the binding's variable (0: unbounded); 1 for a single descriptor.
  std::uint32_t array_size = 1;
  // The declaration's first register is element `array_base` of that array (KILN_BINDING_ARRAY
  // ranges); the shader's own index is added to it.
  std::uint32_t array_base = 0;
  BindingRange::BufferForm buffer_form = BindingRange::BufferForm::StorageBuffer;
};

// "t3 (space 0)", "u2..u5 (space 1)", "t0.. (space 2)" (count 0: unbounded).
std::string register_name(DescriptorClass register_class, std::uint32_t space,
                          std::uint32_t first_register, std::uint32_t count = 1);

// The slot of registers [first_register, first_register + count) (count 0: unbounded, an SM5.1
// `t[]`) of one class and space, used by `stage`; `buffer` says whether an SRV/UAV is a buffer
// (typed, raw, structured) or an image. All registers must lie in one range. An error names
// the registers that no range covers.
Status map_descriptor(const ShaderInterface& interface, DescriptorClass register_class,
                      std::uint32_t space, std::uint32_t first_register, std::uint32_t count,
                      ShaderStage stage, bool buffer, DescriptorSlot& out);

// The push-constant buffer that holds cb`register_index` (space `space`) for `stage`, or null.
const PushConstantBuffer* find_push_constant_buffer(const ShaderInterface& interface,
                                                    std::uint32_t space,
                                                    std::uint32_t register_index,
                                                    ShaderStage stage);

// Where the counter of u`register_index` (space `space`) lives for `stage`, or null.
const UavCounterBinding* find_uav_counter(const ShaderInterface& interface, std::uint32_t space,
                                          std::uint32_t register_index, ShaderStage stage);

// Combined image/samplers (the interface's combined_samplers): the entry combining
// t`resource_index` with s`sampler_index` (kNoSampler: reads without a sampler) for `stage`, or
// null; and whether any entry names that SRV, or that sampler.
const CombinedSampler* find_combined_sampler(const ShaderInterface& interface,
                                             std::uint32_t resource_space,
                                             std::uint32_t resource_index,
                                             std::uint32_t sampler_space,
                                             std::uint32_t sampler_index, ShaderStage stage);
bool combines_resource(const ShaderInterface& interface, std::uint32_t space,
                       std::uint32_t register_index, ShaderStage stage);
bool combines_sampler(const ShaderInterface& interface, std::uint32_t space,
                      std::uint32_t register_index, ShaderStage stage);

} // namespace kiln
