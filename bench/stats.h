#pragma once
// The statistics `kiln bench` reports, kept apart so tests can hold them to known inputs.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::bench {

// The p-th percentile (0 <= p <= 100) of `values` by linear interpolation between closest
// ranks (numpy's default): p0 is the minimum, p100 the maximum. 0 for an empty input.
// `values` is sorted in place.
double percentile(std::vector<double>& values, double p);
double median(std::vector<double> values);

// exp(mean(log x)) over the positive values; 0 when there are none.
double geometric_mean(std::span<const double> values);

struct LatencySummary {
  std::size_t count = 0;
  double p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0;
  double total_ms = 0;
  double shaders_per_s = 0; // count / total
};
LatencySummary summarize(std::vector<double> latencies_us);

// A rejection message with its numbers taken out, so "chunk SHEX: truncated at token 41" and
// "... at token 7" group together: digit runs and 0x-hex runs that start a word become '#'
// (digits inside a word, as in "D3D9" or "vs_3_0", stay).
std::string rejection_group(std::string_view message);

} // namespace kiln::bench
