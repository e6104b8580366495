#pragma once
// How the two translations' results are compared (docs/execution.md, "Comparison"). Integer
// and raw words are compared bit for bit; floats within the tolerance of the loosest operation
// class the shader's modules use, with D3D's NaN and denormal rules. The classes and their
// tolerances are one table (kToleranceTable in compare.cpp).

#include "bench/execute/resources.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

// X(enumerator, name, ulps, absolute): ordered from tightest to loosest.
#define KILN_EXECUTE_OP_CLASSES(X)                                                                 \
  X(Exact, "exact", 0, 0.0)                 /* add, mul, conversions, integer ops: 0.5 ULP */      \
  X(Fused, "mad", 1, 0.0)                   /* mad: fused or not */                                \
  X(Divide, "div/rcp", 3, 0.0)              /* div 2.5 ULP, rcp 1 ULP */                           \
  X(Root, "sqrt/rsq", 4, 0.0)               /* sqrt, rsq */                                        \
  X(Exponential, "exp/log", 8, 0x1p-20)     /* exp, log: 2^-21 relative/absolute */                \
  X(Trigonometric, "sincos", 8, 0.0008)     /* sincos: 0.0008 absolute */                          \
  X(Derivative, "derivatives", 64, 0x1p-12) /* coarse/fine derivatives and implicit LOD */

enum class OpClass : std::uint8_t {
#define KILN_X(id, name, ulps, absolute) id,
  KILN_EXECUTE_OP_CLASSES(KILN_X)
#undef KILN_X
};
const char* op_class_name(OpClass c);

// The loosest class among the operations of `spirv` (GLSL.std.450 instructions, OpFDiv,
// derivatives and implicit-LOD sampling).
OpClass loosest_op_class(std::span<const std::uint32_t> spirv);

struct Comparison {
  bool same = true;
  std::uint64_t words_compared = 0, words_different = 0;
  std::string first_difference; // "rt0 word 12: kiln 0x3f800000 (1), vkd3d 0x3f800001 (1.0000001)"
};

// Compares `kiln` and `vkd3d` output by output (the same names in the same order).
Comparison compare_outputs(const std::vector<Output>& kiln, const std::vector<Output>& vkd3d,
                           OpClass op_class);

// Whether two float words are equal under `op_class` (exposed for tests).
bool floats_match(std::uint32_t a, std::uint32_t b, OpClass op_class);

} // namespace kiln::execute
