// Placeholder until the real implementation lands: the pipeline links end to end.
#include "translator/passes/pipeline.h"

#include "translator/ir/ir.h"

namespace kiln::passes {

struct Pipeline::State {};

Pipeline::Pipeline() : state_(std::make_unique<State>()) {}
Pipeline::~Pipeline() = default;

Status Pipeline::run(ir::Builder&, const PipelineOptions&) {
  return Status::error("pass pipeline: not implemented yet");
}

} // namespace kiln::passes
