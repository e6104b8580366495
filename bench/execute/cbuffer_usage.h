#pragma once
// Which constant-buffer words a shader uses as integers, read from a module's SPIR-V: a word
// loaded from a uniform buffer (through constant indices) that reaches an OpBitcast to an
// integer type. Those words are seeded with small integers instead of floats, so that loop
// bounds and indices read from constant buffers stay small (docs/execution.md, "Resources").

#include <cstdint>
#include <map>
#include <set>
#include <span>

namespace kiln::execute {

// (descriptor set << 16 | binding) -> word indices (vector * 4 + component).
using IntegerWords = std::map<std::uint32_t, std::set<std::uint32_t>>;

IntegerWords integer_constant_words(std::span<const std::uint32_t> spirv);

} // namespace kiln::execute
