// The latency CDF of `kiln bench --plot`: a small hand-written SVG, one step line per
// (translator, kind), time on a log axis; with --cold, a dashed line of the same colour per
// series for the first call after eviction.

#include "bench/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace kiln::bench {

namespace {

struct Series {
  std::string label;
  std::vector<double> times_us; // sorted
  std::size_t color = 0;        // a cold series shares its warm series' colour
  bool cold = false;
};

constexpr double kWidth = 720, kHeight = 420;
constexpr double kLeft = 60, kRight = 180, kTop = 30, kBottom = 50;
constexpr const char* kColors[] = {"#d62728", "#1f77b4", "#2ca02c",
                                   "#ff7f0e", "#9467bd", "#8c564b"};

std::string fmt(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[160];
  std::snprintf(buffer, sizeof(buffer), format, a, b, c, d);
  return buffer;
}

// --driver's chart drawn under the CDF (`upper`, kHeight tall): one SVG holding both, each as a
// nested <svg> at its offset.
std::string stacked(const std::string& upper, const DriverSection& driver) {
  const std::string lower = driver_times_svg(driver.groups, driver.device);
  const double width = std::max(kWidth, kDriverChartWidth);
  const double height = kHeight + driver_chart_height(driver.groups.size());
  std::string svg = fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                        "height=\"%.0f\">\n",
                        width, height);
  svg += "<svg y=\"0\"" + upper.substr(upper.find("<svg") + 4);
  svg += fmt("<svg y=\"%.0f\"", kHeight) + lower.substr(lower.find("<svg") + 4);
  return svg + "</svg>\n";
}

} // namespace

std::string svg_plot(const BenchRun& run) {
  std::vector<Series> series;
  std::size_t colors = 0;
  for (InputKind kind : {InputKind::Dxbc, InputKind::D3D9}) {
    const std::string kind_name(input_kind_name(kind));
    Series kiln{"kiln " + kind_name, {}}, peer{run.peer_name + " " + kind_name, {}};
    Series kiln_cold{kiln.label + " cold", {}, 0, true};
    Series peer_cold{peer.label + " cold", {}, 0, true};
    for (const FileRecord& r : run.files) {
      if (r.kind != kind) continue;
      if (r.ok && r.median_us > 0) kiln.times_us.push_back(r.median_us);
      if (r.ok && r.cold_us && *r.cold_us > 0) kiln_cold.times_us.push_back(*r.cold_us);
      if (run.peer_name.empty() || !r.peer.ok) continue;
      if (r.peer.median_us > 0) peer.times_us.push_back(r.peer.median_us);
      if (r.peer.cold_us && *r.peer.cold_us > 0) peer_cold.times_us.push_back(*r.peer.cold_us);
    }
    for (auto [warm, cold] : {std::pair{&kiln, &kiln_cold}, std::pair{&peer, &peer_cold}}) {
      if (warm->times_us.empty() && cold->times_us.empty()) continue;
      warm->color = cold->color = colors++;
      for (Series* s : {warm, cold}) {
        if (s->times_us.empty()) continue;
        std::sort(s->times_us.begin(), s->times_us.end());
        series.push_back(std::move(*s));
      }
    }
  }

  std::string svg = fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                        "font-family=\"sans-serif\" font-size=\"12\">\n",
                        kWidth, kHeight);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += fmt("<text x=\"%.0f\" y=\"18\" font-size=\"14\">Translation latency CDF (median per "
             "shader, %.0f reps",
             kLeft, double(run.reps));
  svg += run.cold ? "; dashed: cold, first call after eviction)</text>\n" : ")</text>\n";
  if (series.empty()) {
    svg += fmt("<text x=\"%.0f\" y=\"%.0f\">no translated shader to plot</text>\n", kLeft,
               kHeight / 2);
    return svg + "</svg>\n";
  }

  double low = series[0].times_us.front(), high = series[0].times_us.back();
  for (const Series& s : series) {
    low = std::min(low, s.times_us.front());
    high = std::max(high, s.times_us.back());
  }
  const double decade_low = std::floor(std::log10(low));
  const double decade_high = std::max(decade_low + 1, std::ceil(std::log10(high)));
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double us) {
    return kLeft + (std::log10(us) - decade_low) / (decade_high - decade_low) * plot_w;
  };
  auto y_of = [&](double fraction) { return kTop + (1 - fraction) * plot_h; };

  // Axes, decade grid and labels.
  svg += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
             "stroke=\"black\"/>\n",
             kLeft, kTop, plot_w, plot_h);
  for (double decade = decade_low; decade <= decade_high; ++decade) {
    const double x = x_of(std::pow(10.0, decade));
    svg += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, kTop,
               x, kTop + plot_h);
    svg += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g us</text>\n", x,
               kTop + plot_h + 16, std::pow(10.0, decade));
  }
  for (int tenth = 0; tenth <= 10; tenth += 2) {
    const double y = y_of(tenth / 10.0);
    svg += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", kLeft,
               y, kLeft + plot_w, y);
    svg += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", kLeft - 6, y + 4,
               tenth / 10.0);
  }
  svg += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time per shader "
             "(log scale)</text>\n",
             kLeft + plot_w / 2, kHeight - 12);

  for (std::size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const char* color = kColors[s.color % (sizeof(kColors) / sizeof(kColors[0]))];
    const std::string dash = s.cold ? "\" stroke-dasharray=\"5,3" : "";
    std::string points;
    const double n = double(s.times_us.size());
    points += fmt("%.1f,%.1f ", x_of(s.times_us.front()), y_of(0));
    for (std::size_t k = 0; k < s.times_us.size(); ++k) {
      const double x = x_of(s.times_us[k]);
      points += fmt("%.1f,%.1f %.1f,%.1f ", x, y_of(double(k) / n), x, y_of(double(k + 1) / n));
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(color) + dash +
           "\" stroke-width=\"1.5\" points=\"" + points + "\"/>\n";
    const double legend_y = kTop + 16 + 18 * double(i);
    svg += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"3\" ",
               kWidth - kRight + 12, legend_y - 4, kWidth - kRight + 32, legend_y - 4);
    svg += "stroke=\"" + std::string(color) + dash + "\"/>\n";
    svg += fmt("<text x=\"%.1f\" y=\"%.1f\">", kWidth - kRight + 38, legend_y) + s.label +
           fmt(" (%.0f)</text>\n", n);
  }
  svg += "</svg>\n";
  if (!run.driver || !run.driver->error.empty()) return svg;
  return stacked(svg, *run.driver);
}

} // namespace kiln::bench
