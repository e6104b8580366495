#pragma once
// Generated tessellation stages around a hull or domain shader under test (docs/execution.md,
// "Stages"), written as SPIR-V words like the vertex shader of passthrough.h. Their stage
// interface is the one vkd3d-shader's module of the shader under test declares; kiln's declares
// the same or the shader is not run ("interfaces differ").

#include "bench/execute/passthrough.h"

#include <cstdint>
#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace kiln::execute {

// A patch-constant varying the generated control shader writes, with its words (one per
// component, of the varying's type).
struct PatchWords {
  Varying varying;
  std::vector<std::uint32_t> words;
};

// Tessellation levels the generated control shader writes: small, so that the number of
// tessellated points stays small and the same for both translations.
struct TessLevels {
  float outer[4] = {2.0f, 2.0f, 2.0f, 2.0f};
  float inner[2] = {2.0f, 2.0f};
};

// A tessellation control shader feeding a domain shader: `vertices` control points in and out,
// each of `control_points` copied from the vertex shader's output of the same slot (and
// Position when `position`); every patch constant of `patch` written with its words; the
// levels of `levels`; `domain` (Triangles, Quads or Isolines), equal spacing, counter-clockwise
// order and point mode, so that every tessellated point is emitted once.
std::vector<std::uint32_t> passthrough_control_shader(const std::vector<Varying>& control_points,
                                                      bool position, std::uint32_t vertices,
                                                      const std::vector<PatchWords>& patch,
                                                      spv::ExecutionMode domain,
                                                      const TessLevels& levels);

// A tessellation evaluation shader after a hull shader under test that writes everything the
// hull shader wrote into the storage buffer at set 1, binding 0 (uint words), in this order:
// per output control point (`vertices` of them) the components of each of `control_points`
// then Position's four when `position`; then the components of each of `patch`; then the four
// outer and two inner tessellation levels. Every invocation writes the same words. It also
// writes the domain location (TessCoord, three floats) of each vertex to an output captured by
// transform feedback buffer 0. Domain `domain`; partitioning, winding and output primitive are
// the hull shader's.
std::vector<std::uint32_t> capture_evaluation_shader(const std::vector<Varying>& control_points,
                                                     bool position, std::uint32_t vertices,
                                                     const std::vector<Varying>& patch,
                                                     spv::ExecutionMode domain);

} // namespace kiln::execute
