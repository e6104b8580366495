#pragma once
// vkd3d_shader_parse_input_signature over kiln's DXBC reader. Every field is the chunk's raw
// value, as vkd3d-shader reports it (its sysval, component type and precision enums are
// D3D's numbers).

#include "plugin/vkd3d_shader/real_library.h"

namespace kiln::vkd3d {

class Library;

// Fills `out` with the input signature of `dxbc`: one allocation from `library` holding the
// elements and their names. False (nothing allocated) when the bytes are not a DXBC container
// with an input signature kiln can read.
bool parse_input_signature(Library& library, const vkd3d_shader_code& dxbc,
                           vkd3d_shader_signature& out);

// The element of that semantic (compared without regard to ASCII case), index and stream.
vkd3d_shader_signature_element* find_signature_element(const vkd3d_shader_signature& signature,
                                                       const char* semantic_name,
                                                       unsigned semantic_index,
                                                       unsigned stream_index);

} // namespace kiln::vkd3d
