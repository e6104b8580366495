#include "translator/translation_key.h"

#include <xxhash.h>

namespace kiln {

TranslationKey translation_key(std::span<const std::uint8_t> bytecode,
                               const TranslateOptions& options, std::uint32_t codegen_version) {
  // Options are hashed field by field (never as raw struct bytes: padding is not part of the
  // identity). Add every new output-affecting option here.
  const std::uint32_t option_words[] = {
      codegen_version,
      std::uint32_t(options.target),
      std::uint32_t(options.debug_names),
  };
  // The options seed the hash of the bytecode: one pass over the bytes, no streaming state.
  const XXH64_hash_t seed = XXH3_64bits(option_words, sizeof option_words);
  const XXH128_hash_t hash = XXH3_128bits_withSeed(bytecode.data(), bytecode.size(), seed);
  return {hash.low64, hash.high64};
}

} // namespace kiln
