#include "translator/common/reflection.h"

#include "translator/common/shader_interface.h"

namespace kiln {

namespace {

const ResourceBinding* find_source_range(const SourceReflection& source, ResourceBinding::Class c,
                                         std::uint32_t space, std::uint32_t register_index) {
  for (const ResourceBinding& d : source.descriptors)
    if (d.register_class == c && d.space == space && d.register_index == register_index) return &d;
  return nullptr;
}

const SignatureElement* find_element(const std::vector<SignatureElement>& list,
                                     const SignatureElement& e) {
  for (const SignatureElement& s : list)
    if (s.semantic_index == e.semantic_index && s.stream == e.stream &&
        same_semantic_name(s.semantic, e.semantic))
      return &s;
  return nullptr;
}

void attach_signature(const std::vector<SignatureElement>& primary,
                      const std::vector<SignatureElement>* patch,
                      std::vector<SignatureElement>& elements) {
  for (SignatureElement& e : elements) {
    const SignatureElement* s = find_element(primary, e);
    if (!s && patch) s = find_element(*patch, e);
    if (!s) continue;
    e.system_value = s->system_value;
    e.component_type = s->component_type;
    e.register_index = s->register_index;
    e.mask = s->mask;
    e.used_mask = s->used_mask;
  }
}

} // namespace

void attach_source_facts(const SourceReflection& source, Reflection& reflection) {
  for (ResourceBinding& r : reflection.resources) {
    const ResourceBinding::Class c = r.register_class == ResourceBinding::Class::UavCounter
                                         ? ResourceBinding::Class::Uav
                                         : r.register_class;
    if (c == ResourceBinding::Class::PushData) continue;
    const ResourceBinding* s = find_source_range(source, c, r.space, r.register_index);
    if (!s) continue;
    r.dimension = s->dimension;
    r.data_type = s->data_type;
    r.structure_stride = s->structure_stride;
    r.flags |= s->flags;
  }
  const bool hull = reflection.stage == ShaderStage::Hull;
  const bool domain = reflection.stage == ShaderStage::Domain;
  attach_signature(source.inputs, domain ? &source.patch_constants : nullptr, reflection.inputs);
  attach_signature(source.outputs, hull ? &source.patch_constants : nullptr, reflection.outputs);
}

} // namespace kiln
