#pragma once
// SPIR-V binary -> assembly text in the syntax of spirv-dis (--raw-id).

#include "translator/common/status.h"

#include <cstdint>
#include <span>
#include <string>

namespace kiln::spirv {

Status disassemble(std::span<const std::uint32_t> words, std::string& out);

} // namespace kiln::spirv
