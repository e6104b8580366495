#pragma once
// Runs a whole conformance package (or a filtered part) through the Executor and reports:
// progress lines, a summary table, JSON results. Shared by kiln-conformance and the tests.

#include "tests/conformance/executor.h"

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace kiln::conformance {

struct RunOptions {
  std::filesystem::path package;
  std::vector<std::string> models; // empty: all four
  std::string test;                // a test folder name; empty: all
  int case_section = -1;           // with `test`: only this [test] section's case
  bool print_failures = true;      // one line per verified case that does not pass
  // One child process per test file and model (isolate.h): a crash or hang costs a file's
  // remaining cases, not the run. The context passed to run_package is then unused.
  bool isolate = false;
  unsigned timeout_seconds = 120; // per file and model, with `isolate`
  // Render-state parameters as specialization constants instead of immediates.
  bool spec_constants = false;
};

struct RunSummary {
  std::string source; // translator name
  std::vector<CaseResult> results;
  std::vector<std::string> load_errors; // test folders that could not be read
  // Verified cases only: the counts of the last line.
  unsigned passed = 0, failed = 0, skipped = 0;
  double seconds = 0;
};

// `context` may be null with `options.isolate`.
RunSummary run_package(const RunOptions& options, vulkan::Context* context, ShaderSource& source,
                       std::ostream& progress);

// Table per model and outcome, skip and rejection reasons grouped, and the last line
// "N passed, N failed, N skipped" (verified cases; rejections count as failures).
void print_summary(const RunSummary& summary, std::ostream& out);

bool write_json(const RunSummary& summary, const std::filesystem::path& path, std::string& error);

} // namespace kiln::conformance
