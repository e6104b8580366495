#pragma once
// D3D9 (SM1.x-3.0) -> IR in "scoped form" (docs/pipeline.md): one Function per entry point
// (vs or ps), scoped control flow, DclTmp/TmpLoad/TmpStore for D3D temporaries,
// values of unknown type consumed through ConsumeAs. The passes (translator/passes) take it
// from there.
//
// A Converter is per worker: it keeps its scratch storage between shaders, so converting after
// warm-up does not touch the heap beyond what the ir::Builder already holds.

#include "translator/common/shader_interface.h"
#include "translator/common/status.h"

#include <cstdint>
#include <memory>
#include <span>

namespace kiln::ir {
class Builder;
}

namespace kiln::d3d9 {

struct ConvertOptions {
  bool debug_names = false; // emit DebugName ops from the constant table
  // D3D9's "0 * anything = 0" for mul, mad, dp*, m*x*, nrm, pow (FMulLegacy & co.), as D3D9
  // hardware did and DXVK emulates; off gives IEEE products.
  bool legacy_multiply = true;
  // The layer's interface: its D3D9 varying map places vertex outputs and pixel inputs, and
  // its fog parameters add the FOG varying (docs/abi.md). Null: kiln's own varying table.
  const ShaderInterface* interface = nullptr;
};

class Converter {
 public:
  Converter();
  ~Converter();
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;

  // `bytecode` is a whole D3D9 token stream (version token first). `builder` must be empty (reset)
  // on entry. On failure the builder holds an unspecified partial program and the status names the
  // cause (an unsupported feature by name, or the token offset of bad input).
  Status convert(std::span<const std::uint8_t> bytecode, const ConvertOptions& options,
                 ir::Builder& builder);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kiln::d3d9
