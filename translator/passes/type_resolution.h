#pragma once
// Pass 3: resolves the `Unknown` type. Values of unknown type (phis of untyped temporaries,
// Undef, untyped front-end ops) joined through phis form webs (union-find); each web takes the
// type its consumers ask for through ConsumeAs, else the type its incoming values agree on,
// else u32. Then phi operands of another type are converted at the end of their predecessor
// block, and every ConsumeAs becomes nothing (same type), a Cast (same width), a conversion
// (other width) or a test / select (bool).

#include "translator/common/status.h"
#include "translator/ir/ir.h"
#include "translator/passes/pass_util.h"

#include <vector>

namespace kiln::passes {

class TypeResolution {
 public:
  Status run(ir::Builder& b);

  // Emits before `before` the ops turning `value` (of type `from`) into type `to`; returns the
  // converted value (`value` itself when the types are equal).
  static ir::SsaDef convert(ir::Builder& b, ir::SsaDef value, ir::Type to, ir::SsaDef before);

 private:
  std::uint32_t find(std::uint32_t id);
  void unite(std::uint32_t a, std::uint32_t b);

  std::vector<std::uint32_t> parent_;       // by id; union-find over unknown values
  std::vector<std::uint8_t> consumer_vote_; // by root: ScalarType, Unknown = none, Count = mixed
  std::vector<std::uint8_t> operand_vote_;
  std::vector<ir::SsaDef> unknown_; // values of unknown type
  std::vector<ir::SsaDef> phis_;
  std::vector<ir::SsaDef> consumes_;
  std::vector<ir::SsaDef> terminator_of_; // by label id
  std::vector<ir::SsaDef> forward_;
  std::vector<ir::SsaDef> removed_;
};

} // namespace kiln::passes
