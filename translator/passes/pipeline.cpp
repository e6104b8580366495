#include "translator/passes/pipeline.h"

#include "translator/ir/ir.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/cfg_cleanup.h"
#include "translator/passes/constant_fold.h"
#include "translator/passes/dead_code.h"
#include "translator/passes/lower_unsupported.h"
#include "translator/passes/scoped_to_structured.h"
#include "translator/passes/ssa_construction.h"
#include "translator/passes/type_resolution.h"

namespace kiln::passes {

// One object per pass, kept between shaders so their scratch vectors keep their capacity.
struct Pipeline::State {
  ScopedToStructured structurize;
  SsaConstruction ssa;
  TypeResolution types;
  LowerUnsupported lower;
  ConstantFold fold;
  DeadCode dead_code;
  CfgCleanup cfg;
};

Pipeline::Pipeline() : state_(std::make_unique<State>()) {}
Pipeline::~Pipeline() = default;

Status Pipeline::run(ir::Builder& b, const PipelineOptions& options) {
  State& s = *state_;
  auto step = [&](const char* name, auto& pass) -> Status {
    if (Status st = pass.run(b); !st) return st;
    if (options.validate_each_pass) {
      if (Status st = ir::validate(b); !st)
        return Status::error(std::string("after pass ") + name + ": " + st.message());
    }
    return Status::ok();
  };
  if (Status st = step("scoped_to_structured", s.structurize); !st) return st;
  if (Status st = step("ssa_construction", s.ssa); !st) return st;
  if (Status st = step("type_resolution", s.types); !st) return st;
  if (Status st = step("lower_unsupported", s.lower); !st) return st;
  if (Status st = step("constant_fold", s.fold); !st) return st;
  if (Status st = step("dead_code", s.dead_code); !st) return st;
  // Trivial phis are all SSA construction leaves for clean-up; without phis it has no work.
  if (s.ssa.phi_count() > 0)
    if (Status st = step("cfg_cleanup", s.cfg); !st) return st;
  return Status::ok();
}

} // namespace kiln::passes
