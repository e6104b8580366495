#pragma once
// The pass pipeline: IR in scoped form (what the front ends emit) -> IR in final form (what the
// SPIR-V backend accepts). docs/pipeline.md lists both forms and the order of the passes; each
// pass is one file pair in this folder.
//
// A Pipeline is per worker and keeps its scratch storage (dense arrays indexed by SsaDef id)
// between shaders.

#include "translator/common/status.h"

#include <memory>

namespace kiln::ir {
class Builder;
}

namespace kiln::passes {

struct PipelineOptions {
  // Run the IR validator after every pass and fail with the pass's name on the first error.
  // On in debug builds and in tests; off on the hot path.
  bool validate_each_pass = false;
};

class Pipeline {
 public:
  Pipeline();
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  Status run(ir::Builder& builder, const PipelineOptions& options);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kiln::passes
