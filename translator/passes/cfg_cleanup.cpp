#include "translator/passes/cfg_cleanup.h"

namespace kiln::passes {

using ir::Op;
using ir::OpCode;
using ir::SsaDef;

void CfgCleanup::remove_trivial_phis(ir::Builder& b) {
  phis_.clear();
  for (ir::OpView op : b.code())
    if (op.code() == OpCode::Phi) phis_.push_back(op.def());
  if (phis_.empty()) return;
  forward_.assign(b.id_limit(), SsaDef());
  removed_.clear();
  auto resolve = [&](SsaDef d) {
    for (int hops = 0; hops < 64 && d.id() < forward_.size() && forward_[d.id()]; ++hops)
      d = forward_[d.id()];
    return d;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (SsaDef phi : phis_) {
      if (forward_[phi.id()]) continue;
      ir::OpView op = b.op(phi);
      SsaDef unique;
      bool trivial = true;
      for (std::uint32_t i = 1; i < op.ref_count(); i += 2) {
        SsaDef v = resolve(op.operand(i).def());
        if (v == phi) continue;
        if (!unique) {
          unique = v;
        } else if (v != unique) {
          trivial = false;
          break;
        }
      }
      if (!trivial) continue;
      if (!unique) unique = b.add(Op::Undef(op.type()));
      if (forward_.size() < b.id_limit()) forward_.resize(b.id_limit());
      forward_[phi.id()] = unique;
      removed_.push_back(phi);
      changed = true;
    }
  }
  if (removed_.empty()) return;
  b.replace_uses(forward_);
  for (SsaDef d : removed_) b.remove(d);
}

Status CfgCleanup::run(ir::Builder& b) {
  remove_trivial_phis(b);
  return Status::ok();
}

} // namespace kiln::passes
