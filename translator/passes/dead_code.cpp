#include "translator/passes/dead_code.h"

namespace kiln::passes {

using ir::OpCode;
using ir::SsaDef;

bool is_pure(OpCode code) {
  ir::OpCategory cat = ir::op_info(code).category;
  if (cat == ir::OpCategory::Anywhere) return true;
  if (cat == ir::OpCategory::Constant) return code != OpCode::DclSpecConstant;
  if (cat != ir::OpCategory::Code) return false;
  switch (code) {
  // Effects: memory writes, atomics, synchronisation, geometry output, fragment control, calls,
  // debugging aids and scoped markers.
  case OpCode::Drain:
  case OpCode::TmpStore:
  case OpCode::ScratchStore:
  case OpCode::LdsStore:
  case OpCode::OutputStore:
  case OpCode::BufferStore:
  case OpCode::MemoryStore:
  case OpCode::ImageStore:
  case OpCode::LdsAtomic:
  case OpCode::BufferAtomic:
  case OpCode::ImageAtomic:
  case OpCode::CounterAtomic:
  case OpCode::MemoryAtomic:
  case OpCode::FunctionCall:
  case OpCode::Barrier:
  case OpCode::EmitVertex:
  case OpCode::EmitPrimitive:
  case OpCode::Demote:
  case OpCode::RovScopedLockBegin:
  case OpCode::RovScopedLockEnd:
    return false;
  default:
    return !(code >= OpCode::ScopedIf && code <= OpCode::ScopedEndSwitch);
  }
}

Status DeadCode::run(ir::Builder& b) {
  live_.assign(b.id_limit(), 0);
  worklist_.clear();
  auto mark = [&](SsaDef d) {
    if (d && !live_[d.id()]) {
      live_[d.id()] = 1;
      worklist_.push_back(d);
    }
  };
  for (ir::OpView op : b.ops()) {
    if (op.info().category == ir::OpCategory::Debug) continue;
    if (!is_pure(op.code())) mark(op.def());
  }
  while (!worklist_.empty()) {
    SsaDef d = worklist_.back();
    worklist_.pop_back();
    ir::OpView op = b.op(d);
    for (std::uint32_t i = 0; i < op.ref_count(); ++i) mark(op.operand(i).def());
  }
  for (SsaDef d = b.first(); d;) {
    SsaDef next = b.next(d);
    ir::OpView op = b.op(d);
    if (op.info().category == ir::OpCategory::Debug) {
      if (!live_[op.operand(0).def().id()]) b.remove(d);
    } else if (!live_[d.id()]) {
      b.remove(d);
    }
    d = next;
  }
  return Status::ok();
}

} // namespace kiln::passes
