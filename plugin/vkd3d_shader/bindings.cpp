#include "plugin/vkd3d_shader/bindings.h"

#include "plugin/vkd3d_shader/scan.h"

namespace kiln::vkd3d {

namespace {

using Descriptor = ResourceBinding;

bool visible(vkd3d_shader_visibility visibility, ShaderStage stage) {
  StageMask mask = 0;
  return stage_mask_of(visibility, mask) && stage_visible(mask, stage);
}

class Resolver {
 public:
  Resolver(const LayerBindings& layer, ShaderStage stage, ShaderInterface& out)
      : layer_(layer), stage_(stage), out_(out) {}

  bool descriptor(const Descriptor& d, ForwardReason& reason) {
    const vkd3d_shader_interface_info* info = layer_.interface;
    if (d.array_size != 1) {
      // An SM5.1 descriptor array: vkd3d-shader 1.2 binds it as one descriptor.
      reason = ForwardReason::DescriptorArray;
      return false;
    }
    if (info && d.register_class == Descriptor::Class::Cbv) {
      for (unsigned i = 0; i < info->push_constant_buffer_count; ++i) {
        const vkd3d_shader_push_constant_buffer& push = info->push_constant_buffers[i];
        if (!visible(push.shader_visibility, stage_) || push.register_index != d.register_index)
          continue;
        // kiln finds push constants by space and register, vkd3d-shader 1.2 by register.
        if (push.register_space != d.space) {
          reason = ForwardReason::Binding;
          return false;
        }
        return true;
      }
    }
    if (combined(d)) return true;
    const vkd3d_shader_resource_binding* found = find_binding(d);
    const vkd3d_shader_descriptor_binding binding = found ? found->binding : next_fallback();
    BindingRange range;
    range.register_class = class_of(d.register_class);
    range.flags = is_buffer(d) ? BindingRange::Buffer : BindingRange::Image;
    range.space = d.space;
    range.first_register = d.register_index;
    // vkd3d-shader 1.2 reads every buffer SRV through a uniform texel buffer, and buffer UAVs
    // through storage texel buffers unless VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV says
    // storage buffers.
    const bool storage_buffer =
        range.register_class == DescriptorClass::Uav && layer_.uav_buffers_as_storage_buffers;
    range.buffer_form = storage_buffer ? BindingRange::BufferForm::StorageBuffer
                                       : BindingRange::BufferForm::TexelBuffer;
    range.set = binding.set;
    range.binding = binding.binding;
    out_.bindings.push_back(range);
    if (d.register_class == Descriptor::Class::Uav && (d.flags & Descriptor::UavCounter))
      return counter(d, reason);
    return true;
  }

 private:
  vkd3d_shader_descriptor_binding next_fallback() { return {0, next_binding_++, 1}; }

  // Whether vkd3d-shader 1.2 reads the SRV or sampler through the layer's combined samplers,
  // so that it declares no binding of its own for it.
  bool combined(const Descriptor& d) const {
    const vkd3d_shader_interface_info* info = layer_.interface;
    if (!info) return false;
    const bool srv = d.register_class == Descriptor::Class::Srv;
    if (!srv && d.register_class != Descriptor::Class::Sampler) return false;
    for (unsigned i = 0; i < info->combined_sampler_count; ++i) {
      const vkd3d_shader_combined_resource_sampler& c = info->combined_samplers[i];
      if (!visible(c.shader_visibility, stage_)) continue;
      if ((srv ? c.resource_index : c.sampler_index) == d.register_index) return true;
    }
    return false;
  }

  const vkd3d_shader_resource_binding* find_binding(const Descriptor& d) const {
    const vkd3d_shader_interface_info* info = layer_.interface;
    if (!info) return nullptr;
    const unsigned flag =
        is_buffer(d) ? VKD3D_SHADER_BINDING_FLAG_BUFFER : VKD3D_SHADER_BINDING_FLAG_IMAGE;
    for (unsigned i = 0; i < info->binding_count; ++i) {
      const vkd3d_shader_resource_binding& b = info->bindings[i];
      if ((b.flags & flag) && visible(b.shader_visibility, stage_) &&
          b.type == descriptor_type_of(d.register_class) && b.register_index == d.register_index)
        return &b;
    }
    return nullptr;
  }

  const vkd3d_shader_uav_counter_binding* find_counter(const Descriptor& d) const {
    const vkd3d_shader_interface_info* info = layer_.interface;
    for (unsigned i = 0; info && i < info->uav_counter_count; ++i) {
      const vkd3d_shader_uav_counter_binding& c = info->uav_counters[i];
      if (visible(c.shader_visibility, stage_) && c.register_index == d.register_index) return &c;
    }
    return nullptr;
  }

  bool counter(const Descriptor& d, ForwardReason& reason) {
    UavCounterBinding counter;
    counter.space = d.space;
    counter.register_index = d.register_index;
    // vkd3d-shader 1.2 keeps each counter in an R32ui storage texel buffer.
    counter.form = UavCounterBinding::Form::StorageTexelBuffer;
    const vkd3d_shader_uav_counter_binding* found = find_counter(d);
    // An offset has no meaning in a texel buffer: not what kiln would produce.
    if (found && found->offset) {
      reason = ForwardReason::Binding;
      return false;
    }
    const vkd3d_shader_descriptor_binding binding = found ? found->binding : next_fallback();
    counter.set = binding.set;
    counter.binding = binding.binding;
    out_.uav_counters.push_back(counter);
    return true;
  }

  const LayerBindings& layer_;
  ShaderStage stage_;
  ShaderInterface& out_;
  std::uint32_t next_binding_ = 0;
};

} // namespace

DescriptorClass class_of(ResourceBinding::Class c) {
  switch (c) {
  case ResourceBinding::Class::Cbv:
    return DescriptorClass::Cbv;
  case ResourceBinding::Class::Srv:
    return DescriptorClass::Srv;
  case ResourceBinding::Class::Uav:
    return DescriptorClass::Uav;
  default:
    return DescriptorClass::Sampler;
  }
}

bool is_buffer(const ResourceBinding& d) {
  return d.register_class == ResourceBinding::Class::Cbv ||
         d.dimension == ResourceDimension::Buffer;
}

bool resolve_bindings(const SourceReflection& source, const LayerBindings& layer,
                      ShaderInterface& out, ForwardReason& reason) {
  if (const vkd3d_shader_interface_info* info = layer.interface) {
    // vkd3d-shader 1.2 looks SM5.1 ranges up by the id instructions name them by, without
    // their space: where ids and registers differ (or spaces matter) the layer's list does not
    // mean to it what it says, and only the system library gives its answer. (Its fallback
    // layout, by declaration order, does not look at either.)
    if (source.renamed_ranges &&
        (info->binding_count || info->uav_counter_count || info->push_constant_buffer_count ||
         info->combined_sampler_count)) {
      reason = ForwardReason::Binding;
      return false;
    }
    // A visibility or descriptor type kiln does not know is not a request it can honour.
    for (unsigned i = 0; i < info->binding_count; ++i) {
      StageMask mask = 0;
      if (!stage_mask_of(info->bindings[i].shader_visibility, mask) ||
          info->bindings[i].type > VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER) {
        reason = ForwardReason::Binding;
        return false;
      }
    }
  }
  Resolver resolver(layer, source.stage, out);
  for (const Descriptor& d : source.descriptors)
    if (!resolver.descriptor(d, reason)) return false;
  return true;
}

} // namespace kiln::vkd3d
