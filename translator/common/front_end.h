#pragma once
// The public face of a front end (dxbc::Converter, d3d9::Converter): bytecode in, IR in
// "scoped form" out (docs/pipeline.md: one Function per entry point, scoped control flow,
// DclTmp/TmpLoad/TmpStore for D3D temporaries, values of unknown type consumed through
// ConsumeAs); the passes (translator/passes) take it from there.
//
// A FrontEnd is per worker: it keeps its State (the front end's scratch storage) between
// shaders, so converting after warm-up does not touch the heap beyond what the ir::Builder
// already holds.
//
// A front end supplies its Options and its State, a struct with
//   Status run(std::span<const std::uint8_t> bytecode, const Options&, ir::Builder&);
// Its header declares the instantiation `extern template` (users need only a declaration of
// State); its converter.cpp, where State is complete, instantiates it.

#include "translator/common/status.h"

#include <cstdint>
#include <memory>
#include <span>

namespace kiln::ir {
class Builder;
}

namespace kiln {

template <typename Options, typename State>
class FrontEnd {
 public:
  FrontEnd();
  ~FrontEnd();
  FrontEnd(const FrontEnd&) = delete;
  FrontEnd& operator=(const FrontEnd&) = delete;

  // `bytecode` is a whole shader as the front end reads it. `builder` must be empty (reset) on
  // entry. On failure the builder holds an unspecified partial program and the status names
  // the cause (an unsupported feature by name, or the token offset of bad input).
  Status convert(std::span<const std::uint8_t> bytecode, const Options& options,
                 ir::Builder& builder);

 protected:
  std::unique_ptr<State> state_;
};

template <typename Options, typename State>
FrontEnd<Options, State>::FrontEnd() : state_(std::make_unique<State>()) {}

template <typename Options, typename State>
FrontEnd<Options, State>::~FrontEnd() = default;

template <typename Options, typename State>
Status FrontEnd<Options, State>::convert(std::span<const std::uint8_t> bytecode,
                                         const Options& options, ir::Builder& builder) {
  return state_->run(bytecode, options, builder);
}

} // namespace kiln
