#pragma once
// vkd3d-shader 1.2 reads and writes an SM5.1 descriptor array as its element 0, whatever the
// index (docs/execution.md, "Descriptor arrays"): element 0 is the one element both
// translations agree exists. The harness binds every element of an array to one seeded
// resource, and where more than that is needed it pins kiln's indices to the bound elements:
// - an unbounded array (`t[]`) reaches as far as the descriptor heap a D3D12 application made;
//   the harness is that application and binds one element, so an index past it, which D3D
//   leaves undefined and Vulkan does not allow to run, reads that element;
// - a UAV array's elements are D3D resources of their own, which aliasing to one would let
//   writes collide in an order the driver chooses per module; pinned to element 0, kiln's
//   writes land where vkd3d-shader's do, in the same order.
// What is compared is everything but which element an index selects.

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::execute {

struct BoundArray {
  std::uint32_t set = 0, binding = 0;
  std::uint32_t elements = 1; // an index past them is clamped to the last
};

// Rewrites every access chain into a descriptor-array variable named in `arrays` (by set and
// binding) so that its element index is GLSL.std.450 UMin(index, elements - 1). Adds the
// constants (and the GLSL.std.450 import) it needs; the header's id bound grows. Returns how
// many access chains were clamped; 0 leaves `spirv` untouched.
std::size_t clamp_descriptor_indices(std::vector<std::uint32_t>& spirv,
                                     std::span<const BoundArray> arrays);

} // namespace kiln::execute
