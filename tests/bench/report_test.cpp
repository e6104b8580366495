// The JSON and SVG outputs: well-formed and carrying the documented fields.

#include "bench/report.h"
#include "tests/bench/mini_json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

namespace kiln::bench {
namespace {

BenchRun sample_run(bool with_peer) {
  BenchRun run;
  run.source = "test";
  run.reps = 3;
  run.validate = true;
  if (with_peer) {
    run.peer_name = "vkd3d";
    run.peer_available = true;
    run.peer_note = "vkd3d-shader test";
  }
  FileRecord a;
  a.path = "dir/a \"quoted\".dxbc";
  a.kind = InputKind::Dxbc;
  a.stage = ShaderStage::Pixel;
  a.input_bytes = 400;
  a.ok = true;
  a.median_us = 12.5;
  a.spirv_bytes = 1200;
  a.valid = 1;
  a.peer = {true, true, "", 25.0, 900, std::nullopt};
  FileRecord b;
  b.path = "b.d3d9";
  b.kind = InputKind::D3D9;
  b.stage = ShaderStage::Vertex;
  b.input_bytes = 80;
  b.error = "not implemented yet";
  b.median_us = 0.4;
  run.files = {a, b};
  run.service_note = "not available yet";
  run.cache_note = "not available yet";
  return run;
}

TEST(BenchJson, ParsesBackWithDocumentedFields) {
  for (bool with_peer : {false, true}) {
    const BenchRun run = sample_run(with_peer);
    const std::string text = json_report(run, summarize_run(run));
    test::JsonValue root;
    ASSERT_TRUE(test::JsonReader(text).parse(root)) << text;
    EXPECT_EQ(root["schema"].string, kJsonSchema);
    EXPECT_EQ(root["options"]["reps"].number, 3);
    const auto& files = root["files"].array;
    ASSERT_EQ(files.size(), 2u);
    for (const char* field : {"path", "kind", "stage", "input_bytes", "ok", "error", "median_us",
                              "spirv_bytes", "valid"})
      EXPECT_TRUE(files[0].has(field)) << field;
    EXPECT_EQ(files[0]["path"].string, "dir/a \"quoted\".dxbc");
    EXPECT_EQ(files[0]["kind"].string, "dxbc");
    EXPECT_EQ(files[0]["stage"].string, "ps");
    EXPECT_TRUE(files[0]["ok"].boolean);
    EXPECT_EQ(files[0]["error"].type, test::JsonValue::Type::Null);
    EXPECT_DOUBLE_EQ(files[0]["median_us"].number, 12.5);
    EXPECT_EQ(files[0]["spirv_bytes"].number, 1200);
    EXPECT_FALSE(files[1]["ok"].boolean);
    EXPECT_EQ(files[1]["error"].string, "not implemented yet");
    EXPECT_EQ(files[1]["stage"].string, "vs");

    const auto& summary = root["summary"];
    EXPECT_EQ(summary["translation"]["translated"].number, 1);
    EXPECT_EQ(summary["translation"]["rejected"].number, 1);
    EXPECT_DOUBLE_EQ(summary["translation"]["p50_us"].number, 12.5);
    EXPECT_TRUE(summary["translation"]["by_kind"].has("dxbc"));
    EXPECT_TRUE(summary["translation"]["by_stage"].has("vs"));
    EXPECT_EQ(summary["service"].type, test::JsonValue::Type::Null);
    EXPECT_EQ(summary["cache"].type, test::JsonValue::Type::Null);
    EXPECT_EQ(summary["quality"]["top_rejections"].array.size(), 1u);
    EXPECT_EQ(summary["quality"]["valid"].number, 1);
    EXPECT_DOUBLE_EQ(summary["quality"]["spirv_to_input"].number, 3.0);
    if (with_peer) {
      EXPECT_TRUE(files[0]["peer"]["ok"].boolean);
      EXPECT_DOUBLE_EQ(files[0]["peer"]["median_us"].number, 25.0);
      EXPECT_DOUBLE_EQ(files[0]["ratio"].number, 0.5);
      EXPECT_EQ(files[1]["peer"].type, test::JsonValue::Type::Null);
      EXPECT_DOUBLE_EQ(summary["peer"]["geomean_ratio"].number, 0.5);
      EXPECT_EQ(summary["peer"]["both_translated"].number, 1);
    } else {
      EXPECT_FALSE(files[0].has("peer"));
      EXPECT_EQ(summary["peer"].type, test::JsonValue::Type::Null);
    }
  }
}

// A --cold run of three DXBC files both translate (400 B, 2,000 B, 6,000 B) and one D3D9 file;
// the cold times are chosen so every ratio is a known number (no timing in tests).
BenchRun cold_run() {
  BenchRun run = sample_run(true);
  run.cold = true;
  run.cold_evict_bytes = std::size_t(64) << 20;
  run.files[0].cold_us = 40.0;      // kiln warm 12.5, peer warm 25
  run.files[0].peer.cold_us = 20.0; // cold ratio 2.0
  FileRecord c = run.files[0];
  c.path = "c.dxbc";
  c.input_bytes = 2000;
  c.median_us = 10;
  c.cold_us = 30.0;
  c.peer = {true, true, "", 20.0, 800, 60.0}; // cold ratio 0.5
  FileRecord d = c;
  d.path = "d.dxbc";
  d.input_bytes = 6000;
  d.cold_us = 90.0;
  d.peer.cold_us = 60.0; // cold ratio 1.5
  run.files.push_back(c);
  run.files.push_back(d);
  run.files[1].ok = true; // the D3D9 file: kiln only, no peer
  run.files[1].error.clear();
  run.files[1].cold_us = 5.0;
  return run;
}

const test::JsonValue* bucket(const test::JsonValue& ratios, const std::string& name) {
  for (const test::JsonValue& r : ratios.array)
    if (r["bucket"].string == name) return &r;
  return nullptr;
}

TEST(BenchCold, SummaryHasColdFiguresBesideWarm) {
  const BenchRun run = cold_run();
  const Summary s = summarize_run(run);
  EXPECT_EQ(s.cold_latency.count, 4u);      // every file kiln translated
  EXPECT_EQ(s.peer_cold_latency.count, 3u); // the DXBC files
  EXPECT_DOUBLE_EQ(s.cold_latency.p50_us, 35.0);
  EXPECT_DOUBLE_EQ(s.cold_latency.total_ms, 0.165);
  EXPECT_DOUBLE_EQ(s.peer_cold_latency.p50_us, 60.0);
  EXPECT_EQ(s.both_cold, 3u);
  EXPECT_NEAR(s.cold_geomean_ratio, std::cbrt(2.0 * 0.5 * 1.5), 1e-12);
  ASSERT_FALSE(s.peer_ratios.empty());
  const PeerRatio& all = s.peer_ratios[0];
  EXPECT_EQ(all.name, "all");
  EXPECT_EQ(all.cold_files, 3u);
  EXPECT_DOUBLE_EQ(all.cold_total, 160.0 / 140.0);
  EXPECT_DOUBLE_EQ(all.cold_median, 40.0 / 60.0);
  EXPECT_DOUBLE_EQ(all.total, 32.5 / 65.0); // the warm figures are unchanged
  for (const PeerRatio& r : s.peer_ratios) {
    EXPECT_EQ(r.cold_files, r.files) << r.name;
    if (r.name == "< 1 KB") {
      EXPECT_DOUBLE_EQ(r.cold_total, 2.0);
    } else if (r.name == "1-4 KB") {
      EXPECT_DOUBLE_EQ(r.cold_median, 0.5);
    } else if (r.name == "> 4 KB") {
      EXPECT_DOUBLE_EQ(r.cold_total, 1.5);
    }
  }

  // Without cold times nothing cold is summarised.
  const Summary warm = summarize_run(sample_run(true));
  EXPECT_EQ(warm.cold_latency.count, 0u);
  EXPECT_EQ(warm.both_cold, 0u);
  EXPECT_EQ(warm.peer_ratios[0].cold_files, 0u);
}

TEST(BenchCold, JsonCarriesColdFieldsOnlyInColdMode) {
  const BenchRun run = cold_run();
  const std::string text = json_report(run, summarize_run(run));
  test::JsonValue root;
  ASSERT_TRUE(test::JsonReader(text).parse(root)) << text;
  EXPECT_TRUE(root["options"]["cold"].boolean);
  EXPECT_EQ(root["options"]["cold_evict_bytes"].number, double(64 << 20));
  const auto& files = root["files"].array;
  ASSERT_EQ(files.size(), 4u);
  EXPECT_DOUBLE_EQ(files[0]["cold_us"].number, 40.0);
  EXPECT_DOUBLE_EQ(files[0]["median_us"].number, 12.5);
  EXPECT_DOUBLE_EQ(files[0]["peer"]["cold_us"].number, 20.0);
  EXPECT_DOUBLE_EQ(files[0]["cold_ratio"].number, 2.0);
  EXPECT_DOUBLE_EQ(files[1]["cold_us"].number, 5.0);
  EXPECT_EQ(files[1]["cold_ratio"].type, test::JsonValue::Type::Null);
  const auto& translation = root["summary"]["translation"];
  EXPECT_DOUBLE_EQ(translation["cold"]["p50_us"].number, 35.0);
  EXPECT_TRUE(translation["cold"].has("p90_us"));
  EXPECT_DOUBLE_EQ(translation["cold"]["total_ms"].number, 0.165);
  const auto& peer = root["summary"]["peer"];
  EXPECT_DOUBLE_EQ(peer["cold"]["p50_us"].number, 60.0);
  EXPECT_EQ(peer["both_cold"].number, 3);
  const test::JsonValue* big = bucket(peer["ratios"], "> 4 KB");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ((*big)["cold_files"].number, 1);
  EXPECT_DOUBLE_EQ((*big)["cold_total"].number, 1.5);
  EXPECT_DOUBLE_EQ((*big)["cold_median"].number, 1.5);

  const BenchRun warm = sample_run(true);
  test::JsonValue plain;
  ASSERT_TRUE(test::JsonReader(json_report(warm, summarize_run(warm))).parse(plain));
  EXPECT_FALSE(plain["options"]["cold"].boolean);
  EXPECT_FALSE(plain["files"].array[0].has("cold_us"));
  EXPECT_FALSE(plain["files"].array[0].has("cold_ratio"));
  EXPECT_FALSE(plain["summary"]["translation"].has("cold"));
  EXPECT_FALSE(bucket(plain["summary"]["peer"]["ratios"], "all")->has("cold_total"));
}

std::string text_report(const BenchRun& run) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  print_report(out, run, summarize_run(run));
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

TEST(BenchCold, TextShowsColdBesideWarm) {
  const std::string text = text_report(cold_run());
  EXPECT_NE(text.find("cold (first call, 64 MiB written before it), over 4:"), std::string::npos)
      << text;
  EXPECT_NE(text.find("cold (first call, 64 MiB written before it), over 3:"), std::string::npos)
      << text;
  EXPECT_NE(text.find("cold, first calls: geometric mean over 3 files"), std::string::npos) << text;
  EXPECT_NE(text.find("> 4 KB         1 files  total 0.500  median 0.500  | cold      1 files  "
                      "total 1.500  median 1.500"),
            std::string::npos)
      << text;
  EXPECT_EQ(text_report(sample_run(true)).find("cold"), std::string::npos);
}

TEST(BenchSvg, ColdSeriesAreDashed) {
  const std::string svg = svg_plot(cold_run());
  std::size_t lines = 0, dashed = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1)) {
    ++lines;
    dashed += svg.substr(at, svg.find('>', at) - at).find("stroke-dasharray") != std::string::npos;
  }
  EXPECT_EQ(lines, 6u); // kiln dxbc, vkd3d dxbc, kiln d3d9: warm and cold each
  EXPECT_EQ(dashed, 3u);
  EXPECT_NE(svg.find("vkd3d dxbc cold"), std::string::npos);
  EXPECT_NE(svg.find("kiln d3d9 cold"), std::string::npos);
}

TEST(BenchSvg, PlotsOneLinePerSeries) {
  const BenchRun run = sample_run(true);
  const std::string svg = svg_plot(run);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2u); // kiln dxbc, vkd3d dxbc
  EXPECT_NE(svg.find("kiln dxbc"), std::string::npos);

  BenchRun none = sample_run(false);
  for (FileRecord& r : none.files) r.ok = false;
  EXPECT_NE(svg_plot(none).find("no translated shader"), std::string::npos);
}

DriverSection sample_driver() {
  DriverSection d;
  DriverTimeGroup all{"all", "all"};
  all.shaders = 2;
  all.kiln_build_ms = 8, all.vkd3d_build_ms = 10;
  all.kiln_run_ms = 30, all.vkd3d_run_ms = 20;
  d.groups = {all};
  d.warmed = true;
  d.device = "test device";
  return d;
}

// --driver's section: the report's last section, the JSON's driver_times (or driver_error),
// and a chart under the CDF in one SVG; absent without --driver.
TEST(BenchDriver, SectionInTextJsonAndSvg) {
  BenchRun run = sample_run(true);
  EXPECT_EQ(text_report(run).find("5. Driver time"), std::string::npos);
  EXPECT_EQ(json_report(run, summarize_run(run)).find("driver_times"), std::string::npos);
  const std::string plain_svg = svg_plot(run);

  run.driver = sample_driver();
  const std::string text = text_report(run);
  EXPECT_NE(text.find("5. Driver time"), std::string::npos) << text;
  EXPECT_NE(text.find(driver_times_text(run.driver->groups, true)), std::string::npos) << text;
  EXPECT_NE(text.find("  all              2        8.0       10.0   0.800"), std::string::npos)
      << text;

  test::JsonValue root;
  ASSERT_TRUE(test::JsonReader(json_report(run, summarize_run(run))).parse(root));
  ASSERT_EQ(root["driver_times"].array.size(), 1u);
  EXPECT_EQ(root["driver_times"].array[0]["build_ratio"].number, 0.8);
  EXPECT_EQ(root["driver_times"].array[0]["run_ratio"].number, 1.5);
  EXPECT_EQ(root["driver_error"].type, test::JsonValue::Type::Null);

  const std::string svg = svg_plot(run);
  // The CDF is 420 tall; the chart of one group 50 + 34 + 60.
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"564\">", 0),
            0u)
      << svg.substr(0, 200);
  EXPECT_NE(svg.find("<svg y=\"420\" xmlns"), std::string::npos);
  EXPECT_NE(svg.find("Driver time, kiln / vkd3d-shader 1.2 (totals) on test device"),
            std::string::npos);
  // The CDF inside is the plot without --driver, moved into a nested element.
  EXPECT_NE(svg.find(plain_svg.substr(plain_svg.find('>') + 1)), std::string::npos);

  run.driver = DriverSection();
  run.driver->error = "no Vulkan device";
  EXPECT_NE(text_report(run).find("not measured: no Vulkan device"), std::string::npos);
  test::JsonValue failed;
  ASSERT_TRUE(test::JsonReader(json_report(run, summarize_run(run))).parse(failed));
  EXPECT_EQ(failed["driver_times"].type, test::JsonValue::Type::Null);
  EXPECT_EQ(failed["driver_error"].string, "no Vulkan device");
  EXPECT_EQ(svg_plot(run), plain_svg);
}

} // namespace
} // namespace kiln::bench
