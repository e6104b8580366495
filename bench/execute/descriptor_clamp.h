#pragma once
// An unbounded SM5.1 descriptor array (`t[]`) reaches as far as the descriptor heap a D3D12
// application made; the harness is that application, and it binds only as many elements as the
// device's per-stage limits leave (Resources::descriptor_counts). An index past them points
// outside its heap, which D3D leaves undefined and which Vulkan does not allow to run. The
// harness clamps such indices in kiln's module to its last bound element, whose contents are
// every element's (docs/execution.md, "Descriptor arrays"): the one meaning vkd3d-shader 1.2's
// module, which reads element 0 for every index, shares.

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::execute {

struct BoundArray {
  std::uint32_t set = 0, binding = 0;
  std::uint32_t elements = 1; // elements bound; an index past them is clamped to the last
};

// Rewrites every access chain into a runtime-array descriptor variable named in `arrays` (by
// set and binding) so that its element index is GLSL.std.450 UMin(index, elements - 1). Adds
// the constants (and the GLSL.std.450 import) it needs; the header's id bound grows. Returns
// how many access chains were clamped; 0 leaves `spirv` untouched.
std::size_t clamp_descriptor_indices(std::vector<std::uint32_t>& spirv,
                                     std::span<const BoundArray> arrays);

} // namespace kiln::execute
