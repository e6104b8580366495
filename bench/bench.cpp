#include "bench/bench.h"

#include "bench/cold.h"
#include "bench/inputs.h"
#include "bench/peer_vkd3d.h"
#include "bench/report.h"
#include "bench/runner.h"
#include "bench/service_run.h"

#include <cstdio>
#include <fstream>
#include <memory>

namespace kiln::bench {

namespace {

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file) {
    std::fprintf(stderr, "kiln: %s: cannot write\n", path.c_str());
    return false;
  }
  return true;
}

} // namespace

int run_bench(const BenchOptions& options) {
  BenchRun run;
  std::vector<BenchInput> inputs;
  std::vector<std::string> errors;
  if (options.paths.empty() || options.synthetic_count) {
    const std::uint32_t count =
        options.synthetic_count ? options.synthetic_count : kDefaultSyntheticCount;
    inputs = synthetic_inputs(options.seed, count);
    run.source = "synthetic corpus, seed " + std::to_string(options.seed) + ", " +
                 std::to_string(count) + " shaders";
  }
  if (!options.paths.empty()) {
    std::vector<BenchInput> found = collect_inputs(options.paths, errors);
    for (BenchInput& input : found) inputs.push_back(std::move(input));
    run.source = run.source.empty() ? "files" : run.source + " + files";
  }
  for (const std::string& error : errors) std::fprintf(stderr, "kiln: %s\n", error.c_str());
  if (inputs.empty()) {
    std::fprintf(stderr, "kiln: bench: no shader files found\n");
    return 1;
  }

  run.reps = options.reps;
  run.threads = options.threads;
  run.validate = options.validate;
  run.cold = options.cold;
  if (options.cold)
    run.cold_evict_bytes =
        options.cold_evict_bytes ? options.cold_evict_bytes : kDefaultColdEvictBytes;

  std::unique_ptr<Vkd3dPeer> peer;
  if (!options.peer.empty()) {
    peer = std::make_unique<Vkd3dPeer>();
    run.peer_name = Vkd3dPeer::kName;
    run.peer_available = peer->available();
    run.peer_note = peer->note();
  }

  RunOptions run_options;
  run_options.reps = options.reps;
  run_options.validate = options.validate;
  run_options.cold = run.cold;
  run_options.cold_evict_bytes = run.cold_evict_bytes;
  run_options.write_spirv_dir = options.write_spirv_dir;
  run_options.progress = options.progress;
  std::vector<std::string> warnings;
  run.files = run_translation(inputs, run_options, peer.get(), warnings);
  for (const std::string& warning : warnings) std::fprintf(stderr, "kiln: %s\n", warning.c_str());

  ServiceRunOptions service_options;
  service_options.threads = options.threads;
  service_options.cache_dir = options.no_cache ? std::string() : options.cache_dir;
  service_options.no_cache = options.no_cache;
  service_options.progress = options.progress;
  if (options.service) {
    run.service = measure_service(inputs, service_options, run.service_note);
    if (options.no_cache)
      run.cache_note = "--no-cache: cache not measured";
    else
      run.cache = measure_cache(inputs, service_options, run.cache_note);
  } else {
    run.service_note = run.cache_note = "skipped";
  }

  // Last: the harness builds and runs every shader on the device (minutes for a corpus), and
  // nothing above may share the machine with it.
  if (options.driver) {
    if (options.paths.empty()) {
      run.driver.emplace();
      run.driver->error = "--driver: measured over PATHs only, none given";
    } else {
      run.driver = options.driver(options.paths);
    }
  }

  const Summary summary = summarize_run(run);
  print_report(stdout, run, summary);
  std::fflush(stdout);

  bool ok = errors.empty() && warnings.empty();
  if (!options.json_path.empty())
    ok = write_text(options.json_path, json_report(run, summary)) && ok;
  if (!options.plot_path.empty()) ok = write_text(options.plot_path, svg_plot(run)) && ok;
  return ok ? 0 : 1;
}

} // namespace kiln::bench
