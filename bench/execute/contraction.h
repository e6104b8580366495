#pragma once
// Where a driver may fuse a multiply and an add into one rounding. D3D lets `mad` be fused or
// not, and under `refactoringAllowed` lets the driver fuse any multiply into an add. vkd3d-shader
// 1.2 emits `mad` as GLSL.std.450 Fma, kiln as OpFMul + OpFAdd, and either module leaves every
// other multiply and add to the driver (NIR fuses them where a result is used once). An `frc` or
// a large scale after such a one-ULP choice can turn it into any other difference. When two runs
// differ, the harness runs both modules again with contraction forbidden; results that then agree
// are the verdict `contraction`, apart from `match` (docs/execution.md, "Contraction").

#include <cstdint>
#include <vector>

namespace kiln::execute {

// Replaces every GLSL.std.450 Fma of `spirv` with an OpFMul into a new id and an OpFAdd into
// the Fma's result (the header's id bound grows by one per Fma). False when it has none.
bool unfuse_fma(std::vector<std::uint32_t>& spirv);

// unfuse_fma(), then decorates NoContraction every float arithmetic result not decorated so
// already, which stops the driver fusing (Mesa marks the NIR instruction exact). False when the
// module is unchanged: it has no Fma and its arithmetic already forbids contraction.
bool forbid_contraction(std::vector<std::uint32_t>& spirv);

} // namespace kiln::execute
