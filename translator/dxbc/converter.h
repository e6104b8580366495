#pragma once
// DXBC (SM4.0-5.1) -> IR in "scoped form" (docs/pipeline.md): one Function per entry point
// (two for hull shaders), scoped control flow, DclTmp/TmpLoad/TmpStore for D3D temporaries,
// values of unknown type consumed through ConsumeAs. The passes (translator/passes) take it
// from there.
//
// A Converter is per worker: it keeps its scratch storage between shaders, so converting after
// warm-up does not touch the heap beyond what the ir::Builder already holds.

#include "translator/common/reflection.h"
#include "translator/common/status.h"

#include <cstdint>
#include <memory>
#include <span>

namespace kiln {
struct ClassLinkage;
}
namespace kiln::ir {
class Builder;
}

namespace kiln::dxbc {

struct ConvertOptions {
  bool debug_names = false; // emit DebugName/Semantic ops from RDEF and signatures
  // Where class linkage reads its class-instance selection (the interface's; null: kiln's
  // default register, read at run time).
  const ClassLinkage* class_linkage = nullptr;
};

class Converter {
 public:
  Converter();
  ~Converter();
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;

  // `bytecode` is a whole DXBC container. `builder` must be empty (reset) on entry. On failure
  // the builder holds an unspecified partial program and the status names the cause (an
  // unsupported feature by name, or the token offset of bad input).
  Status convert(std::span<const std::uint8_t> bytecode, const ConvertOptions& options,
                 ir::Builder& builder);

  // The bytecode's own reflection (dxbc/scan.h) of the shader last converted successfully;
  // its bytes must still be alive.
  Status scan(SourceReflection& out) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kiln::dxbc
