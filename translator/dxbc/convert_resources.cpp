// The resource half of the DXBC -> IR converter (convert_context.h, convert_resources.h):
// declarations of t#/u#/s#/g# (dcl_resource, for the rows of kResourceDeclarations in
// opcodes.h), descriptor access and the helpers the image and buffer files share.
#include "translator/dxbc/convert_resources.h"

#include "translator/dxbc/convert_dispatch.h"
#include "translator/ir/ir_op_views.h"

#include <span>
#include <string>

namespace kiln::dxbc {

namespace {

// Register numbers at or above this are rejected (the binding model's class width).
constexpr std::uint32_t kMaxRegister = 65536;

const char* class_prefix(ResourceClass c) {
  switch (c) {
  case ResourceClass::Srv:
    return "t";
  case ResourceClass::Uav:
    return "u";
  case ResourceClass::Sampler:
    return "s";
  default:
    return "g";
  }
}

} // namespace

std::string register_name(ResourceClass c, std::uint32_t id) {
  return std::string(class_prefix(c)) + std::to_string(id);
}

bool kind_of_dimension(ResourceDimension dim, ir::ResourceKind& out) {
  switch (dim) {
  case ResourceDimension::Buffer:
    out = ir::ResourceKind::TypedBuffer;
    return true;
  case ResourceDimension::Texture1D:
    out = ir::ResourceKind::Image1D;
    return true;
  case ResourceDimension::Texture1DArray:
    out = ir::ResourceKind::Image1DArray;
    return true;
  case ResourceDimension::Texture2D:
    out = ir::ResourceKind::Image2D;
    return true;
  case ResourceDimension::Texture2DArray:
    out = ir::ResourceKind::Image2DArray;
    return true;
  case ResourceDimension::Texture2DMS:
    out = ir::ResourceKind::Image2DMS;
    return true;
  case ResourceDimension::Texture2DMSArray:
    out = ir::ResourceKind::Image2DMSArray;
    return true;
  case ResourceDimension::Texture3D:
    out = ir::ResourceKind::Image3D;
    return true;
  case ResourceDimension::TextureCube:
    out = ir::ResourceKind::ImageCube;
    return true;
  case ResourceDimension::TextureCubeArray:
    out = ir::ResourceKind::ImageCubeArray;
    return true;
  default:
    return false;
  }
}

namespace {

// The texel scalar type of a typed declaration; false for types kiln does not map.
bool sampled_type_of(std::uint8_t return_type, ir::ScalarType& out) {
  switch (ReturnType(return_type)) {
  case ReturnType::Unorm:
  case ReturnType::Snorm:
  case ReturnType::Float:
    out = ir::ScalarType::F32;
    return true;
  case ReturnType::SInt:
    out = ir::ScalarType::I32;
    return true;
  case ReturnType::UInt:
  case ReturnType::Mixed:
    out = ir::ScalarType::U32;
    return true;
  default:
    return false;
  }
}

// `read_r32`: ConvertContext::typed_uav_read_r32, a typed UAV that is read has a fixed format.
ir::UavFlags uav_flags_of(const ResourceBinding& b, bool read_r32) {
  ir::UavFlags flags = b.base_flags;
  const bool reads = (b.usage & (uav_usage::kRead | uav_usage::kAtomic)) != 0;
  const bool writes = (b.usage & (uav_usage::kWrite | uav_usage::kAtomic)) != 0;
  if (reads && !writes) flags = flags | ir::UavFlags::ReadOnly;
  if (writes && !reads) flags = flags | ir::UavFlags::WriteOnly;
  const bool typed =
      b.kind != ir::ResourceKind::RawBuffer && b.kind != ir::ResourceKind::Structured;
  if (typed && ((b.usage & uav_usage::kAtomic) || (read_r32 && (b.usage & uav_usage::kRead))))
    flags = flags | ir::UavFlags::FixedFormat;
  return flags;
}

ir::Op uav_declaration(ConvertContext& ctx, const ResourceBinding& b) {
  return ir::Op::DclUav(b.type, ctx.entry_point(), b.space, b.lower, b.count, b.kind,
                        uav_flags_of(b, ctx.typed_uav_read_r32));
}

// The descriptor array index an operand selects (see load_descriptor).
ir::SsaDef descriptor_index(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                            const ResourceBinding& binding) {
  if (!ctx.program().is_sm51() || op.index_dimension < 2) return ctx.constant_u32(0);
  if (ConvertContext::index_is_immediate(op, 1)) {
    const std::uint32_t reg = op.index[1];
    if (reg < binding.lower || (binding.count != 0 && reg - binding.lower >= binding.count)) {
      ctx.fail(inst, "register " + std::to_string(reg) + " is outside the declared range");
      return ir::SsaDef();
    }
    return ctx.constant_u32(reg - binding.lower);
  }
  ir::SsaDef reg = ctx.load_index(op, 1);
  if (binding.lower == 0) return reg;
  return ctx.emit(ir::Op::ISub(ir::kU32, reg, ctx.constant_u32(binding.lower)));
}

bool is_constant(ConvertContext& ctx, ir::SsaDef def, ir::Type type) {
  ir::OpView v = ctx.builder().op(def);
  return v.code() == ir::OpCode::Constant && v.type() == type;
}

} // namespace

// ---- state ----------------------------------------------------------------------------------

// ---- declarations ---------------------------------------------------------------------------

bool dcl_resource(ConvertContext& ctx, const Instruction& inst) {
  const ResourceDeclaration& row = *resource_declaration(inst.opcode);
  const ResourceClass cls = row.register_class;
  const Declaration& decl = ctx.program().declarations[inst.declaration];
  if (inst.operand_count < 1) {
    return ctx.fail(inst, "declaration without an operand");
  }
  if (!ctx.entry_point()) {
    return ctx.fail(inst, "resource declaration before the entry point");
  }
  const Operand& op = ctx.program().operands_of(inst)[0];
  if (op.index_dimension < 1 || op.has_relative(0) || op.has_relative(1) || op.has_relative(2)) {
    return ctx.fail(inst, "declaration operand without an immediate register");
  }
  ResourceClass operand_class;
  if (!resource_class_of(op.type, operand_class) || operand_class != cls) {
    return ctx.fail(inst, "declares a register of the wrong type");
  }

  ResourceBinding b;
  std::uint32_t id = op.index[0];
  if (cls != ResourceClass::Tgsm && ctx.program().is_sm51() && op.index_dimension >= 3) {
    // SM5.1: range id, lower bound, upper bound (0xffffffff = unbounded).
    b.space = decl.space;
    b.lower = op.index[1];
    const std::uint32_t upper = op.index[2];
    if (upper != 0xffffffffu && upper < b.lower) {
      return ctx.fail(inst, "register range ends before it starts");
    }
    b.count = upper == 0xffffffffu ? 0 : upper - b.lower + 1;
  } else {
    b.lower = id;
  }
  if (id >= kMaxRegister || b.lower >= kMaxRegister) {
    return ctx.fail(inst, "register number out of range (" + std::to_string(b.lower) + ")");
  }
  std::vector<ResourceBinding>& table = ctx.table(cls);
  if (id < table.size() && table[id].decl) {
    return ctx.fail(inst, register_name(cls, id) + " declared twice");
  }

  ir::Builder& builder = ctx.builder();
  ir::TypeTable& types = builder.types();
  const ir::SsaDef entry = ctx.entry_point();

  const bool tgsm = cls == ResourceClass::Tgsm;
  switch (row.layout) {
  case ResourceLayout::Typed:
    if (!kind_of_dimension(decl.dimension, b.kind)) {
      return ctx.fail(inst, "unsupported resource dimension");
    }
    if (!sampled_type_of(decl.return_type[0], b.sampled)) {
      return ctx.fail(inst, ReturnType(decl.return_type[0]) == ReturnType::Double
                                ? "double-typed resources are not supported"
                                : "unsupported resource return type");
    }
    b.type = ir::Type(b.sampled);
    break;
  case ResourceLayout::Raw:
    b.kind = ir::ResourceKind::RawBuffer;
    b.sampled = ir::ScalarType::U32;
    if (!tgsm) {
      b.type = types.make_array(ir::kU32, 0);
      break;
    }
    if (decl.value == 0 || decl.value % 4 != 0 || decl.value > 65536) {
      return ctx.fail(inst, "groupshared size " + std::to_string(decl.value) +
                                " is not a dword multiple in 4..65536");
    }
    b.type = types.make_array(ir::kU32, decl.value / 4);
    break;
  case ResourceLayout::Structured:
    b.kind = ir::ResourceKind::Structured;
    b.sampled = ir::ScalarType::U32;
    b.stride = decl.value2;
    if (!tgsm) {
      if (b.stride == 0 || b.stride % 4 != 0 || b.stride > 2048) {
        return ctx.fail(inst, "structure stride " + std::to_string(b.stride) +
                                  " is not a dword multiple in 4..2048");
      }
      b.type = types.make_array(types.make_array(ir::kU32, b.stride / 4), 0);
      break;
    }
    if (b.stride == 0 || b.stride % 4 != 0 || decl.value == 0 ||
        std::uint64_t(b.stride) * decl.value > 65536) {
      return ctx.fail(inst, "groupshared structure size out of range");
    }
    b.type = types.make_array(types.make_array(ir::kU32, b.stride / 4), decl.value);
    break;
  case ResourceLayout::Sampler:
    b.comparison = decl.value == 1;
    break;
  }

  switch (cls) {
  case ResourceClass::Srv:
    b.decl = builder.add(ir::Op::DclSrv(b.type, entry, b.space, b.lower, b.count, b.kind));
    break;
  case ResourceClass::Uav:
    if (decl.uav_flags & uav_flag::kGloballyCoherent)
      b.base_flags = b.base_flags | ir::UavFlags::Coherent;
    if (decl.uav_flags & uav_flag::kRasterizerOrdered)
      b.base_flags = b.base_flags | ir::UavFlags::RasterizerOrdered;
    b.decl = builder.add(uav_declaration(ctx, b));
    if (decl.uav_flags & uav_flag::kHasCounter)
      b.counter = builder.add(ir::Op::DclUavCounter(entry, b.decl));
    break;
  case ResourceClass::Sampler:
    b.decl = builder.add(ir::Op::DclSampler(entry, b.space, b.lower, b.count));
    break;
  case ResourceClass::Tgsm:
    b.decl = builder.add(ir::Op::DclLds(b.type, entry));
    break;
  case ResourceClass::Cbv: // dcl_constantbuffer (convert_declarations.cpp), never a row here
    break;
  }
  name_binding(ctx, b.decl, cls, b.space, b.lower, id);
  if (table.size() <= id) table.resize(id + 1);
  table[id] = b;
  return true;
}

// ---- shared helpers -------------------------------------------------------------------------

bool resource_class_of(OperandType type, ResourceClass& out) {
  switch (type) {
  case OperandType::Resource:
    out = ResourceClass::Srv;
    return true;
  case OperandType::Uav:
    out = ResourceClass::Uav;
    return true;
  case OperandType::Sampler:
    out = ResourceClass::Sampler;
    return true;
  case OperandType::ThreadGroupSharedMemory:
    out = ResourceClass::Tgsm;
    return true;
  default:
    return false;
  }
}

ResourceBinding* find_binding(ConvertContext& ctx, const Instruction& inst, const Operand& op) {
  ResourceClass cls;
  if (!resource_class_of(op.type, cls)) {
    ctx.fail(inst, "expected a t#, u#, s# or g# operand");
    return nullptr;
  }
  if (op.index_dimension < 1) {
    ctx.fail(inst, "resource operand without an immediate register");
    return nullptr;
  }
  std::uint32_t id = op.index[0];
  if (op.has_relative(0)) {
    // convert_choosing_resources() converts such an instruction once per register it may
    // name (SM5.0 t#, u#, s#); anything else here has no register to take.
    id = cls <= ResourceClass::Sampler ? ctx.chosen[std::size_t(cls)] : ResourceState::kNotChosen;
    if (id == ResourceState::kNotChosen) {
      ctx.fail(inst, "a register chosen at run time is supported for SM5.0 t#, u# and s# only "
                     "(class instances' resources)");
      return nullptr;
    }
  }
  std::vector<ResourceBinding>& table = ctx.table(cls);
  if (id >= table.size() || !table[id].decl) {
    ctx.fail(inst, register_name(cls, id) + " is not declared");
    return nullptr;
  }
  return &table[id];
}

ir::SsaDef load_descriptor(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                           const ResourceBinding& binding) {
  ir::SsaDef index = descriptor_index(ctx, inst, op, binding);
  if (!index) return ir::SsaDef();
  // Samplers are void-typed (DclSampler returns void), like their declarations.
  ir::Op load = ir::Op::DescriptorLoad(binding.type, binding.decl, index);
  if (op.non_uniform) load.add_flags(ir::OpFlags::NonUniform);
  return ctx.emit(load);
}

ir::SsaDef load_counter(ConvertContext& ctx, const Instruction& inst, const Operand& op,
                        ResourceBinding& binding) {
  if (!binding.counter)
    binding.counter = ctx.builder().add(ir::Op::DclUavCounter(ctx.entry_point(), binding.decl));
  ir::SsaDef index = descriptor_index(ctx, inst, op, binding);
  if (!index) return ir::SsaDef();
  ir::Op load = ir::Op::DescriptorLoad(ir::kU32, binding.counter, index);
  if (op.non_uniform) load.add_flags(ir::OpFlags::NonUniform);
  return ctx.emit(load);
}

void store_buffer_status(ConvertContext& ctx, const Operands& ops) {
  const Operand& status_dst = ops.dst(1);
  ctx.store_dst_raw(status_dst, replicate(ctx.constant_u32(kStatusMapped), dst_mask(status_dst)),
                    ir::ScalarType::U32);
}

ir::SsaDef emit_with_feedback(ConvertContext& ctx, const Instruction& inst, const Operands& ops,
                              ir::Op op, ir::Type value_type) {
  if (!has_feedback(inst)) return ctx.emit(op.set_type(value_type));
  if (op.code() == ir::OpCode::BufferLoad) {
    store_buffer_status(ctx, ops);
    return ctx.emit(op.set_type(value_type));
  }
  const ir::Type members[2] = {ir::kU32, value_type};
  op.set_type(ctx.builder().types().make_struct(members));
  op.add_flags(ir::OpFlags::SparseFeedback);
  ir::SsaDef result = ctx.emit(op);
  ir::SsaDef code = ctx.emit(ir::Op::CompositeExtract(ir::kU32, result, ctx.constant_u32(0)));
  ir::SsaDef resident = ctx.emit(ir::Op::CheckSparseAccess(code));
  ir::SsaDef status = ctx.emit(ir::Op::Select(ir::kU32, resident, ctx.constant_u32(kStatusMapped),
                                              ctx.constant_u32(kStatusNotMapped)));
  const Operand& status_dst = ops.dst(1);
  ctx.store_dst_raw(status_dst, replicate(status, dst_mask(status_dst)), ir::ScalarType::U32);
  return ctx.emit(ir::Op::CompositeExtract(value_type, result, ctx.constant_u32(1)));
}

void note_uav_usage(ConvertContext& ctx, ResourceBinding& binding, std::uint8_t usage) {
  if ((binding.usage | usage) == binding.usage) return;
  const ir::UavFlags before = uav_flags_of(binding, ctx.typed_uav_read_r32);
  binding.usage |= usage;
  if (uav_flags_of(binding, ctx.typed_uav_read_r32) != before)
    ctx.builder().rewrite_op(binding.decl, uav_declaration(ctx, binding));
}

RovLock::RovLock(ConvertContext& ctx, const ResourceBinding* binding) : ctx_(ctx) {
  if (!binding || !ir::has(binding->base_flags, ir::UavFlags::RasterizerOrdered)) return;
  const bool buffer =
      binding->kind == ir::ResourceKind::RawBuffer || binding->kind == ir::ResourceKind::Structured;
  memory_ = buffer ? ir::MemoryTypeMask::UavBuffer : ir::MemoryTypeMask::UavImage;
  ctx_.emit(ir::Op::RovScopedLockBegin(memory_, ir::RovScope::Pixel));
}

RovLock::~RovLock() {
  if (memory_ != ir::MemoryTypeMask(0)) ctx_.emit(ir::Op::RovScopedLockEnd(memory_));
}

ir::SsaDef add_u32(ConvertContext& ctx, ir::SsaDef value, std::uint32_t k) {
  if (k == 0) return value;
  if (is_constant(ctx, value, ir::kU32))
    return ctx.constant_u32(ir::ops::Constant(ctx.builder().op(value)).values()[0].literal_u32() +
                            k);
  return ctx.emit(ir::Op::IAdd(ir::kU32, value, ctx.constant_u32(k)));
}

ir::SsaDef shr_u32(ConvertContext& ctx, ir::SsaDef value, std::uint32_t k) {
  if (k == 0) return value;
  if (is_constant(ctx, value, ir::kU32))
    return ctx.constant_u32(ir::ops::Constant(ctx.builder().op(value)).values()[0].literal_u32() >>
                            k);
  return ctx.emit(ir::Op::UShr(ir::kU32, value, ctx.constant_u32(k)));
}

ir::SsaDef make_u32x2(ConvertContext& ctx, ir::SsaDef a, ir::SsaDef b) {
  if (is_constant(ctx, a, ir::kU32) && is_constant(ctx, b, ir::kU32)) {
    const std::uint32_t bits[2] = {
        ir::ops::Constant(ctx.builder().op(a)).values()[0].literal_u32(),
        ir::ops::Constant(ctx.builder().op(b)).values()[0].literal_u32()};
    return constant_vector(ctx, ir::ScalarType::U32, bits, 2);
  }
  return ctx.emit(ir::Op::CompositeConstruct(ir::vec(ir::ScalarType::U32, 2), a, b));
}

ir::SsaDef constant_vector(ConvertContext& ctx, ir::ScalarType type, const std::uint32_t* bits,
                           unsigned count) {
  return ctx.builder().add(
      ir::Op::Constant(ir::Type(type, count), std::span<const std::uint32_t>(bits, count)));
}

ImageShape image_shape(ir::ResourceKind kind) {
  ImageShape s;
  switch (kind) {
  case ir::ResourceKind::TypedBuffer:
  case ir::ResourceKind::RawBuffer:
  case ir::ResourceKind::Structured:
    s.buffer = true;
    break;
  case ir::ResourceKind::Image1D:
    s.offset_dims = 1;
    break;
  case ir::ResourceKind::Image1DArray:
    s.offset_dims = 1;
    s.arrayed = true;
    break;
  case ir::ResourceKind::Image2D:
    s.coords = s.size_dims = s.offset_dims = 2;
    break;
  case ir::ResourceKind::Image2DArray:
    s.coords = s.size_dims = s.offset_dims = 2;
    s.arrayed = true;
    break;
  case ir::ResourceKind::Image2DMS:
    s.coords = s.size_dims = s.offset_dims = 2;
    s.multisampled = true;
    break;
  case ir::ResourceKind::Image2DMSArray:
    s.coords = s.size_dims = s.offset_dims = 2;
    s.multisampled = s.arrayed = true;
    break;
  case ir::ResourceKind::Image3D:
    s.coords = s.size_dims = s.offset_dims = 3;
    break;
  case ir::ResourceKind::ImageCube:
    s.coords = 3;
    s.size_dims = 2;
    break;
  case ir::ResourceKind::ImageCubeArray:
    s.coords = 3;
    s.size_dims = 2;
    s.arrayed = true;
    break;
  }
  return s;
}

} // namespace kiln::dxbc
