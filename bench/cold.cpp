#include "bench/cold.h"

#include <algorithm>

namespace kiln::bench {

namespace {
constexpr std::size_t kWordsPerLine = 64 / sizeof(std::uint64_t);
// Read after every pass so the stores are observable and cannot be elided.
volatile std::uint64_t g_sink = 0;
} // namespace

CacheEvictor::CacheEvictor(std::size_t bytes)
    : buffer_(new std::uint64_t[std::max<std::size_t>(bytes / sizeof(std::uint64_t), 1)]()),
      bytes_(std::max<std::size_t>(bytes / sizeof(std::uint64_t), 1) * sizeof(std::uint64_t)) {}

void CacheEvictor::evict() {
  ++passes_;
  const std::size_t words = bytes_ / sizeof(std::uint64_t);
  std::uint64_t* const data = buffer_.get();
  // One store per 64-byte line is enough to take the line (read for ownership, then dirty);
  // writing every word would only add time outside the measurement.
  for (std::size_t i = 0; i < words; i += kWordsPerLine) data[i] = passes_ + i;
  g_sink = g_sink + data[(passes_ * kWordsPerLine) % words];
}

} // namespace kiln::bench
