#pragma once
// Replays a conformance test file at one shader model on a Vulkan device (FORMAT.md): applies
// the resource sections, runs the [test] blocks with every shader translated by a
// ShaderSource, compares probes, and classifies each case.

#include "tests/conformance/package.h"
#include "tests/conformance/shader_source.h"
#include "bench/execute/vulkan_graphics.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kiln::conformance {

#define KILN_CONFORMANCE_OUTCOMES(X)                                                               \
  X(Pass, "pass")                                                                                  \
  X(Fail, "fail")                                                                                  \
  X(Rejected, "rejected")                                                                          \
  X(Skipped, "skipped")

enum class Outcome {
#define KILN_X(id, name) id,
  KILN_CONFORMANCE_OUTCOMES(KILN_X)
#undef KILN_X
};
const char* outcome_name(Outcome outcome);

struct CaseResult {
  std::string id;
  std::string model;
  bool verified = false;
  bool included = false;
  Outcome outcome = Outcome::Pass;
  // Fail: the first mismatching probe; Rejected: the translator's message; Skipped: the
  // runner feature that is missing ("skipped: <feature>" groups by the text before ':').
  std::string message;
  unsigned probes = 0, probes_passed = 0;
};

class Executor {
 public:
  Executor(vulkan::Context& context, ShaderSource& source);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Replays `file` at `model` from the start, appending one result per case it runs. With
  // `only_section` >= 0 the blocks before that [test] section still run (state carries over)
  // but only its case is reported, and replay stops after it.
  // Tests only: apply the D3D9 fixed-function state (FORMAT.md 4.5) at every model, so its
  // emulation can be checked with a DXBC reference translator.
  void set_fixed_function_everywhere(bool on) { fixed_function_everywhere_ = on; }
  // Pass the fixed-function state as specialization constants (one module per shader, the
  // values set at pipeline creation) instead of immediate parameters.
  void set_parameters_as_spec_constants(bool on) { parameters_as_spec_constants_ = on; }
  // Tests only: render state the script format has no directive for (D3D9 projected textures,
  // bump-environment matrices), added to the D3D9 fixed-function parameters.
  void set_extra_parameters(std::vector<ShaderParameter> parameters) {
    extra_parameters_ = std::move(parameters);
  }

  void run_file(const TestFile& file, const std::string& model, int only_section,
                std::vector<CaseResult>& out);
  // The same, handing each result over as soon as its case ends.
  void run_file(const TestFile& file, const std::string& model, int only_section,
                const std::function<void(const CaseResult&)>& report);

 private:
  struct Replay;
  vulkan::Context& context_;
  ShaderSource& source_;
  bool fixed_function_everywhere_ = false;
  bool parameters_as_spec_constants_ = false;
  std::vector<ShaderParameter> extra_parameters_;
};

} // namespace kiln::conformance
