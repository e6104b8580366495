#include "bench/stats.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace kiln::bench {

double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = rank - double(below);
  return values[below] + (values[above] - values[below]) * fraction;
}

double median(std::vector<double> values) {
  return percentile(values, 50);
}

double geometric_mean(std::span<const double> values) {
  double log_sum = 0;
  std::size_t count = 0;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) continue;
    log_sum += std::log(v);
    ++count;
  }
  return count ? std::exp(log_sum / double(count)) : 0;
}

LatencySummary summarize(std::vector<double> latencies_us) {
  LatencySummary s;
  s.count = latencies_us.size();
  if (latencies_us.empty()) return s;
  for (double v : latencies_us) s.total_ms += v / 1000.0;
  s.p50_us = percentile(latencies_us, 50);
  s.p90_us = percentile(latencies_us, 90);
  s.p99_us = percentile(latencies_us, 99);
  s.max_us = latencies_us.back();
  s.shaders_per_s = s.total_ms > 0 ? double(s.count) / (s.total_ms / 1000.0) : 0;
  return s;
}

std::string rejection_group(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < message.size();) {
    // Digits inside a word ("D3D9", "vs_3_0") are part of a name, not a number.
    if (i > 0 && word_char(message[i - 1])) {
      out += message[i++];
      continue;
    }
    const bool hex = message[i] == '0' && i + 1 < message.size() &&
                     (message[i + 1] == 'x' || message[i + 1] == 'X') && i + 2 < message.size() &&
                     std::isxdigit(static_cast<unsigned char>(message[i + 2]));
    if (hex) {
      i += 2;
      while (i < message.size() && std::isxdigit(static_cast<unsigned char>(message[i]))) ++i;
      out += '#';
    } else if (std::isdigit(static_cast<unsigned char>(message[i]))) {
      while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]))) ++i;
      out += '#';
    } else {
      out += message[i++];
    }
  }
  return out;
}

} // namespace kiln::bench
