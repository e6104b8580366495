#include "translator/passes/pass_util.h"

namespace kiln::passes {

bool BlockTable::link(const ir::Builder& b) {
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
