#pragma once
// D3D9 shaders in `kiln execute` (docs/execution.md, "D3D9 shaders"). There is no reference
// translator for them on this machine, so each one is translated by kiln twice under the same
// seeded, non-default render state (alpha test, fog, clip planes, point size and sprites, bump
// environment): once with the state as immediate values folded into the module, once as
// specialization constants set at pipeline creation. Both run on the same device with the same
// inputs and must give the same words, bit for bit: the same module otherwise, the same driver.

#include "bench/execute/execute.h"
#include "bench/execute/vulkan_harness.h"
#include "translator/translate.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

// The render state one shader runs under: the parameters of each form, and the specialization
// data (one 32-bit word per id) that gives the specialized form the immediate form's values.
struct RenderStateForms {
  std::vector<ShaderParameter> immediate, specialized;
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<std::uint32_t> data;
};

// Every render-state parameter a layer may pass as a specialization constant, with a value from
// `seed` that is not its default (fog on, alpha test on, some clip planes, ...). With `corrupt`
// the specialization data no longer matches the immediate values (a broken form the
// comparison must catch: docs/execution.md, "Testing the harness").
RenderStateForms seeded_render_state(std::uint64_t seed, bool corrupt);

// The D3D9 model of a token stream ("vs_2_0", "ps_1_4", "ps_2_x", "vs_3_sw"), or "" when it
// is not one.
std::string d3d9_model(std::span<const std::uint8_t> bytes);

// What capture_vertex_builtins() added to a vertex shader's transform feedback, after the
// stream output's words: PointSize and `clip_distances` clip distances (-1: neither; the
// render state writes them), then Position's four components.
struct CapturedBuiltins {
  int clip_distances = -1;
  bool position = false;
  std::uint32_t words() const {
    return (clip_distances >= 0 ? 1 + std::uint32_t(clip_distances) : 0) + (position ? 4 : 0);
  }
};

// Captures a kiln vertex module's PointSize, ClipDistance and Position built-ins (standalone
// Output variables) into transform-feedback buffer 0 after what its stream output captures,
// giving the module transform feedback (capability, Xfb mode) when it captured nothing, as
// for a shader none of whose outputs has a semantic. Nothing is changed when it has none of
// them.
CapturedBuiltins capture_vertex_builtins(std::vector<std::uint32_t>& spirv);

// One D3D9 shader in both forms: translated, validated, run twice (the immediate form) and once
// (the specialized form), compared word for word. The record's verdict is match (same words),
// differ, nondeterministic, kiln-failed, device-error, hung or not-executed; its kiln_* times
// are the immediate form's, its vkd3d_* times the specialized form's.
ShaderRecord execute_d3d9(vulkan::Context& context, Translator& translator, const std::string& file,
                          std::span<const std::uint8_t> bytes, std::uint64_t seed, bool corrupt,
                          void (*phase)(const char*));

} // namespace kiln::execute
