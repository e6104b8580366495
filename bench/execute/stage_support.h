#pragma once
// What the stage runners (stages.cpp, stages_geometry.cpp, stages_tessellation.cpp) share:
// timing, formats, the stage interface read as varyings, reseeding a later run, one runner for
// a draw whose results are read back from capture buffers (transform feedback, a storage
// buffer a generated last stage writes), and the runners of stages_geometry.cpp and
// stages_tessellation.cpp.

#include "bench/execute/passthrough.h"
#include "bench/execute/stages.h"

#include <chrono>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start);

// What a word nobody wrote holds, in render targets (a pixel the shader discards) and capture
// buffers alike: a NaN pattern no arithmetic produces by chance, compared as any NaN.
inline constexpr std::uint32_t kUnwrittenWord = 0x7f8dead1u;

// Writes the milliseconds since its construction into `into` when it ends.
struct Timer {
  double& into;
  Clock::time_point start = Clock::now();
  ~Timer() { into = ms_since(start); }
};

// A vertex format of `count` 32-bit components of `scalar` ('f', 'u', 'i').
VkFormat vector_format(char scalar, std::uint32_t count);

// The `storage` components of `interface` (patch ones or the others) as varyings: one per run
// of components of one location with one scalar type (booleans as uint).
std::vector<Varying> varyings_of(const ModuleInterface& interface, std::uint32_t storage,
                                 bool patch);

bool has_builtin(const ModuleInterface& interface, std::uint32_t storage, spv::BuiltIn builtin,
                 std::uint32_t* array_size = nullptr);

// Before a run after the first: `resources` made anew from the same seed (a run must not read
// what an earlier run wrote) and bound in place of the earlier ones, which it replaces.
Status reseed(vulkan::Context& context, const Reflection& reflection, std::uint64_t seed,
              const ConstantWords& constants, vulkan::DescriptorBinding& descriptors,
              Resources& resources);

// Builds `pipeline`, the driver's time into `build_ms`.
Status build_timed(vulkan::Context& context, const vulkan::GraphicsPipelineDesc& desc,
                   vulkan::GraphicsPipeline& pipeline, double& build_ms);

// A draw of `vertex_count` vertices through `stages`, the first of them the generated vertex
// shader of passthrough_vertex_shader(`varyings`, 0): attribute i feeds varyings[i] and the
// last attribute the position, all seeded per vertex. Rasterization is off. What is read back:
// with `xfb_kinds` non-empty, transform feedback buffer 0 (room for `xfb_vertices` vertices of
// one word per kind); with `storage_kinds` non-empty, the storage buffer at set 1, binding 0,
// one word per kind. Both start filled with a NaN pattern, so that words nobody wrote compare
// equal.
struct CaptureDraw {
  std::vector<vulkan::ShaderStageCode> stages;
  std::vector<Varying> varyings;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  std::uint32_t patch_control_points = 0;
  std::uint32_t vertex_count = 0;
  std::string xfb_kinds;
  std::uint32_t xfb_vertices = 0;
  std::string storage_kinds;
};

bool run_capture(vulkan::Context& context, const CaptureDraw& draw, const Reflection& reflection,
                 std::uint64_t seed, const ConstantWords& constants, unsigned runs, StageRun& out,
                 std::string& error);

// The first difference between kiln's and vkd3d-shader's stage interface that the generated
// stages around a hull, domain or geometry shader would see ("" when none, and for the other
// stages): those stages are written from the reference's interface. A domain or geometry
// shader's outputs feed no generated stage (transform feedback captures them, and the captured
// words are compared), so only their inputs count.
std::string generated_stage_interface_difference(ShaderStage stage, const ModuleInterface& kiln,
                                                 const ModuleInterface& reference);

// Why `context`'s device cannot run a hull, domain or geometry shader ("" when it can, and for
// the other stages, whose needs stages.cpp checks).
std::string missing_device_feature(vulkan::Context& context, ShaderStage stage);

// The runners of the stages that need generated stages around them, with run_stage()'s
// parameters (stages.h). `captured` names each word of one captured vertex (the request's
// stream-output elements: stream 0 of a geometry shader).
bool run_geometry(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                  const Reflection& reflection, const ModuleInterface& interface,
                  std::uint64_t seed, const ConstantWords& constants, const std::string& captured,
                  unsigned runs, StageRun& out, std::string& error);
bool run_domain(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
                const ConstantWords& constants, const std::string& captured, unsigned runs,
                StageRun& out, std::string& error);
bool run_hull(vulkan::Context& context, std::span<const std::uint32_t> spirv,
              const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
              const ConstantWords& constants, unsigned runs, StageRun& out, std::string& error);

} // namespace kiln::execute
