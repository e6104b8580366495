#pragma once
// Pass 5c: CFG clean-up.
// - Trivial phis (every incoming value the same, self references aside) are replaced by that
//   value, repeated until none is left; a phi that only names itself becomes Undef. SSA
//   construction already removed the phis trivial from the start (including those whose other
//   values only come from unreachable blocks); this catches the ones folding and dead code
//   made trivial.
// Blocks are not merged: structured headers, merges and continue targets pin nearly every
// block, and the backend emits a lone Label + Branch cheaply.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <vector>

namespace kiln::passes {

class CfgCleanup {
 public:
  Status run(ir::Builder& b);

 private:
  void remove_trivial_phis(ir::Builder& b);
  std::vector<ir::SsaDef> phis_;
  std::vector<ir::SsaDef> forward_;
  std::vector<ir::SsaDef> removed_;
};

} // namespace kiln::passes
