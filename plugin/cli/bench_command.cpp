// kiln bench PATH... [options]: see bench/ for the implementation.

#include "plugin/cli/commands.h"

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--reps", "N", "repetitions per shader for the median (default 5)"},
    {"--threads", "N", "worker threads for the service run (default: all cores)"},
    {"--json", "FILE", "write per-file records and the summary as JSON"},
    {"--write-spirv", "DIR", "write DIR/<input name>.spv for every translated shader"},
    {"--cache", "DIR", "cache directory for the service run"},
    {"--no-cache", "", "run the service without a disk cache"},
    {"--validate", "", "validate every SPIR-V module with SPIRV-Tools"},
    {"--vs", "PEER", "also run a peer translator on the same files (vkd3d)"},
    {"--plot", "FILE.svg", "write the latency CDF as SVG"},
};
} // namespace

const CommandSpec k_bench_spec = {
    .name = "bench",
    .usage = "PATH... [options]",
    .summary = "benchmark translation over shader files and folders",
    .details = "",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = SIZE_MAX,
};

int run_bench(const ParsedArgs& args) {
  (void)args;
  return fail("bench", "not implemented yet");
}

} // namespace kiln::cli
