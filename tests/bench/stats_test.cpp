// The statistics of `kiln bench` on inputs whose answers are known by hand.

#include "bench/results.h"
#include "bench/stats.h"

#include <cmath>
#include <gtest/gtest.h>

namespace kiln::bench {
namespace {

TEST(Stats, PercentileInterpolatesBetweenRanks) {
  std::vector<double> v = {5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 50), 3);
  EXPECT_DOUBLE_EQ(percentile(v, 90), 4.6);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 5);
  std::vector<double> two = {10, 20};
  EXPECT_DOUBLE_EQ(percentile(two, 50), 15);
  std::vector<double> empty;
  EXPECT_DOUBLE_EQ(percentile(empty, 50), 0);
  EXPECT_DOUBLE_EQ(median({7, 1, 3, 100}), 5);
}

TEST(Stats, GeometricMean) {
  const std::vector<double> v = {1, 4, 16};
  EXPECT_NEAR(geometric_mean(v), 4, 1e-12);
  const std::vector<double> w = {2, 8, 0, -1}; // non-positive values are ignored
  EXPECT_NEAR(geometric_mean(w), 4, 1e-12);
  EXPECT_EQ(geometric_mean(std::vector<double>{}), 0);
}

TEST(Stats, SummarizeLatencies) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i * 10.0); // 10..1000 us
  const LatencySummary s = summarize(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.p50_us, 505);
  EXPECT_DOUBLE_EQ(s.p90_us, 901);
  EXPECT_NEAR(s.p99_us, 990.1, 1e-9); // rank 98.01: 990 + 0.01 * 10
  EXPECT_DOUBLE_EQ(s.max_us, 1000);
  EXPECT_NEAR(s.total_ms, 50.5, 1e-9);
  EXPECT_NEAR(s.shaders_per_s, 100 / 0.0505, 1e-6);
}

TEST(Stats, RejectionGroupsStripNumbers) {
  EXPECT_EQ(rejection_group("chunk SHEX: truncated at token 41"),
            "chunk SHEX: truncated at token #");
  EXPECT_EQ(rejection_group("opcode 0x1f3 at offset 120"), "opcode # at offset #");
  EXPECT_EQ(rejection_group("D3D9 translation: not implemented yet"),
            "D3D9 translation: not implemented yet"); // digits inside words stay
  EXPECT_EQ(rejection_group("vs_3_0 at 12"), "vs_3_0 at #");
  const auto top = top_reasons({"bad token 1", "bad token 22", "other", "bad token 3"}, 10);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].first, "bad token #");
  EXPECT_EQ(top[0].second, 3u);
  EXPECT_EQ(top[1].second, 1u);
}

TEST(Stats, SummaryRatiosOverFilesBothTranslate) {
  BenchRun run;
  run.peer_name = "vkd3d";
  auto add = [&run](bool ok, double us, bool peer_ok, double peer_us) {
    FileRecord r;
    r.kind = InputKind::Dxbc;
    r.stage = ShaderStage::Pixel;
    r.input_bytes = 100;
    r.ok = ok;
    r.error = ok ? "" : "rejected at 5";
    r.median_us = us;
    r.spirv_bytes = ok ? 300 : 0;
    r.peer.attempted = true;
    r.peer.ok = peer_ok;
    r.peer.median_us = peer_us;
    run.files.push_back(r);
  };
  add(true, 10, true, 20); // ratio 0.5
  add(true, 40, true, 20); // ratio 2
  add(false, 1, true, 30); // not both
  add(true, 5, false, 3);  // not both
  const Summary s = summarize_run(run);
  EXPECT_EQ(s.files, 4u);
  EXPECT_EQ(s.translated, 3u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.both_translated, 2u);
  EXPECT_NEAR(s.geomean_ratio, 1.0, 1e-12);
  EXPECT_EQ(s.peer_translated, 3u);
  EXPECT_NEAR(s.spirv_to_input, 3.0, 1e-12);
  ASSERT_EQ(s.top_rejections.size(), 1u);
  EXPECT_EQ(s.top_rejections[0].first, "rejected at #");
}

TEST(Stats, PeerRatiosBySize) {
  BenchRun run;
  run.peer_name = "vkd3d";
  auto add = [&run](std::uint64_t bytes, double us, double peer_us, bool both = true) {
    FileRecord r;
    r.kind = InputKind::Dxbc;
    r.input_bytes = bytes;
    r.ok = both;
    r.median_us = us;
    r.peer.attempted = true;
    r.peer.ok = true;
    r.peer.median_us = peer_us;
    run.files.push_back(r);
  };
  add(500, 10, 10);          // < 1 KB
  add(800, 30, 10);          // < 1 KB
  add(2000, 5, 50);          // 1-4 KB
  add(5000, 20, 100);        // 4-16 KB, > 4 KB
  add(40000, 60, 100);       // >= 16 KB, > 4 KB
  add(40000, 1, 100, false); // kiln rejected it: in no ratio
  const Summary s = summarize_run(run);
  auto find = [&s](const std::string& name) -> const PeerRatio* {
    for (const PeerRatio& r : s.peer_ratios)
      if (r.name == name) return &r;
    return nullptr;
  };
  const PeerRatio* all = find("all");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->files, 5u);
  EXPECT_NEAR(all->total, 125.0 / 270.0, 1e-12);
  EXPECT_NEAR(all->median, 20.0 / 50.0,
              1e-12); // medians 20 (5,10,20,30,60) and 50 (10,10,50,100,100)
  const PeerRatio* small = find("< 1 KB");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->files, 2u);
  EXPECT_NEAR(small->total, 2.0, 1e-12);
  const PeerRatio* big = find("> 4 KB");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->files, 2u);
  EXPECT_NEAR(big->total, 80.0 / 200.0, 1e-12);
  EXPECT_EQ(find("1-4 KB")->files, 1u);
  EXPECT_EQ(find("4-16 KB")->files, 1u);
  EXPECT_EQ(find(">= 16 KB")->files, 1u);
}

} // namespace
} // namespace kiln::bench
