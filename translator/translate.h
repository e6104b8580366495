#pragma once
// The translator's C++ entry point: bytecode in, SPIR-V words and reflection out.
//
// A Translator is a per-worker object: it owns the arenas every translation allocates from and
// resets them between shaders, so after warm-up a translation does not touch the heap except
// for the returned SPIR-V. It is not thread-safe; use one per thread.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "translator/common/input_kind.h"
#include "translator/common/shader_stage.h"
#include "translator/common/status.h"

namespace kiln {

enum class SpirvTarget : std::uint8_t {
  Vulkan11, // SPIR-V 1.3
  Vulkan12, // SPIR-V 1.5
  Vulkan13, // SPIR-V 1.6 (default)
};

std::string_view spirv_target_name(SpirvTarget target); // "vulkan1.3"
bool parse_spirv_target(std::string_view name, SpirvTarget& out);

struct TranslateOptions {
  SpirvTarget target = SpirvTarget::Vulkan13;
  // Emit OpName/OpMemberName from the bytecode's reflection data.
  bool debug_names = false;
};

// What the caller needs to build a pipeline layout. Filled by the SPIR-V backend.
struct ResourceBinding {
  enum class Class : std::uint8_t { Cbv, Srv, Uav, Sampler, UavCounter, PushData };
  Class register_class = Class::Cbv;
  std::uint32_t space = 0;
  std::uint32_t register_index = 0;
  std::uint32_t array_size = 1; // 0 = unbounded
  std::uint32_t descriptor_type = 0; // VkDescriptorType
  std::uint32_t set = 0;
  std::uint32_t binding = 0;
};

struct SignatureElement {
  std::string semantic;
  std::uint32_t semantic_index = 0;
  std::uint32_t location = 0;
  std::uint32_t component_mask = 0;
  std::uint32_t builtin = ~0u; // spv::BuiltIn, or ~0u for a plain location
};

struct Reflection {
  ShaderStage stage = ShaderStage::Count;
  std::vector<ResourceBinding> resources;
  std::vector<SignatureElement> inputs;
  std::vector<SignatureElement> outputs;
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

  // Translates one shader. On failure `out` is left empty and the status says why, in one
  // line ("DXIL (shader model 6) container: not supported ...").
  Status translate(std::span<const std::uint8_t> bytecode, const TranslateOptions& options,
                   TranslateResult& out);

private:
  struct Workspace; // per-worker arenas and scratch state, reused across translations
  std::unique_ptr<Workspace> workspace_;
};

} // namespace kiln
