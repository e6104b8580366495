#pragma once
// A shader with class linkage run with kiln's translation only (docs/execution.md, "Class
// linkage"): vkd3d-shader 1.2 drops every fcall and emits the function bodies outside any
// block, so its module is no reference. kiln's module reads a seeded selection from its
// selection buffer; the same selection baked into the module (fixed instances) must give the
// same outputs word for word, so a selection read from the wrong place, a body switched to
// the wrong table or a call that runs no body shows as a difference.

#include "bench/execute/cbuffer_usage.h"
#include "bench/execute/execute.h"
#include "bench/execute/translate.h"
#include "bench/execute/vulkan_harness.h"

#include <cstdint>

namespace kiln::execute {

// Runs `kiln` (the request's translation, `reflection` its descriptors, the selection buffer
// at the request's selection binding) and its fixed-instance form. True when both ran and
// agree: `record` then holds kiln's times and the words compared. False with `record`'s
// verdict and reason set otherwise. `wrong_selection` bakes each slot's next listed table
// into the fixed form (testing: the difference must be caught).
bool check_class_selection(vulkan::Context& context, Translator& translator, const Request& request,
                           const Translation& kiln, const Reflection& reflection,
                           std::uint64_t seed, bool wrong_selection, ShaderRecord& record);

// The constant words both translations' runs get for a class-linkage shader: the integer
// words `spirv` reads and the selection buffer holding `seed`'s selection.
ConstantWords class_linkage_constants(const Request& request, std::uint64_t seed);

} // namespace kiln::execute
