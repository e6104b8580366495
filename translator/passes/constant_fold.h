#pragma once
// Pass 5a: constant folding, driven by the opcode table's Fold column (ir_opcodes.h). One walk
// in program order; an Exact or Rounded op whose value operands are all scalar constants
// (32-bit integers, f32, bool) is evaluated by its scalar function and replaced by a constant,
// so folds chain. Operand ops: Select with a constant condition picks its operand;
// CompositeExtract of a constant vector yields the component, of a CompositeConstruct the
// scalar. Float ops fold with IEEE semantics except where the result could depend on the device:
// Rounded ops (FAdd, FSub, FMul) stay when Precise or when a denormal is involved; min/max NaN
// rules, transcendental functions and fused mad are NoFold.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <vector>

namespace kiln::passes {

class ConstantFold {
 public:
  Status run(ir::Builder& b);

 private:
  std::vector<ir::SsaDef> forward_;
  std::vector<ir::SsaDef> removed_;
  std::vector<ir::SsaDef> phis_; // passed before a later fold could reach their back edges
};

} // namespace kiln::passes
