#pragma once
// vkd3d-shader 1.2 declares an SM5.1 descriptor array as one descriptor, which every index reads
// and writes (docs/execution.md, "Descriptor arrays"): element 0 is the one element both
// translations agree exists. So the harness runs kiln's module with every descriptor array
// reduced to that element, and binds one descriptor for it, as for vkd3d-shader's:
// - an unbounded array (`t[]`) reaches as far as the descriptor heap a D3D12 application made;
//   the harness is that application, and an index past what it made is undefined in D3D and
//   may not run in Vulkan;
// - a UAV array's elements are D3D resources of their own, which one resource standing for all
//   of them would let writes collide in whatever order the driver runs each module's lanes;
// - the per-stage limits of the device bound the elements it can bind (lavapipe: 128 sampled
//   images), and lavapipe's dynamically indexed descriptors gave one image bound twice
//   different results run to run.
// What is compared is everything but which element an index selects.

#include <cstdint>
#include <vector>

namespace kiln::execute {

// Rewrites every descriptor variable of `spirv` (decorated DescriptorSet) whose type is an array
// of descriptors: each access chain's element index becomes GLSL.std.450 UMin(index, 0), and a
// fixed-size array becomes an array of one. Adds the types and constants (and the GLSL.std.450
// import) it needs; the header's id bound grows. Returns how many variables were reduced; 0
// leaves `spirv` untouched.
std::size_t pin_descriptor_arrays(std::vector<std::uint32_t>& spirv);

} // namespace kiln::execute
