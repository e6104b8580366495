#include "translator/spirv/disassembler.h"

namespace kiln::spirv {

Status disassemble(std::span<const std::uint32_t>, std::string&) {
  return Status::error("SPIR-V disassembly: not implemented yet");
}

} // namespace kiln::spirv
