#include "translator/passes/dead_code.h"

#include "translator/ir/ir_op_views.h"

#include <array>

namespace kiln::passes {

using ir::OpCode;
using ir::SsaDef;

namespace {

// Derived from the opcode table once, at compile time.
constexpr auto kPure = [] {
  std::array<bool, std::size_t(OpCode::Count)> table{};
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = ir::is_pure(OpCode(i));
  return table;
}();

} // namespace

Status DeadCode::run(ir::Builder& b) {
  live_.assign(b.id_limit(), 0);
  worklist_.clear();
  candidates_.clear();
  auto mark = [&](SsaDef d) {
    if (d && live_[d.id()] != 1) {
      live_[d.id()] = 1;
      worklist_.push_back(d);
    }
  };
  // Backwards: users come after their operands except for phis naming values of later blocks,
  // so most marks land before the op is reached; a mark on an op already passed (a phi's
  // back-edge value) goes to the worklist.
  for (SsaDef d = b.last(); d; d = b.prev(d)) {
    ir::OpView op = b.op(d);
    const bool debug = op.info().category == ir::OpCategory::Debug;
    if (debug) candidates_.push_back(d);
    if (!live_[d.id()]) {
      if (kPure[std::size_t(op.code())] || debug) {
        live_[d.id()] = 2; // passed, not (yet) live
        if (!debug) candidates_.push_back(d);
        continue;
      }
    }
    live_[d.id()] = 1;
    for (std::uint32_t i = 0; i < op.ref_count(); ++i) {
      SsaDef v = op.operand(i).def();
      if (!v) continue;
      std::uint8_t& state = live_[v.id()];
      if (state == 2) {
        state = 1;
        worklist_.push_back(v);
      } else if (state == 0) {
        state = 3; // live, not yet passed
      }
    }
  }
  while (!worklist_.empty()) {
    SsaDef d = worklist_.back();
    worklist_.pop_back();
    ir::OpView op = b.op(d);
    for (std::uint32_t i = 0; i < op.ref_count(); ++i) mark(op.operand(i).def());
  }
  // Every op is now live (1) or passed and unused (2). Removed in program order, as they were
  // found in reverse.
  for (auto it = candidates_.rbegin(); it != candidates_.rend(); ++it) {
    ir::OpView op = b.op(*it);
    if (op.info().category == ir::OpCategory::Debug) {
      // DebugName and DebugMemberName name their target first.
      if (live_[ir::ops::DebugName(op).target().def().id()] != 1) b.remove(*it);
    } else if (live_[it->id()] != 1) {
      b.remove(*it);
    }
  }
  return Status::ok();
}

} // namespace kiln::passes
