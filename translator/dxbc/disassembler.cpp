#include "translator/dxbc/disassembler.h"

namespace kiln::dxbc {

Status disassemble(std::span<const std::uint8_t>, std::string&) {
  return Status::error("DXBC disassembly: not implemented yet");
}

} // namespace kiln::dxbc
