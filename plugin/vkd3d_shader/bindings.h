#pragma once
// Where vkd3d-shader 1.2 puts each descriptor a shader declares, under the layer's request:
// the layer's binding for it when the request lists one (the first entry of that descriptor
// type and register whose buffer/image flag and visibility fit; register spaces and counts are
// not compared), none for a constant buffer read from push constants or a resource or sampler
// of the combined samplers, and otherwise its fallback layout: descriptor set 0 and the next
// binding, numbered from 0 in the order the shader declares its descriptors (a UAV's counter
// right after its UAV). wined3d builds its own pipelines' layouts on that fallback.
//
// kiln gets the answer as an explicit binding list (one range per descriptor), so its
// translation lands every descriptor where vkd3d-shader's would, with no rule of vkd3d-shader's
// inside the translator.

#include "plugin/vkd3d_shader/compile_request.h"

namespace kiln::vkd3d {

// A scanned descriptor's register class as kiln's binding ranges name it.
DescriptorClass class_of(ResourceBinding::Class c);

// vkd3d-shader 1.2 reads a descriptor declared with the buffer dimension (constant buffers
// included) through a binding flagged BUFFER, anything else (samplers included) through one
// flagged IMAGE.
bool is_buffer(const ResourceBinding& d);

struct LayerBindings {
  const vkd3d_shader_interface_info* interface = nullptr; // null: the request chains none
  bool uav_buffers_as_storage_buffers = false;            // VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV
};

// Fills `out.bindings` and `out.uav_counters` for the shader `source` describes (its DXBC
// scan); false with `reason` set when kiln cannot place the descriptors exactly as
// vkd3d-shader 1.2 would.
bool resolve_bindings(const SourceReflection& source, const LayerBindings& layer,
                      ShaderInterface& out, ForwardReason& reason);

} // namespace kiln::vkd3d
