#pragma once
// One translation of one shader built into a pipeline and run (docs/execution.md, "Stages"):
// a compute shader is dispatched (one thread group); a pixel shader is drawn over an 8x8
// render target, fed by a generated pass-through vertex shader (passthrough.h) whose outputs
// match the pixel shader's inputs; a vertex shader draws four points with rasterization off,
// its outputs captured by transform feedback; hull, domain and geometry shaders run between
// generated stages (stages_geometry.cpp, stages_tessellation.cpp). Resources come seeded
// (resources.h); everything the shader can write is read back.

#include "bench/execute/resources.h"
#include "bench/execute/spirv_interface.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

struct StageRun {
  double build_ms = 0;                      // vkCreate*Pipelines (with the modules)
  std::vector<double> run_ms;               // submit to fence, per run
  std::vector<std::vector<Output>> outputs; // per run
};

// Why `reflection` and `interface` (the reference module's stage interface) cannot be run by
// this harness, or "".
std::string stage_unsupported(ShaderStage stage, const Reflection& reflection,
                              const ModuleInterface& interface);

// Builds the pipeline once and runs it `runs` times, each with freshly seeded resources
// (`seed`); false with `error` set when the device refuses something. A vertex, domain or
// geometry shader's outputs are captured by transform feedback, `captured` naming each word's
// type ('f', 'u', 'i') in the order of the request's stream-output elements. `specialization`
// (vertex and pixel shaders) specializes the shader under test (a D3D9 shader's render state).
bool run_stage(vulkan::Context& context, ShaderStage stage, std::span<const std::uint32_t> spirv,
               const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
               const ConstantWords& constants, const std::string& captured, unsigned runs,
               StageRun& out, std::string& error,
               const VkSpecializationInfo* specialization = nullptr);

} // namespace kiln::execute
