#pragma once
// A small deterministic random source for the synthetic corpus. The standard library's
// distributions are implementation-defined, so the generator draws everything from here: the
// same seed gives the same shaders on every platform and standard library.

#include <cmath>
#include <cstdint>

namespace kiln::synth {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  // SplitMix64: tiny, fast, and good enough for picking opcodes and sizes.
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound); bound > 0.
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>((next() >> 32) * bound >> 32);
  }
  // Uniform in [low, high].
  std::uint32_t between(std::uint32_t low, std::uint32_t high) {
    return low + below(high - low + 1);
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  bool chance(double probability) { return unit() < probability; }

  // Standard normal by Box-Muller (one value per call; the second is discarded for simplicity).
  double normal() {
    const double u1 = 1.0 - unit(); // (0, 1]
    const double u2 = unit();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // Log-normal with the given median and 90th percentile (z = 1.2816 at p90).
  double lognormal(double median, double p90) {
    const double sigma = std::log(p90 / median) / 1.2815515655446004;
    return median * std::exp(sigma * normal());
  }

  // A float with few significant digits, like the constants in real shaders.
  float small_float() {
    static constexpr float kValues[] = {0.0f,         0.5f,         1.0f,   2.0f,
                                        0.25f,        -1.0f,        0.001f, 3.14159274f,
                                        0.298999995f, 0.587000012f, 0.114f, 10.0f};
    return kValues[below(sizeof(kValues) / sizeof(kValues[0]))];
  }

 private:
  std::uint64_t state_;
};

} // namespace kiln::synth
