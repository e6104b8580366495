#pragma once
// kiln's fuzz targets: one entry point per reader of untrusted bytes. libFuzzer drives each
// through its own executable (libfuzzer_main.cpp, built with KILN_BUILD_FUZZERS=ON and clang);
// the regression replay test (tests/fuzz) feeds every file in fuzz/regressions/<name>/ to the
// same entry point in every build, so a finding stays fixed.
//
// An entry point accepts or rejects its input; it never crashes. A reader that reports success
// on input it cannot have read whole is a bug too, but not one these targets can see.

#include <cstddef>
#include <cstdint>

namespace kiln::fuzz {

// X(name, summary): the one list of targets; the CMake list in fuzz/CMakeLists.txt names the
// same ones (a test checks that every regressions folder belongs to one of them).
#define KILN_FUZZ_TARGETS(X)                                                                       \
  X(translate, "any bytes -> Translator::translate (DXBC, D3D9, anything else)")                   \
  X(dxbc, "DXBC container, chunk directory, signatures, RDEF, program decoder and listing")        \
  X(d3d9, "D3D9 token reader, length scan, constant table and listing")                            \
  X(ir, "IR binary reader, then the validator and the text printer")                               \
  X(cache, "cache file header, record scan, record decoder and reflection reader")                 \
  X(spirv_disasm, "SPIR-V disassembler")

#define KILN_X(name, summary) void run_##name(const std::uint8_t* data, std::size_t size);
KILN_FUZZ_TARGETS(KILN_X)
#undef KILN_X

} // namespace kiln::fuzz
