#include "translator/common/binding_map.h"

namespace kiln {

namespace {
constexpr char kRegisterLetters[] = {'b', 't', 'u', 's'}; // by DescriptorClass

// The class's D3D register prefix: cb for constant buffers, else one letter.
std::string register_prefix(DescriptorClass register_class) {
  if (register_class == DescriptorClass::Cbv) return "cb";
  return std::string(1, kRegisterLetters[std::size_t(register_class)]);
}

bool flavour_matches(std::uint8_t flags, DescriptorClass register_class, bool buffer) {
  if (register_class != DescriptorClass::Srv && register_class != DescriptorClass::Uav) return true;
  const std::uint8_t kinds = flags & (BindingRange::Buffer | BindingRange::Image);
  if (kinds == 0) return true;
  return (kinds & (buffer ? BindingRange::Buffer : BindingRange::Image)) != 0;
}

// Does the range hold register `r`?
bool holds(const BindingRange& range, std::uint64_t r) {
  if (r < range.first_register) return false;
  return range.register_count == kRegistersUnbounded ||
         r < std::uint64_t(range.first_register) + range.register_count;
}
} // namespace

std::string register_name(DescriptorClass register_class, std::uint32_t space,
                          std::uint32_t first_register, std::uint32_t count) {
  std::string name = register_prefix(register_class) + std::to_string(first_register);
  if (count == 0) {
    name += "..";
  } else if (count > 1) {
    name += ".." + register_prefix(register_class) +
            std::to_string(std::uint64_t(first_register) + count - 1);
  }
  return name + " (space " + std::to_string(space) + ")";
}

Status map_descriptor(const ShaderInterface& interface, DescriptorClass register_class,
                      std::uint32_t space, std::uint32_t first_register, std::uint32_t count,
                      ShaderStage stage, bool buffer, DescriptorSlot& out) {
  const std::uint64_t last =
      count == 0 ? std::uint64_t(kRegistersUnbounded) : std::uint64_t(first_register) + count - 1;
  for (const BindingRange& range : interface.bindings) {
    if (range.register_class != register_class || range.space != space ||
        !stage_visible(range.stages, stage) ||
        !flavour_matches(range.flags, register_class, buffer))
      continue;
    if (!holds(range, first_register)) continue;
    if (count == 0 ? range.register_count != kRegistersUnbounded : !holds(range, last)) continue;
    out = {};
    out.set = range.set;
    out.buffer_form = range.buffer_form;
    if (range.flags & BindingRange::Array) {
      out.binding = range.binding;
      out.array_size = range.register_count == kRegistersUnbounded ? 0 : range.register_count;
      out.array_base = first_register - range.first_register;
    } else {
      const std::uint64_t binding =
          std::uint64_t(range.binding) + first_register - range.first_register;
      if (binding > 0xffffffffu)
        return Status::error(register_name(register_class, space, first_register, count) +
                             ": binding number past 2^32 in the interface's binding map");
      out.binding = std::uint32_t(binding);
      out.array_size = count;
    }
    return Status::ok();
  }
  return Status::error(register_name(register_class, space, first_register, count) +
                       " used by the " + std::string(shader_stage_name(stage)) +
                       " shader is not in the interface's binding map");
}

const PushConstantBuffer* find_push_constant_buffer(const ShaderInterface& interface,
                                                    std::uint32_t space,
                                                    std::uint32_t register_index,
                                                    ShaderStage stage) {
  for (const PushConstantBuffer& p : interface.push_constant_buffers)
    if (p.space == space && p.register_index == register_index && stage_visible(p.stages, stage))
      return &p;
  return nullptr;
}

const UavCounterBinding* find_uav_counter(const ShaderInterface& interface, std::uint32_t space,
                                          std::uint32_t register_index, ShaderStage stage) {
  for (const UavCounterBinding& c : interface.uav_counters)
    if (c.space == space && c.register_index == register_index && stage_visible(c.stages, stage))
      return &c;
  return nullptr;
}

const CombinedSampler* find_combined_sampler(const ShaderInterface& interface,
                                             std::uint32_t resource_space,
                                             std::uint32_t resource_index,
                                             std::uint32_t sampler_space,
                                             std::uint32_t sampler_index, ShaderStage stage) {
  for (const CombinedSampler& c : interface.combined_samplers)
    if (c.resource_space == resource_space && c.resource_index == resource_index &&
        c.sampler_index == sampler_index &&
        (sampler_index == kNoSampler || c.sampler_space == sampler_space) &&
        stage_visible(c.stages, stage))
      return &c;
  return nullptr;
}

bool combines_resource(const ShaderInterface& interface, std::uint32_t space,
                       std::uint32_t register_index, ShaderStage stage) {
  for (const CombinedSampler& c : interface.combined_samplers)
    if (c.resource_space == space && c.resource_index == register_index &&
        stage_visible(c.stages, stage))
      return true;
  return false;
}

bool combines_sampler(const ShaderInterface& interface, std::uint32_t space,
                      std::uint32_t register_index, ShaderStage stage) {
  for (const CombinedSampler& c : interface.combined_samplers)
    if (c.sampler_index != kNoSampler && c.sampler_space == space &&
        c.sampler_index == register_index && stage_visible(c.stages, stage))
      return true;
  return false;
}

} // namespace kiln
