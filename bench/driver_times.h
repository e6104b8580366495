#pragma once
// What the driver pays for kiln's SPIR-V against vkd3d-shader 1.2's (issue 31), as `kiln execute`
// and `kiln bench --driver` report it: the totals of both translations' pipeline build and
// first-run times over groups of shaders, and their kiln/vkd3d ratios, as a text table, JSON
// and an SVG bar chart. The groups come from the execution harness
// (bench/execute/driver_times.h); on lavapipe the first run holds LLVM's compilation, so the
// run ratio is most of the driver's cost (docs/execution.md, "Times").

#include <cstddef>
#include <string>
#include <vector>

namespace kiln::bench {

struct DriverTimeGroup {
  std::string axis; // "all", "stage" or "size"
  std::string name; // "all", a stage ("ps"), or a bucket ("< 1 KB")
  std::size_t shaders = 0;
  double kiln_build_ms = 0, vkd3d_build_ms = 0; // totals over the group
  double kiln_run_ms = 0, vkd3d_run_ms = 0;
  // The median over the group's shaders of each shader's kiln/vkd3d ratio: where the totals
  // follow a few expensive shaders, this says whether the rest moved.
  double median_build_ratio = 0, median_run_ratio = 0;
  double build_ratio() const { return vkd3d_build_ms > 0 ? kiln_build_ms / vkd3d_build_ms : 0; }
  double run_ratio() const { return vkd3d_run_ms > 0 ? kiln_run_ms / vkd3d_run_ms : 0; }
};

// A table of the groups (empty when there are none); `warmed`: the times were taken after an
// untimed build and run of both translations (`kiln execute --warm-driver`).
std::string driver_times_text(const std::vector<DriverTimeGroup>& groups, bool warmed);
// The groups as a JSON array of objects.
std::string driver_times_json(const std::vector<DriverTimeGroup>& groups);
// Both ratios of every group as horizontal bars, with the lines at 1.0 and at issue 31's
// build-time goal of 0.9; the chart is kDriverChartWidth wide and driver_chart_height() tall.
std::string driver_times_svg(const std::vector<DriverTimeGroup>& groups, const std::string& device);
inline constexpr double kDriverChartWidth = 720;
double driver_chart_height(std::size_t groups);

} // namespace kiln::bench
