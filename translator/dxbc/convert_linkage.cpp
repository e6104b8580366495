// D3D11 class linkage (dynamic shader linkage) in the DXBC converter: the declarations, the
// class-instance selection an fcall switches on, the `this` register, and constant buffers
// chosen at run time (textures and samplers: convert_resources_chosen.cpp). The function bodies
// themselves are inlined at each call by the driver (convert_calls.cpp), so the temporaries
// they share with their callers stay plain temporaries.
//
// The selection (docs/abi.md, "Class linkage"): per interface slot two vec4<u32>, the `this`
// data then the function table number in .x. It is read from a constant buffer at the
// interface's selection register (per draw), or baked in as constants (fixed instances).
#include "kiln/kiln_interface.h"
#include "translator/common/shader_interface.h"
#include "translator/dxbc/convert_core.h"
#include "translator/dxbc/convert_dispatch.h"

#include <string>

namespace kiln::dxbc {

using ir::Op;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

namespace {

constexpr std::uint32_t kMaxNumber = 1u << 16; // fb#, ft#, fp# beyond this are bad input
constexpr std::uint32_t kMaxSlots = 253;       // D3D11's bound on interface slots
constexpr std::uint32_t kVectorsPerSlot = 2;   // this data, function table
constexpr std::uint32_t kTableVector = 1;

void set_entry(std::vector<std::uint32_t>& by_number, std::uint32_t number, std::uint32_t value) {
  if (by_number.size() <= number) by_number.resize(number + 1, Linkage::kNone);
  by_number[number] = value;
}

std::uint32_t space_of(const Linkage& l) {
  return l.options ? l.options->space : KILN_CLASS_LINKAGE_DEFAULT_SPACE;
}
std::uint32_t register_of(const Linkage& l) {
  return l.options ? l.options->register_index : KILN_CLASS_LINKAGE_DEFAULT_REGISTER;
}

// The fixed selection as one Constant vec4<u32>[2 * slots] (made on first use).
SsaDef fixed_selection(ConvertContext& ctx) {
  Linkage& l = ctx.linkage;
  if (l.fixed) return l.fixed;
  auto& literals = ctx.literals;
  literals.clear();
  const auto& instances = l.options->fixed_instances;
  for (std::uint32_t slot = 0; slot < l.slot_count; ++slot) {
    ClassInstance c = slot < instances.size() ? instances[slot] : ClassInstance{};
    for (std::uint32_t v : c.this_data) literals.push_back(ir::Operand::literal(v));
    for (std::uint32_t v : {c.function_table, 0u, 0u, 0u})
      literals.push_back(ir::Operand::literal(v));
  }
  Type t =
      ctx.builder().types().make_array(ir::vec(ScalarType::U32, 4), l.slot_count * kVectorsPerSlot);
  l.fixed = ctx.builder().add(Op::with_operands(ir::OpCode::Constant, t, literals, 0));
  return l.fixed;
}

// The selection buffer's descriptor in the current function (declared on first use).
SsaDef selection_descriptor(ConvertContext& ctx) {
  Linkage& l = ctx.linkage;
  if (!l.selection) {
    const std::uint32_t reg = register_of(l);
    if (reg < ctx.cbvs.size() && ctx.cbvs[reg].dcl && !ctx.program().is_sm51()) {
      ctx.fail(ctx.here(),
               "the class-instance selection register cb" + std::to_string(reg) +
                   " is a constant buffer of the shader (choose another in the interface)");
      return {};
    }
    Type t = ctx.builder().types().make_array(ir::vec(ScalarType::F32, 4),
                                              l.slot_count * kVectorsPerSlot);
    l.selection = ctx.builder().add(Op::DclCbv(t, ctx.entry_point(), space_of(l), reg, 1)
                                        .set_flags(ir::OpFlags::ClassInstances));
  }
  if (!l.descriptor || l.descriptor_stamp != ctx.function_stamp) {
    l.descriptor = ctx.builder().add_after(
        ctx.label, Op::DescriptorLoad(ir::kF32, l.selection, ctx.constant_u32(0)));
    l.descriptor_stamp = ctx.function_stamp;
  }
  return l.descriptor;
}

// Component `c` of selection vector `vector` (u32, the slot already clamped) of the slot.
SsaDef selection_component(ConvertContext& ctx, SsaDef slot, std::uint32_t vector, unsigned c) {
  Linkage& l = ctx.linkage;
  SsaDef index = ctx.emit(Op::IMul(ir::kU32, slot, ctx.constant_u32(kVectorsPerSlot)));
  if (vector) index = ctx.emit(Op::IAdd(ir::kU32, index, ctx.constant_u32(vector)));
  if (l.options && l.options->fixed()) {
    SsaDef addr =
        ctx.emit(Op::CompositeConstruct(ir::vec(ScalarType::U32, 2), index, ctx.constant_u32(c)));
    return ctx.emit(Op::ConstantLoad(ir::kU32, fixed_selection(ctx), addr));
  }
  SsaDef desc = selection_descriptor(ctx);
  if (!desc) return {};
  SsaDef v = ctx.emit(Op::BufferLoad(ir::vec(ScalarType::F32, 4), desc, index, 16u));
  SsaDef f = ctx.emit(Op::CompositeExtract(ir::kF32, v, ctx.constant_u32(c)));
  return ctx.bitcast(f, ScalarType::F32, ScalarType::U32);
}

// The interface slot `base` + index `dim` of `op` names, clamped into the declared slots.
SsaDef slot_of(ConvertContext& ctx, const Operand& op, std::uint32_t base, unsigned dim) {
  Linkage& l = ctx.linkage;
  SsaDef slot = ctx.load_index(op, dim);
  if (!slot) return {};
  if (base) slot = ctx.emit(Op::IAdd(ir::kU32, slot, ctx.constant_u32(base)));
  return ctx.emit(Op::UMin(ir::kU32, slot, ctx.constant_u32(l.slot_count - 1)));
}

} // namespace

bool dcl_function_body(ConvertContext& ctx, const Instruction& inst) {
  const Declaration& d = ctx.program().declarations[inst.declaration];
  Linkage& l = ctx.linkage;
  if (d.value >= kMaxNumber) {
    return ctx.fail(inst, "function body number out of range");
  }
  if (l.bodies.size() <= d.value) l.bodies.resize(d.value + 1, 0);
  l.bodies[d.value] = 1;
  return true;
}

bool dcl_function_table(ConvertContext& ctx, const Instruction& inst) {
  const Program& p = ctx.program();
  const Declaration& d = p.declarations[inst.declaration];
  Linkage& l = ctx.linkage;
  if (d.value >= kMaxNumber) {
    return ctx.fail(inst, "function table number out of range");
  }
  for (std::uint32_t i = 0; i < d.list_count; ++i) {
    const std::uint32_t fb = p.lists[d.list_first + i];
    if (fb >= l.bodies.size() || !l.bodies[fb]) {
      return ctx.fail(inst, "function table ft" + std::to_string(d.value) + " names fb" +
                                std::to_string(fb) + ", which is not declared");
    }
  }
  set_entry(l.tables, d.value, inst.declaration);
  return true;
}

bool dcl_interface(ConvertContext& ctx, const Instruction& inst) {
  const Program& p = ctx.program();
  const Declaration& d = p.declarations[inst.declaration];
  Linkage& l = ctx.linkage;
  const std::uint32_t fp = d.value, size = d.value2;
  if (fp >= kMaxSlots || size == 0 || size > kMaxSlots - fp) {
    return ctx.fail(inst, "interface slots beyond D3D11's 253");
  }
  for (std::uint32_t i = 0; i < d.list_count; ++i) {
    const std::uint32_t ft = p.lists[d.list_first + i];
    if (ft >= l.tables.size() || l.tables[ft] == Linkage::kNone) {
      return ctx.fail(inst, "interface fp" + std::to_string(fp) + " names ft" + std::to_string(ft) +
                                ", which is not declared");
    }
  }
  set_entry(l.interfaces, fp, inst.declaration);
  if (fp + size > l.slot_count) l.slot_count = fp + size;
  return true;
}

SsaDef linkage_call(ConvertContext& ctx, const Instruction& inst,
                    std::vector<CallTarget>& targets) {
  Linkage& l = ctx.linkage;
  const Program& p = ctx.program();
  const Operand& fp = p.operands[inst.first_operand];
  const std::uint32_t site = p.declarations[inst.declaration].value;
  if (fp.type != OperandType::Interface || fp.index_dimension < 2) {
    ctx.fail(inst, "fcall without an interface operand fp#[index]");
    return {};
  }
  // The slot's interface: the declaration whose slots contain fp# (fcall fp5[1] is fp4[2] of
  // an fp4[4] array).
  const std::uint32_t number = fp.index[0];
  const Declaration* decl = nullptr;
  for (std::uint32_t base = 0; base < l.interfaces.size() && base <= number; ++base) {
    if (l.interfaces[base] == Linkage::kNone) continue;
    const Declaration& d = p.declarations[l.interfaces[base]];
    if (number < base + d.value2) decl = &d;
  }
  if (!decl) {
    ctx.fail(inst, "fcall through fp" + std::to_string(number) + ", which is not declared");
    return {};
  }
  const std::size_t first = targets.size();
  for (std::uint32_t i = 0; i < decl->list_count; ++i) {
    const std::uint32_t ft = p.lists[decl->list_first + i];
    const Declaration& table = p.declarations[l.tables[ft]];
    if (site >= table.list_count) {
      ctx.fail(inst, "call site " + std::to_string(site) + " is beyond function table ft" +
                         std::to_string(ft) + " (" + std::to_string(table.list_count) + " bodies)");
      return {};
    }
    bool seen = false;
    for (std::size_t t = first; t < targets.size(); ++t) seen = seen || targets[t].table == ft;
    if (!seen) targets.push_back({ft, p.lists[table.list_first + site]});
  }
  SsaDef slot = slot_of(ctx, fp, number, 1);
  if (!slot) return {};
  return selection_component(ctx, slot, kTableVector, 0);
}

SsaDef linkage_this(ConvertContext& ctx, const Operand& op, unsigned component) {
  Linkage& l = ctx.linkage;
  if (!l.slot_count || op.index_dimension < 1) {
    ctx.fail(ctx.here(), "this register read without an interface declaration");
    return {};
  }
  if (!op.has_relative(0) && op.index[0] >= l.slot_count) {
    ctx.fail(ctx.here(),
             "this[" + std::to_string(op.index[0]) + "] is beyond the declared interfaces");
    return {};
  }
  SsaDef slot = slot_of(ctx, op, 0, 0);
  if (!slot) return {};
  return selection_component(ctx, slot, 0, component);
}

SsaDef linkage_cbv_vector(ConvertContext& ctx, const Operand& op) {
  if (ctx.program().is_sm51()) {
    ctx.fail(ctx.here(), "constant buffer range index chosen at run time in an SM5.1 operand");
    return {};
  }
  SsaDef reg = ctx.load_index(op, 0);
  SsaDef vector = ctx.load_index(op, 1);
  if (!reg || !vector) return {};
  // Every declared constant buffer is read (its index clamped into it) and the one the
  // register names is kept: descriptors cannot be selected as values.
  const Type v4 = ir::vec(ScalarType::F32, 4);
  SsaDef parts[4];
  for (unsigned c = 0; c < 4; ++c) parts[c] = ctx.constant_f32(0.0f);
  for (std::uint32_t id = 0; id < ctx.cbvs.size(); ++id) {
    auto& cb = ctx.cbvs[id];
    if (!cb.dcl) continue;
    if (!cb.descriptor)
      cb.descriptor = ctx.builder().add_after(
          ctx.label, Op::DescriptorLoad(ir::kF32, cb.dcl, ctx.constant_u32(0)));
    SsaDef index = ctx.emit(Op::UMin(ir::kU32, vector, ctx.constant_u32(cb.size - 1)));
    SsaDef v = ctx.emit(Op::BufferLoad(v4, cb.descriptor, index, 16u));
    SsaDef chosen = ctx.emit(Op::IEq(reg, ctx.constant_u32(id)));
    for (unsigned c = 0; c < 4; ++c) {
      SsaDef x = ctx.emit(Op::CompositeExtract(ir::kF32, v, ctx.constant_u32(c)));
      parts[c] = ctx.emit(Op::Select(ir::kF32, chosen, x, parts[c]));
    }
  }
  return ctx.emit(Op::CompositeConstruct(v4, parts[0], parts[1], parts[2], parts[3]));
}

} // namespace kiln::dxbc
