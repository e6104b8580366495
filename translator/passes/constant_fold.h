#pragma once
// Pass 5a: constant folding. One walk in program order; an op whose value operands are all
// scalar constants (32-bit integers, f32, bool) is evaluated and replaced by a constant, so
// folds chain. Select with a constant condition picks its operand; CompositeExtract of a
// constant vector yields the component. Float ops fold with IEEE semantics except where the
// result could depend on the device (min/max NaN rules, transcendental functions, fused mad).

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
};

} // namespace kiln::passes
