#pragma once
// vkd3d_shader_scan over kiln's reflection: the DXBC front end's scan (dxbc/scan.h) as
// vkd3d_shader_scan_descriptor_info, the only scan output of the 1.2 API.

#include "plugin/vkd3d_shader/compile_request.h"
#include "plugin/vkd3d_shader/real_library.h"

namespace kiln::vkd3d {

class Library;

// The vkd3d-shader descriptor type of a register class (Cbv, Srv, Uav, Sampler).
vkd3d_shader_descriptor_type descriptor_type_of(ResourceBinding::Class c);

// Answers the scan (the descriptor array, when asked, is one allocation from `library`).
// False, nothing allocated and `reason` set, when kiln cannot answer it exactly.
bool scan(Library& library, const vkd3d_shader_compile_info& info, ForwardReason& reason);

} // namespace kiln::vkd3d
