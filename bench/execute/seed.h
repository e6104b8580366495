#pragma once
// Deterministic contents for everything a shader reads (docs/execution.md, "Inputs"): the same
// stream for both translations, from a seed per resource and the index of the word.

#include <cstdint>

namespace kiln::execute {

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A float in [low, high), on a 1/256 grid (values exact in every format the harness uses).
inline float seeded_float(std::uint64_t seed, std::uint64_t index, float low = 0.0f,
                          float high = 1.0f) {
  const std::uint32_t step = std::uint32_t(mix64(seed * 0x100000001b3ull + index) >> 56); // 0..255
  return low + (high - low) * float(step) / 256.0f;
}

// A small integer in [0, count): indices stay in range of the resources the harness binds.
inline std::uint32_t seeded_int(std::uint64_t seed, std::uint64_t index, std::uint32_t count = 4) {
  return std::uint32_t(mix64(seed * 0x100000001b3ull + index) >> 32) % count;
}

// The word of element component `index` for data of `kind` ('f' float, 'u'/'i' integer).
inline std::uint32_t seeded_word(char kind, std::uint64_t seed, std::uint64_t index) {
  if (kind == 'f') {
    const float value = seeded_float(seed, index);
    std::uint32_t bits;
    __builtin_memcpy(&bits, &value, 4);
    return bits;
  }
  return seeded_int(seed, index);
}

} // namespace kiln::execute
