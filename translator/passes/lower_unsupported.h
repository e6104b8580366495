#pragma once
// Pass 4: lowers what SPIR-V lacks, in one walk. The last op of an expansion takes the lowered
// op's id (rewrite_op), so uses need patching only for values that disappear:
//   FDot / FDotLegacy      -> FMul + FMad chain over the components (legacy: 0 * x = 0)
//   FMulLegacy, FMadLegacy -> FMul / FAdd with Select(a == 0 || b == 0, 0, a * b) per component
//                            (plain FMul when a factor is a finite non-zero constant or a == b)
//   FPowLegacy             -> FExp2(FMulLegacy(exp, FLog2(base))), so pow(x, 0) = 1
//   MinValue / MaxValue    -> constants
//   Convert* / Cast to the operand's own type -> the operand; ConvertItoI that only changes
//   signedness -> Cast; Drain -> its operand (void Drain removed).

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <vector>

namespace kiln::passes {

class LowerUnsupported {
 public:
  Status run(ir::Builder& b);

 private:
  ir::Op mul_legacy(ir::Builder& b, ir::Type type, ir::SsaDef x, ir::SsaDef y, ir::OpFlags flags,
                    ir::SsaDef before);
  ir::SsaDef zero(ir::Builder& b, ir::Type scalar);
  ir::SsaDef component(ir::Builder& b, ir::SsaDef vector, unsigned index, ir::SsaDef before);

  ir::SsaDef zero_; // the cached 0.0 of zero_type_
  ir::Type zero_type_;
  std::vector<ir::SsaDef> forward_;
  std::vector<ir::SsaDef> removed_;
};

} // namespace kiln::passes
