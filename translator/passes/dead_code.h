#pragma once
// Pass 5b: dead code elimination by marking. Roots are every op that is not ir::is_pure: the
// opcode table's Effects ops (stores, atomics, barriers, emits, Demote, calls, scoped markers,
// DclSpecConstant), control flow and declarations other than constants;
// liveness flows to operands through a worklist; unmarked pure values (arithmetic, loads,
// samples, phis, constants, Undef) are removed, together with debug names of removed ops.
// Dead phi cycles in loops go too.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <vector>

namespace kiln::passes {

class DeadCode {
 public:
  Status run(ir::Builder& b);

 private:
  std::vector<std::uint8_t> live_;
  std::vector<ir::SsaDef> worklist_;
  // Ops the backward walk passed without finding them live, and every debug name, in reverse
  // program order: the only ops that may go, so no second walk of the whole program is needed.
  std::vector<ir::SsaDef> candidates_;
};

} // namespace kiln::passes
