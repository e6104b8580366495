#pragma once
// kiln's version, and the codegen version that keys the shader cache: bump kCodegenVersion
// whenever a translator change alters the SPIR-V produced for the same input and options.

#include <cstdint>

namespace kiln {

inline constexpr const char* kVersionString = "0.3.0";
// 2: GS input arrays sized from dcl_inputprimitive; 3: reflection carries the bytecode's
// descriptor and signature facts (reflection.h), and the output changed for image sparse
// status, packed-signature locations, GS stream variables and hull phase functions, so entries
// made before rebuild; 4: float folding leaves NaNs to the device, the hull pass-through writes
// what the output signature says, patch constants past control point registers 16 and up; 5:
// g# indices clamped, D3D9 fog varying and fog operations, D3D9 def copies from the lowest
// def'd register; 6: the hull wrapper's barrier only where the patch-constant phase reads
// control-point outputs; 7: a whole control-point output register stored as one vector; 8: a
// geometry shader's whole output register (Position included) stored as one vector, and the
// components of a per-vertex input (geometry, hull, domain) read as one vector load.
// tests/translator/codegen_version_test.cpp fails when the SPIR-V changes without a bump.
inline constexpr std::uint32_t kCodegenVersion = 8;

} // namespace kiln
