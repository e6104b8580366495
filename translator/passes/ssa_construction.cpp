#include "translator/passes/ssa_construction.h"

#include "translator/ir/ir_op_views.h"

#include <string>

namespace kiln::passes {

using ir::Op;
using ir::OpCode;
using ir::SsaDef;

namespace {
// Bounds the blocks x globals table (4 bytes per entry).
constexpr std::uint64_t kMaxTableEntries = 1u << 25;
// In the table while a block's predecessors are being read (never a real id).
constexpr SsaDef kMarker(0xffffffffu);
} // namespace

Status SsaConstruction::run(ir::Builder& b) {
  phi_count_ = 0;
  // No temporary was ever read or written (the front ends forward values within straight-line
  // code): only the declarations go, with their debug names; the code needs no walk.
  if (!b.ever_added(OpCode::TmpLoad) && !b.ever_added(OpCode::TmpStore)) {
    for (ir::OpView op : b.declarations()) {
      const OpCode code = op.code();
      if (code == OpCode::DclTmp ||
          (op.info().category == ir::OpCategory::Debug && op.operand_count() > 0 && op.is_ref(0) &&
           ir::ops::DebugName(op).target().def() &&
           b.op(ir::ops::DebugName(op).target().def()).code() == OpCode::DclTmp))
        b.remove(op.def());
    }
    return Status::ok();
  }
  std::uint32_t limit = b.id_limit();
  var_of_.assign(limit, 0);
  var_type_.clear();
  tmps_.clear();
  for (ir::OpView op : b.declarations()) {
    if (op.code() != OpCode::DclTmp) continue;
    var_type_.push_back(op.type());
    var_of_[op.def().id()] = std::uint32_t(var_type_.size());
    tmps_.push_back(op.def());
  }
  forward_.assign(limit, SsaDef());
  removed_.clear();
  phi_count_ = 0;
  phis_forwarded_ = false;
  written_in_.assign(var_type_.size(), 0);
  entry_read_in_.assign(var_type_.size(), 0);
  function_bit_ = 1;
  saw_call_ = false;
  for (SsaDef fn = first_code_op(b); fn; fn = b.next(fn)) {
    if (b.op(fn).code() != OpCode::Function) continue;
    if (Status s = run_function(b, fn); !s) return s;
    fn = blocks_.function_end(); // functions follow one another
    if (!fn) break;
    function_bit_ = function_bit_ << 1 | (function_bit_ >> 31); // functions past 32 share bits
  }
  // With calls, a temp one function reads before writing it and another function writes would
  // need its value passed across the call: not modelled (functions are translated independently),
  // so refuse rather than read Undef.
  for (std::size_t v = 0; v < var_type_.size() && saw_call_; ++v)
    if (entry_read_in_[v] && (written_in_[v] & ~entry_read_in_[v]))
      return Status::error("ssa: temporary shared across functions (subroutine call) is not "
                           "supported");
  // Debug names of temporaries go with them (declarations only: debug ops live there).
  for (ir::OpView op : b.declarations()) {
    if (op.info().category != ir::OpCategory::Debug) continue;
    SsaDef t = ir::ops::DebugName(op).target().def(); // DebugMemberName's too
    if (t.id() < limit && var_of_[t.id()]) b.remove(op.def());
  }
  // The walk patched every op it passed (run_function); uses of trivial phis, found at the end
  // of each function, and debug names still need theirs.
  if (phis_forwarded_) {
    b.replace_uses(forward_);
  } else if (!removed_.empty()) {
    for (ir::OpView op : b.declarations())
      if (op.info().category == ir::OpCategory::Debug) b.forward_operands(op.def(), forward_);
  }
  for (SsaDef d : removed_) b.remove(d);
  for (SsaDef d : tmps_) b.remove(d);
  return Status::ok();
}

Status SsaConstruction::run_function(ir::Builder& b, SsaDef function) {
  std::uint32_t nvars = std::uint32_t(var_type_.size());
  // While the blocks are read: which temps are read in a block before being written there.
  stamp_.assign(nvars, 0);
  global_of_.assign(nvars, 0);
  global_var_.clear();
  SsaDef bad;
  bool built = blocks_.build(b, function, [&](std::uint32_t blk, const ir::OpView& op) {
    OpCode code = op.code();
    if (code != OpCode::TmpLoad && code != OpCode::TmpStore) return;
    SsaDef v = ir::ops::TmpLoad(op).variable().def(); // TmpStore's too
    std::uint32_t var = v.id() < var_of_.size() ? var_of_[v.id()] : 0;
    if (!var) {
      if (!bad) bad = op.def();
      return;
    }
    --var;
    if (code == OpCode::TmpStore) {
      stamp_[var] = blk + 1;
    } else if (stamp_[var] != blk + 1 && !global_of_[var]) {
      global_var_.push_back(var);
      global_of_[var] = std::uint32_t(global_var_.size());
    }
  });
  if (!built)
    return Status::error("ssa: malformed blocks in function %" + std::to_string(function.id()));
  if (bad) return Status::error("ssa: temp access to a non-DclTmp at %" + std::to_string(bad.id()));
  std::uint32_t nblocks = blocks_.size();
  // A function of one block (no control flow) needs no table: a read before any write is Undef.
  bool straight = nblocks == 1;
  if (straight) global_var_.clear();
  global_count_ = std::uint32_t(global_var_.size());
  if (std::uint64_t(nblocks) * global_count_ > kMaxTableEntries)
    return Status::error("ssa: too many blocks x temporaries (" + std::to_string(nblocks) + " x " +
                         std::to_string(global_count_) + ")");
  table_.assign(std::size_t(nblocks) * global_count_, SsaDef());
  sealed_.assign(nblocks, 0);
  filled_preds_.assign(nblocks, 0);
  succ_mark_.assign(nblocks, 0);
  incomplete_.clear();
  phis_.clear();
  stamp_.assign(nvars, 0);
  local_.resize(nvars);

  auto seal = [&](std::uint32_t blk) {
    sealed_[blk] = 1;
    for (std::size_t i = 0; i < incomplete_.size(); ++i) {
      if (incomplete_[i].block != blk) continue;
      Incomplete inc = incomplete_[i];
      incomplete_[i] = incomplete_.back();
      incomplete_.pop_back();
      --i;
      fill_phi(b, inc.phi, inc.global, inc.block);
    }
  };

  for (std::uint32_t blk = 0; blk < nblocks; ++blk) {
    if (!sealed_[blk] && filled_preds_[blk] == blocks_.preds(blk).size()) seal(blk);
    SsaDef term = blocks_.terminator(blk);
    for (SsaDef d = b.next(blocks_.label(blk)); d != term; d = b.next(d)) {
      ir::OpView op = b.op(d);
      OpCode code = op.code();
      if (code != OpCode::TmpLoad && code != OpCode::TmpStore) {
        // Uses follow their definitions in program order: patched as the walk reaches them.
        if (!removed_.empty()) b.forward_operands(d, forward_);
        if (code == OpCode::FunctionCall) {
          saw_call_ = true;
        } else if (code == OpCode::ConsumeAs) {
          // A load resolved to a value of the very type asked for: the ConsumeAs goes in the
          // same patch walk as the load, sparing type resolution a walk.
          SsaDef v = ir::ops::ConsumeAs(op).value().def();
          SsaDef value = resolve(v);
          if (value != v && b.op(value).type() == op.type()) {
            forward_[d.id()] = value;
            removed_.push_back(d);
          }
        }
        continue;
      }
      SsaDef tmp = ir::ops::TmpLoad(op).variable().def(); // TmpStore's too
      std::uint32_t var = tmp.id() < var_of_.size() ? var_of_[tmp.id()] : 0;
      if (!var)
        return Status::error("ssa: temp access to a non-DclTmp at %" + std::to_string(d.id()));
      --var;
      std::uint32_t g = global_of_[var];
      if (code == OpCode::TmpStore) {
        written_in_[var] |= function_bit_;
        SsaDef value = resolve(ir::ops::TmpStore(op).value().def());
        if (!value) value = b.add(Op::Undef(var_type_[var]));
        stamp_[var] = blk + 1;
        local_[var] = value;
        if (g && !straight) table_[std::size_t(blk) * global_count_ + g - 1] = value;
        removed_.push_back(d);
        continue;
      }
      SsaDef value;
      if (stamp_[var] == blk + 1) {
        value = local_[var];
      } else {
        if (straight) {
          value = b.add(Op::Undef(var_type_[var]));
          entry_read_in_[var] |= function_bit_;
        } else {
          value = read(b, g - 1, blk);
        }
        stamp_[var] = blk + 1;
        local_[var] = value;
      }
      ir::Type want = op.type();
      ir::Type have = b.op(value).type();
      if (is_unknown(want) || want == have) {
        forward_[d.id()] = value;
        removed_.push_back(d);
      } else {
        // A typed load of a value of another type: type resolution turns this into a cast.
        b.rewrite_op(d, Op::ConsumeAs(want, value));
      }
    }
    if (!removed_.empty()) b.forward_operands(term, forward_);
    // Block done: successors waiting for it (loop headers) may now be complete.
    for_each_successor(b.op(term), [&](SsaDef t) {
      std::uint32_t s = blocks_.index_of(t);
      if (succ_mark_[s] == blk + 1) return; // a distinct predecessor counts once
      succ_mark_[s] = blk + 1;
      if (++filled_preds_[s] == blocks_.preds(s).size() && s <= blk && !sealed_[s]) seal(s);
    });
  }
  remove_trivial_phis(b);
  return Status::ok();
}

// Braun et al.'s trivial phis (one distinct incoming value besides the phi itself), removed
// once the function is done. Values from unreachable predecessors (a continue block nothing
// branches to) do not count: that edge is never taken. Repeated while removals expose more.
void SsaConstruction::remove_trivial_phis(ir::Builder& b) {
  if (phis_.empty()) return;
  phi_count_ += std::uint32_t(phis_.size());
  std::uint32_t n = blocks_.size();
  unreachable_.assign(n, 0);
  for (std::uint32_t blk = 1; blk < n; ++blk) {
    bool dead = true;
    for (std::uint32_t p : blocks_.preds(blk))
      if (p >= blk || !unreachable_[p]) dead = false;
    unreachable_[blk] = dead;
  }
  const auto phi_at = [&](std::size_t i) { return phis_[i].phi; };
  const auto edge_unreachable = [&](std::size_t i, std::uint32_t edge) {
    return unreachable_[blocks_.preds(phis_[i].block)[edge]] != 0;
  };
  const std::size_t trivial =
      forward_trivial_phis(b, phis_.size(), phi_at, edge_unreachable, forward_, removed_);
  phi_count_ -= std::uint32_t(trivial);
  phis_forwarded_ = phis_forwarded_ || trivial > 0;
  phis_.clear();
}

SsaDef SsaConstruction::read(ir::Builder& b, std::uint32_t global, std::uint32_t block) {
  std::size_t at = std::size_t(block) * global_count_ + global;
  SsaDef slot = table_[at];
  ir::Type type = var_type_[global_var_[global]];
  if (slot == kMarker) {
    // A cycle came back to a block whose predecessors are being read: it needs a phi after
    // all; the frame that set the marker fills its operands.
    SsaDef phi = b.add_after(blocks_.label(block), Op::Phi(type));
    phis_.push_back({phi, block});
    table_[at] = phi;
    return phi;
  }
  if (slot) return slot;
  if (!sealed_[block]) {
    SsaDef phi = b.add_after(blocks_.label(block), Op::Phi(type));
    phis_.push_back({phi, block});
    table_[std::size_t(block) * global_count_ + global] = phi;
    incomplete_.push_back({block, global, phi});
    return phi;
  }
  auto preds = blocks_.preds(block);
  SsaDef value;
  if (preds.empty()) {
    value = b.add(Op::Undef(type));
    if (block == 0) entry_read_in_[global_var_[global]] |= function_bit_;
  } else if (preds.size() == 1) {
    value = read(b, global, preds[0]);
  } else {
    // Braun's marker: read the predecessors first and create a phi only when they disagree
    // (most merges see the same value from every side) or when a cycle needs one.
    table_[at] = kMarker;
    std::size_t start = operands_.size();
    SsaDef first;
    bool same = true;
    for (std::uint32_t p : preds) {
      SsaDef v = read(b, global, p);
      operands_.push_back(ir::Operand(blocks_.label(p)));
      operands_.push_back(ir::Operand(v));
      if (!first)
        first = v;
      else if (v != first)
        same = false;
    }
    SsaDef placed = table_[at];
    if (placed == kMarker && same) {
      value = first;
    } else {
      value = placed != kMarker ? placed : b.add_after(blocks_.label(block), Op::Phi(type));
      if (placed == kMarker) phis_.push_back({value, block});
      std::span<const ir::Operand> ops(operands_.data() + start, operands_.size() - start);
      b.rewrite_op(value, Op::with_operands(OpCode::Phi, type, ops, std::uint32_t(ops.size())));
    }
    operands_.resize(start);
  }
  table_[at] = value;
  return value;
}

void SsaConstruction::fill_phi(ir::Builder& b, SsaDef phi, std::uint32_t global,
                               std::uint32_t block) {
  // read() may recurse into fill_phi and reuse operands_: collect into a local slice.
  std::size_t start = operands_.size();
  for (std::uint32_t p : blocks_.preds(block)) {
    SsaDef v = read(b, global, p);
    operands_.push_back(ir::Operand(blocks_.label(p)));
    operands_.push_back(ir::Operand(v));
  }
  std::span<const ir::Operand> ops(operands_.data() + start, operands_.size() - start);
  b.rewrite_op(phi,
               Op::with_operands(OpCode::Phi, b.op(phi).type(), ops, std::uint32_t(ops.size())));
  operands_.resize(start);
}

} // namespace kiln::passes
