// Buffer-side resource instructions of the DXBC -> IR converter: ld_raw/ld_structured (SRV,
// UAV, TGSM), store_raw/store_structured, bufinfo, atomic_* and imm_atomic_* (buffers, typed
// UAVs, TGSM), imm_atomic_alloc/consume, sync, check_access_fully_mapped. See
// convert_resources.h for the mapping decisions.
#include "translator/dxbc/convert_dispatch.h"
#include "translator/dxbc/convert_resources.h"

namespace kiln::dxbc {

namespace {

using ir::ScalarType;
using ir::SsaDef;

// A raw or structured access: where the dwords are (a descriptor or a DclLds) and the address
// of the first dword: raw buffers index u32[] by dword, structured ones u32[n][] by
// (structure, dword).
struct DwordAccess {
  ResourceBinding* binding = nullptr;
  SsaDef desc; // DescriptorLoad (t#/u#); null for g#
  bool lds = false;
  bool structured = false;
  SsaDef structure; // structured: the structure index
  SsaDef dword;     // first dword (byte address >> 2)
};

// Resolves the resource operand of a raw (`structured` false) or structured access and loads
// its descriptor. False after ctx.fail().
bool open_access(ConvertContext& ctx, const Instruction& inst, const Operand& res_op,
                 bool structured, DwordAccess& a) {
  a.binding = find_binding(ctx, inst, res_op);
  if (!a.binding) return false;
  if (res_op.type == OperandType::Sampler) {
    ctx.fail(inst, "expects a buffer, not a sampler");
    return false;
  }
  const ir::ResourceKind want =
      structured ? ir::ResourceKind::Structured : ir::ResourceKind::RawBuffer;
  if (a.binding->kind != want) {
    ctx.fail(inst, structured ? "expects a structured buffer" : "expects a raw buffer");
    return false;
  }
  a.structured = structured;
  a.lds = res_op.type == OperandType::ThreadGroupSharedMemory;
  if (!a.lds) {
    a.desc = load_descriptor(ctx, inst, res_op, *a.binding);
    if (!a.desc) return false;
  }
  return true;
}

// Address of dword `component` after the first one.
SsaDef dword_address(ConvertContext& ctx, const DwordAccess& a, std::uint32_t component) {
  SsaDef dword = add_u32(ctx, a.dword, component);
  return a.structured ? make_u32x2(ctx, a.structure, dword) : dword;
}

// Reads the address sources: raw (byte address) or structured (index, byte offset).
void load_address(ConvertContext& ctx, const Operands& ops, DwordAccess& a) {
  if (a.structured) {
    a.structure = ctx.load_src_scalar(ops.src(0), ScalarType::U32);
    a.dword = shr_u32(ctx, ctx.load_src_scalar(ops.src(1), ScalarType::U32), 2);
  } else {
    a.dword = shr_u32(ctx, ctx.load_src_scalar(ops.src(0), ScalarType::U32), 2);
  }
}

} // namespace

// ld_raw, ld_structured (and _s) on SRVs, UAVs and TGSM.
bool load_dwords(ConvertContext& ctx, const Instruction& inst) {
  const bool structured =
      inst.opcode == Opcode::LdStructured || inst.opcode == Opcode::LdStructuredS;
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.src(structured ? 2 : 1);
  DwordAccess a;
  if (!open_access(ctx, inst, res_op, structured, a)) return false;
  if (res_op.type == OperandType::Uav) note_uav_usage(ctx, *a.binding, uav_usage::kRead);
  RovLock lock(ctx, res_op.type == OperandType::Uav ? a.binding : nullptr);
  load_address(ctx, ops, a);
  const Operand& dst = ops.dst(0);

  if (has_feedback(inst)) {
    if (a.lds) {
      return ctx.fail(inst, "sparse feedback on groupshared memory");
    }
    store_buffer_status(ctx, ops); // buffers are never partially resident
  }
  SsaDef dwords[4] = {};
  Vec4 out;
  for (unsigned i = 0; i < 4; ++i) {
    if (!(dst_mask(dst) & (1u << i))) continue;
    const unsigned c = res_op.component(i);
    if (!dwords[c]) {
      SsaDef address = dword_address(ctx, a, c);
      dwords[c] = a.lds ? ctx.emit(ir::Op::LdsLoad(ir::kU32, a.binding->decl, address))
                        : ctx.emit(ir::Op::BufferLoad(ir::kU32, a.desc, address, 4u));
    }
    out[i] = dwords[c];
  }
  ctx.store_dst_raw(dst, out, ScalarType::U32);
  return true;
}

// store_raw, store_structured on UAVs and TGSM.
bool store_dwords(ConvertContext& ctx, const Instruction& inst) {
  const bool structured = inst.opcode == Opcode::StoreStructured;
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.dst(0);
  DwordAccess a;
  if (!open_access(ctx, inst, res_op, structured, a)) return false;
  if (res_op.type == OperandType::Resource) {
    return ctx.fail(inst, "stores to a read-only resource");
  }
  if (res_op.type == OperandType::Uav) note_uav_usage(ctx, *a.binding, uav_usage::kWrite);
  RovLock lock(ctx, res_op.type == OperandType::Uav ? a.binding : nullptr);
  load_address(ctx, ops, a);
  // Component c of the write mask goes to dword c after the address.
  const Vec4 values = ctx.load_src(ops.src(structured ? 2 : 1), res_op.mask, ScalarType::U32);
  for (unsigned c = 0; c < 4; ++c) {
    if (!(res_op.mask & (1u << c))) continue;
    SsaDef address = dword_address(ctx, a, c);
    if (a.lds)
      ctx.emit(ir::Op::LdsStore(a.binding->decl, address, values[c]));
    else
      ctx.emit(ir::Op::BufferStore(a.desc, address, values[c], 4u));
  }
  return true;
}

// bufinfo: element count (typed), structure count (structured) or byte size (raw).
bool bufinfo(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& res_op = ops.src(0);
  ResourceBinding* res = find_binding(ctx, inst, res_op);
  if (!res) return false;
  if (!image_shape(res->kind).buffer ||
      (res_op.type != OperandType::Resource && res_op.type != OperandType::Uav)) {
    return ctx.fail(inst, "bufinfo needs a buffer (use resinfo for textures)");
  }
  SsaDef desc = load_descriptor(ctx, inst, res_op, *res);
  if (!desc) return false;
  SsaDef size = ctx.emit(ir::Op::BufferQuerySize(desc));
  if (res->kind == ir::ResourceKind::RawBuffer)
    size = ctx.emit(ir::Op::IShl(ir::kU32, size, ctx.constant_u32(2)));
  const Operand& dst = ops.dst(0);
  ctx.store_dst(inst, dst, replicate(size, dst_mask(dst)), ScalarType::U32);
  return true;
}

namespace {

// The IR operation of each atomic_* and imm_atomic_* (the opcodes whose handler is atomic).
struct AtomicRow {
  Opcode opcode = Opcode::AtomicAnd;
  ir::AtomicOp op = ir::AtomicOp::And;
};
constexpr AtomicRow kAtomicRows[] = {
    {Opcode::AtomicAnd, ir::AtomicOp::And},
    {Opcode::AtomicOr, ir::AtomicOp::Or},
    {Opcode::AtomicXor, ir::AtomicOp::Xor},
    {Opcode::AtomicCmpStore, ir::AtomicOp::CompareExchange},
    {Opcode::AtomicIAdd, ir::AtomicOp::Add},
    {Opcode::AtomicIMax, ir::AtomicOp::SMax},
    {Opcode::AtomicIMin, ir::AtomicOp::SMin},
    {Opcode::AtomicUMax, ir::AtomicOp::UMax},
    {Opcode::AtomicUMin, ir::AtomicOp::UMin},
    {Opcode::ImmAtomicIAdd, ir::AtomicOp::Add},
    {Opcode::ImmAtomicAnd, ir::AtomicOp::And},
    {Opcode::ImmAtomicOr, ir::AtomicOp::Or},
    {Opcode::ImmAtomicXor, ir::AtomicOp::Xor},
    {Opcode::ImmAtomicExch, ir::AtomicOp::Exchange},
    {Opcode::ImmAtomicCmpExch, ir::AtomicOp::CompareExchange},
    {Opcode::ImmAtomicIMax, ir::AtomicOp::SMax},
    {Opcode::ImmAtomicIMin, ir::AtomicOp::SMin},
    {Opcode::ImmAtomicUMax, ir::AtomicOp::UMax},
    {Opcode::ImmAtomicUMin, ir::AtomicOp::UMin},
};
constexpr OpcodeRows kAtomicOps(kAtomicRows);
static_assert(kAtomicOps.covers({"atomic"}),
              "kAtomicOps: one row per opcode whose handler is atomic, in opcode order");

} // namespace

// atomic_* (no result) and imm_atomic_* (old value to the first destination) on raw and
// structured buffers, typed UAVs and TGSM.
bool atomic(ConvertContext& ctx, const Instruction& inst) {
  const ir::AtomicOp atomic = kAtomicOps[inst.opcode].op;
  const Operands ops = operands_of(ctx, inst);
  const bool returns = ops.dsts == 2;
  const Operand& res_op = ops.dst(returns ? 1 : 0);
  if (res_op.type != OperandType::Uav && res_op.type != OperandType::ThreadGroupSharedMemory) {
    return ctx.fail(inst, "atomics need a u# or g# destination");
  }
  ResourceBinding* res = find_binding(ctx, inst, res_op);
  if (!res) return false;
  const ImageShape shape = image_shape(res->kind);
  const bool typed =
      res->kind != ir::ResourceKind::RawBuffer && res->kind != ir::ResourceKind::Structured;
  // The operand and result type is the resource's element type (u32 for raw, structured and
  // TGSM; the declared integer type for typed UAVs); the AtomicOp carries signedness.
  const ScalarType type = res->sampled;
  if (typed && type == ScalarType::F32) {
    return ctx.fail(inst, "atomics on a float-typed UAV");
  }
  if (typed && shape.multisampled) {
    return ctx.fail(inst, "atomics on a multisampled UAV");
  }
  const bool lds = res_op.type == OperandType::ThreadGroupSharedMemory;
  SsaDef desc;
  RovLock lock(ctx, lds ? nullptr : res);
  if (!lds) {
    note_uav_usage(ctx, *res, uav_usage::kAtomic);
    desc = load_descriptor(ctx, inst, res_op, *res);
    if (!desc) return false;
  }

  SsaDef operand = ctx.load_src_scalar(ops.src(1), type);
  if (atomic == ir::AtomicOp::CompareExchange) {
    // (value to compare with, value to store).
    SsaDef value = ctx.load_src_scalar(ops.src(2), type);
    operand = ctx.emit(ir::Op::CompositeConstruct(ir::vec(type, 2), operand, value));
  }
  const ir::Type result = returns ? ir::Type(type) : ir::kVoid;
  const Operand& addr = ops.src(0);
  SsaDef value;
  if (typed) {
    // Typed UAVs, texel buffers included, are images: ImageAtomic with the element index as
    // the coordinate of a buffer.
    SsaDef coord, layer;
    if (shape.buffer) {
      coord = ctx.load_src_scalar(addr, ScalarType::U32);
    } else {
      coord = ctx.load_src_vector(addr, shape.coords, ScalarType::U32);
      if (shape.arrayed)
        layer = ctx.load_src(addr, std::uint8_t(1u << shape.coords), ScalarType::U32)[shape.coords];
    }
    value = ctx.emit(ir::Op::ImageAtomic(result, desc, layer, coord, operand, atomic));
  } else {
    SsaDef address;
    if (res->kind == ir::ResourceKind::Structured) {
      const Vec4 xy = ctx.load_src(addr, 3, ScalarType::U32);
      address = make_u32x2(ctx, xy[0], shr_u32(ctx, xy[1], 2));
    } else {
      address = shr_u32(ctx, ctx.load_src_scalar(addr, ScalarType::U32), 2);
    }
    value = lds ? ctx.emit(ir::Op::LdsAtomic(result, res->decl, address, operand, atomic))
                : ctx.emit(ir::Op::BufferAtomic(result, desc, address, operand, atomic));
  }
  if (returns) ctx.store_dst_raw(ops.dst(0), replicate(value, dst_mask(ops.dst(0))), type);
  return true;
}

// imm_atomic_alloc / imm_atomic_consume on the UAV's hidden counter.
bool uav_counter(ConvertContext& ctx, const Instruction& inst) {
  const bool increment = inst.opcode == Opcode::ImmAtomicAlloc;
  const Operands ops = operands_of(ctx, inst);
  const Operand& uav_op = ops.src(0);
  if (uav_op.type != OperandType::Uav) {
    return ctx.fail(inst, "expects a u# operand");
  }
  ResourceBinding* uav = find_binding(ctx, inst, uav_op);
  if (!uav) return false;
  SsaDef counter = load_counter(ctx, inst, uav_op, *uav);
  if (!counter) return false;
  SsaDef value = ctx.emit(
      ir::Op::CounterAtomic(ir::kU32, counter, increment ? ir::AtomicOp::Inc : ir::AtomicOp::Dec));
  // alloc returns the old count; consume returns the decremented one.
  if (!increment) value = ctx.emit(ir::Op::ISub(ir::kU32, value, ctx.constant_u32(1)));
  ctx.store_dst_raw(ops.dst(0), replicate(value, dst_mask(ops.dst(0))), ScalarType::U32);
  return true;
}

// sync: execution scope from _t, memory scope and kinds from _g / _ugroup / _uglobal.
bool sync(ConvertContext& ctx, const Instruction& inst) {
  const std::uint32_t c = inst.controls;
  const bool threads = (c & control::kSyncThreadsInGroup) != 0;
  ir::MemoryTypeMask memory = ir::MemoryTypeMask(0);
  ir::Scope memory_scope = ir::Scope::Thread;
  if (c & control::kSyncGroupSharedMemory) {
    memory = memory | ir::MemoryTypeMask::Lds;
    memory_scope = ir::Scope::Workgroup;
  }
  if (c & (control::kSyncUavGroup | control::kSyncUavGlobal)) {
    memory = memory | ir::MemoryTypeMask::UavBuffer | ir::MemoryTypeMask::UavImage;
    memory_scope = (c & control::kSyncUavGlobal) ? ir::Scope::Global : ir::Scope::Workgroup;
  }
  if (!threads && memory == ir::MemoryTypeMask(0)) return true; // a sync with no flags does nothing
  if (threads && ctx.program_type() != ProgramType::Compute &&
      ctx.program_type() != ProgramType::Hull) {
    return ctx.fail(inst, "thread-group sync outside compute and hull shaders");
  }
  const ir::Scope exec = threads ? ir::Scope::Workgroup : ir::Scope::Thread;
  if (threads && memory_scope == ir::Scope::Thread) memory_scope = ir::Scope::Workgroup;
  ctx.emit(ir::Op::Barrier(exec, memory_scope, memory));
  return true;
}

// The status is kiln's (kStatusMapped or not, see emit_with_feedback), not a Vulkan residency
// code: a compare, which folds away for the constant status of buffer loads.
bool check_access_mapped(ConvertContext& ctx, const Instruction& inst) {
  const Operands ops = operands_of(ctx, inst);
  const Operand& dst = ops.dst(0);
  const Vec4 status = ctx.load_src(ops.src(0), dst_mask(dst), ScalarType::U32);
  const SsaDef all = ctx.constant_u32(0xffffffffu);
  const SsaDef none = ctx.constant_u32(0);
  Vec4 out;
  for (unsigned i = 0; i < 4; ++i) {
    if (!status[i]) continue;
    SsaDef mapped = ctx.emit(ir::Op::IEq(status[i], ctx.constant_u32(kStatusMapped)));
    out[i] = ctx.emit(ir::Op::Select(ir::kU32, mapped, all, none));
  }
  ctx.store_dst_raw(dst, out, ScalarType::U32);
  return true;
}

} // namespace kiln::dxbc
