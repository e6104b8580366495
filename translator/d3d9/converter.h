#pragma once
// D3D9 (SM1.x-3.0) -> IR in "scoped form": the front end's public face (common/front_end.h).
// One Function per entry point (vs or ps).

#include "translator/common/front_end.h"
#include "translator/common/shader_interface.h"

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

namespace detail {
struct State; // converter_state.h
}

} // namespace kiln::d3d9

namespace kiln {
extern template class FrontEnd<d3d9::ConvertOptions, d3d9::detail::State>;
}

namespace kiln::d3d9 {

// convert(): `bytecode` is a whole D3D9 token stream (version token first).
using Converter = FrontEnd<ConvertOptions, detail::State>;

} // namespace kiln::d3d9
