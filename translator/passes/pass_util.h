#pragma once
// Helpers shared by the passes: type facts and the per-function block table (labels,
// terminators, predecessors) that SSA construction, type resolution and CFG clean-up read.
// Everything is dense and indexed by SsaDef id or block index; storage is kept between shaders.

#include "translator/ir/ir.h"
#include "translator/ir/ir_op_views.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::passes {

// The IR names the passes spell unqualified.
using ir::Op;
using ir::OpCode;
using ir::ScalarType;
using ir::SsaDef;
using ir::Type;

// Bits of one scalar; min-precision types live in 32-bit registers, bool counts as 32.
constexpr unsigned scalar_bits(ir::ScalarType s) {
  switch (s) {
  case ir::ScalarType::I8:
  case ir::ScalarType::U8:
    return 8;
  case ir::ScalarType::I16:
  case ir::ScalarType::U16:
  case ir::ScalarType::F16:
    return 16;
  case ir::ScalarType::I64:
  case ir::ScalarType::U64:
  case ir::ScalarType::F64:
    return 64;
  default:
    return 32;
  }
}

inline bool is_unknown(ir::Type t) {
  return t.is_basic() && t.scalar_type() == ir::ScalarType::Unknown;
}

// The successors named by a terminator (Branch, BranchConditional, Switch), in operand order,
// duplicates included.
template <typename F>
void for_each_successor(const ir::OpView& term, F&& f) {
  switch (term.code()) {
  case ir::OpCode::Branch:
    f(ir::ops::Branch(term).target().def());
    break;
  case ir::OpCode::BranchConditional: {
    const ir::ops::BranchConditional branch(term);
    f(branch.true_block().def());
    f(branch.false_block().def());
    break;
  }
  case ir::OpCode::Switch: {
    if (term.ref_count() < 2) break;
    const ir::ops::Switch sw(term);
    f(sw.default_block().def());
    for (ir::Operand block : sw.case_block()) f(block.def());
    break;
  }
  default:
    break;
  }
}

// The first op after the leading declarations (where functions start), or null.
inline ir::SsaDef first_code_op(const ir::Builder& b) {
  ir::OpRange code = b.code();
  return code.begin() == code.end() ? ir::SsaDef() : (*code.begin()).def();
}

// `d` with forwarding followed: forward[id] is the value that replaces a removed def. Chains are
// acyclic by construction (a phi is never forwarded to a value that resolves back to itself);
// the hop limit only bounds the walk should a pass break that.
inline ir::SsaDef chase_forward(std::span<const ir::SsaDef> forward, ir::SsaDef d) {
  constexpr int kMaxHops = 1024;
  for (int hops = 0; hops < kMaxHops && d.id() < forward.size() && forward[d.id()]; ++hops)
    d = forward[d.id()];
  return d;
}

// Braun et al.'s trivial phis: one distinct incoming value besides the phi itself. Among the
// `count` candidates `phi_at(i)` (already forwarded ones are skipped), each trivial phi gets
// forward[phi] = that value (or a new Undef when it names only itself) and is appended to
// `removed`; repeated while removals expose more. `edge_ignored(i, edge)` drops incoming edge
// `edge` of candidate i from the judgement (an edge that is never taken). Returns how many were
// found; the caller replaces the uses and removes them.
template <typename PhiAt, typename EdgeIgnored>
std::size_t forward_trivial_phis(ir::Builder& b, std::size_t count, PhiAt&& phi_at,
                                 EdgeIgnored&& edge_ignored, std::vector<ir::SsaDef>& forward,
                                 std::vector<ir::SsaDef>& removed) {
  if (forward.size() < b.id_limit()) forward.resize(b.id_limit());
  std::size_t found = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < count; ++i) {
      const ir::SsaDef phi = phi_at(i);
      if (forward[phi.id()]) continue;
      ir::OpView op = b.op(phi);
      ir::SsaDef unique;
      bool trivial = true;
      for (std::uint32_t k = 1; k < op.ref_count(); k += 2) {
        if (edge_ignored(i, k / 2)) continue;
        const ir::SsaDef v = chase_forward(forward, op.operand(k).def());
        if (v == phi) continue;
        if (!unique) {
          unique = v;
        } else if (v != unique) {
          trivial = false;
          break;
        }
      }
      if (!trivial) continue;
      const ir::Type type = op.type(); // `op` is stale once add() grows the pool
      if (!unique) unique = b.add(ir::Op::Undef(type));
      if (forward.size() < b.id_limit()) forward.resize(b.id_limit());
      forward[phi.id()] = unique;
      removed.push_back(phi);
      ++found;
      changed = true;
    }
  }
  return found;
}

// The blocks of one function in program order with their terminators and predecessors.
class BlockTable {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // Reads the function starting at `function`. Returns false when a block is malformed (a
  // Label without terminator, a branch to something that is no block of this function).
  // `visit(block, op)` sees every op inside a block but its Label and terminator, in order, so
  // a pass can gather what it needs in the same walk.
  template <typename Visit>
  bool build(const ir::Builder& b, ir::SsaDef function, Visit&& visit) {
    labels_.clear();
    terminators_.clear();
    function_end_ = ir::SsaDef();
    if (index_.size() < b.id_limit()) index_.resize(b.id_limit() + b.id_limit() / 2, kNone);
    bool in_block = false;
    for (ir::SsaDef d = b.next(function); d; d = b.next(d)) {
      ir::OpView op = b.op(d);
      ir::OpCategory cat = op.info().category;
      if (cat == ir::OpCategory::Label) {
        if (in_block) return false;
        index_[d.id()] = std::uint32_t(labels_.size());
        labels_.push_back(d);
        terminators_.push_back(ir::SsaDef());
        in_block = true;
      } else if (cat == ir::OpCategory::Terminator) {
        if (!in_block) return false;
        terminators_.back() = d;
        in_block = false;
      } else if (cat == ir::OpCategory::FunctionEnd) {
        function_end_ = d;
        break;
      } else if (in_block) {
        visit(std::uint32_t(labels_.size() - 1), op);
      }
    }
    return !in_block && link(b);
  }
  bool build(const ir::Builder& b, ir::SsaDef function) {
    return build(b, function, [](std::uint32_t, const ir::OpView&) {});
  }

  std::uint32_t size() const { return std::uint32_t(labels_.size()); }
  ir::SsaDef label(std::uint32_t block) const { return labels_[block]; }
  ir::SsaDef terminator(std::uint32_t block) const { return terminators_[block]; }
  // Block index of a label of this function (undefined for other ids).
  std::uint32_t index_of(ir::SsaDef label) const { return index_[label.id()]; }
  // Distinct predecessor blocks, in the order their terminators appear.
  std::span<const std::uint32_t> preds(std::uint32_t block) const {
    return {pred_list_.data() + pred_offsets_[block], pred_list_.data() + pred_offsets_[block + 1]};
  }
  ir::SsaDef function_end() const { return function_end_; }

 private:
  bool link(const ir::Builder& b); // predecessors from the terminators

  std::vector<ir::SsaDef> labels_;
  std::vector<ir::SsaDef> terminators_;
  std::vector<std::uint32_t> index_; // by id
  std::vector<std::uint32_t> pred_offsets_;
  std::vector<std::uint32_t> pred_list_;
  std::vector<std::uint32_t> last_pred_; // by block: dedup while filling
  ir::SsaDef function_end_;
};

} // namespace kiln::passes
