#pragma once
// The outputs of a bench run: the text summary (stdout), the JSON file (schema in
// docs/bench.md) and the latency CDF as SVG.

#include "bench/results.h"

#include <cstdio>
#include <string>

namespace kiln::bench {

void print_report(std::FILE* out, const BenchRun& run, const Summary& summary);

inline constexpr const char* kJsonSchema = "kiln-bench/1";
std::string json_report(const BenchRun& run, const Summary& summary);

// Latency CDF per kind (dxbc, d3d9) for kiln and, with --vs, the peer; log-scale time axis.
std::string svg_plot(const BenchRun& run);

} // namespace kiln::bench
