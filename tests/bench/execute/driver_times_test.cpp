// The driver-time ratios of `kiln execute` (bench/execute/driver_times.h): totals per group over
// the DXBC shaders both translations built and ran, per stage and per input-size bucket.

#include "bench/execute/driver_times.h"

#include <gtest/gtest.h>

namespace kiln::test {
namespace {

using namespace kiln::execute;

ShaderRecord timed(std::string stage, std::uint64_t bytes, double kiln_build, double vkd3d_build,
                   double kiln_run, double vkd3d_run) {
  ShaderRecord r;
  r.file = stage + std::to_string(bytes) + ".dxbc";
  r.stage = std::move(stage);
  r.input_bytes = bytes;
  r.verdict = Verdict::Match;
  r.kiln_build_ms = kiln_build, r.vkd3d_build_ms = vkd3d_build;
  r.kiln_run_ms = kiln_run, r.vkd3d_run_ms = vkd3d_run;
  return r;
}

const DriverTimeGroup* find(const std::vector<DriverTimeGroup>& groups, const std::string& name) {
  for (const DriverTimeGroup& g : groups)
    if (g.name == name) return &g;
  return nullptr;
}

TEST(ExecuteDriverTimes, TotalsPerStageAndSizeBucket) {
  std::vector<ShaderRecord> records = {
      timed("ps", 500, 1, 2, 10, 20),   // < 1 KB
      timed("ps", 2000, 3, 2, 30, 20),  // 1-4 KB
      timed("cs", 5000, 2, 4, 40, 10),  // 4-16 KB and > 4 KB
      timed("cs", 20000, 4, 4, 10, 10), // >= 16 KB and > 4 KB
  };
  // Not counted: a D3D9 shader (its two forms are both kiln's), a shader vkd3d-shader did not
  // translate (no build time), a shader whose kiln pipeline was built but never ran.
  records.push_back(timed("vs", 100, 100, 1, 100, 1));
  records.back().d3d9 = true;
  records.push_back(timed("ps", 100, 100, -1, 100, -1));
  records.back().verdict = Verdict::Vkd3dFailed;
  records.push_back(timed("cs", 100, 100, 1, -1, 1));

  const std::vector<DriverTimeGroup> groups = driver_time_groups(records);
  std::vector<std::string> names;
  for (const DriverTimeGroup& g : groups) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"all", "cs", "ps", "< 1 KB", "1-4 KB", "4-16 KB",
                                             ">= 16 KB", "> 4 KB"}));

  const DriverTimeGroup* all = find(groups, "all");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->shaders, 4u);
  EXPECT_DOUBLE_EQ(all->build_ratio(), 10.0 / 12.0);
  EXPECT_DOUBLE_EQ(all->run_ratio(), 90.0 / 60.0);
  // Per-shader ratios: build 0.5 1.5 0.5 1.0, run 0.5 1.5 4.0 1.0: the median of four is the
  // mean of the middle two, as bench::median has it everywhere else.
  EXPECT_DOUBLE_EQ(all->median_build_ratio, 0.75);
  EXPECT_DOUBLE_EQ(all->median_run_ratio, 1.25);

  const DriverTimeGroup* ps = find(groups, "ps");
  ASSERT_NE(ps, nullptr);
  EXPECT_EQ(ps->axis, "stage");
  EXPECT_EQ(ps->shaders, 2u);
  EXPECT_DOUBLE_EQ(ps->build_ratio(), 4.0 / 4.0);
  EXPECT_DOUBLE_EQ(ps->run_ratio(), 40.0 / 40.0);

  const DriverTimeGroup* big = find(groups, "> 4 KB");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->axis, "size");
  EXPECT_EQ(big->shaders, 2u);
  EXPECT_DOUBLE_EQ(big->build_ratio(), 6.0 / 8.0);
  EXPECT_DOUBLE_EQ(big->run_ratio(), 50.0 / 20.0);
  EXPECT_DOUBLE_EQ(big->median_run_ratio, 2.5); // 4.0 and 1.0
  const DriverTimeGroup* small = find(groups, "< 1 KB");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->shaders, 1u);
  EXPECT_DOUBLE_EQ(small->run_ratio(), 0.5);
}

TEST(ExecuteDriverTimes, NoSharedShaderMeansNoGroups) {
  std::vector<ShaderRecord> records = {timed("ps", 100, 1, -1, 1, -1)};
  EXPECT_TRUE(driver_time_groups(records).empty());
  EXPECT_EQ(driver_times_json({}), "[\n]");
  EXPECT_NE(driver_times_svg({}, "lavapipe").find("no shader built and ran"), std::string::npos);
}

TEST(ExecuteDriverTimes, JsonAndSvgCarryEveryGroup) {
  const std::vector<DriverTimeGroup> groups =
      driver_time_groups({timed("ps", 500, 1, 2, 30, 20), timed("gs", 9000, 1, 1, 1, 1)});
  const std::string json = driver_times_json(groups);
  EXPECT_NE(json.find("{\"axis\":\"all\",\"group\":\"all\",\"shaders\":2,"), std::string::npos);
  EXPECT_NE(json.find("\"group\":\"ps\",\"shaders\":1,\"kiln_build_ms\":1.0000,"
                      "\"vkd3d_build_ms\":2.0000,\"build_ratio\":0.5000,"
                      "\"median_build_ratio\":0.5000,\"kiln_run_ms\":30.0000,"
                      "\"vkd3d_run_ms\":20.0000,\"run_ratio\":1.5000,\"median_run_ratio\":1.5000}"),
            std::string::npos);
  EXPECT_NE(json.find("\"group\":\"4-16 KB\""), std::string::npos);
  EXPECT_EQ(json.find("1-4 KB"), std::string::npos); // empty buckets are left out
  const std::string svg = driver_times_svg(groups, "llvmpipe <test>");
  for (const char* label : {">all (2)<", ">stage ps (1)<", ">stage gs (1)<", ">&lt; 1 KB (1)<",
                            ">4-16 KB (1)<", ">1.500<", ">0.500<", "llvmpipe &lt;test&gt;"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
}

} // namespace
} // namespace kiln::test
