#pragma once
// The stage a shader's bytecode declares, read without decoding the program: what the hooks
// and kiln_submit check against the stage the caller created the shader for.

#include "translator/common/shader_stage.h"
#include "translator/common/status.h"

#include <cstdint>
#include <span>

namespace kiln {

// DXBC: the program chunk's version token (container checksum not verified: the cache key
// covers the bytes). D3D9: the version token. Anything else is an error saying what it is.
Status probe_shader_stage(std::span<const std::uint8_t> bytes, ShaderStage& out);

} // namespace kiln
