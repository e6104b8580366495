#pragma once
// Helpers for the SPIR-V backend tests: IR text -> SPIR-V through spirv::Lowering, validated
// for every Vulkan target, plus the disassembly to assert on.

#include "translator/common/reflection.h"
#include "translator/common/status.h"
#include "translator/translate.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::test {

struct Lowered {
  std::vector<std::uint32_t> words; // for the Vulkan 1.3 target
  std::string text;                 // its disassembly
  Reflection reflection;
};

// Parses `ir_text`, lowers it for Vulkan 1.0, 1.1, 1.2 and 1.3 and validates each module;
// failures are reported as gtest failures and leave `out` empty.
void lower_and_validate(std::string_view ir_text, Lowered& out);

// Lowers without validation; returns the status (for rejection tests).
Status lower_only(std::string_view ir_text, SpirvTarget target, Lowered& out);
// The same under an interface (null: none).
Status lower_only(std::string_view ir_text, SpirvTarget target, const ShaderInterface* interface,
                  Lowered& out);
// Lowers under `interface` for `target` and validates (spirv-val for that target); failures are
// gtest failures.
void lower_and_validate(std::string_view ir_text, SpirvTarget target,
                        const ShaderInterface& interface, Lowered& out);

// Number of lines of `text` that contain `needle`.
int count_lines(const std::string& text, std::string_view needle);
// Number of lines that contain both `a` and `b`.
int count_lines(const std::string& text, std::string_view a, std::string_view b);

} // namespace kiln::test
