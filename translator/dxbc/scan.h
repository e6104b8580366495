#pragma once
// The bytecode's own reflection (translator/common/reflection.h, SourceReflection): every
// declared descriptor range with its dimension, data type and use, and the signatures. Read
// from the declarations and one walk over the instructions, without converting to IR, so
// vkd3d_shader_scan can answer from it for shaders kiln does not translate too.
//
// Use flags follow the instructions: UavRead for a UAV that a load (ld_uav_typed, ld_raw,
// ld_structured and their _s forms) or any atomic names, UavCounter for a UAV that
// imm_atomic_alloc / imm_atomic_consume names; ComparisonSampler from dcl_sampler's mode.

#include "translator/common/reflection.h"
#include "translator/common/status.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/program.h"
#include "translator/dxbc/signature.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace kiln::dxbc {

// What scan_program works in, kept by a caller that scans shader after shader so that a warm
// scan allocates nothing.
struct ScanScratch {
  std::vector<std::pair<std::uint32_t, std::size_t>> uav_ids; // range id or register, descriptor
  PodArray<dxbc::SignatureElement> signature;
  SemanticNamePool names;
};

// `out` is overwritten. Fails on a declaration whose register cannot be read.
Status scan_program(const Container& container, const Program& program, SourceReflection& out,
                    ScanScratch& scratch);

// Parses `bytecode` (a DXBC container) and scans it.
Status scan_dxbc(std::span<const std::uint8_t> bytecode, SourceReflection& out);
// Scans a container already parsed (translator/shader_input.h).
Status scan_dxbc(const Container& container, SourceReflection& out);

} // namespace kiln::dxbc
