// Textures, samplers and UAVs whose register an SM5.0 instruction chooses at run time
// (convert_context.h, convert_choosing_resources). fxc indexes a class instance's textures and
// samplers with the register numbers its `this` data holds (docs/abi.md "Class linkage"):
//
//   mov r0.zw, this[0].zzzw
//   sample_indexable(texture2d)(float,float,float,float) r1, v0.xy, t[r0.z + 0], s[r0.w + 0]
//
// SPIR-V for Vulkan cannot hold a descriptor in a value, so the instruction is converted once
// per declared register it may name, under a switch on the number (nested when it chooses
// both a texture and a sampler), and find_binding() takes each way's register from
// ResourceState::chosen. The numbers come from the class-instance selection, uniform per draw,
// so implicit-lod sampling inside the switch keeps its derivatives. A number that names no
// such register reads zeros and writes nothing, as an unbound D3D11 slot does.
#include "translator/dxbc/convert_resources.h"

#include <span>
#include <string>

namespace kiln::dxbc {

namespace {

constexpr std::uint64_t kMaxWays = 4096; // conversions of one instruction, all choices together

// The declared registers a run-time-chosen operand of an instruction may name: those of its
// class with the kind the instruction's resource-dimension token gives (samplers: all).
struct Candidates {
  bool any_kind = true;
  ir::ResourceKind kind = ir::ResourceKind::TypedBuffer;
  bool allows(const ResourceBinding& b) const { return b.decl && (any_kind || b.kind == kind); }
};

struct Choice {
  ResourceClass cls;
  ir::SsaDef reg; // the register number (u32), read before the switch
  Candidates candidates;
};

bool chosen_at_run_time(const Operand& op, ResourceClass& cls) {
  return op.index_dimension >= 1 && op.has_relative(0) && resource_class_of(op.type, cls) &&
         cls <= ResourceClass::Sampler;
}

// Without the token (not fxc's SM5.0 output) the class's declared registers must share one
// kind: false after ctx.fail() when they do not.
bool candidates_of(ConvertContext& ctx, const Instruction& inst, ResourceClass cls,
                   Candidates& out) {
  out = Candidates{};
  if (cls == ResourceClass::Sampler) return true;
  out.any_kind = false;
  if (inst.flags & instruction_flag::kResourceDimension) {
    if (inst.resource_dimension == ResourceDimension::RawBuffer) {
      out.kind = ir::ResourceKind::RawBuffer;
      return true;
    }
    if (inst.resource_dimension == ResourceDimension::StructuredBuffer) {
      out.kind = ir::ResourceKind::Structured;
      return true;
    }
    if (kind_of_dimension(inst.resource_dimension, out.kind)) return true;
    ctx.fail(inst, "unknown dimension in the instruction's resource-dimension token");
    return false;
  }
  bool first = true;
  for (const ResourceBinding& b : ctx.table(cls)) {
    if (!b.decl) continue;
    if (first) {
      out.kind = b.kind;
      first = false;
    } else if (b.kind != out.kind) {
      ctx.fail(inst, std::string(cls == ResourceClass::Srv ? "t" : "u") +
                         "# register chosen at run time among declarations of different "
                         "dimensions, without a resource-dimension token to pick them");
      return false;
    }
  }
  return true;
}

// The register destinations of `inst` (not the resource it writes) get zeros.
void zero_destinations(ConvertContext& ctx, const Instruction& inst) {
  auto ops = ctx.program().operands_of(inst);
  const unsigned dsts = opcode_info(inst.opcode).dst_count;
  const ir::SsaDef zero = ctx.constant_u32(0);
  for (unsigned i = 0; i < dsts && i < ops.size(); ++i) {
    ResourceClass cls;
    if (ops[i].type == OperandType::Null || resource_class_of(ops[i].type, cls)) continue;
    ctx.store_dst_raw(ops[i], replicate(zero, dst_mask(ops[i])), ir::ScalarType::U32);
  }
}

// switch (register) { case each allowed declared register: the instruction with it (the next
// choice nested inside); default: zero destinations }.
void choose(ConvertContext& ctx, const Instruction& inst, std::span<const Choice> choices,
            ConvertOnce convert) {
  if (choices.empty()) {
    convert(ctx, inst); // a report lands in the sink, which the loop below and the walk check
    return;
  }
  const Choice& c = choices.front();
  ir::Builder& b = ctx.builder();
  const ir::SsaDef sw = ctx.emit(ir::Op::ScopedSwitch(ir::SsaDef(), c.reg));
  for (std::uint32_t id = 0; id < ctx.table(c.cls).size() && ctx.ok(); ++id) {
    if (!c.candidates.allows(ctx.table(c.cls)[id])) continue;
    ctx.emit(ir::Op::ScopedSwitchCase(sw, id));
    ctx.chosen[std::size_t(c.cls)] = id;
    choose(ctx, inst, choices.subspan(1), convert);
    ctx.chosen[std::size_t(c.cls)] = ResourceState::kNotChosen;
    ctx.emit(ir::Op::ScopedSwitchBreak(sw));
  }
  if (!ctx.ok()) return;
  ctx.emit(ir::Op::ScopedSwitchDefault(sw));
  zero_destinations(ctx, inst);
  ctx.emit(ir::Op::ScopedSwitchBreak(sw));
  b.rewrite_op(sw, ir::Op::ScopedSwitch(ctx.emit(ir::Op::ScopedEndSwitch(sw)), c.reg));
}

} // namespace

bool convert_choosing_resources(ConvertContext& ctx, const Instruction& inst, ConvertOnce convert) {
  const Program& p = ctx.program();
  if (p.is_sm51()) return false; // SM5.1 ranges are indexed as descriptor arrays
  // A register chosen at run time is a relative index: without any in the program (most
  // shaders), no instruction needs the operand walk below.
  if (p.relative.empty()) return false;
  Choice choices[3];
  std::size_t count = 0;
  std::uint64_t ways = 1;
  for (const Operand& op : p.operands_of(inst)) {
    ResourceClass cls;
    if (!chosen_at_run_time(op, cls)) continue;
    for (std::size_t i = 0; i < count; ++i) {
      if (choices[i].cls != cls) continue;
      ctx.fail(inst, "two registers of one class chosen at run time");
      return true;
    }
    Choice& c = choices[count++];
    c.cls = cls;
    if (!candidates_of(ctx, inst, cls, c.candidates)) return true;
    c.reg = ctx.load_index(op, 0); // before the switch: the instruction may overwrite it
    if (!c.reg) return true;
    std::uint64_t n = 1; // the default way: no declared register of the right kind
    for (const ResourceBinding& b : ctx.table(cls)) n += c.candidates.allows(b);
    ways *= n;
  }
  if (count == 0) return false;
  if (ways > kMaxWays) {
    ctx.fail(inst, "registers chosen at run time may name more than " + std::to_string(kMaxWays) +
                       " combinations of declared registers");
    return true;
  }
  choose(ctx, inst, std::span<const Choice>(choices, count), convert);
  return true;
}

} // namespace kiln::dxbc
