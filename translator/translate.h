#pragma once
// The translator's C++ entry point: bytecode in, SPIR-V words and reflection out.
//
// A Translator is a per-worker object: it owns the pools every translation allocates from (the
// IR builder's op and operand pools, the front ends' register tables, the lowering's scratch)
// and resets them between shaders, so after warm-up a translation does not touch the heap except
// for the returned SPIR-V. It is not thread-safe; use one per thread.

#include "translator/common/input_kind.h"
#include "translator/common/reflection.h"
#include "translator/common/shader_interface.h"
#include "translator/common/shader_stage.h"
#include "translator/common/spirv_target.h"
#include "translator/common/status.h"
#include "translator/shader_input.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::ir {
class Builder;
}

namespace kiln {

struct TranslateOptions {
  SpirvTarget target = SpirvTarget::Vulkan13;
  // Emit OpName/OpMemberName from the bytecode's reflection data.
  bool debug_names = false;
  // The layer's interface (bindings, push constants, stream output, parameters, ...); null:
  // kiln's own model. Shared, never modified once built.
  std::shared_ptr<const ShaderInterface> interface;
};

struct TranslateResult {
  InputKind kind = InputKind::Unknown;
  std::vector<std::uint32_t> spirv;
  Reflection reflection;
  std::vector<std::string> diagnostics; // warnings that did not stop translation
};

class Translator {
 public:
  Translator();
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // Translates one shader, read once on its way in (shader_input.h): neither classified nor
  // parsed again here. input.bytes must stay alive through the call. On failure `out` is left
  // empty and the status says why, in one line ("DXIL (shader model 6) container: not
  // supported ...").
  Status translate(const ShaderInput& input, const TranslateOptions& options, TranslateResult& out);
  // The same for bytes not read yet: read_shader_input(bytecode), then the above.
  Status translate(std::span<const std::uint8_t> bytecode, const TranslateOptions& options,
                   TranslateResult& out);

  // The IR of one shader, for `kiln disasm --ir` and tests: the front end's scoped form, or
  // with `run_passes` the final form the SPIR-V backend takes (each pass validated).
  Status convert_to_ir(const ShaderInput& input, const TranslateOptions& options,
                       ir::Builder& builder, bool run_passes);

 private:
  Status run_front_end(const ShaderInput& input, const TranslateOptions& options,
                       ir::Builder& builder);
  // `source`: the bytecode's scanned facts (DXBC), or null.
  Status build_ir_to_spirv(const TranslateOptions& options, const SourceReflection* source,
                           TranslateResult& out);

  struct Workspace; // per-worker pools and scratch state, reused across translations
  std::unique_ptr<Workspace> workspace_;
};

} // namespace kiln
