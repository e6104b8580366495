// Fuzzer findings stay fixed: every file in fuzz/regressions/<target>/ goes through the same
// entry point the fuzzer drove (fuzz/targets.h). An entry point may accept or reject its input;
// a crash, a sanitizer report (the `sanitize` pass of scripts/test) or an IR check
// (translator/ir/pool_span.h) fails the test. The file being replayed is printed first, so a
// crash names it.

#include "fuzz/targets.h"
#include "tests/support/shared_data.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace kiln::fuzz {
namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;
  void (*run)(const std::uint8_t*, std::size_t);
};

constexpr Target kTargets[] = {
#define KILN_X(name, summary) {#name, run_##name},
    KILN_FUZZ_TARGETS(KILN_X)
#undef KILN_X
};

fs::path regressions_dir() {
  return fs::path(KILN_FUZZ_REGRESSIONS_DIR);
}

std::vector<fs::path> regression_files(const char* target) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(regressions_dir() / target, ec))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

class FuzzRegressions : public testing::TestWithParam<Target> {};

TEST_P(FuzzRegressions, ReplayWithoutCrash) {
  const Target target = GetParam();
  const std::vector<fs::path> files = regression_files(target.name);
  if (files.empty()) GTEST_SKIP() << "no regressions for " << target.name;
  for (const fs::path& file : files) {
    std::fprintf(stderr, "replay %s/%s\n", target.name, file.filename().c_str());
    const std::vector<std::uint8_t> bytes = test::read_bytes(file);
    // Twice: the translate target keeps one Translator, so the second pass runs with warm pools.
    target.run(bytes.data(), bytes.size());
    target.run(bytes.data(), bytes.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressions, testing::ValuesIn(kTargets),
                         [](const testing::TestParamInfo<Target>& param) {
                           return std::string(param.param.name);
                         });

// Every folder belongs to a target (a misspelt one would never be replayed), and the
// reproducers of issue 18 are there.
TEST(FuzzRegressions, FoldersNameTargets) {
  std::set<std::string> known;
  for (const Target& t : kTargets) known.insert(t.name);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(regressions_dir(), ec))
    EXPECT_TRUE(known.count(entry.path().filename().string())) << entry.path();
  EXPECT_FALSE(ec) << regressions_dir();
  const std::vector<fs::path> translate = regression_files("translate");
  for (const char* name : {"crash-161c5d8f6a9a603c3e9036a77a623950fbef182a",
                           "crash-28fefb67bed833fb702437121f528c78bca4cf15",
                           "crash-2d93c48645300fd2fd3dc99cb97356306ce6991b",
                           "crash-4fd26ef954be5847edf3cfa1c5ea8291e955db63",
                           "crash-b47804af5ec1b9771b3d5acd5af9f6f064babcbc",
                           "crash-dc5410225d30301bf4f217f5a07f4c3f769b0462", "nested-ifc-400.d3d9"})
    EXPECT_TRUE(std::any_of(translate.begin(), translate.end(), [&](const fs::path& p) {
      return p.filename() == name;
    })) << name;
}

} // namespace
} // namespace kiln::fuzz
