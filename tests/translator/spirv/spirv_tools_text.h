#pragma once
// Test helpers around the SPIRV-Tools C API: assemble SPIR-V text in-process and disassemble
// with SPIRV-Tools' own disassembler (the reference kiln's disassembler is compared with).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::test {

// Empty result and `error` set on failure. `preserve_ids` keeps %<number> ids as written.
std::vector<std::uint32_t> assemble_spirv(std::string_view text, std::string* error = nullptr,
                                          bool preserve_ids = true);
// SPIRV-Tools disassembly with no options (raw ids, no indentation), "" on failure.
std::string reference_disassembly(std::span<const std::uint32_t> words);
// Collapses whitespace runs to one space and drops empty lines, so layouts compare by content.
std::string normalize_whitespace(std::string_view text);

} // namespace kiln::test
