#include "translator/passes/pass_util.h"

namespace kiln::passes {

bool BlockTable::build(const ir::Builder& b, ir::SsaDef function) {
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
    }
  }
  if (in_block) return false;
  std::uint32_t n = size();
  pred_offsets_.assign(n + 2, 0);
  last_pred_.assign(n, kNone);
  auto target_index = [&](ir::SsaDef target) -> std::uint32_t {
    if (!target || target.id() >= b.id_limit() || !b.is_live(target) ||
        b.op(target).code() != ir::OpCode::Label)
      return kNone;
    std::uint32_t i = index_[target.id()];
    return i < n && labels_[i] == target ? i : kNone;
  };
  bool ok = true;
  // Count distinct predecessors, then fill (CSR).
  for (std::uint32_t blk = 0; blk < n; ++blk) {
    for_each_successor(b.op(terminators_[blk]), [&](ir::SsaDef t) {
      std::uint32_t s = target_index(t);
      if (s == kNone) {
        ok = false;
        return;
      }
      if (last_pred_[s] == blk) return;
      last_pred_[s] = blk;
      ++pred_offsets_[s + 2];
    });
  }
  if (!ok) return false;
  for (std::uint32_t i = 2; i < n + 2; ++i) pred_offsets_[i] += pred_offsets_[i - 1];
  pred_list_.resize(pred_offsets_[n + 1]);
  last_pred_.assign(n, kNone);
  for (std::uint32_t blk = 0; blk < n; ++blk) {
    for_each_successor(b.op(terminators_[blk]), [&](ir::SsaDef t) {
      std::uint32_t s = target_index(t);
      if (last_pred_[s] == blk) return;
      last_pred_[s] = blk;
      pred_list_[pred_offsets_[s + 1]++] = blk;
    });
  }
  pred_offsets_.pop_back();
  return true;
}

} // namespace kiln::passes
