#pragma once
// In-process SPIR-V validation with the SPIRV-Tools library (spirv-val's engine).
// Lives in its own library, kiln_spirv_validate, used by the CLI and the tests: libkiln.so
// never links SPIRV-Tools.

#include <cstdint>
#include <span>

#include "translator/common/status.h"
#include "translator/common/spirv_target.h"

namespace kiln {

Status validate_spirv(std::span<const std::uint32_t> words, SpirvTarget target);

} // namespace kiln
