#pragma once
// What the driver pays for kiln's SPIR-V against vkd3d-shader 1.2's (issue 31): the totals of
// the pipeline build times and of the first-run times of both translations, over the DXBC
// shaders both translations built and ran, as kiln/vkd3d ratios for all of them, per stage and
// per input-size bucket (bench/size_buckets.h). The groups' text, JSON and SVG forms are
// bench/driver_times.h's, which `kiln bench --driver` prints too.

#include "bench/driver_times.h"
#include "bench/execute/execute.h"

#include <vector>

namespace kiln::execute {

using bench::driver_times_json;
using bench::driver_times_svg;
using bench::driver_times_text;
using bench::DriverTimeGroup;

// "all" first, then the stages (by name), then the size buckets in their table's order;
// groups without shaders are left out. D3D9 records, and records without all four times, do
// not count.
std::vector<DriverTimeGroup> driver_time_groups(const std::vector<ShaderRecord>& records);

} // namespace kiln::execute
