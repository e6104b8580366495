#pragma once
// Which constant-buffer words a shader uses as integers, read from a module's SPIR-V: a word
// loaded from a uniform buffer (through constant indices) that reaches an OpBitcast to an
// integer type. Those words are seeded with small integers instead of floats, so that loop
// bounds and indices read from constant buffers stay small (docs/execution.md, "Resources").

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <vector>

namespace kiln::execute {

// (descriptor set << 16 | binding) -> word indices (vector * 4 + component).
using IntegerWords = std::map<std::uint32_t, std::set<std::uint32_t>>;

IntegerWords integer_constant_words(std::span<const std::uint32_t> spirv);

// What the constant buffers hold besides seeded floats.
struct ConstantWords {
  IntegerWords integers; // these words get small integers
  // (descriptor set << 16 | binding) -> a buffer's first words, given (the class-linkage
  // selection, class_linkage.h); its other words are zero.
  std::map<std::uint32_t, std::vector<std::uint32_t>> given;
};

} // namespace kiln::execute
