// Hull and domain shaders under test (docs/execution.md, "Stages"). A domain shader runs after
// a generated vertex shader and a generated control shader (passthrough_tessellation.h) that
// hands it seeded control points and patch constants and small tessellation levels in point
// mode; its outputs are captured by transform feedback. A hull shader runs after a generated
// vertex shader and before a generated evaluation shader that writes every control point,
// patch constant and level the hull shader wrote into a storage buffer, and captures the
// domain location of every vertex the tessellator makes by transform feedback.

#include "bench/execute/passthrough_tessellation.h"
#include "bench/execute/seed.h"
#include "bench/execute/stage_support.h"

namespace kiln::execute {

namespace {

// Patches drawn for a domain shader: two, so that SV_PrimitiveID and the control points differ.
// A hull shader gets one: every evaluation invocation writes the same record.
constexpr std::uint32_t kDomainPatches = 2;
// Points per patch in point mode at the levels of TessLevels (2): at most 9 (a quad).
constexpr std::uint32_t kPointsPerPatch = 16;
// Vertices a hull shader's patch can make at D3D's largest level, 64: a quad domain's
// 2 x 64 x 64 triangles (the most of the three domains).
constexpr std::uint32_t kMaxTessellatedVertices = 2 * 64 * 64 * 3;

bool tessellation_domain(const ModuleInterface& interface, spv::ExecutionMode& domain) {
  for (spv::ExecutionMode mode :
       {spv::ExecutionModeTriangles, spv::ExecutionModeQuads, spv::ExecutionModeIsolines})
    if (find_execution_mode(interface, mode)) return (domain = mode, true);
  return false;
}

// A stand-in patch size where the shader reads no control point (its module does not show
// the declared count).
std::uint32_t default_patch_size(spv::ExecutionMode domain) {
  return domain == spv::ExecutionModeQuads ? 4 : domain == spv::ExecutionModeIsolines ? 2 : 3;
}

} // namespace

bool run_domain(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
                const ConstantWords& constants, const std::string& captured, unsigned runs,
                StageRun& out, std::string& error) {
  spv::ExecutionMode domain;
  if (!tessellation_domain(interface, domain))
    return (error = "the domain shader declares no tessellation domain", false);
  const std::uint32_t vertices =
      interface.input_vertices ? interface.input_vertices : default_patch_size(domain);
  const bool position = has_builtin(interface, spv::StorageClassInput, spv::BuiltInPosition);
  std::vector<PatchWords> patch;
  for (const Varying& v : varyings_of(interface, spv::StorageClassInput, true)) {
    PatchWords p{v, {}};
    const std::uint64_t stream = mix64(seed + 0x9a7c + v.location * 4 + v.component);
    for (std::uint32_t c = 0; c < v.count; ++c) p.words.push_back(seeded_word(v.scalar, stream, c));
    patch.push_back(std::move(p));
  }

  CaptureDraw draw;
  draw.varyings = varyings_of(interface, spv::StorageClassInput, false);
  const std::vector<std::uint32_t> vertex_shader = passthrough_vertex_shader(draw.varyings, 0);
  const std::vector<std::uint32_t> control_shader =
      passthrough_control_shader(draw.varyings, position, vertices, patch, domain, TessLevels{});
  draw.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vertex_shader},
                 {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, control_shader},
                 {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, spirv}};
  draw.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  draw.patch_control_points = vertices;
  draw.vertex_count = kDomainPatches * vertices;
  draw.xfb_kinds = captured;
  draw.xfb_vertices = kDomainPatches * kPointsPerPatch;
  return run_capture(context, draw, reflection, seed, constants, runs, out, error);
}

bool run_hull(vulkan::Context& context, std::span<const std::uint32_t> spirv,
              const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
              const ConstantWords& constants, unsigned runs, StageRun& out, std::string& error) {
  spv::ExecutionMode domain;
  if (!tessellation_domain(interface, domain))
    return (error = "the hull shader declares no tessellation domain", false);
  const auto* output_vertices = find_execution_mode(interface, spv::ExecutionModeOutputVertices);
  if (!output_vertices || output_vertices->size() < 2)
    return (error = "the hull shader declares no output patch size", false);
  const std::uint32_t outputs = (*output_vertices)[1];
  const std::uint32_t inputs = interface.input_vertices ? interface.input_vertices : outputs;
  const std::vector<Varying> control_points =
      varyings_of(interface, spv::StorageClassOutput, false);
  const std::vector<Varying> patch = varyings_of(interface, spv::StorageClassOutput, true);
  const bool position = has_builtin(interface, spv::StorageClassOutput, spv::BuiltInPosition);

  CaptureDraw draw;
  draw.varyings = varyings_of(interface, spv::StorageClassInput, false);
  const std::vector<std::uint32_t> vertex_shader = passthrough_vertex_shader(draw.varyings, 0);
  const std::vector<std::uint32_t> evaluation_shader =
      capture_evaluation_shader(control_points, position, outputs, patch, domain);
  draw.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vertex_shader},
                 {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, spirv},
                 {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, evaluation_shader}};
  draw.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  draw.patch_control_points = inputs;
  draw.vertex_count = inputs;
  // The record's words, in capture_evaluation_shader()'s order, each of its varying's type.
  for (std::uint32_t vertex = 0; vertex < outputs; ++vertex) {
    for (const Varying& v : control_points) draw.storage_kinds.append(v.count, v.scalar);
    if (position) draw.storage_kinds.append(4, 'f');
  }
  for (const Varying& v : patch) draw.storage_kinds.append(v.count, v.scalar);
  draw.storage_kinds.append(6, 'f');
  draw.xfb_kinds = "fff"; // the domain location of every vertex the tessellator makes
  draw.xfb_vertices = kMaxTessellatedVertices;
  return run_capture(context, draw, reflection, seed, constants, runs, out, error);
}

} // namespace kiln::execute
