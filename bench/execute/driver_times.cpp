#include "bench/execute/driver_times.h"

#include "bench/size_buckets.h"
#include "bench/stats.h"

#include <map>

namespace kiln::execute {

namespace {

bool timed_by_both(const ShaderRecord& r) {
  return !r.d3d9 && r.kiln_build_ms >= 0 && r.vkd3d_build_ms >= 0 && r.kiln_run_ms >= 0 &&
         r.vkd3d_run_ms >= 0;
}

// The per-shader ratios of a group, kept while the groups fill.
struct Ratios {
  std::vector<double> build, run;
};

void add(DriverTimeGroup& group, Ratios& ratios, const ShaderRecord& r) {
  if (r.vkd3d_build_ms > 0) ratios.build.push_back(r.kiln_build_ms / r.vkd3d_build_ms);
  if (r.vkd3d_run_ms > 0) ratios.run.push_back(r.kiln_run_ms / r.vkd3d_run_ms);
  ++group.shaders;
  group.kiln_build_ms += r.kiln_build_ms;
  group.vkd3d_build_ms += r.vkd3d_build_ms;
  group.kiln_run_ms += r.kiln_run_ms;
  group.vkd3d_run_ms += r.vkd3d_run_ms;
}

} // namespace

std::vector<DriverTimeGroup> driver_time_groups(const std::vector<ShaderRecord>& records) {
  DriverTimeGroup all{"all", "all"};
  Ratios all_ratios;
  std::map<std::string, std::pair<DriverTimeGroup, Ratios>> stages;
  struct SizeGroup {
    const bench::SizeBucket* bucket;
    DriverTimeGroup group;
    Ratios ratios;
  };
  std::vector<SizeGroup> sizes; // every bucket but "all", which `all` is
  for (const bench::SizeBucket& bucket : bench::kSizeBuckets)
    if (bucket.min != 0 || bucket.max != UINT64_MAX)
      sizes.push_back({&bucket, DriverTimeGroup{"size", bucket.name}, Ratios{}});
  for (const ShaderRecord& r : records) {
    if (!timed_by_both(r)) continue;
    add(all, all_ratios, r);
    auto& [stage, stage_ratios] = stages[r.stage];
    stage.axis = "stage", stage.name = r.stage;
    add(stage, stage_ratios, r);
    for (SizeGroup& size : sizes)
      if (size.bucket->holds(r.input_bytes)) add(size.group, size.ratios, r);
  }
  std::vector<DriverTimeGroup> groups;
  if (all.shaders == 0) return groups;
  auto finish = [&groups](DriverTimeGroup group, Ratios& ratios) {
    group.median_build_ratio = bench::median(std::move(ratios.build));
    group.median_run_ratio = bench::median(std::move(ratios.run));
    groups.push_back(std::move(group));
  };
  finish(all, all_ratios);
  for (auto& [name, group] : stages) finish(group.first, group.second);
  for (SizeGroup& size : sizes)
    if (size.group.shaders) finish(size.group, size.ratios);
  return groups;
}

} // namespace kiln::execute
