#pragma once
// The input-size buckets every translator comparison is reported by (`kiln bench --vs`, and
// `kiln execute`'s driver times): [min, max) bytes. "all" holds every shader; "> 4 KB" is the
// figure issue 19 judges big shaders by, and overlaps the two buckets above it.

#include <cstdint>

namespace kiln::bench {

struct SizeBucket {
  const char* name;
  std::uint64_t min, max;
  bool holds(std::uint64_t bytes) const { return bytes >= min && bytes < max; }
};

inline constexpr SizeBucket kSizeBuckets[] = {
    {"all", 0, UINT64_MAX},          {"< 1 KB", 0, 1024},
    {"1-4 KB", 1024, 4096},          {"4-16 KB", 4096, 16384},
    {">= 16 KB", 16384, UINT64_MAX}, {"> 4 KB", 4097, UINT64_MAX}};

} // namespace kiln::bench
