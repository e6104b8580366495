#pragma once
// Running one test file at one model in a child process, so that a shader that crashes or
// hangs the driver (or the translator) costs that file its remaining cases, not the run.

#include "tests/conformance/executor.h"

#include <string>
#include <vector>

namespace kiln::conformance {

// Forks; the child makes its own Vulkan context and Executor over `source` (inherited) and
// streams its results back. A child that dies or runs past `timeout_seconds` fails the case
// it was running ("process died ...") and every later case of the file at that model
// ("not run ..."). `setup_error` is set when the child could not make a Vulkan device.
std::vector<CaseResult> run_file_isolated(const TestFile& file, const std::string& model,
                                          int only_section, ShaderSource& source,
                                          unsigned timeout_seconds, std::string& setup_error,
                                          bool spec_constants = false);

} // namespace kiln::conformance
