#pragma once
// The per-shader figures of the DXBC micro-benchmarks: each shader timed `repeats` times in a
// row, its median kept, and the medians summarised as benchmark counters (median_us, p90_us,
// max_us, total_ms, shaders). A median per shader keeps one noisy run from moving a figure.

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstddef>
#include <vector>

namespace kiln::bench {

// The value at fraction `p` (0..1) of `values` (nearest rank; 0 when empty).
inline double nearest_rank(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  const std::size_t at = std::min(values.size() - 1, std::size_t(p * double(values.size())));
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end());
  return values[at];
}

// Runs `run_one(i)` for every shader i < count, `repeats` times each, and sets the counters.
template <class RunOne>
void time_per_shader(benchmark::State& state, std::size_t count, int repeats, RunOne&& run_one) {
  std::vector<double> per_shader(count), samples(static_cast<std::size_t>(repeats));
  for (auto _ : state) {
    for (std::size_t i = 0; i < count; ++i) {
      for (double& sample : samples) {
        const auto start = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(run_one(i));
        const auto stop = std::chrono::steady_clock::now();
        sample = std::chrono::duration<double, std::micro>(stop - start).count();
      }
      per_shader[i] = nearest_rank(samples, 0.5);
    }
  }
  state.counters["median_us"] = nearest_rank(per_shader, 0.5);
  state.counters["p90_us"] = nearest_rank(per_shader, 0.9);
  state.counters["max_us"] = nearest_rank(per_shader, 1.0);
  double total = 0;
  for (double v : per_shader) total += v;
  state.counters["total_ms"] = total / 1000.0;
  state.counters["shaders"] = double(count);
}

} // namespace kiln::bench
