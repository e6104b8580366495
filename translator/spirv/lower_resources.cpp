// SPIR-V backend: resource declarations (docs/pipeline.md binding model), LDS, scratch, push
// data, and the buffer / memory / atomic ops that access them. Image ops: lower_images.cpp.
#include "translator/common/binding_map.h"
#include "translator/spirv/lower_state.h"

#include <algorithm>
#include <vulkan/vulkan_core.h>

namespace kiln::spirv {

namespace {
// docs/pipeline.md: binding = register * 5 + class (CBV 0, SRV 1, UAV 2, sampler 3, counter 4),
// the class being ResourceBinding::Class's value.
constexpr std::uint32_t kBindingClasses = 5;
constexpr std::uint32_t kMaxBinding = 65536;
std::uint32_t binding_of(ResourceBinding::Class c, std::uint32_t reg) {
  return reg * kBindingClasses + std::uint32_t(c);
}

// Reflection marks the class-linkage selection buffer (the front end flags its DclCbv).
std::uint32_t class_instances_flag(ir::OpView o) {
  return ir::has(o.flags(), ir::OpFlags::ClassInstances) ? ResourceBinding::ClassInstances : 0u;
}

bool is_buffer_kind(ir::ResourceKind k) {
  return k == ir::ResourceKind::RawBuffer || k == ir::ResourceKind::Structured;
}
// The interface's buffer flavour: typed, raw and structured buffers.
bool is_buffer_kind_or_typed(ir::ResourceKind k) {
  return is_buffer_kind(k) || k == ir::ResourceKind::TypedBuffer;
}

// The reflection's view of a declared SRV/UAV as the IR has it (every front end): dimension,
// data type, raw/structured. DXBC's scan refines the data type (unorm, snorm) and adds the
// stride and use flags afterwards (attach_source_facts).
void describe_resource(ir::ResourceKind kind, ir::Type type, ResourceBinding& rb) {
  using K = ir::ResourceKind;
  static constexpr ResourceDimension kByKind[] = {
      ResourceDimension::Buffer,           ResourceDimension::Buffer,
      ResourceDimension::Buffer,           ResourceDimension::Texture1D,
      ResourceDimension::Texture1DArray,   ResourceDimension::Texture2D,
      ResourceDimension::Texture2DArray,   ResourceDimension::Texture2DMS,
      ResourceDimension::Texture2DMSArray, ResourceDimension::Texture3D,
      ResourceDimension::TextureCube,      ResourceDimension::TextureCubeArray};
  rb.dimension =
      std::size_t(kind) < std::size(kByKind) ? kByKind[std::size_t(kind)] : ResourceDimension::None;
  if (kind == K::RawBuffer || kind == K::Structured) {
    rb.flags |=
        kind == K::RawBuffer ? ResourceBinding::RawBuffer : ResourceBinding::StructuredBuffer;
    rb.data_type = ResourceDataType::UInt;
    return;
  }
  if (!type.is_scalar()) return;
  const ir::ScalarType st = type.scalar_type();
  rb.data_type = ir::is_float(st)        ? ResourceDataType::Float
                 : ir::is_signed_int(st) ? ResourceDataType::SInt
                                         : ResourceDataType::UInt;
}
} // namespace

// DclLds, DclScratch: a Workgroup or Private variable.
bool Lowering::State::lower_variable_decl(ir::OpView o) {
  const ir::SsaDef def = o.def();
  DeclInfo& d = new_decl(def);
  d.ir_type = o.type();
  bool lds = o.code() == ir::OpCode::DclLds;
  if (lds && stage != ShaderStage::Compute) return fail(at(def), "LDS outside compute shaders");
  d.kind = lds ? DeclInfo::Kind::Lds : DeclInfo::Kind::Scratch;
  d.storage = lds ? spv::StorageClassWorkgroup : spv::StorageClassPrivate;
  if (!d.ir_type.is_basic() && ir->types().view(d.ir_type).is_unbounded())
    return fail(at(def), "unbounded LDS or scratch array");
  d.var = mb.global_variable(mb.type_pointer(d.storage, type(d.ir_type)), d.storage);
  add_interface(d.var, d.storage);
  ids[def.id()] = d.var;
  return true;
}

// A member of the push-constant block, built at the first code (build_push_block).
bool Lowering::State::lower_push_data_decl(ir::OpView o) {
  const ir::SsaDef def = o.def();
  DeclInfo& d = new_decl(def);
  d.ir_type = o.type();
  d.kind = DeclInfo::Kind::PushData;
  d.storage = spv::StorageClassPushConstant;
  d.push_offset = ir::ops::DclPushData(o).offset().literal_u32();
  push_decls.push_back(decl_of[def.id()] - 1);
  ResourceBinding rb;
  rb.register_class = ResourceBinding::Class::PushData;
  rb.register_index = d.push_offset;
  rb.binding = rb.register_index;
  rb.array_size = layout_size(d.ir_type);
  reflection->resources.push_back(rb);
  return true;
}

bool Lowering::State::lower_uav_counter_decl(ir::OpView o) {
  DeclInfo& d = new_decl(o.def());
  d.ir_type = o.type();
  return declare_uav_counter(o, d);
}

// DclCbv, DclSrv, DclUav, DclSampler: the interface's slot, else kiln's own model (set = space,
// binding = register * 5 + class).
bool Lowering::State::lower_descriptor_decl(ir::OpView o) {
  using ir::OpCode;
  const ir::SsaDef def = o.def();
  DeclInfo& d = new_decl(def);
  d.ir_type = o.type();
  const DescriptorClass cls = o.code() == OpCode::DclCbv   ? DescriptorClass::Cbv
                              : o.code() == OpCode::DclSrv ? DescriptorClass::Srv
                              : o.code() == OpCode::DclUav ? DescriptorClass::Uav
                                                           : DescriptorClass::Sampler;
  // Every descriptor declaration names the space, register and count as DclSampler does.
  const ir::ops::DclSampler binding(o);
  std::uint32_t space = binding.space().literal_u32();
  std::uint32_t reg = binding.register_index().literal_u32();
  std::uint32_t count = binding.count().literal_u32();
  const ShaderInterface* interface = binding_map();
  if (!interface && reg >= kMaxBinding / kBindingClasses)
    return fail(at(def), "register number too large (binding would be >= 65536)");
  DescriptorSlot slot;
  if (interface) {
    if (cls == DescriptorClass::Cbv) {
      if (const PushConstantBuffer* push =
              find_push_constant_buffer(*interface, space, reg, stage)) {
        if (count != 1)
          return fail(at(def), register_name(cls, space, reg, count) +
                                   ": a constant buffer array cannot be push constants");
        return declare_push_cbv(o, d, *push);
      }
    }
    const bool buffer =
        (cls == DescriptorClass::Srv || cls == DescriptorClass::Uav) &&
        is_buffer_kind_or_typed(ir::ops::DclSrv(o).kind().literal_enum<ir::ResourceKind>());
    // An image SRV or a sampler of the interface's combined samplers: the pairs' variables are
    // made where the shader uses them (combined_image()).
    d.combined =
        count == 1 &&
        ((cls == DescriptorClass::Srv && !buffer &&
          combines_resource(*interface, space, reg, stage)) ||
         (cls == DescriptorClass::Sampler && combines_sampler(*interface, space, reg, stage)));
    if (!d.combined) {
      if (Status st = map_descriptor(*interface, cls, space, reg, count, stage, buffer, slot); !st)
        return fail(Where::beside_input(), st.message());
    }
  } else {
    slot.set = space;
    slot.array_size = count;
  }
  ResourceBinding rb;
  rb.space = space;
  rb.register_index = reg;
  rb.array_size = slot.array_size;
  rb.set = slot.set;
  d.is_array = slot.array_size != 1 || slot.array_base != 0;
  d.array_base = slot.array_base;
  ir::UavFlags uav_flags = ir::UavFlags(0);
  Id element = 0; // the descriptor's type (array element)
  switch (cls) {
  case DescriptorClass::Sampler:
    d.kind = DeclInfo::Kind::Sampler;
    rb.register_class = ResourceBinding::Class::Sampler;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_SAMPLER;
    d.storage = spv::StorageClassUniformConstant;
    element = mb.type_sampler();
    break;
  case DescriptorClass::Cbv: {
    d.kind = DeclInfo::Kind::Cbv;
    rb.register_class = ResourceBinding::Class::Cbv;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    rb.dimension = ResourceDimension::Buffer;
    d.storage = spv::StorageClassUniform;
    if (!d.ir_type.is_basic() && ir->types().view(d.ir_type).is_unbounded())
      return fail(at(def), "unbounded constant buffer");
    Id members[1] = {type_layout(d.ir_type, true)};
    element = mb.type_struct(members);
    mb.decorate(element, spv::DecorationBlock);
    mb.decorate_member(element, 0, spv::DecorationOffset, {0});
    break;
  }
  case DescriptorClass::Srv:
  case DescriptorClass::Uav: {
    bool uav = cls == DescriptorClass::Uav;
    d.kind = uav ? DeclInfo::Kind::Uav : DeclInfo::Kind::Srv;
    rb.register_class = uav ? ResourceBinding::Class::Uav : ResourceBinding::Class::Srv;
    d.resource = ir::ops::DclSrv(o).kind().literal_enum<ir::ResourceKind>(); // DclUav's too
    describe_resource(d.resource, d.ir_type, rb);
    if (uav) uav_flags = ir::ops::DclUav(o).uav_flags().literal_enum<ir::UavFlags>();
    if (ir::has(uav_flags, ir::UavFlags::RasterizerOrdered)) {
      if (stage != ShaderStage::Pixel)
        return fail(at(def), "rasterizer-ordered UAV outside pixel shaders");
      if (!extension_enabled(Extension::FragmentShaderInterlock)) {
        // Fallback: an ordinary UAV, accesses unordered between overlapping pixels.
        rov_unordered = true;
      } else {
        if (!rov) {
          use_spirv_extension(Extension::FragmentShaderInterlock);
          mb.require_capability(spv::CapabilityFragmentShaderPixelInterlockEXT);
          mb.add_execution_mode(entry_function, spv::ExecutionModePixelInterlockOrderedEXT);
        }
        rov = true;
      }
    }
    if (is_buffer_kind(d.resource) && slot.buffer_form == BindingRange::BufferForm::TexelBuffer) {
      // The dwords are the texels of an R32_UINT texel buffer.
      d.texel_words = true;
      d.storage = spv::StorageClassUniformConstant;
      mb.require_capability(uav ? spv::CapabilityImageBuffer : spv::CapabilitySampledBuffer);
      element = mb.type_image(basic(ir::ScalarType::U32, 1), spv::DimBuffer, 0, false, false,
                              uav ? 2 : 1, uav ? spv::ImageFormatR32ui : spv::ImageFormatUnknown);
      rb.descriptor_type =
          uav ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    } else if (is_buffer_kind(d.resource)) {
      rb.descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      d.storage = storage_buffer_class();
      Id members[1] = {type_layout(d.ir_type, true)};
      element = mb.type_struct(members);
      mb.decorate(element, storage_block_decoration());
      mb.decorate_member(element, 0, spv::DecorationOffset, {0});
      if (!uav || ir::has(uav_flags, ir::UavFlags::ReadOnly))
        mb.decorate_member(element, 0, spv::DecorationNonWritable);
      if (uav && ir::has(uav_flags, ir::UavFlags::WriteOnly))
        mb.decorate_member(element, 0, spv::DecorationNonReadable);
      if (uav && ir::has(uav_flags, ir::UavFlags::Coherent))
        mb.decorate_member(element, 0, spv::DecorationCoherent);
    } else {
      d.is_image = true;
      d.storage = spv::StorageClassUniformConstant;
      if (!d.ir_type.is_scalar()) return fail(at(def), "typed resource of non-scalar type");
      ir::ScalarType st = d.ir_type.scalar_type();
      if (scalar_size(st) != 4 || st == ir::ScalarType::Bool)
        return fail(at(def), "typed resource of a non-32-bit type");
      spv::Dim dim = spv::Dim2D;
      bool arrayed = false, ms = false;
      switch (d.resource) {
      case ir::ResourceKind::TypedBuffer:
        dim = spv::DimBuffer;
        mb.require_capability(uav ? spv::CapabilityImageBuffer : spv::CapabilitySampledBuffer);
        break;
      case ir::ResourceKind::Image1DArray:
        arrayed = true;
        [[fallthrough]];
      case ir::ResourceKind::Image1D:
        dim = spv::Dim1D;
        mb.require_capability(uav ? spv::CapabilityImage1D : spv::CapabilitySampled1D);
        break;
      case ir::ResourceKind::Image2DArray:
        arrayed = true;
        break;
      case ir::ResourceKind::Image2DMSArray:
        arrayed = true;
        ms = true;
        if (uav) mb.require_capability(spv::CapabilityImageMSArray);
        break;
      case ir::ResourceKind::Image2DMS:
        ms = true;
        break;
      case ir::ResourceKind::Image3D:
        dim = spv::Dim3D;
        break;
      case ir::ResourceKind::ImageCubeArray:
        arrayed = true;
        mb.require_capability(uav ? spv::CapabilityImageCubeArray
                                  : spv::CapabilitySampledCubeArray);
        [[fallthrough]];
      case ir::ResourceKind::ImageCube:
        dim = spv::DimCube;
        break;
      default:
        break;
      }
      if (uav && ms) mb.require_capability(spv::CapabilityStorageImageMultisample);
      spv::ImageFormat format = spv::ImageFormatUnknown;
      if (uav && ir::has(uav_flags, ir::UavFlags::FixedFormat))
        format = ir::is_float(st)        ? spv::ImageFormatR32f
                 : ir::is_signed_int(st) ? spv::ImageFormatR32i
                                         : spv::ImageFormatR32ui;
      if (uav && format == spv::ImageFormatUnknown) {
        if (!ir::has(uav_flags, ir::UavFlags::WriteOnly))
          mb.require_capability(spv::CapabilityStorageImageReadWithoutFormat);
        if (!ir::has(uav_flags, ir::UavFlags::ReadOnly))
          mb.require_capability(spv::CapabilityStorageImageWriteWithoutFormat);
      }
      d.image_type = mb.type_image(basic(st, 1), dim, 0, arrayed, ms, uav ? 2 : 1, format);
      element = d.image_type;
      rb.descriptor_type =
          d.resource == ir::ResourceKind::TypedBuffer
              ? (uav ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                     : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
              : (uav ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
    }
    break;
  }
  }
  d.image_type = element;
  d.space = space;
  d.register_index = reg;
  if (d.combined) {
    d.is_array = false;
    return true;
  }
  rb.binding = interface ? slot.binding : binding_of(rb.register_class, reg);
  Id var_type = element;
  if (slot.array_size == 0) {
    if (!extension_enabled(Extension::DescriptorIndexing))
      return missing_extension(def, "an unbounded descriptor array", Extension::DescriptorIndexing);
    var_type = mb.type_runtime_array(element);
    mb.require_capability(spv::CapabilityRuntimeDescriptorArray);
    use_spirv_extension(Extension::DescriptorIndexing);
  } else if (d.is_array) {
    var_type = mb.type_array(element, const_u32(slot.array_size));
  }
  d.var = mb.global_variable(mb.type_pointer(d.storage, var_type), d.storage);
  mb.decorate(d.var, spv::DecorationDescriptorSet, {rb.set});
  mb.decorate(d.var, spv::DecorationBinding, {rb.binding});
  if ((d.is_image || d.texel_words) && d.kind == DeclInfo::Kind::Uav) {
    if (ir::has(uav_flags, ir::UavFlags::Coherent)) mb.decorate(d.var, spv::DecorationCoherent);
    if (ir::has(uav_flags, ir::UavFlags::ReadOnly)) mb.decorate(d.var, spv::DecorationNonWritable);
    if (ir::has(uav_flags, ir::UavFlags::WriteOnly)) mb.decorate(d.var, spv::DecorationNonReadable);
  }
  rb.flags |= class_instances_flag(o);
  d.signature = std::int32_t(reflection->resources.size());
  reflection->resources.push_back(rb);
  add_interface(d.var, d.storage);
  ids[def.id()] = d.var;
  return true;
}

void Lowering::State::build_push_block() {
  if (push_built) return;
  push_built = true;
  if (push_decls.empty()) return;
  // Members in offset order (push data and push-constant CBVs share the block).
  std::sort(push_decls.begin(), push_decls.end(), [&](std::uint32_t a, std::uint32_t b) {
    return decls[a].push_offset < decls[b].push_offset;
  });
  constant_stack.clear();
  for (std::uint32_t i = 0; i < push_decls.size(); ++i) {
    DeclInfo& d = decls[push_decls[i]];
    d.member = i;
    constant_stack.push_back(d.image_type ? d.image_type : type_layout(d.ir_type, true));
  }
  Id block = mb.type_struct(constant_stack);
  constant_stack.clear();
  mb.decorate(block, spv::DecorationBlock);
  for (std::uint32_t i = 0; i < push_decls.size(); ++i)
    mb.decorate_member(block, i, spv::DecorationOffset, {decls[push_decls[i]].push_offset});
  push_var = mb.global_variable(mb.type_pointer(spv::StorageClassPushConstant, block),
                                spv::StorageClassPushConstant);
  add_interface(push_var, spv::StorageClassPushConstant);
}

bool Lowering::State::declare_push_cbv(ir::OpView o, DeclInfo& d, const PushConstantBuffer& push) {
  const ir::SsaDef def = o.def();
  if (!d.ir_type.is_basic() && ir->types().view(d.ir_type).is_unbounded())
    return fail(at(def), "unbounded constant buffer");
  if (push.offset % 4 != 0) return fail(at(def), "push-constant offset not a multiple of 4");
  d.kind = DeclInfo::Kind::Cbv;
  d.push_constant = true;
  d.storage = spv::StorageClassPushConstant;
  d.push_offset = push.offset;
  // The member is the declared type, its outer array cut to the bytes the layer gives (a
  // push-constant block must lie within the layer's range).
  d.image_type = type_layout(d.ir_type, true);
  if (!d.ir_type.is_basic()) {
    const ir::TypeView view = ir->types().view(d.ir_type);
    const std::uint32_t stride = layout_size(view, view.dim_count - 1);
    if (view.dim_count > 0 && stride > 0 && layout_size(d.ir_type) > push.size) {
      const std::uint32_t elements = std::max<std::uint32_t>(1, (push.size + stride - 1) / stride);
      d.image_type =
          mb.type_array_unique(type_dims(d.ir_type, view.dim_count - 1, true), const_u32(elements));
      mb.decorate(d.image_type, spv::DecorationArrayStride, {stride});
    }
  }
  push_decls.push_back(decl_of[def.id()] - 1);
  ResourceBinding rb;
  rb.register_class = ResourceBinding::Class::Cbv;
  const ir::ops::DclCbv cbv(o);
  rb.space = cbv.space().literal_u32();
  rb.register_index = cbv.register_index().literal_u32();
  rb.flags = ResourceBinding::PushConstant | class_instances_flag(o);
  rb.dimension = ResourceDimension::Buffer;
  rb.offset = push.offset;
  rb.size = push.size;
  rb.descriptor_type = ~0u;
  reflection->resources.push_back(rb);
  return true;
}

bool Lowering::State::combined_image(ir::SsaDef def, ir::SsaDef image_load, ir::SsaDef sampler_load,
                                     Id& out) {
  Id unused = 0;
  bool nonuniform = false;
  const DeclInfo* image = descriptor(image_load, unused, nonuniform);
  const DeclInfo* sampler = sampler_load ? descriptor(sampler_load, unused, nonuniform) : nullptr;
  const ShaderInterface* interface = binding_map();
  if (!image || !interface || (sampler_load && !sampler))
    return fail(at(def), "combined sampler of a non-descriptor");
  const std::uint32_t image_decl =
      decl_of[ir::ops::DescriptorLoad(op(image_load)).variable().def().id()] - 1;
  const std::uint32_t sampler_decl =
      sampler ? decl_of[ir::ops::DescriptorLoad(op(sampler_load)).variable().def().id()] - 1 : ~0u;
  Id var = 0;
  for (const CombinedVariable& c : combined_vars)
    if (c.image_decl == image_decl && c.sampler_decl == sampler_decl) var = c.var;
  const Id type = mb.type_sampled_image(image->image_type);
  if (!var) {
    const CombinedSampler* entry = find_combined_sampler(
        *interface, image->space, image->register_index, sampler ? sampler->space : 0,
        sampler ? sampler->register_index : kNoSampler, stage);
    if (!entry)
      return fail(
          Where::beside_input(),
          register_name(DescriptorClass::Srv, image->space, image->register_index) +
              (sampler ? " sampled with " + register_name(DescriptorClass::Sampler, sampler->space,
                                                          sampler->register_index)
                       : std::string(" read without a sampler")) +
              " by the " + std::string(shader_stage_name(stage)) +
              " shader is not in the interface's combined samplers");
    var = mb.global_variable(mb.type_pointer(spv::StorageClassUniformConstant, type),
                             spv::StorageClassUniformConstant);
    mb.decorate(var, spv::DecorationDescriptorSet, {entry->set});
    mb.decorate(var, spv::DecorationBinding, {entry->binding});
    add_interface(var, spv::StorageClassUniformConstant);
    combined_vars.push_back({image_decl, sampler_decl, var});
    ResourceBinding rb;
    rb.register_class = ResourceBinding::Class::Srv;
    rb.space = image->space;
    rb.register_index = image->register_index;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    describe_resource(image->resource, image->ir_type, rb);
    rb.set = entry->set;
    rb.binding = entry->binding;
    reflection->resources.push_back(rb);
  }
  out = mb.op(spv::OpLoad, type, {var});
  return true;
}

bool Lowering::State::declare_uav_counter(ir::OpView o, DeclInfo& d) {
  const ir::SsaDef def = o.def();
  DeclInfo* uav = decl(ir::ops::DclUavCounter(o).uav().def());
  if (!uav || uav->kind != DeclInfo::Kind::Uav) return fail(at(def), "counter of a non-UAV");
  const ResourceBinding of = reflection->resources[std::size_t(uav->signature)];
  d.kind = DeclInfo::Kind::UavCounter;
  d.storage = storage_buffer_class();
  d.ir_type = ir::kU32;
  d.is_array = uav->is_array;
  d.array_base = uav->array_base;
  ResourceBinding rb = of;
  rb.register_class = ResourceBinding::Class::UavCounter;
  rb.descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  rb.binding = binding_of(ResourceBinding::Class::UavCounter, rb.register_index);
  std::uint32_t offset = 0;
  if (const ShaderInterface* interface = binding_map()) {
    const UavCounterBinding* counter =
        find_uav_counter(*interface, of.space, of.register_index, stage);
    if (!counter)
      return fail(Where::beside_input(),
                  "the counter of " +
                      register_name(DescriptorClass::Uav, of.space, of.register_index) +
                      " used by the " + std::string(shader_stage_name(stage)) +
                      " shader is not in the interface's UAV counters");
    rb.set = counter->set;
    rb.binding = counter->binding;
    if (counter->form == UavCounterBinding::Form::StorageTexelBuffer) {
      d.texel_counter = true;
      d.storage = spv::StorageClassUniformConstant;
      rb.descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    } else {
      if (counter->offset % 4 != 0) return fail(at(def), "UAV counter offset not a multiple of 4");
      offset = counter->offset;
    }
  }
  Id element = 0;
  if (d.texel_counter) {
    mb.require_capability(spv::CapabilityImageBuffer);
    element = mb.type_image(basic(ir::ScalarType::U32, 1), spv::DimBuffer, 0, false, false, 2,
                            spv::ImageFormatR32ui);
  } else {
    Id block_members[1] = {basic(ir::ScalarType::U32, 1)};
    element = mb.type_struct(block_members);
    mb.decorate(element, storage_block_decoration());
    mb.decorate_member(element, 0, spv::DecorationOffset, {offset});
  }
  d.image_type = element;
  Id var_type = element;
  if (of.array_size == 0) {
    var_type = mb.type_runtime_array(element);
  } else if (d.is_array) {
    var_type = mb.type_array(element, const_u32(of.array_size));
  }
  d.var = mb.global_variable(mb.type_pointer(d.storage, var_type), d.storage);
  mb.decorate(d.var, spv::DecorationDescriptorSet, {rb.set});
  mb.decorate(d.var, spv::DecorationBinding, {rb.binding});
  reflection->resources.push_back(rb);
  add_interface(d.var, d.storage);
  ids[def.id()] = d.var;
  return true;
}

} // namespace kiln::spirv
