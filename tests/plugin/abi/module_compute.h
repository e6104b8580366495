#pragma once
// What a layer does at dispatch time with a VkShaderModule it got from kiln: a descriptor set
// layout from the bindings, a compute pipeline over the module, one dispatch. Everything it
// creates is destroyed before it returns; the module stays kiln's.

#include "bench/execute/vulkan_harness.h"

#include <span>

namespace kiln::test {

Status run_compute_module(vulkan::Context& context, VkShaderModule module,
                          std::span<const vulkan::BufferBinding> buffers, std::uint32_t groups_x);

} // namespace kiln::test
