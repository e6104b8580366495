#pragma once
// The interface description as a small JSON file, for `kiln translate --interface FILE` and for
// test drivers (docs/abi.md, "The interface as JSON", has the format and a worked example).
// The JSON fills the C structs of kiln_interface.h and goes through the C ABI's own checks
// (abi_interface.h), so the two entry points accept exactly the same interfaces.

#include "translator/common/shader_interface.h"
#include "translator/common/status.h"

#include <string_view>

namespace kiln::abi {

// Parses `text`; a one-line error names the JSON path of what is wrong ("bindings[2].class:
// 'tex' is not cbv, srv, uav or sampler").
Status interface_from_json(std::string_view text, ShaderInterface& out);

} // namespace kiln::abi
