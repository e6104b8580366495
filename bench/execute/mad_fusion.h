#pragma once
// D3D lets `mad` be fused (one rounding) or not (two): vkd3d-shader 1.2 emits GLSL.std.450 Fma,
// kiln OpFMul + OpFAdd, and an `frc` or a large scale after it can turn that one-ULP difference
// into any other. When two runs differ and a module fuses, the harness runs it again with every
// Fma split into the multiply and the add (docs/execution.md, "Fused mad"); results that then
// agree are the verdict `mad-fusion`, apart from `match`.

#include <cstdint>
#include <vector>

namespace kiln::execute {

// Replaces every GLSL.std.450 Fma of `spirv` with an OpFMul into a new id and an OpFAdd into
// the Fma's result (the header's id bound grows by one per Fma). False when it has none.
bool unfuse_fma(std::vector<std::uint32_t>& spirv);

} // namespace kiln::execute
