#pragma once
// kiln_interface_info (include/kiln/kiln_interface.h) -> ShaderInterface, validated: every value
// the C header does not define, a NULL array with a count, an overflowing range or a bad
// alignment is an error naming the field, never a crash or a silent default.

#include "kiln/kiln.h"
#include "translator/common/shader_interface.h"
#include "translator/common/status.h"

namespace kiln::abi {

// Converts `info` and the kiln_stream_output_info chained to it.
Status interface_from_c(const kiln_interface_info& info, ShaderInterface& out);

} // namespace kiln::abi
