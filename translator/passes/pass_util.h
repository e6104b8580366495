#pragma once
// Helpers shared by the passes: type facts and the per-function block table (labels,
// terminators, predecessors) that SSA construction, type resolution and CFG clean-up read.
// Everything is dense and indexed by SsaDef id or block index; storage is kept between shaders.

#include "translator/ir/ir.h"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::passes {

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
    f(term.operand(0).def());
    break;
  case ir::OpCode::BranchConditional:
    f(term.operand(1).def());
    f(term.operand(2).def());
    break;
  case ir::OpCode::Switch:
    for (std::uint32_t i = 1; i < term.ref_count(); i += 2) f(term.operand(i).def());
    break;
  default:
    break;
  }
}

// The first op after the leading declarations (where functions start), or null.
inline ir::SsaDef first_code_op(const ir::Builder& b) {
  ir::OpRange code = b.code();
  return code.begin() == code.end() ? ir::SsaDef() : (*code.begin()).def();
}

// The blocks of one function in program order with their terminators and predecessors.
class BlockTable {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // Reads the function starting at `function`. Returns false when a block is malformed (a
  // Label without terminator, a branch to something that is no block of this function).
  bool build(const ir::Builder& b, ir::SsaDef function);

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
  std::vector<ir::SsaDef> labels_;
  std::vector<ir::SsaDef> terminators_;
  std::vector<std::uint32_t> index_; // by id
  std::vector<std::uint32_t> pred_offsets_;
  std::vector<std::uint32_t> pred_list_;
  std::vector<std::uint32_t> last_pred_; // by block: dedup while filling
  ir::SsaDef function_end_;
};

} // namespace kiln::passes
