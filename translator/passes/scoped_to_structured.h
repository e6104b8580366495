#pragma once
// Pass 1: scoped control flow (ScopedIf ... ScopedEndSwitch inside one Label) -> structured
// blocks as SPIR-V wants them. Every selection header's Label names its merge block, every loop
// header names merge and continue target; the loop's only back edge leaves the continue block.
//
// Layout per construct (blocks in program order, all new labels unique per header):
//   if:     header[sel merge=M]: BranchConditional c T E|M; T ... Branch M; E ... Branch M; M
//   loop:   Branch H; H[loop M C]: Branch B; B ... Branch C; C: Branch H; M
//   switch: header[sel merge=M]: Switch v D (case L)...; L ... (fall-through = Branch next); M
// Breaks branch to M, continues to C. Return and Demote stay where they are (a Return inside a
// construct is a valid SPIR-V exit). Code after a terminator up to the next marker of a live
// construct is unreachable and dropped; a merge block no edge reaches gets `Unreachable`.

#include "translator/common/status.h"
#include "translator/ir/ir.h"

#include <vector>

namespace kiln::passes {

class ScopedToStructured {
 public:
  Status run(ir::Builder& b);

 private:
  struct Frame {
    ir::OpCode kind;     // ScopedIf, ScopedLoop or ScopedSwitch
    ir::SsaDef begin;    // the Scoped* op that opened it (markers reference it)
    ir::SsaDef header;   // loop header label
    ir::SsaDef merge;    // merge label
    ir::SsaDef cont;     // loop continue label
    ir::SsaDef branch;   // if: the BranchConditional; switch: the Switch placeholder
    ir::SsaDef selector; // switch value
    ir::SsaDef default_label;
    ir::Type case_type;
    std::uint32_t case_start = 0; // into cases_
    bool merge_reached = false;
    bool has_else = false;
  };

  Status run_function(ir::Builder& b, ir::SsaDef function);
  // Makes `cur_` a block that may become a selection header (Construct::None label).
  void ensure_plain_block(ir::Builder& b, ir::SsaDef before);
  void close_merge(ir::Builder& b, Frame& f);
  Frame* find_frame(ir::SsaDef begin, ir::OpCode kind);

  std::vector<Frame> frames_;
  std::vector<ir::Operand> cases_;   // (constant, label) pairs of open switches
  std::vector<ir::Operand> scratch_; // operands of the Switch being written
  std::vector<ir::SsaDef> dropped_;  // values removed as unreachable
  std::vector<ir::SsaDef> forward_;  // dropped value -> Undef, should anything still use it
  ir::SsaDef cur_;                   // label of the current block, null when unreachable
  ir::SsaDef function_end_;          // FunctionEnd of the function run_function finished
};

} // namespace kiln::passes
