// kiln bench PATH... [options]: see bench/ for the implementation.

#include "bench/bench.h"
#include "bench/cold.h"
#include "bench/execute/driver_times.h"
#include "bench/execute/execute.h"
#include "cli/commands.h"

#include <string>

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--reps", "N", "repetitions per shader for the median (default 5)"},
    {"--threads", "N", "worker threads for the service run (default: all cores)"},
    {"--json", "FILE", "write per-file records and the summary as JSON"},
    {"--write-spirv", "DIR", "write DIR/<input name>.spv for every translated shader"},
    {"--cache", "DIR", "cache for the warm passes and cache figures (cold: always empty)"},
    {"--no-cache", "", "run the service without a disk cache"},
    {"--validate", "", "validate every SPIR-V module with SPIRV-Tools"},
    {"--vs", "PEER", "also run a peer translator on the same files (vkd3d)"},
    {"--plot", "FILE.svg", "write the latency CDF as SVG"},
    {"--cold", "", "also time each shader's first call after evicting the CPU caches"},
    {"--cold-evict-mb", "N", "MiB written to evict the caches before a cold call (default 64)"},
    {"--synthetic", "N", "bench N generated shaders (default with no PATH: 1000)"},
    {"--seed", "N", "seed of the synthetic corpus (default 1)"},
    {"--no-service", "", "skip the service and cache sections"},
    {"--driver", "",
     "also build and run every DXBC shader under PATH on the Vulkan device, kiln's "
     "translation and vkd3d-shader's (kiln execute --warm-driver), and report the driver's "
     "time for each"},
    {"--quiet", "", "no progress on stderr"},
};

// --driver: the execution harness over the run's paths, warmed, and its driver-time groups.
bench::DriverSection measure_driver(const std::vector<std::string>& paths, bool progress) {
  execute::ExecuteOptions options;
  options.paths = paths;
  options.warm_driver = true;
  options.progress = progress;
  const execute::ExecuteSummary summary = execute::run_execute(options);
  bench::DriverSection section;
  if (!summary.setup_error.empty()) {
    section.error = summary.setup_error;
    return section;
  }
  section.groups = execute::driver_time_groups(summary.records);
  if (section.groups.empty())
    section.error = "no DXBC shader was built and run by both translators";
  section.warmed = summary.warm_driver;
  section.device = summary.device;
  return section;
}

} // namespace

const CommandSpec k_bench_spec = {
    .name = "bench",
    .usage = "[PATH...] [options]",
    .summary = "benchmark translation over shader files and folders",
    .details = "Files are detected from their bytes; .hlsl/.txt/.json/.tsv/.md/.spv sidecars\n"
               "are skipped. With no PATH, a deterministic synthetic corpus is generated in\n"
               "memory. Exit 0 when the run completes, even if shaders are rejected.\n"
               "--cold adds, beside the warm figures, each shader's first call (kiln's and\n"
               "the peer's, pools warm, this shader never seen) timed after writing\n"
               "--cold-evict-mb MiB outside the timed region; kiln and the peer alternate.\n"
               "--driver adds the pipeline build and first-run times of kiln's SPIR-V against\n"
               "vkd3d-shader 1.2's (totals, per stage and input size; docs/execution.md) as the\n"
               "report's last section, the JSON's driver_times and a chart under --plot's.\n"
               "The JSON schema is described in docs/bench.md.",
    .options = kOptions,
    .min_positional = 0,
    .max_positional = SIZE_MAX,
};

int run_bench(const ParsedArgs& args) {
  bench::BenchOptions options;
  for (std::string_view path : args.positional()) options.paths.emplace_back(path);

  std::uint64_t reps = options.reps, threads = options.threads, synthetic = 0, seed = options.seed;
  std::uint64_t evict_mb = bench::kDefaultColdEvictBytes >> 20;
  if (!option_number(args, "--reps", 1, 1000, reps) ||
      !option_number(args, "--threads", 1, 1024, threads) ||
      !option_number(args, "--synthetic", 1, 1000000, synthetic) ||
      !option_number(args, "--seed", 0, UINT64_MAX, seed) ||
      !option_number(args, "--cold-evict-mb", 1, 4096, evict_mb))
    return kExitUsage;
  if (args.has("--cold-evict-mb") && !args.has("--cold"))
    return usage_error("--cold-evict-mb needs --cold");
  options.cold = args.has("--cold");
  options.cold_evict_bytes = std::size_t(evict_mb) << 20;
  options.reps = unsigned(reps);
  options.threads = unsigned(threads);
  options.synthetic_count = std::uint32_t(synthetic);
  options.seed = seed;

  if (args.has("--vs")) {
    if (args.value("--vs") != "vkd3d")
      return usage_error("unknown --vs peer '" + std::string(args.value("--vs")) + "' (vkd3d)");
    options.peer = "vkd3d";
  }
  if (args.has("--cache") && args.has("--no-cache"))
    return usage_error("--cache and --no-cache exclude each other");
  options.json_path = args.value("--json");
  options.plot_path = args.value("--plot");
  options.write_spirv_dir = args.value("--write-spirv");
  options.cache_dir = args.value("--cache");
  options.no_cache = args.has("--no-cache");
  options.validate = args.has("--validate");
  options.service = !args.has("--no-service");
  options.progress = !args.has("--quiet");
  if (args.has("--driver")) {
    if (options.paths.empty()) return usage_error("--driver needs a PATH of shader files");
    options.driver = [progress = options.progress](const std::vector<std::string>& paths) {
      return measure_driver(paths, progress);
    };
  }
  return bench::run_bench(options);
}

} // namespace kiln::cli
