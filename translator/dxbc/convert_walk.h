#pragma once
// Internal to the DXBC -> IR converter: the walk over Program::instructions, which hands each
// one to its handler (dispatch(), generated from the opcode table; convert_dispatch.h). Its
// state is ConvertContext's WalkState part (convert_state.h); its handlers (control flow,
// calls, hull-shader phases) are declared with the others in convert_dispatch.h.
// converter.cpp: the walk, declarations' stage checks, hull-shader phases; convert_flow.cpp:
// scoped control flow; convert_calls.cpp: subroutines and class-linkage function bodies,
// inlined where they are called.

#include "translator/dxbc/convert_core.h"
#include "translator/dxbc/convert_dispatch.h"
#include "translator/ir/ir.h"

#include <cstdint>

namespace kiln::dxbc {

// The operand and the relative-address operands of its indices carry the indices their
// register files need (damaged operand tokens are stopped here, once per instruction).
bool operands_indexed(const Program& program, const Instruction& inst);

// converter.cpp: the walk over the program in `ctx` (reset for it); the stage's Status.
Status convert_program(ConvertContext& ctx);

// convert_dispatch.cpp: the one switch over the opcode table's handler column.
bool dispatch(ConvertContext& ctx, const Instruction& inst);

// converter.cpp
void read_array_sizes(ConvertContext& ctx);
bool declaration(ConvertContext& ctx, const Instruction& inst);
bool instruction(ConvertContext& ctx, const Instruction& inst);
void open_function(ConvertContext& ctx, ir::SsaDef param = {});
void close_function(ConvertContext& ctx);
ir::SsaDef open_instance_loop(ConvertContext& ctx, std::uint32_t instances, ir::SsaDef& counter);
void close_instance_loop(ConvertContext& ctx, ir::SsaDef counter, ir::SsaDef loop);
void call_phases(ConvertContext& ctx);
void end_phase(ConvertContext& ctx);
void open_phase_body(ConvertContext& ctx);
void finish_declarations(ConvertContext& ctx);

// convert_calls.cpp
void find_labels(ConvertContext& ctx);
bool inline_body(ConvertContext& ctx, std::uint32_t label);
void body_return(ConvertContext& ctx, const Instruction& inst);
void leave_returned_body(ConvertContext& ctx);
void guard_rest_of_block(ConvertContext& ctx);

// convert_flow.cpp
void close_guards(ConvertContext& ctx);
void closed_construct(ConvertContext& ctx, bool returns);
void conditional(ConvertContext& ctx, const Instruction& inst, const ir::Op& op);

inline ir::SsaDef condition(ConvertContext& ctx, const Instruction& inst, const Operand& op) {
  ir::SsaDef v = ctx.load_src_scalar(op, ir::ScalarType::U32);
  if (!v) return {};
  return inst.test_nonzero() ? ctx.emit(ir::Op::INe(v, ctx.constant_u32(0)))
                             : ctx.emit(ir::Op::IEq(v, ctx.constant_u32(0)));
}
inline FlowEntry* innermost(ConvertContext& ctx, bool loops_only) {
  for (std::size_t i = ctx.flow.size(); i-- > ctx.phase_base;) {
    FlowEntry& e = ctx.flow[i];
    if (e.kind == FlowEntry::Kind::Loop || (!loops_only && e.kind == FlowEntry::Kind::Switch))
      return &e;
  }
  return nullptr;
}
inline ir::Op break_of(const FlowEntry& target) {
  return target.kind == FlowEntry::Kind::Switch ? ir::Op::ScopedSwitchBreak(target.op)
                                                : ir::Op::ScopedLoopBreak(target.op);
}

} // namespace kiln::dxbc
