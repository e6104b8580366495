// A geometry shader under test (docs/execution.md, "Stages"): two primitives of its input
// primitive type drawn through a generated vertex shader that writes every input it reads, its
// stream 0 captured by transform feedback with rasterization off.

#include "bench/execute/stage_support.h"

namespace kiln::execute {

namespace {

// Primitives drawn per run: two, so that SV_PrimitiveID and the input data differ between them.
constexpr std::uint32_t kPrimitives = 2;

struct InputPrimitive {
  spv::ExecutionMode mode;
  VkPrimitiveTopology topology;
  std::uint32_t vertices;
};
constexpr InputPrimitive kInputPrimitives[] = {
    {spv::ExecutionModeInputPoints, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 1},
    {spv::ExecutionModeInputLines, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 2},
    {spv::ExecutionModeInputLinesAdjacency, VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 4},
    {spv::ExecutionModeTriangles, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3},
    {spv::ExecutionModeInputTrianglesAdjacency, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
     6},
};

} // namespace

bool run_geometry(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                  const Reflection& reflection, const ModuleInterface& interface,
                  std::uint64_t seed, const ConstantWords& constants, const std::string& captured,
                  unsigned runs, StageRun& out, std::string& error) {
  const InputPrimitive* input = nullptr;
  for (const InputPrimitive& p : kInputPrimitives)
    if (find_execution_mode(interface, p.mode)) input = &p;
  if (!input) return (error = "the geometry shader declares no input primitive", false);
  const auto* max_vertices = find_execution_mode(interface, spv::ExecutionModeOutputVertices);
  const auto* invocations = find_execution_mode(interface, spv::ExecutionModeInvocations);
  // Every emitted vertex is captured at most three times (once per triangle of a strip).
  const std::uint32_t emitted = max_vertices && max_vertices->size() > 1 ? (*max_vertices)[1] : 64;
  const std::uint32_t instances = invocations && invocations->size() > 1 ? (*invocations)[1] : 1;
  std::uint32_t clip = 0;
  has_builtin(interface, spv::StorageClassInput, spv::BuiltInClipDistance, &clip);

  CaptureDraw draw;
  draw.varyings = varyings_of(interface, spv::StorageClassInput, false);
  const std::vector<std::uint32_t> vertex_shader = passthrough_vertex_shader(draw.varyings, clip);
  draw.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vertex_shader},
                 {VK_SHADER_STAGE_GEOMETRY_BIT, spirv}};
  draw.topology = input->topology;
  draw.vertex_count = kPrimitives * input->vertices;
  draw.xfb_kinds = captured;
  draw.xfb_vertices = kPrimitives * instances * emitted * 3;
  return run_capture(context, draw, reflection, seed, constants, runs, out, error);
}

} // namespace kiln::execute
