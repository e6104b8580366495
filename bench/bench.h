#pragma once
// `kiln bench`: the corpus benchmark. The CLI parses options into BenchOptions and calls
// run_bench(); tests call it the same way.

#include "bench/results.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::bench {

// --driver: the CLI measures the run's paths with the execution harness, which sits above this
// library.
using DriverMeasure = std::function<DriverSection(const std::vector<std::string>& paths)>;

struct BenchOptions {
  std::vector<std::string> paths;    // empty: the synthetic corpus
  std::uint32_t synthetic_count = 0; // 0: kDefaultSyntheticCount when no paths are given
  std::uint64_t seed = 1;
  unsigned reps = 5;
  unsigned threads = 0; // service run; 0 = all cores
  std::string json_path, plot_path, write_spirv_dir;
  std::string cache_dir; // empty: default; ignored with no_cache
  bool no_cache = false;
  bool validate = false;
  bool cold = false;                // --cold (docs/bench.md)
  std::size_t cold_evict_bytes = 0; // 0: kDefaultColdEvictBytes (bench/cold.h)
  std::string peer;                 // "" or "vkd3d"
  bool service = true;              // sections 2-3
  bool progress = true;             // on stderr
  DriverMeasure driver;             // --driver; empty: not measured (needs paths)
};

inline constexpr std::uint32_t kDefaultSyntheticCount = 1000;

// Runs the benchmark, prints the report on stdout and writes the requested files. Returns
// 0 when the run completed (even if every shader was rejected), 1 when inputs or outputs
// failed (one line "kiln: ..." each on stderr).
int run_bench(const BenchOptions& options);

} // namespace kiln::bench
