#pragma once
// What the d3d11 and d3d9 hooks share: submitting checked bytecode through the C ABI's context
// and turning the outcome into an HRESULT-style code.

#include "kiln/kiln_hooks.h"
#include "translator/common/shader_interface.h"
#include "translator/common/shader_stage.h"
#include "translator/shader_input.h"

#include <cstdint>
#include <memory>
#include <span>

namespace kiln::hooks {

// Checks the bytecode, read once on its way in (`input`), is `kind` (DXBC for the d3d11
// methods, D3D9 for the d3d9 ones) and a shader of `stage`, and submits it at Normal priority
// (the input handed on as read). `invalid` is the code for bad bytecode (E_INVALIDARG or
// D3DERR_INVALIDCALL). `interface`, when given, replaces the context's default interface
// (stream output). The exception boundary of the hooks' entry points: what it catches is
// logged and becomes E_OUTOFMEMORY (std::bad_alloc) or `invalid`.
kiln_hresult create_shader(kiln_context* context, const ShaderInput& input, InputKind kind,
                           ShaderStage stage, kiln_hresult invalid, kiln_shader** out_shader,
                           std::shared_ptr<const ShaderInterface> interface = nullptr);

} // namespace kiln::hooks
