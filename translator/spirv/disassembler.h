#pragma once
// SPIR-V binary -> assembly text in the syntax of spirv-dis (--raw-id).

#include <cstdint>
#include <span>
#include <string>

#include "translator/common/status.h"

namespace kiln::spirv {

Status disassemble(std::span<const std::uint32_t> words, std::string& out);

} // namespace kiln::spirv
