#pragma once
// Small compute shaders built with kiln::spirv::ModuleBuilder, shared by the SPIR-V tests
// (disassembly, validation) and the lavapipe tests (run and check against the CPU).
//
// Every program reads `uint in[]` at set 0 binding 0 and writes `uint out[]` at binding 1
// (both storage buffers, std430), one invocation per element, local size kLocalSize.

#include "translator/translate.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kiln::test {

inline constexpr std::uint32_t kLocalSize = 64;

enum class ComputeProgram {
  Arithmetic,   // out[i] = ((x * 3 + 7) ^ (x >> 2)) + uint(sqrt(float(x) * float(x)))
  Loop,         // out[i] = sum of k*k for k in [0, x % 17], structured loop with locals
  SharedMemory, // shared[l] = in[i]; barrier; out[i] = shared[63 - l] + shared[(l + 1) % 64]
  Reverse,      // out[i] = in[n - 1 - i], n = element count of `in`
  AtomicAdd,    // atomicAdd(out[0], x); atomicAdd(out[1], 1)
};

std::span<const ComputeProgram> all_compute_programs();
std::string_view compute_program_name(ComputeProgram program);
std::vector<std::uint32_t> build_compute_program(ComputeProgram program, SpirvTarget target);
// What the program leaves in `out` (which starts zeroed) for input `in`.
std::vector<std::uint32_t> expected_output(ComputeProgram program,
                                           std::span<const std::uint32_t> in);

} // namespace kiln::test
