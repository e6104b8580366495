// The SPIR-V disassembler over any words (kiln disasm takes SPIR-V files from anywhere).
#include "fuzz/targets.h"
#include "translator/spirv/disassembler.h"

#include <cstring>
#include <string>
#include <vector>

namespace kiln::fuzz {

void run_spirv_disasm(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  std::string text;
  (void)spirv::disassemble(words, text);
}

} // namespace kiln::fuzz
