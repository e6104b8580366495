// SPIR-V backend: resource declarations (docs/pipeline.md binding model), LDS, scratch, push
// data, and the buffer / memory / atomic ops that access them. Image ops: lower_images.cpp.
#include "translator/spirv/lower_state.h"

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

bool is_buffer_kind(ir::ResourceKind k) {
  return k == ir::ResourceKind::RawBuffer || k == ir::ResourceKind::Structured;
}
} // namespace

Status Lowering::State::lower_resource_decl(ir::OpView o) {
  using ir::OpCode;
  const ir::SsaDef def = o.def();
  DeclInfo& d = new_decl(def);
  d.ir_type = o.type();
  switch (o.code()) {
  case OpCode::DclLds:
  case OpCode::DclScratch: {
    bool lds = o.code() == OpCode::DclLds;
    if (lds && stage != ShaderStage::Compute) return fail(def, "LDS outside compute shaders");
    d.kind = lds ? DeclInfo::Kind::Lds : DeclInfo::Kind::Scratch;
    d.storage = lds ? spv::StorageClassWorkgroup : spv::StorageClassPrivate;
    if (!d.ir_type.is_basic() && ir->types().view(d.ir_type).is_unbounded())
      return fail(def, "unbounded LDS or scratch array");
    d.var = mb.global_variable(mb.type_pointer(d.storage, type(d.ir_type)), d.storage);
    add_interface(d.var, d.storage);
    ids[def.id()] = d.var;
    return Status::ok();
  }
  case OpCode::DclPushData: {
    d.kind = DeclInfo::Kind::PushData;
    d.storage = spv::StorageClassPushConstant;
    d.member = std::uint32_t(push_decls.size());
    push_decls.push_back(decl_of[def.id()] - 1);
    ResourceBinding rb;
    rb.register_class = ResourceBinding::Class::PushData;
    rb.register_index = o.operand(1).literal_u32();
    rb.binding = rb.register_index;
    rb.array_size = layout_size(d.ir_type);
    reflection->resources.push_back(rb);
    return Status::ok();
  }
  case OpCode::DclUavCounter: {
    DeclInfo* uav = decl(o.operand(1).def());
    if (!uav || uav->kind != DeclInfo::Kind::Uav) return fail(def, "counter of a non-UAV");
    const ResourceBinding& of = reflection->resources[std::size_t(uav->signature)];
    d.kind = DeclInfo::Kind::UavCounter;
    d.storage = storage_buffer_class();
    d.ir_type = ir::kU32;
    d.is_array = uav->is_array;
    Id block_members[1] = {basic(ir::ScalarType::U32, 1)};
    Id block = mb.type_struct(block_members);
    mb.decorate(block, storage_block_decoration());
    mb.decorate_member(block, 0, spv::DecorationOffset, {0});
    Id var_type = block;
    d.image_type = block;
    if (of.array_size != 1) {
      if (of.array_size == 0) {
        // The UAV itself needed the unbounded array: its declaration checked the extension.
        var_type = mb.type_runtime_array(block);
      } else {
        var_type = mb.type_array(block, const_u32(of.array_size));
      }
    }
    d.var = mb.global_variable(mb.type_pointer(d.storage, var_type), d.storage);
    ResourceBinding rb = of;
    rb.register_class = ResourceBinding::Class::UavCounter;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    rb.binding = binding_of(ResourceBinding::Class::UavCounter, rb.register_index);
    mb.decorate(d.var, spv::DecorationDescriptorSet, {rb.set});
    mb.decorate(d.var, spv::DecorationBinding, {rb.binding});
    reflection->resources.push_back(rb);
    add_interface(d.var, d.storage);
    ids[def.id()] = d.var;
    return Status::ok();
  }
  default:
    break;
  }

  // CBV, SRV, UAV, sampler: descriptor set = space, binding = class base + register.
  std::uint32_t space = o.operand(1).literal_u32();
  std::uint32_t reg = o.operand(2).literal_u32();
  std::uint32_t count = o.operand(3).literal_u32();
  if (reg >= kMaxBinding / kBindingClasses)
    return fail(def, "register number too large (binding would be >= 65536)");
  ResourceBinding rb;
  rb.space = space;
  rb.register_index = reg;
  rb.array_size = count;
  rb.set = space;
  d.is_array = count != 1;
  ir::UavFlags uav_flags = ir::UavFlags(0);
  Id element = 0; // the descriptor's type (array element)
  switch (o.code()) {
  case OpCode::DclSampler:
    d.kind = DeclInfo::Kind::Sampler;
    rb.register_class = ResourceBinding::Class::Sampler;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_SAMPLER;
    d.storage = spv::StorageClassUniformConstant;
    element = mb.type_sampler();
    break;
  case OpCode::DclCbv: {
    d.kind = DeclInfo::Kind::Cbv;
    rb.register_class = ResourceBinding::Class::Cbv;
    rb.descriptor_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    d.storage = spv::StorageClassUniform;
    if (!d.ir_type.is_basic() && ir->types().view(d.ir_type).is_unbounded())
      return fail(def, "unbounded constant buffer");
    Id members[1] = {type_layout(d.ir_type, true)};
    element = mb.type_struct(members);
    mb.decorate(element, spv::DecorationBlock);
    mb.decorate_member(element, 0, spv::DecorationOffset, {0});
    break;
  }
  case OpCode::DclSrv:
  case OpCode::DclUav: {
    bool uav = o.code() == OpCode::DclUav;
    d.kind = uav ? DeclInfo::Kind::Uav : DeclInfo::Kind::Srv;
    rb.register_class = uav ? ResourceBinding::Class::Uav : ResourceBinding::Class::Srv;
    d.resource = o.operand(4).literal_enum<ir::ResourceKind>();
    if (uav) uav_flags = o.operand(5).literal_enum<ir::UavFlags>();
    if (ir::has(uav_flags, ir::UavFlags::RasterizerOrdered)) {
      if (stage != ShaderStage::Pixel)
        return fail(def, "rasterizer-ordered UAV outside pixel shaders");
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
    if (is_buffer_kind(d.resource)) {
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
      if (!d.ir_type.is_scalar()) return fail(def, "typed resource of non-scalar type");
      ir::ScalarType st = d.ir_type.scalar_type();
      if (scalar_size(st) != 4 || st == ir::ScalarType::Bool)
        return fail(def, "typed resource of a non-32-bit type");
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
  default:
    return fail(def, "declaration not supported");
  }
  rb.binding = binding_of(rb.register_class, reg);
  d.image_type = element;
  Id var_type = element;
  if (count == 0) {
    if (!extension_enabled(Extension::DescriptorIndexing))
      return missing_extension(def, "an unbounded descriptor array", Extension::DescriptorIndexing);
    var_type = mb.type_runtime_array(element);
    mb.require_capability(spv::CapabilityRuntimeDescriptorArray);
    use_spirv_extension(Extension::DescriptorIndexing);
  } else if (count != 1) {
    var_type = mb.type_array(element, const_u32(count));
  }
  d.var = mb.global_variable(mb.type_pointer(d.storage, var_type), d.storage);
  mb.decorate(d.var, spv::DecorationDescriptorSet, {rb.set});
  mb.decorate(d.var, spv::DecorationBinding, {rb.binding});
  if (d.is_image && d.kind == DeclInfo::Kind::Uav) {
    if (ir::has(uav_flags, ir::UavFlags::Coherent)) mb.decorate(d.var, spv::DecorationCoherent);
    if (ir::has(uav_flags, ir::UavFlags::ReadOnly)) mb.decorate(d.var, spv::DecorationNonWritable);
    if (ir::has(uav_flags, ir::UavFlags::WriteOnly)) mb.decorate(d.var, spv::DecorationNonReadable);
  }
  d.signature = std::int32_t(reflection->resources.size());
  reflection->resources.push_back(rb);
  add_interface(d.var, d.storage);
  ids[def.id()] = d.var;
  return Status::ok();
}

void Lowering::State::build_push_block() {
  if (push_built) return;
  push_built = true;
  if (push_decls.empty()) return;
  constant_stack.clear();
  for (std::uint32_t i : push_decls) {
    Id member = type_layout(decls[i].ir_type, true);
    constant_stack.push_back(member);
  }
  Id block = mb.type_struct(constant_stack);
  constant_stack.clear();
  mb.decorate(block, spv::DecorationBlock);
  std::uint32_t r = 0;
  for (const ResourceBinding& rb : reflection->resources) {
    if (rb.register_class != ResourceBinding::Class::PushData) continue;
    mb.decorate_member(block, r++, spv::DecorationOffset, {rb.register_index});
  }
  push_var = mb.global_variable(mb.type_pointer(spv::StorageClassPushConstant, block),
                                spv::StorageClassPushConstant);
  add_interface(push_var, spv::StorageClassPushConstant);
}

} // namespace kiln::spirv
