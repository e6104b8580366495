#include "translator/passes/cfg_cleanup.h"

#include "translator/passes/pass_util.h"

namespace kiln::passes {

using ir::OpCode;
using ir::SsaDef;

void CfgCleanup::remove_trivial_phis(ir::Builder& b) {
  phis_.clear();
  for (ir::OpView op : b.code())
    if (op.code() == OpCode::Phi) phis_.push_back(op.def());
  if (phis_.empty()) return;
  forward_.assign(b.id_limit(), SsaDef());
  removed_.clear();
  const auto phi_at = [&](std::size_t i) { return phis_[i]; };
  const auto no_edge_ignored = [](std::size_t, std::uint32_t) { return false; };
  if (!forward_trivial_phis(b, phis_.size(), phi_at, no_edge_ignored, forward_, removed_)) return;
  b.replace_uses(forward_);
  for (SsaDef d : removed_) b.remove(d);
}

Status CfgCleanup::run(ir::Builder& b) {
  remove_trivial_phis(b);
  return Status::ok();
}

} // namespace kiln::passes
