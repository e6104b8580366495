#pragma once
// A shader's bytes as they come in, read once: what they are (input_kind.h), the stage they
// declare and, for DXBC, the parsed container (the chunk views the converter reads). Whoever
// receives the bytes first (the d3d11/d3d9 hooks, kiln_submit, the vkd3d-shader library, a
// command) reads them here and hands the ShaderInput on: the stage check, the compile service's
// job and Translator::translate() take it as it is and neither classify nor parse again.

#include "translator/common/input_kind.h"
#include "translator/common/shader_stage.h"
#include "translator/common/status.h"
#include "translator/dxbc/container.h"

#include <cstdint>
#include <span>

namespace kiln {

struct ShaderInput {
  std::span<const std::uint8_t> bytes; // not owned
  InputInfo info;                      // detect_input_kind(bytes)
  // Ok when a front end can take the bytes; else why not, in one line: info.description for
  // what is no shader program, the container parser's message for a damaged DXBC container.
  Status readable;
  // InputKind::Dxbc, when readable: views into `bytes` (checksum not verified: the cache key
  // covers the bytes).
  dxbc::Container container;
};

// Classifies `bytes` and, for DXBC, parses the container: the one read of the way in.
ShaderInput read_shader_input(std::span<const std::uint8_t> bytes);

// The same input over `copy`, a byte-for-byte copy of input.bytes elsewhere in memory (the
// compile service's job keeps its own): the container's views point into the copy.
ShaderInput rebased_shader_input(const ShaderInput& input, std::span<const std::uint8_t> copy);

// The stage the bytecode declares, read from the already read input (the DXBC program's or the
// D3D9 version token). Anything else is an error saying what it is.
Status declared_stage(const ShaderInput& input, ShaderStage& out);

} // namespace kiln
