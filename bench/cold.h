#pragma once
// `kiln bench --cold`: what a game sees when it meets a shader once, between other work. Before
// each cold call the bench writes a buffer larger than the last-level cache, so the translator's
// code and data, and the shader's bytes, have to come back from memory; the writes are outside
// the timed region.

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kiln::bench {

// 64 MiB, as in issue 31's measurement: twice the 32 MiB L3 of the AMD EPYC core complex kiln
// is measured on, so one pass leaves none of the translator's lines behind.
inline constexpr std::size_t kDefaultColdEvictBytes = std::size_t(64) << 20;

class CacheEvictor {
 public:
  // Allocates and touches `bytes` once, so no page fault is left for evict() to take.
  explicit CacheEvictor(std::size_t bytes);
  CacheEvictor(const CacheEvictor&) = delete;
  CacheEvictor& operator=(const CacheEvictor&) = delete;

  // Writes every cache line of the buffer with a value that changes per call (unrelated
  // writes, as a game's other work makes them), so the lines are dirty and the compiler cannot
  // drop the stores.
  void evict();

  std::size_t bytes() const { return bytes_; }
  std::uint64_t passes() const { return passes_; } // how many times evict() ran

 private:
  std::unique_ptr<std::uint64_t[]> buffer_;
  std::size_t bytes_ = 0;
  std::uint64_t passes_ = 0;
};

} // namespace kiln::bench
