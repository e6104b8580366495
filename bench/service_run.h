#pragma once
// Sections 2 and 3 of `kiln bench`: throughput through kiln's async service and the disk cache.
// Each returns its figures, or nothing with a note saying why (a part that does not exist yet).

#include "bench/inputs.h"
#include "bench/results.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::bench {

struct ServiceRunOptions {
  unsigned threads = 0;  // 0: all cores
  std::string cache_dir; // warm passes and cache figures; empty: a temporary cache
  bool no_cache = false; // --no-cache: the service runs without a disk cache
  bool progress = true;
};

// Submits every DXBC/D3D9 input to a CompileService with 1 worker and with `threads` workers
// and times until all jobs are final (the bench thread only polls, it never runs a job): cold
// (always an empty temporary disk cache), then warm (--cache DIR topped up by an untimed pass, or
// the cache the cold passes filled). --no-cache: cold only.
std::optional<ServiceFigures> measure_service(const std::vector<BenchInput>& inputs,
                                              const ServiceRunOptions& options, std::string& note);

// Cache hit latency after reopening, open time and size on disk.
std::optional<CacheFigures> measure_cache(const std::vector<BenchInput>& inputs,
                                          const ServiceRunOptions& options, std::string& note);

} // namespace kiln::bench
