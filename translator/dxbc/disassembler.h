#pragma once
// `kiln disasm --source` for DXBC: D3D assembly in the conventional fxc style.

#include <cstdint>
#include <span>
#include <string>

#include "translator/common/status.h"

namespace kiln::dxbc {

Status disassemble(std::span<const std::uint8_t> container, std::string& out);

} // namespace kiln::dxbc
