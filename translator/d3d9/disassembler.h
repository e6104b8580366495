#pragma once
// `kiln disasm --source` for D3D9 token streams: D3D9 assembly (vs_3_0 ...).

#include <cstdint>
#include <span>
#include <string>

#include "translator/common/status.h"

namespace kiln::d3d9 {

Status disassemble(std::span<const std::uint8_t> tokens, std::string& out);

} // namespace kiln::d3d9
