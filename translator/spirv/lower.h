#pragma once
// IR in final form (docs/pipeline.md) -> a SPIR-V module, plus the reflection a layer needs to
// build its pipeline layout. The binding model (descriptor set and binding per D3D register)
// is documented in docs/pipeline.md.
//
// A Lowering is per worker: it owns a ModuleBuilder and dense id maps that keep their
// capacity between shaders. One walk over the IR emits everything; each op goes to the handler
// its row of KILN_SPIRV_LOWERINGS (lower_table.h) names, through one handler table generated
// from it (lower.cpp, State::lower_op). The files (README.md has the full list):
//
//   lower.cpp            driver, dispatch, entry point (HS: one entry that calls the control-
//                        point function, barriers, then runs the patch-constant function in
//                        invocation 0)
//   lower_declarations.cpp  EntryPoint, constants, execution modes, debug names, semantics
//   lower_types.cpp      types (explicit layout for blocks), constants, casts, address walking
//   lower_io.cpp         inputs/outputs and built-ins (KILN_SPIRV_BUILTINS: SPIR-V type each
//                        built-in needs)
//   lower_io_ops.cpp     loads and stores of I/O (converting to and from the IR's type),
//                        interpolation, emits
//   lower_resources.cpp  CBV/SRV/UAV/sampler/counter/LDS/scratch/push-data declarations
//   lower_memory.cpp     loads, stores and atomics through access chains
//   lower_texel_buffers.cpp  raw/structured buffers in the interface's texel-buffer form
//   lower_images.cpp     sample, gather, fetch, read/write, queries, image atomics, sparse
//   lower_ops.cpp        arithmetic (the table's instruction column: lower_direct),
//                        conversions, composites, derivatives, barriers, demote
//   lower_cf.cpp         functions, labels with their merge instructions, branches, phis
//   lower_target.cpp     what the target and the interface's extensions allow, fallbacks
//   lower_outputs.cpp    dual-source blending, output swizzles, stream output (Xfb)
//   lower_render_state.cpp  render-state parameters: alpha test, fog, clip planes, point
//                        size and sprites, flat COLOR inputs (docs/abi.md, "Parameters")
//
// Choices a layer must know: D3D's SV_VertexID / SV_InstanceID subtract BaseVertex /
// BaseInstance; SV_IsFrontFace read as an integer is ~0u / 0; SV_SampleCount reads the
// specialization constant kSampleCountSpecId (or the RASTERIZER_SAMPLE_COUNT parameter); a shader
// with rasterizer-ordered UAVs runs its whole entry function inside one fragment-shader interlock;
// FMad is an unfused mul + add.

#include "translator/common/reflection.h"
#include "translator/common/shader_interface.h"
#include "translator/common/spirv_target.h"
#include "translator/common/status.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace kiln::ir {
class Builder;
}

namespace kiln::spirv {

// SV_SampleCount has no SPIR-V built-in: it reads this specialization constant (default 1),
// which the layer specializes with the render target's sample count.
constexpr std::uint32_t kSampleCountSpecId = 0x4b4c0001u;

struct LowerOptions {
  SpirvTarget target = SpirvTarget::Vulkan13;
  bool debug_names = false; // emit OpName/OpMemberName from DebugName ops
  // The layer's interface: binding map, extensions, outputs, render-state parameters
  // (lower_render_state.cpp). Null: kiln's own model (every optional feature available).
  const ShaderInterface* interface = nullptr;
  // The bytecode's output signature (DXBC; null: none): stream output of SV_ClipDistance /
  // SV_CullDistance finds there which elements of the built-in's array a request's register
  // components are, which the IR's one array declaration no longer says.
  const std::vector<SignatureElement>* source_outputs = nullptr;
};

class Lowering {
 public:
  Lowering();
  ~Lowering();
  Lowering(const Lowering&) = delete;
  Lowering& operator=(const Lowering&) = delete;

  // `words` and `reflection` are overwritten. Fails (one line) on IR it cannot express.
  Status lower(const ir::Builder& builder, const LowerOptions& options,
               std::vector<std::uint32_t>& words, Reflection& reflection);

  // Empties `reflection` (as lower() does first), keeping its names' heap buffers for the
  // next shader's: a warm translation into a reused result allocates nothing.
  void recycle(Reflection& reflection);

  // Internal (lower_state.h); named here so the backend's helper files can use it.
  struct State;

 private:
  std::unique_ptr<State> state_;
};

} // namespace kiln::spirv
