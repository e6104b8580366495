#include "plugin/vkd3d_shader/scan.h"

#include "plugin/vkd3d_shader/library.h"
#include "translator/dxbc/scan.h"

namespace kiln::vkd3d {

namespace {

struct ChainHeader {
  vkd3d_shader_structure_type type;
  const void* next;
};

// The data types VKD3D_SHADER_API_VERSION_1_3 added (Debian's 1.2 headers do not name them).
constexpr auto kDataMixed = vkd3d_shader_resource_data_type(0x6);
constexpr auto kDataDouble = vkd3d_shader_resource_data_type(0x7);
constexpr unsigned kApiVersion_1_3 = 3;

// vkd3d-shader reports constant buffers, samplers, raw and structured buffers as UINT, and a
// typed resource's component-0 type; FLOAT for the types it has no value for, which before API
// version 1.3 include mixed and double.
vkd3d_shader_resource_data_type data_type_of(const ResourceBinding& d, unsigned api_version) {
  switch (d.data_type) {
  case ResourceDataType::Mixed:
    return api_version >= kApiVersion_1_3 ? kDataMixed : VKD3D_SHADER_RESOURCE_DATA_FLOAT;
  case ResourceDataType::Double:
    return api_version >= kApiVersion_1_3 ? kDataDouble : VKD3D_SHADER_RESOURCE_DATA_FLOAT;
  case ResourceDataType::Unorm:
    return VKD3D_SHADER_RESOURCE_DATA_UNORM;
  case ResourceDataType::Snorm:
    return VKD3D_SHADER_RESOURCE_DATA_SNORM;
  case ResourceDataType::SInt:
    return VKD3D_SHADER_RESOURCE_DATA_INT;
  case ResourceDataType::UInt:
    return VKD3D_SHADER_RESOURCE_DATA_UINT;
  case ResourceDataType::None:
    return d.register_class == ResourceBinding::Class::Srv ||
                   d.register_class == ResourceBinding::Class::Uav
               ? VKD3D_SHADER_RESOURCE_DATA_FLOAT
               : VKD3D_SHADER_RESOURCE_DATA_UINT;
  default:
    return VKD3D_SHADER_RESOURCE_DATA_FLOAT;
  }
}

unsigned flags_of(const ResourceBinding& d) {
  unsigned flags = 0;
  if (d.flags & ResourceBinding::UavCounter) flags |= VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_UAV_COUNTER;
  if (d.flags & ResourceBinding::UavRead) flags |= VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_UAV_READ;
  if (d.flags & ResourceBinding::ComparisonSampler)
    flags |= VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_SAMPLER_COMPARISON_MODE;
  return flags;
}

} // namespace

vkd3d_shader_descriptor_type descriptor_type_of(ResourceBinding::Class c) {
  switch (c) {
  case ResourceBinding::Class::Cbv:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_CBV;
  case ResourceBinding::Class::Srv:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_SRV;
  case ResourceBinding::Class::Uav:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
  default:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER;
  }
}

bool scan(Library& library, const vkd3d_shader_compile_info& info, ForwardReason& reason) {
  if (info.type != VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO ||
      info.source_type != VKD3D_SHADER_SOURCE_DXBC_TPF || !info.source.code) {
    reason = ForwardReason::SourceType;
    return false;
  }
  // Without VKD3D_SHADER_COMPILE_OPTION_API_VERSION a request is a 1.2 one.
  unsigned api_version = 2;
  for (unsigned i = 0; i < info.option_count; ++i) {
    if (unsigned(info.options[i].name) == kOptionApiVersion) api_version = info.options[i].value;
  }
  if (api_version > kNewestApiVersion) {
    reason = ForwardReason::ApiVersion;
    return false;
  }
  // The 1.2 scanner reads one chained structure and skips the others, as kiln does.
  vkd3d_shader_scan_descriptor_info* descriptor_info = nullptr;
  for (auto* next = static_cast<const ChainHeader*>(info.next); next;
       next = static_cast<const ChainHeader*>(next->next)) {
    if (next->type == VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO)
      descriptor_info = const_cast<vkd3d_shader_scan_descriptor_info*>(
          reinterpret_cast<const vkd3d_shader_scan_descriptor_info*>(next));
  }
  SourceReflection source;
  const std::span bytes(static_cast<const std::uint8_t*>(info.source.code), info.source.size);
  if (!dxbc::scan_dxbc(bytes, source)) {
    reason = ForwardReason::Scan;
    return false;
  }
  if (!descriptor_info) return true;
  // vkd3d-shader 1.2 reports every descriptor range with a count of 1, an SM5.1 array of four
  // or an unbounded one alike; kiln knows the real count, which is not the answer the client
  // was built against, so such a scan is the real library's.
  for (const ResourceBinding& d : source.descriptors) {
    if (d.array_size != 1) {
      reason = ForwardReason::DescriptorArray;
      return false;
    }
  }
  const std::size_t count = source.descriptors.size();
  auto* out = static_cast<vkd3d_shader_descriptor_info*>(
      library.allocate(count * sizeof(vkd3d_shader_descriptor_info)));
  if (!out) {
    reason = ForwardReason::Unavailable;
    return false;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const ResourceBinding& d = source.descriptors[i];
    out[i].type = descriptor_type_of(d.register_class);
    out[i].register_space = d.space;
    out[i].register_index = d.register_index;
    out[i].resource_type = vkd3d_shader_resource_type(d.dimension);
    out[i].resource_data_type = data_type_of(d, api_version);
    out[i].flags = flags_of(d);
    out[i].count = 1;
  }
  descriptor_info->descriptors = out;
  descriptor_info->descriptor_count = unsigned(count);
  return true;
}

} // namespace kiln::vkd3d
