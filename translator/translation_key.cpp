#include "translator/translation_key.h"

#include <vector>
#include <xxhash.h>

namespace kiln {

std::uint32_t encode_translate_options(const TranslateOptions& options) {
  return spirv_target_code(options.target) | (std::uint32_t(options.debug_names) << 8) |
         (options.interface ? kOptionsInterfaceBit : 0);
}

bool decode_translate_options(std::uint32_t bits, TranslateOptions& out) {
  if (!spirv_target_from_code(bits & 0xff, out.target) || (bits >> 10) != 0) return false;
  out.debug_names = (bits >> 8) & 1;
  out.interface = nullptr;
  return true;
}

TranslationKey translation_key(std::span<const std::uint8_t> bytecode,
                               const TranslateOptions& options, std::uint32_t codegen_version) {
  // Options are hashed as their encoded word (never as raw struct bytes: padding is not part
  // of the identity).
  const std::uint32_t option_words[] = {codegen_version, encode_translate_options(options)};
  // The options seed the hash of the bytecode: one pass over the bytes, no streaming state.
  XXH64_hash_t seed = XXH3_64bits(option_words, sizeof option_words);
  if (options.interface) {
    // The interface's canonical encoding (shader_interface.h) joins the seed.
    // A local buffer, not a thread_local one: a thread_local with a destructor in a library
    // the host dlclose()s runs that destructor from unmapped code at thread exit.
    std::vector<std::uint8_t> encoded;
    options.interface->encode(encoded);
    seed = XXH3_64bits_withSeed(encoded.data(), encoded.size(), seed);
  }
  const XXH128_hash_t hash = XXH3_128bits_withSeed(bytecode.data(), bytecode.size(), seed);
  return {hash.low64, hash.high64};
}

} // namespace kiln
