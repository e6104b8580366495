// run_bench() end to end, as `kiln bench` calls it: a small folder in, exit 0 and a JSON file
// describing every shader out, sidecars skipped.

#include "bench/bench.h"
#include "bench/cold.h"
#include "bench/synth/synthetic_corpus.h"
#include "tests/bench/mini_json.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <unistd.h>

namespace kiln::bench {
namespace {

class BenchRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("kiln_bench_run_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_ / "shaders" / "nested");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  test::JsonValue read_json(const std::filesystem::path& path) {
    std::ifstream file(path);
    const std::string text((std::istreambuf_iterator<char>(file)), {});
    test::JsonValue root;
    EXPECT_TRUE(test::JsonReader(text).parse(root)) << text.substr(0, 400);
    return root;
  }

  std::filesystem::path dir_;
};

TEST_F(BenchRunTest, SmallFolderExitsZeroAndRecordsEveryShader) {
  synth::CorpusOptions corpus;
  corpus.count = 6;
  std::size_t index = 0;
  for (const synth::SyntheticShader& shader : synth::generate_corpus(corpus)) {
    const auto sub = index++ % 2 ? dir_ / "shaders" / "nested" : dir_ / "shaders";
    write(sub / std::filesystem::path(shader.name).filename(), shader.bytes);
  }
  write(dir_ / "shaders" / "source.hlsl", {'f', 'l', 'o', 'a', 't'});
  write(dir_ / "shaders" / "notes.txt", {'h', 'i'});

  BenchOptions options;
  options.paths = {(dir_ / "shaders").string()};
  options.reps = 2;
  options.progress = false;
  options.validate = true;
  options.peer = "vkd3d";
  options.json_path = (dir_ / "out.json").string();
  options.plot_path = (dir_ / "out.svg").string();
  options.write_spirv_dir = (dir_ / "spirv").string();
  EXPECT_EQ(run_bench(options), 0);

  const test::JsonValue root = read_json(dir_ / "out.json");
  ASSERT_EQ(root["files"].array.size(), 6u); // the two sidecars are skipped
  std::size_t translated = 0;
  for (const test::JsonValue& file : root["files"].array) {
    EXPECT_TRUE(file["kind"].string == "dxbc" || file["kind"].string == "d3d9");
    EXPECT_FALSE(file["stage"].string.empty());
    EXPECT_GE(file["median_us"].number, 0);
    EXPECT_EQ(file["ok"].boolean, file["error"].type == test::JsonValue::Type::Null);
    translated += file["ok"].boolean;
    if (file["kind"].string == "dxbc") {
      EXPECT_TRUE(file.has("peer"));
    }
  }
  EXPECT_EQ(root["summary"]["translation"]["translated"].number, double(translated));
  // One .spv per translated shader (none while the translator rejects everything).
  std::size_t spv = 0;
  if (std::filesystem::exists(dir_ / "spirv"))
    for (const auto& entry : std::filesystem::directory_iterator(dir_ / "spirv"))
      spv += entry.path().extension() == ".spv";
  EXPECT_EQ(spv, translated);
  EXPECT_TRUE(std::filesystem::file_size(dir_ / "out.svg") > 0);
}

TEST_F(BenchRunTest, SyntheticCorpusWithoutPaths) {
  BenchOptions options;
  options.synthetic_count = 12;
  options.reps = 1;
  options.progress = false;
  options.service = false;
  options.json_path = (dir_ / "synthetic.json").string();
  EXPECT_EQ(run_bench(options), 0);
  const test::JsonValue root = read_json(dir_ / "synthetic.json");
  EXPECT_EQ(root["files"].array.size(), 12u);
  EXPECT_EQ(root["files"].array[0]["path"].string.rfind("synthetic/", 0), 0u);
}

// --driver: measured by the function the CLI passes (the execution harness) over the run's
// paths, after everything else; without paths, not called, and the report says why.
TEST_F(BenchRunTest, DriverMeasuresThePathsOnly) {
  synth::CorpusOptions corpus;
  corpus.count = 2;
  for (const synth::SyntheticShader& shader : synth::generate_corpus(corpus))
    write(dir_ / "shaders" / std::filesystem::path(shader.name).filename(), shader.bytes);
  std::vector<std::vector<std::string>> calls;
  BenchOptions options;
  options.reps = 1;
  options.progress = false;
  options.service = false;
  options.driver = [&calls](const std::vector<std::string>& paths) {
    calls.push_back(paths);
    DriverSection section;
    section.groups = {DriverTimeGroup{"all", "all", 1, 1, 1, 1, 1, 1, 1}};
    return section;
  };
  options.paths = {(dir_ / "shaders").string()};
  options.json_path = (dir_ / "driver.json").string();
  EXPECT_EQ(run_bench(options), 0);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0], options.paths);
  EXPECT_EQ(read_json(dir_ / "driver.json")["driver_times"].array.size(), 1u);

  options.paths.clear();
  options.synthetic_count = 2;
  EXPECT_EQ(run_bench(options), 0);
  EXPECT_EQ(calls.size(), 1u);
  EXPECT_NE(read_json(dir_ / "driver.json")["driver_error"].string.find("PATH"), std::string::npos);
}

// --cold end to end: every translated shader carries a cold time beside its warm median, the
// peer's too where it translated the shader, and the summary has the cold figures. (Values are
// only checked for presence and sign: speed is the bench's business, not a test's.)
TEST_F(BenchRunTest, ColdModeRecordsFirstCallTimes) {
  BenchOptions options;
  options.synthetic_count = 9;
  options.reps = 1;
  options.progress = false;
  options.service = false;
  options.cold = true;
  options.cold_evict_bytes = std::size_t(1) << 20; // small: the test checks wiring, not caches
  options.peer = "vkd3d";
  options.json_path = (dir_ / "cold.json").string();
  options.plot_path = (dir_ / "cold.svg").string();
  EXPECT_EQ(run_bench(options), 0);

  const test::JsonValue root = read_json(dir_ / "cold.json");
  EXPECT_TRUE(root["options"]["cold"].boolean);
  EXPECT_EQ(root["options"]["cold_evict_bytes"].number, double(1 << 20));
  ASSERT_EQ(root["files"].array.size(), 9u); // the priming shaders are not records
  std::size_t translated = 0, peer_cold = 0;
  for (const test::JsonValue& file : root["files"].array) {
    ASSERT_TRUE(file.has("cold_us")) << file["path"].string;
    if (!file["ok"].boolean) continue;
    ++translated;
    EXPECT_EQ(file["cold_us"].type, test::JsonValue::Type::Number) << file["path"].string;
    EXPECT_GT(file["cold_us"].number, 0) << file["path"].string;
    const test::JsonValue& peer = file["peer"];
    if (peer.type == test::JsonValue::Type::Object && peer["ok"].boolean) {
      EXPECT_GT(peer["cold_us"].number, 0) << file["path"].string;
      EXPECT_GT(file["cold_ratio"].number, 0) << file["path"].string;
      ++peer_cold;
    }
  }
  EXPECT_GT(translated, 0u);
  const test::JsonValue& cold = root["summary"]["translation"]["cold"];
  EXPECT_EQ(cold["count"].number, double(translated));
  EXPECT_GT(cold["p90_us"].number, 0);
  if (root["summary"]["peer"]["available"].boolean) {
    EXPECT_EQ(root["summary"]["peer"]["both_cold"].number, double(peer_cold));
  }
  std::ifstream svg(dir_ / "cold.svg");
  const std::string plot((std::istreambuf_iterator<char>(svg)), {});
  EXPECT_NE(plot.find("kiln dxbc cold"), std::string::npos);
}

TEST(CacheEvictor, CountsPassesAndKeepsAtLeastOneWord) {
  CacheEvictor evictor(1000);
  EXPECT_EQ(evictor.bytes(), 1000u);
  EXPECT_EQ(evictor.passes(), 0u);
  evictor.evict();
  evictor.evict();
  EXPECT_EQ(evictor.passes(), 2u);
  CacheEvictor tiny(1); // rounded up to one word rather than an empty buffer
  tiny.evict();
  EXPECT_EQ(tiny.bytes(), sizeof(std::uint64_t));
}

TEST_F(BenchRunTest, MissingPathFails) {
  BenchOptions options;
  options.paths = {(dir_ / "does-not-exist").string()};
  options.progress = false;
  EXPECT_EQ(run_bench(options), 1);
}

} // namespace
} // namespace kiln::bench
