#pragma once
// What the driver pays for kiln's SPIR-V against vkd3d-shader 1.2's (issue 31): the totals of
// the pipeline build times and of the first-run times of both translations, over the DXBC
// shaders both translations built and ran, as kiln/vkd3d ratios for all of them, per stage and
// per input-size bucket (bench/size_buckets.h). On lavapipe the first run holds LLVM's
// compilation, so the run ratio is most of the driver's cost (docs/execution.md, "Times").

#include "bench/execute/execute.h"

#include <cstdio>
#include <string>
#include <vector>

namespace kiln::execute {

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

// "all" first, then the stages (by name), then the size buckets in their table's order;
// groups without shaders are left out. D3D9 records, and records without all four times, do
// not count.
std::vector<DriverTimeGroup> driver_time_groups(const std::vector<ShaderRecord>& records);

// A table of the groups (empty when there are none); `warmed`: the times were taken after an
// untimed build and run of both translations (ExecuteOptions::warm_driver).
std::string driver_times_text(const std::vector<DriverTimeGroup>& groups, bool warmed);
// The groups as a JSON array of objects.
std::string driver_times_json(const std::vector<DriverTimeGroup>& groups);
// Both ratios of every group as horizontal bars, with the lines at 1.0 and at issue 31's
// build-time goal of 0.9.
std::string driver_times_svg(const std::vector<DriverTimeGroup>& groups, const std::string& device);

} // namespace kiln::execute
