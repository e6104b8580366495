#include "plugin/vkd3d_shader/signature.h"

#include "plugin/vkd3d_shader/library.h"
#include "translator/common/shader_interface.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/signature.h"

#include <cstring>

namespace kiln::vkd3d {

bool parse_input_signature(Library& library, const vkd3d_shader_code& dxbc,
                           vkd3d_shader_signature& out) {
  if (!dxbc.code) return false;
  dxbc::Container container;
  const std::span bytes(static_cast<const std::uint8_t*>(dxbc.code), dxbc.size);
  if (!dxbc::parse_container(bytes, container, {.verify_checksum = false}) ||
      !container.input.present())
    return false;
  dxbc::PodArray<dxbc::SignatureElement> elements;
  if (!dxbc::parse_signature(container.input, elements)) return false;

  // One block: the element array, then the names, NUL-terminated.
  const std::size_t count = elements.size();
  std::size_t bytes_needed = count * sizeof(vkd3d_shader_signature_element);
  for (const dxbc::SignatureElement& e : elements) bytes_needed += e.semantic_name.size() + 1;
  auto* block = static_cast<std::uint8_t*>(library.allocate(bytes_needed));
  if (!block) return false;
  auto* out_elements = reinterpret_cast<vkd3d_shader_signature_element*>(block);
  char* names = reinterpret_cast<char*>(block + count * sizeof(vkd3d_shader_signature_element));
  for (std::size_t i = 0; i < count; ++i) {
    const dxbc::SignatureElement& in = elements[i];
    vkd3d_shader_signature_element& element = out_elements[i];
    std::memcpy(names, in.semantic_name.data(), in.semantic_name.size());
    names[in.semantic_name.size()] = '\0';
    element.semantic_name = names;
    names += in.semantic_name.size() + 1;
    element.semantic_index = in.semantic_index;
    element.stream_index = in.stream;
    element.sysval_semantic = vkd3d_shader_sysval_semantic(in.system_value);
    element.component_type = vkd3d_shader_component_type(in.component_type);
    element.register_index = in.register_index;
    element.mask = in.mask;
    element.used_mask = in.read_write_mask;
    element.min_precision = vkd3d_shader_minimum_precision(in.min_precision);
  }
  out.elements = out_elements;
  out.element_count = unsigned(count);
  return true;
}

vkd3d_shader_signature_element* find_signature_element(const vkd3d_shader_signature& signature,
                                                       const char* semantic_name,
                                                       unsigned semantic_index,
                                                       unsigned stream_index) {
  for (unsigned i = 0; i < signature.element_count; ++i) {
    vkd3d_shader_signature_element& element = signature.elements[i];
    if (element.semantic_index == semantic_index && element.stream_index == stream_index &&
        same_semantic_name(element.semantic_name, semantic_name))
      return &element;
  }
  return nullptr;
}

} // namespace kiln::vkd3d
