#pragma once
// `kiln execute`: every shader of a folder run on the Vulkan device (lavapipe unless
// VK_ICD_FILENAMES names another ICD) through kiln's translation and Debian's libvkd3d-shader
// 1.2's translation of the same request, the results compared (docs/execution.md).
//
// The shaders run in a worker process that the calling process supervises: a shader that
// crashes a translator or the driver, or hangs the device, is recorded as such and the worker
// restarts after it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::execute {

// X(enumerator, name): what happened to one shader.
#define KILN_EXECUTE_VERDICTS(X)                                                                   \
  X(Match, "match")             /* both ran, the outputs agree */                                  \
  X(Differ, "differ")           /* both ran, the outputs differ */                                 \
  X(Contraction, "contraction") /* they agree with the driver's mul/add fusion forbidden */        \
  X(Nondeterministic, "nondeterministic") /* kiln's own two runs differ (races) */                 \
  X(NotExecuted, "not-executed")          /* the harness does not run this yet: the reason */      \
  X(KilnFailed, "kiln-failed") /* kiln did not translate it, or made an invalid module */          \
  X(Vkd3dFailed,                                                                                   \
    "vkd3d-failed") /* vkd3d-shader 1.2 rejected it, crashed or made an invalid module */          \
  X(DeviceError, "device-error") /* the device refused a pipeline or a submission */               \
  X(Crashed, "crashed")          /* the worker died on it */                                       \
  X(Hung, "hung")                /* the worker stopped answering on it */

enum class Verdict : std::uint8_t {
#define KILN_X(id, name) id,
  KILN_EXECUTE_VERDICTS(KILN_X)
#undef KILN_X
      Count
};
const char* verdict_name(Verdict verdict);
// The verdict of a run that failed with `error` (run_stage()'s): Hung when the device did not
// finish within the fence timeout (the worker stops after it, the device still busy;
// supervisor.cpp), else DeviceError.
Verdict failed_run_verdict(const std::string& error);

struct ShaderRecord {
  std::string file;
  std::string stage;             // "ps", "cs", ...
  std::uint64_t input_bytes = 0; // the shader file's size (the size buckets of driver_times.h)
  Verdict verdict = Verdict::NotExecuted;
  std::string reason;   // the first difference, the reason it did not run, the failure
  std::string op_class; // the tolerance class the floats were compared under
  double kiln_build_ms = -1, vkd3d_build_ms = -1; // vkCreate*Pipelines; -1: not built
  double kiln_run_ms = -1, vkd3d_run_ms = -1;     // submit to fence (kiln: first run)
  std::uint64_t words_compared = 0, words_different = 0;
  bool kiln_first = true; // which translation's pipeline was built first (they alternate)
  // How many times each translation was built and first-run, timed (ExecuteOptions::
  // long_run_repeats): the times above are the medians of that many.
  unsigned timed_pairs = 1;
  // A D3D9 shader (d3d9.h): its two render-state forms were compared, the kiln_* times are the
  // immediate form's and the vkd3d_* times the specialized form's; `stage` is its model.
  bool d3d9 = false;
};

constexpr unsigned kHungWallFactor = 5; // ExecuteOptions::timeout_seconds

struct ExecuteOptions {
  std::vector<std::string> paths;
  std::string json_path;
  std::string svg_path; // the driver-time ratios as a bar chart (bench/driver_times.h)
  bool progress = true;
  // CPU seconds one phase of one shader may use (the worker's threads, the driver's compiler and
  // rasterizer threads included) before it counts as hung. CPU time, not wall time: on lavapipe
  // a slow phase is LLVM compiling, whose wall time grows with the machine's load while its CPU
  // time does not. A phase is also hung after kHungWallFactor times as many seconds of wall time
  // (a device that hangs without using the CPU, as a real GPU does).
  unsigned timeout_seconds = 60;
  std::uint64_t seed = 1;
  std::size_t limit = 0; // 0: every shader
  // Testing the harness: corrupt kiln's translation (swap the operands of its first
  // non-commutative binary operation; for D3D9 shaders, give the specialized form other
  // render-state values than the immediate one; for class linkage, bake another selection
  // into the fixed-instance form than the selection buffer holds) so that the comparison must
  // catch it.
  bool corrupt_kiln = false;
  // Before the timed builds and runs, build and run both translations once, untimed: the first
  // pipeline a shader's worker builds after translating pays about twice the build and run
  // time of the second (docs/execution.md, "Times"), which otherwise lands on whichever
  // translation goes first.
  bool warm_driver = false;
  // With warm_driver: a shader whose timed first run took at least long_run_ms with either
  // translation is built and run this many more times, timed, alternating which goes first,
  // and its record holds the medians. Such runs are mostly the shader's loops running, and one
  // of them swings by up to 3x from run to run on a shared machine (docs/execution.md, "Times"):
  // a handful of them decide the totals.
  unsigned long_run_repeats = 2;
  double long_run_ms = 1000;
};

struct ExecuteSummary {
  std::vector<ShaderRecord> records;
  std::size_t counts[std::size_t(Verdict::Count)] = {};
  double wall_seconds = 0;
  std::string device;
  std::string setup_error;  // no device, no vkd3d-shader: nothing ran
  bool warm_driver = false; // the times were taken after an untimed build and run of both
};

// Runs every shader of `options.paths` (DXBC; other inputs are recorded as not executed).
ExecuteSummary run_execute(const ExecuteOptions& options);

// The text summary (stdout) and the JSON file (schema "kiln-execute/1", docs/execution.md).
void print_summary(const ExecuteSummary& summary);
bool write_json(const ExecuteSummary& summary, const ExecuteOptions& options,
                const std::string& path, std::string& error);
// The driver-time ratios (bench/driver_times.h) as SVG.
bool write_svg(const ExecuteSummary& summary, const std::string& path, std::string& error);

// The worker's per-shader work, exposed for the supervisor (supervisor.cpp) and tests. Each
// phase is announced through `phase` before it starts.
class ShaderExecutor {
 public:
  // `fence_timeout_seconds`: how long (wall time) one submission may keep the device busy; the
  // supervisor passes its wall-time limit, so that no phase it would wait for is cut short by
  // the fence. Of `options`, the executor takes what one shader's runs depend on (corrupt_kiln,
  // seed, warm_driver, long_run_repeats, long_run_ms).
  ShaderExecutor(const ExecuteOptions& options, unsigned fence_timeout_seconds);
  ~ShaderExecutor();
  ShaderExecutor(const ShaderExecutor&) = delete;
  ShaderExecutor& operator=(const ShaderExecutor&) = delete;
  // Null context or library: `setup_error` says why.
  const std::string& setup_error() const;
  std::string device_name() const;
  ShaderRecord execute(const std::string& file, const std::vector<std::uint8_t>& bytes,
                       std::size_t index, void (*phase)(const char*));

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// CPU seconds the process `pid` has used, all its threads together (/proc/PID/stat's utime and
// stime), or a negative value when it cannot be read: what the supervisor's hang timeout counts.
double cpu_seconds(int pid);

// Swaps the operands of the first non-commutative binary instruction of `spirv` with two
// different operands (OpFSub, OpISub, OpFDiv, ...), else turns the first OpFAdd/OpIAdd into a
// subtraction; false when the module has none.
bool corrupt_one_operation(std::vector<std::uint32_t>& spirv);

} // namespace kiln::execute
