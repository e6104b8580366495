#pragma once
// `kiln disasm --source` for D3D9 token streams: D3D9 assembly (vs_3_0 ...).

#include "translator/common/status.h"

#include <cstdint>
#include <span>
#include <string>

namespace kiln::d3d9 {

Status disassemble(std::span<const std::uint8_t> tokens, std::string& out);

} // namespace kiln::d3d9
