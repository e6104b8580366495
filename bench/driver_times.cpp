#include "bench/driver_times.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kiln::bench {

namespace {

constexpr double kLeft = 150, kRight = 40, kTop = 50, kRow = 34, kBar = 12;

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
  char text[200];
  std::snprintf(text, sizeof text, pattern, a, b, c, d);
  return text;
}

// One line of the text table (its fields are strings, counts and ratios alike).
template <typename... Fields>
std::string table_line(const char* pattern, Fields... fields) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, fields...);
  return text;
}

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

} // namespace

double driver_chart_height(std::size_t groups) {
  return kTop + kRow * double(std::max<std::size_t>(groups, 1)) + 60;
}

std::string driver_times_text(const std::vector<DriverTimeGroup>& groups, bool warmed) {
  if (groups.empty()) return {};
  std::string text =
      std::string("driver time, kiln/vkd3d over shaders both built and ran (totals, ms; ") +
      (warmed ? "after an untimed build and run of both"
              : "not warmed, --warm-driver for fair ratios") +
      "):\n";
  text += table_line("  %-10s %7s %10s %10s %7s %7s %10s %10s %7s %7s\n", "group", "shaders",
                     "kiln build", "vkd3d build", "ratio", "median", "kiln run", "vkd3d run",
                     "ratio", "median");
  for (const DriverTimeGroup& g : groups)
    text += table_line("  %-10s %7zu %10.1f %10.1f %7.3f %7.3f %10.1f %10.1f %7.3f %7.3f\n",
                       g.name.c_str(), g.shaders, g.kiln_build_ms, g.vkd3d_build_ms,
                       g.build_ratio(), g.median_build_ratio, g.kiln_run_ms, g.vkd3d_run_ms,
                       g.run_ratio(), g.median_run_ratio);
  return text;
}

std::string driver_times_json(const std::vector<DriverTimeGroup>& groups) {
  std::string json = "[";
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const DriverTimeGroup& g = groups[i];
    json += (i ? ",\n" : "\n") + std::string("{\"axis\":\"") + g.axis + "\",\"group\":\"" + g.name +
            "\",\"shaders\":" + std::to_string(g.shaders);
    json += format(",\"kiln_build_ms\":%.4f,\"vkd3d_build_ms\":%.4f,\"build_ratio\":%.4f,"
                   "\"median_build_ratio\":%.4f",
                   g.kiln_build_ms, g.vkd3d_build_ms, g.build_ratio(), g.median_build_ratio);
    json += format(",\"kiln_run_ms\":%.4f,\"vkd3d_run_ms\":%.4f,\"run_ratio\":%.4f,"
                   "\"median_run_ratio\":%.4f}",
                   g.kiln_run_ms, g.vkd3d_run_ms, g.run_ratio(), g.median_run_ratio);
  }
  return json + "\n]";
}

std::string driver_times_svg(const std::vector<DriverTimeGroup>& groups,
                             const std::string& device) {
  const double kWidth = kDriverChartWidth, height = driver_chart_height(groups.size());
  double high = 1.5;
  for (const DriverTimeGroup& g : groups)
    high = std::max({high, g.build_ratio() * 1.1, g.run_ratio() * 1.1});
  high = std::ceil(high * 2) / 2;
  const double plot_w = kWidth - kLeft - kRight;
  auto x_of = [&](double ratio) { return kLeft + ratio / high * plot_w; };

  std::string svg = format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                           "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                           kWidth, height);
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += format("<text x=\"%.0f\" y=\"18\" font-size=\"14\">", kLeft) +
         "Driver time, kiln / vkd3d-shader 1.2 (totals) on " + escape_xml(device) + "</text>\n";
  svg += format("<rect x=\"%.0f\" y=\"26\" width=\"12\" height=\"10\" fill=\"#1f77b4\"/>", kLeft);
  svg += format("<text x=\"%.0f\" y=\"35\">pipeline build</text>", kLeft + 16);
  svg += format("<rect x=\"%.0f\" y=\"26\" width=\"12\" height=\"10\" fill=\"#d62728\"/>",
                kLeft + 130);
  svg += format("<text x=\"%.0f\" y=\"35\">first run (LLVM compiles here on lavapipe)</text>\n",
                kLeft + 146);
  if (groups.empty())
    return svg + format("<text x=\"%.0f\" y=\"%.0f\">no shader built and ran with both "
                        "translations</text>\n</svg>\n",
                        kLeft, kTop + 20);

  const double bottom = kTop + kRow * double(groups.size());
  for (double tick = 0; tick <= high + 1e-9; tick += 0.5) {
    const double x = x_of(tick);
    svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x,
                  kTop, x, bottom);
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f</text>\n", x,
                  bottom + 16, tick);
  }
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const DriverTimeGroup& g = groups[i];
    const double y = kTop + kRow * double(i) + 4;
    svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", kLeft - 8, y + kBar + 2) +
           escape_xml(g.axis == "stage" ? "stage " + g.name : g.name) +
           format(" (%.0f)</text>\n", double(g.shaders));
    const double ratios[] = {g.build_ratio(), g.run_ratio()};
    const char* colors[] = {"#1f77b4", "#d62728"};
    for (int bar = 0; bar < 2; ++bar) {
      const double top = y + kBar * bar;
      svg += format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ", kLeft, top,
                    x_of(ratios[bar]) - kLeft, kBar - 1) +
             "fill=\"" + colors[bar] + "\"/>";
      svg += format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%.3f</text>\n",
                    x_of(ratios[bar]) + 4, top + kBar - 2, ratios[bar]);
    }
  }
  // The goals: kiln's build total at most 0.9x vkd3d's, its run total at most 1.0x.
  svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                x_of(1.0), kTop - 4, x_of(1.0), bottom);
  svg += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\" "
                "stroke-dasharray=\"4,3\"/>\n",
                x_of(0.9), kTop - 4, x_of(0.9), bottom);
  svg += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">kiln / vkd3d (dashed: 0.9, "
                "solid: 1.0)</text>\n",
                kLeft + plot_w / 2, bottom + 36);
  return svg + "</svg>\n";
}

} // namespace kiln::bench
