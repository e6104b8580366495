// `kiln cache`: output format, exit codes and effects, run as a separate process.

#include "cache/driver_cache_file.h"
#include "tests/cache/cache_test_support.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/wait.h>

namespace kiln::cache {
namespace {

using test::ScratchDirectory;

struct CliRun {
  int exit_code = -1;
  std::string output;
  bool has_line(const std::string& line) const {
    return ("\n" + output).find("\n" + line + "\n") != std::string::npos;
  }
};

CliRun kiln_cache(const std::string& arguments) {
  CliRun run;
  const std::string command = std::string(KILN_CLI) + " cache " + arguments + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    run.output.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

void fill(const std::filesystem::path& dir, int count) {
  auto cache = test::open_cache(test::quiet_options(dir));
  for (int i = 0; i < count; ++i) {
    const std::vector<std::uint8_t> source = test::make_source(i, 3000);
    TranslateResult result;
    ASSERT_TRUE(test::fake_translate(cache->codegen_version(), source, {}, result));
    ASSERT_TRUE(cache->insert(cache->key_for(source, {}), source, {}, result));
  }
}

TEST(CacheCli, StatsVerifyCompactClear) {
  ScratchDirectory dir;
  const std::string path = " --path " + dir.path().string();
  CliRun stats = kiln_cache("stats" + path);
  EXPECT_EQ(stats.exit_code, 0);
  EXPECT_TRUE(stats.has_line("entries: 0")) << stats.output;
  EXPECT_TRUE(stats.has_line("versions: none")) << stats.output;

  fill(dir.path(), 3);
  stats = kiln_cache("stats" + path);
  EXPECT_TRUE(stats.has_line("entries: 3")) << stats.output;
  EXPECT_TRUE(stats.has_line("versions: " + std::to_string(kCodegenVersion) + "=3"))
      << stats.output;
  CliRun verify = kiln_cache("verify" + path);
  EXPECT_EQ(verify.exit_code, 0);
  EXPECT_TRUE(verify.has_line("records: 3")) << verify.output;
  EXPECT_TRUE(verify.has_line("result: ok")) << verify.output;

  // Damage the middle record's payload: verify fails, compact drops it, verify passes again.
  {
    std::fstream file(dir.file(), std::ios::in | std::ios::out | std::ios::binary);
    const auto size = std::filesystem::file_size(dir.file());
    file.seekp(std::streamoff(kFileHeaderSize + (size - kFileHeaderSize) / 2));
    file.put('\x5a');
  }
  verify = kiln_cache("verify" + path);
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_TRUE(verify.has_line("result: corrupt")) << verify.output;
  EXPECT_EQ(kiln_cache("compact" + path).exit_code, 0);
  verify = kiln_cache("verify" + path);
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("entries: 2"));

  EXPECT_EQ(kiln_cache("clear" + path).exit_code, 0);
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("entries: 0"));
}

// Two pipeline records over the three shaders of fill(); `retired` of them marked retired.
void add_pipelines(const std::filesystem::path& dir, int retired) {
  auto cache = test::open_cache(test::quiet_options(dir));
  for (int i = 0; i < 2; ++i) {
    PipelineRecord record;
    record.tag = 1;
    for (int s = 0; s < 2; ++s)
      record.stages.push_back({ShaderStage::Vertex, cache->codegen_version(),
                               cache->key_for(test::make_source(i + s, 3000), {})});
    record.state = {std::uint8_t(i), 2, 3};
    record.key = pipeline_record_key(record.stages, record.state, record.tag);
    if (i < retired) record.flags = kPipelineRetired;
    ASSERT_TRUE(cache->put_pipeline(record));
  }
}

TEST(CacheCli, PipelineRecordsInStatsVerifyCompactClear) {
  ScratchDirectory dir;
  const std::string path = " --path " + dir.path().string();
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("pipelines: 0"));
  fill(dir.path(), 3);
  add_pipelines(dir.path(), 1);
  const CliRun stats = kiln_cache("stats" + path);
  EXPECT_TRUE(stats.has_line("pipelines: 2")) << stats.output;
  EXPECT_TRUE(stats.has_line("entries: 3")) << stats.output;
  const CliRun verify = kiln_cache("verify" + path);
  EXPECT_EQ(verify.exit_code, 0);
  EXPECT_TRUE(verify.has_line("pipeline_records: 2")) << verify.output;
  EXPECT_EQ(kiln_cache("compact" + path).exit_code, 0); // drops the retired record
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("pipelines: 1"));
  EXPECT_EQ(kiln_cache("clear" + path).exit_code, 0);
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("pipelines: 0"));
}

TEST(CacheCli, DriverCachesInStatsVerifyCompactClear) {
  ScratchDirectory dir;
  const std::string path = " --path " + dir.path().string();
  fill(dir.path(), 1);
  DriverCacheIdentity good, bad;
  good.vendor_id = 1;
  bad.vendor_id = 2;
  std::vector<std::uint8_t> data(64, 0);
  const std::uint32_t words[4] = {32, 1, 1, 0};
  std::memcpy(data.data(), words, sizeof words);
  ASSERT_TRUE(save_driver_cache(dir.path(), good, data));
  ASSERT_TRUE(save_driver_cache(dir.path(), bad, data)); // its Vulkan header names vendor 1
  CliRun stats = kiln_cache("stats" + path);
  EXPECT_TRUE(stats.has_line("driver_caches: 2")) << stats.output;
  const CliRun verify = kiln_cache("verify" + path);
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_TRUE(verify.has_line("corrupt_driver_caches: 1")) << verify.output;
  EXPECT_EQ(kiln_cache("compact" + path).exit_code, 0);
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("driver_caches: 1"));
  EXPECT_EQ(kiln_cache("verify" + path).exit_code, 0);
  EXPECT_EQ(kiln_cache("clear" + path).exit_code, 0);
  EXPECT_TRUE(kiln_cache("stats" + path).has_line("driver_caches: 0"));
}

TEST(CacheCli, WarmCountsFilesAndRejectionsAreNotErrors) {
  ScratchDirectory dir;
  ScratchDirectory shaders;
  {
    std::ofstream(shaders.path() / "notes.txt") << "not a shader\n";
    std::ofstream dxbc(shaders.path() / "broken.dxbc", std::ios::binary);
    dxbc << "DXBC" << std::string(60, '\0'); // container magic, nothing valid after it
  }
  const std::string path = " --path " + dir.path().string();
  const CliRun warm = kiln_cache("warm " + shaders.path().string() + path);
  EXPECT_EQ(warm.exit_code, 0) << warm.output;
  EXPECT_TRUE(warm.has_line("files: 2")) << warm.output;
  EXPECT_NE(warm.output.find("rejected: "), std::string::npos);
  EXPECT_EQ(kiln_cache("warm" + path).exit_code, 2); // neither PATH nor --rebuild
  const CliRun rebuild = kiln_cache("warm --rebuild" + path);
  EXPECT_EQ(rebuild.exit_code, 0);
  EXPECT_TRUE(rebuild.has_line("stale: 0")) << rebuild.output;
  EXPECT_EQ(kiln_cache("nonsense" + path).exit_code, 2);
}

} // namespace
} // namespace kiln::cache
