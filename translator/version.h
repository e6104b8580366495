#pragma once
// kiln's version, and the codegen version that keys the shader cache: bump kCodegenVersion
// whenever a translator change alters the SPIR-V produced for the same input and options.

#include <cstdint>

namespace kiln {

inline constexpr const char* kVersionString = "0.2.0";
inline constexpr std::uint32_t kCodegenVersion = 2; // 2: GS input arrays sized from dcl_inputprimitive

} // namespace kiln
