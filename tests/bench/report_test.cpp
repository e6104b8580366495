// The JSON and SVG outputs: well-formed and carrying the documented fields.

#include "bench/report.h"
#include "tests/bench/mini_json.h"

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
  a.peer = {true, true, "", 25.0, 900};
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

} // namespace
} // namespace kiln::bench
