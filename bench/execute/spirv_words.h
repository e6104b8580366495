#pragma once
// Reading a SPIR-V module's words, for the harness's module readers and rewrites: one walk over
// the instructions, and facts more than one of them needs.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <spirv/unified1/spirv.hpp>
#include <type_traits>

namespace kiln::execute {

inline constexpr char kGlslImportName[] = "GLSL.std.450";

// One instruction of a module: where it starts, its opcode and its words (words[0] holds the
// word count and the opcode). Word is std::uint32_t where a walk may rewrite the words in place.
template <typename Word>
struct SpirvInstruction {
  std::size_t at;
  spv::Op op;
  std::span<Word> words;
  std::uint32_t count() const { return std::uint32_t(words.size()); }
};

// Calls visit(const SpirvInstruction<Word>&) for each instruction of `words` (a span or vector)
// after the header, in order, until it returns false (a visitor returning nothing sees them
// all). Returns the offset of the instruction that ended the walk by being unreadable (a word
// count of 0, or one running past the end: words no reader here can walk), or 0 when there was
// none.
template <typename Words, typename Visit>
std::size_t walk_instructions(Words& words, Visit&& visit) {
  const std::span spirv(words); // a span or vector of const or mutable words
  using Word = typename decltype(spirv)::element_type;
  for (std::size_t at = 5; at < spirv.size();) {
    const std::uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) return at;
    const SpirvInstruction<Word> instruction{at, spv::Op(spirv[at] & 0xffff),
                                             spirv.subspan(at, count)};
    if constexpr (std::is_void_v<decltype(visit(instruction))>) {
      visit(instruction);
    } else {
      if (!visit(instruction)) return 0;
    }
    at += count;
  }
  return 0;
}

// The id of the module's GLSL.std.450 import, or 0 (also for words this cannot walk).
inline std::uint32_t glsl_import_id(std::span<const std::uint32_t> spirv) {
  std::uint32_t id = 0;
  const std::size_t unreadable = walk_instructions(spirv, [&](const auto& i) {
    if (i.op == spv::OpExtInstImport && i.count() >= 3 &&
        std::strncmp(reinterpret_cast<const char*>(&i.words[2]), kGlslImportName,
                     (i.count() - 2) * sizeof(std::uint32_t)) == 0)
      id = i.words[1];
    return id == 0;
  });
  return unreadable ? 0 : id;
}

} // namespace kiln::execute
