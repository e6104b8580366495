// Placeholder until the real implementation lands: the pipeline links end to end.
#include "translator/dxbc/converter.h"

#include "translator/ir/ir.h"

namespace kiln::dxbc {

struct Converter::State {};

Converter::Converter() : state_(std::make_unique<State>()) {}
Converter::~Converter() = default;

Status Converter::convert(std::span<const std::uint8_t>, const ConvertOptions&, ir::Builder&) {
  return Status::error("DXBC translation: not implemented yet");
}

} // namespace kiln::dxbc
