#pragma once
// Pass 5c: CFG clean-up.
// - Trivial phis (every incoming value the same, self references aside) are replaced by that
//   value, repeated until none is left; a phi that only names itself becomes Undef. Values
//   arriving from unreachable blocks (a loop's continue block when nothing continues) do not
//   count, since that edge is never taken.
// Blocks are not merged: structured headers, merges and continue targets pin nearly every
// block, and the backend emits a lone Label + Branch cheaply.

#include "translator/common/status.h"
#include "translator/ir/ir.h"
#include "translator/passes/pass_util.h"

#include <vector>

namespace kiln::passes {

class CfgCleanup {
 public:
  Status run(ir::Builder& b);

 private:
  void remove_trivial_phis(ir::Builder& b);
  BlockTable blocks_;
  std::vector<std::uint8_t> unreachable_; // by label id
  std::vector<ir::SsaDef> phis_;
  std::vector<ir::SsaDef> forward_;
  std::vector<ir::SsaDef> removed_;
};

} // namespace kiln::passes
