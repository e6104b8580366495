// Placeholder until the real implementation lands: the pipeline links end to end.
#include "translator/spirv/lower.h"

#include "translator/ir/ir.h"

namespace kiln::spirv {

struct Lowering::State {};

Lowering::Lowering() : state_(std::make_unique<State>()) {}
Lowering::~Lowering() = default;

Status Lowering::lower(const ir::Builder&, const LowerOptions&, std::vector<std::uint32_t>&,
                       Reflection&) {
  return Status::error("SPIR-V lowering: not implemented yet");
}

} // namespace kiln::spirv
