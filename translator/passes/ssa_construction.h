#pragma once
// Pass 2: temporaries -> SSA (Braun et al., "Simple and Efficient Construction of SSA Form",
// with sealed blocks). Blocks are visited in program order, where every predecessor comes first
// except the continue block of a loop, so only loop headers are sealed late.
//
// Only "global" temporaries (read in some block before being written there) get per-block
// definitions, in one dense table blocks x globals; the others resolve through a per-temp
// current value. Phis are created on demand; reads of never-written temps become Undef.
// Trivial phis are removed at the end of each function; every retired value (loads, trivial
// phis) is then forwarded in one replace_uses walk.

#include "translator/common/status.h"
#include "translator/ir/ir.h"
#include "translator/passes/pass_util.h"

#include <vector>

namespace kiln::passes {

class SsaConstruction {
 public:
  Status run(ir::Builder& b);
  // Phis left by the last run (CFG clean-up has nothing to do without them).
  std::uint32_t phi_count() const { return phi_count_; }

 private:
  Status run_function(ir::Builder& b, ir::SsaDef function);
  void remove_trivial_phis(ir::Builder& b);
  ir::SsaDef read(ir::Builder& b, std::uint32_t global, std::uint32_t block);
  void fill_phi(ir::Builder& b, ir::SsaDef phi, std::uint32_t global, std::uint32_t block);
  ir::SsaDef resolve(ir::SsaDef value) const {
    return value.id() < forward_.size() && forward_[value.id()] ? forward_[value.id()] : value;
  }

  BlockTable blocks_;
  std::vector<std::uint32_t> var_of_;     // by DclTmp id: temp index + 1
  std::vector<ir::Type> var_type_;        // by temp
  std::vector<std::uint32_t> global_of_;  // by temp: global index + 1, 0 = block-local
  std::vector<std::uint32_t> global_var_; // by global: temp
  std::vector<std::uint32_t> stamp_;      // by temp: block + 1 of the last write
  std::vector<ir::SsaDef> local_;         // by temp: value written in block stamp_ - 1
  std::vector<ir::SsaDef> table_;         // block * globals + global
  std::uint32_t global_count_ = 0;
  std::vector<std::uint8_t> sealed_;
  std::vector<std::uint32_t> filled_preds_;
  std::vector<std::uint32_t> succ_mark_;
  struct Incomplete {
    std::uint32_t block, global;
    ir::SsaDef phi;
  };
  std::vector<Incomplete> incomplete_;
  struct CreatedPhi {
    ir::SsaDef phi;
    std::uint32_t block;
  };
  std::vector<CreatedPhi> phis_;
  std::uint32_t phi_count_ = 0;
  bool phis_forwarded_ = false; // trivial phis removed: their uses need a walk of their own
  std::vector<std::uint8_t> unreachable_; // by block
  std::vector<ir::SsaDef> forward_;       // removed TmpLoad -> value
  std::vector<ir::SsaDef> removed_;
  std::vector<ir::Operand> operands_;
  std::vector<ir::SsaDef> tmps_;
  // By temp: bit per function (index mod 32) that writes it / reads it before any write.
  std::vector<std::uint32_t> written_in_;
  std::vector<std::uint32_t> entry_read_in_;
  std::uint32_t function_bit_ = 1;
  bool saw_call_ = false;
};

} // namespace kiln::passes
