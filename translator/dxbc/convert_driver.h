#pragma once
// Internal to the DXBC -> IR converter: the driver that walks Program::instructions and hands
// each one to its handler (dispatch(), generated from the opcode table; convert_dispatch.h).
// converter.cpp: the walk, declarations' stage checks, hull-shader phases; convert_flow.cpp:
// scoped control flow; convert_calls.cpp: subroutines and class-linkage function bodies,
// inlined where they are called.

#include "translator/dxbc/convert_core.h"
#include "translator/ir/ir.h"

#include <cstdint>
#include <vector>

namespace kiln::dxbc {

// The operand and the relative-address operands of its indices carry the indices their
// register files need (damaged operand tokens are stopped here, once per instruction).
bool operands_indexed(const Program& program, const Instruction& inst);

class Driver {
 public:
  Driver(ConvertContext& ctx, const Program& program)
      : ctx_(ctx), b_(ctx.builder()), p_(program), impl_(ctx.impl()) {}

  Status run();

  // ---- handlers the opcode table names (convert_dispatch.h) ----------------------------------
  // They take the context like the free handlers, so that one call form dispatches to both.
  // convert_flow.cpp: scoped control flow.
  bool open_if(ConvertContext&, const Instruction& inst);
  bool else_branch(ConvertContext&, const Instruction& inst);
  bool close_if(ConvertContext&, const Instruction& inst);
  bool open_loop(ConvertContext&, const Instruction& inst);
  bool close_loop(ConvertContext&, const Instruction& inst);
  bool open_switch(ConvertContext&, const Instruction& inst);
  bool switch_label(ConvertContext&, const Instruction& inst); // case, default
  bool close_switch(ConvertContext&, const Instruction& inst);
  bool jump(ConvertContext&, const Instruction& inst); // break(c), continue(c)
  bool ret(ConvertContext&, const Instruction& inst);
  bool retc(ConvertContext&, const Instruction& inst);
  bool discard(ConvertContext&, const Instruction& inst);
  // convert_calls.cpp: subroutines and class-linkage function bodies, inlined where called.
  bool label(ConvertContext&, const Instruction& inst);
  bool subroutine_call(ConvertContext&, const Instruction& inst); // call, callc
  bool interface_call(ConvertContext&, const Instruction& inst);  // fcall
  // converter.cpp: hull-shader phases.
  bool begin_phase(ConvertContext&, const Instruction& inst);
  bool dcl_phase_instances(ConvertContext&, const Instruction& inst);

 private:
  // convert_dispatch.cpp: the one switch over the opcode table's handler column.
  bool dispatch(const Instruction& inst);
  static void dispatch_once(void* driver, const Instruction& inst) {
    static_cast<Driver*>(driver)->dispatch(inst);
  }
  void read_array_sizes();
  void find_labels();
  bool inline_body(std::uint32_t label);
  void body_return(const Instruction& inst);
  void leave_returned_body();
  void guard_rest_of_block();
  void close_guards();
  void closed_construct(bool returns);
  bool declaration(const Instruction& inst);
  bool instruction(const Instruction& inst);
  void conditional(const Instruction& inst, const ir::Op& op);
  void open_function(ir::SsaDef param = {});
  void close_function();
  ir::SsaDef open_instance_loop(std::uint32_t instances, ir::SsaDef& counter);
  void close_instance_loop(ir::SsaDef counter, ir::SsaDef loop);
  void call_phases();
  void end_phase();
  void open_phase_body();
  void finish_declarations();
  ir::SsaDef condition(const Instruction& inst, const Operand& op) {
    ir::SsaDef v = ctx_.load_src_scalar(op, ir::ScalarType::U32);
    if (!v) return {};
    return inst.test_nonzero() ? ctx_.emit(ir::Op::INe(v, ctx_.constant_u32(0)))
                               : ctx_.emit(ir::Op::IEq(v, ctx_.constant_u32(0)));
  }
  FlowEntry* innermost(bool loops_only) {
    for (std::size_t i = impl_.flow.size(); i-- > phase_base_;) {
      FlowEntry& e = impl_.flow[i];
      if (e.kind == FlowEntry::Kind::Loop || (!loops_only && e.kind == FlowEntry::Kind::Switch))
        return &e;
    }
    return nullptr;
  }
  static ir::Op break_of(const FlowEntry& target) {
    return target.kind == FlowEntry::Kind::Switch ? ir::Op::ScopedSwitchBreak(target.op)
                                                  : ir::Op::ScopedLoopBreak(target.op);
  }

  ConvertContext& ctx_;
  ir::Builder& b_;
  const Program& p_;
  ConvertContext::Impl& impl_;
  bool hull_ = false;
  bool function_open_ = false;
  bool returned_ = false; // a top-level ret ended the current function or phase
  bool declarations_done_ = false;
  bool saw_control_point_phase_ = false;
  ir::SsaDef cp_function_, patch_function_;
  // Hull fork/join phases: inlined into the patch-constant function, or (phase_functions_)
  // each one a function taking the instance id, called by the patch-constant function.
  bool phase_functions_ = false;
  ir::SsaDef phase_function_, phase_param_;
  bool in_patch_phase_ = false;
  bool phase_body_open_ = false;
  bool phase_done_ = false;
  std::uint32_t phase_instances_ = 1;
  std::size_t phase_base_ = 0; // flow entries below this belong to the phase loop
  ir::SsaDef phase_counter_;
  // Subroutines and class-linkage function bodies, inlined where they are called
  // (labels: Linkage in convert_core.h).
  bool past_main_ = false; // the main program ended at a label
  std::uint32_t inline_depth_ = 0;
  std::uint64_t inlined_ = 0;  // instructions inlined so far (bounds nested expansion)
  std::size_t body_base_ = 0;  // flow entries below this belong to the caller (or guards)
  bool body_returned_ = false; // a top-level ret ended the body
  // The body's "returned" flag (a bool temporary), when it returns from inside its own
  // control flow; null otherwise.
  ir::SsaDef body_flag_;
};

} // namespace kiln::dxbc
