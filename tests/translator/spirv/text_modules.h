#pragma once
// SPIR-V assembly modules covering many instruction and operand shapes, for comparing kiln's
// disassembler with SPIRV-Tools. They only need to assemble, not validate.

#include <span>
#include <string_view>

namespace kiln::test {

struct TextModule {
  std::string_view name;
  std::string_view text;
};

std::span<const TextModule> text_modules();

} // namespace kiln::test
