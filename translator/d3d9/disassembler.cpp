#include "translator/d3d9/disassembler.h"

namespace kiln::d3d9 {

Status disassemble(std::span<const std::uint8_t>, std::string&) {
  return Status::error("D3D9 disassembly: not implemented yet");
}

} // namespace kiln::d3d9
