// kiln execute PATH... [options]: see bench/execute/ for the implementation.

#include "bench/execute/execute.h"
#include "cli/commands.h"

#include <string>

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--json", "FILE", "write per-shader records and the counts as JSON"},
    {"--svg", "FILE", "plot kiln/vkd3d driver-time ratios per stage and input size as SVG"},
    {"--timeout", "S",
     "CPU seconds one phase of one shader may use before it counts as hung, "
     "or 5x as many seconds of wall time (default 60)"},
    {"--seed", "N", "seed of every resource's and input's contents (default 1)"},
    {"--limit", "N", "run only the first N shaders (in path order)"},
    {"--corrupt-kiln", "",
     "swap the operands of one operation in kiln's translation (tests that "
     "the comparison catches it)"},
    {"--warm-driver", "",
     "build and run both translations once, untimed, before the timed build and run "
     "(fair driver-time ratios; about 1.7x the time)"},
    {"--long-repeats", "N",
     "with --warm-driver, time a shader whose first run takes 1 s or more N more times, "
     "alternating, and keep the medians (default 2; 0: once)"},
    {"--quiet", "", "no progress on stderr"},
};

} // namespace

const CommandSpec k_execute_spec = {
    .name = "execute",
    .usage = "PATH... [options]",
    .summary = "run shaders on the Vulkan device, kiln's translation against vkd3d-shader's",
    .details =
        "Every DXBC shader under PATH is translated by kiln and by Debian's libvkd3d-shader\n"
        "1.2 under the same request, built into a pipeline on the Vulkan device (lavapipe\n"
        "unless VK_ICD_FILENAMES names another ICD), run with seeded resources and inputs,\n"
        "and the two results compared. Exit 0 when the run completes, 1 when a shader's\n"
        "results differ or nothing could run. docs/execution.md describes the rules and\n"
        "the JSON.",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = SIZE_MAX,
};

int run_execute(const ParsedArgs& args) {
  execute::ExecuteOptions options;
  for (std::string_view path : args.positional()) options.paths.emplace_back(path);
  std::uint64_t timeout = options.timeout_seconds, seed = options.seed, limit = 0;
  std::uint64_t long_repeats = options.long_run_repeats;
  if (!option_number(args, "--timeout", 1, 3600, timeout) ||
      !option_number(args, "--long-repeats", 0, 10, long_repeats) ||
      !option_number(args, "--seed", 0, UINT64_MAX, seed) ||
      !option_number(args, "--limit", 1, UINT64_MAX, limit))
    return kExitUsage;
  options.timeout_seconds = unsigned(timeout);
  options.seed = seed;
  options.limit = std::size_t(limit);
  options.corrupt_kiln = args.has("--corrupt-kiln");
  options.progress = !args.has("--quiet");
  options.warm_driver = args.has("--warm-driver");
  options.long_run_repeats = unsigned(long_repeats);
  options.json_path = args.value("--json");
  options.svg_path = args.value("--svg");
  const execute::ExecuteSummary summary = execute::run_execute(options);
  execute::print_summary(summary);
  if (!options.json_path.empty()) {
    std::string error;
    if (!execute::write_json(summary, options, options.json_path, error))
      return fail(options.json_path, error);
  }
  if (!options.svg_path.empty()) {
    std::string error;
    if (!execute::write_svg(summary, options.svg_path, error)) return fail(options.svg_path, error);
  }
  if (!summary.setup_error.empty()) return kExitFailed;
  return summary.counts[std::size_t(execute::Verdict::Differ)] ? kExitFailed : kExitOk;
}

} // namespace kiln::cli
