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

TranslationKey translation_key(std::span<const std::uint8_t> bytecode,
                               const TranslateOptions& options, std::uint32_t codegen_version);

} // namespace kiln
