#pragma once
// What the d3d11 and d3d9 hooks share: submitting checked bytecode through the C ABI's context
// and turning the outcome into an HRESULT-style code.

#include "kiln/kiln_hooks.h"
#include "translator/common/input_kind.h"
#include "translator/common/shader_interface.h"
#include "translator/common/shader_stage.h"

#include <cstdint>
#include <memory>
#include <span>

namespace kiln::hooks {

// Checks the bytecode is `kind` (DXBC for the d3d11 methods, D3D9 for the d3d9 ones) and a
// shader of `stage`, and submits it at Normal priority. `invalid` is the code for bad bytecode
// (E_INVALIDARG or D3DERR_INVALIDCALL).
// `interface`, when given, replaces the context's default interface (stream output).
kiln_hresult create_shader(kiln_context* context, std::span<const std::uint8_t> bytes,
                           InputKind kind, ShaderStage stage, kiln_hresult invalid,
                           kiln_shader** out_shader,
                           std::shared_ptr<const ShaderInterface> interface = nullptr);

} // namespace kiln::hooks
