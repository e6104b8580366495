#pragma once
// The identity of a translation: XXH3-128 over the bytecode, the options that affect the
// output, and the codegen version. The service deduplicates in-flight jobs by it and the cache
// stores results under it; it is defined once, here.

#include "translator/translate.h"

#include <cstdint>
#include <span>

namespace kiln {

struct TranslationKey {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  friend bool operator==(const TranslationKey&, const TranslationKey&) = default;
};

struct TranslationKeyHash {
  std::size_t operator()(const TranslationKey& key) const { return std::size_t(key.low); }
};

// The options that affect the output, packed into one word (SpirvTarget in bits 0-7,
// debug_names in bit 8, "has an interface" in bit 9). The key hashes this word (and the
// interface's encoding) and the cache stores it with each record (and the interface's encoding
// beside it), so a new output-affecting option is added here, once.
constexpr std::uint32_t kOptionsInterfaceBit = 1u << 9;
std::uint32_t encode_translate_options(const TranslateOptions& options);
// The inverse; false for bits no encode_translate_options() produces. The interface itself is
// not in the word: with kOptionsInterfaceBit set the caller decodes it from where it is stored
// (out.interface is left null here).
bool decode_translate_options(std::uint32_t bits, TranslateOptions& out);

TranslationKey translation_key(std::span<const std::uint8_t> bytecode,
                               const TranslateOptions& options, std::uint32_t codegen_version);

} // namespace kiln
