#pragma once
// `kiln disasm --source` for DXBC: D3D assembly in the conventional fxc style.

#include "translator/common/status.h"
#include "translator/dxbc/program.h"

#include <cstdint>
#include <span>
#include <string>

namespace kiln::dxbc {

// Parses the container, decodes its program and appends the listing to `out`.
Status disassemble(std::span<const std::uint8_t> container, std::string& out);

// Appends the listing of an already decoded program.
Status disassemble_program(const Program& program, std::string& out);

} // namespace kiln::dxbc
