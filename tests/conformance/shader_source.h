#pragma once
// Where the executor's SPIR-V comes from. KilnShaderSource translates with kiln's Translator
// (the thing under test); Vkd3dShaderSource uses Debian's libvkd3d-shader (dlopen, DXBC only)
// as a reference, so the executor itself can be checked on cases that translator passes.

#include "translator/common/reflection.h"
#include "translator/common/status.h"
#include "translator/translate.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::vkd3d {
class ShaderLibrary;
}

namespace kiln::conformance {

struct StageProgram {
  std::vector<std::uint32_t> spirv;
  std::string entry_point = "main";
  // Set when the translator produced a module that must not reach the driver (it failed
  // validation): the case fails with this message instead of running.
  std::string invalid;
  // Descriptors the shader uses (kiln's binding model, docs/pipeline.md); set by
  // `resources_from_state` when false.
  bool has_resources = false;
  std::vector<ResourceBinding> resources;
  // Inputs and outputs: semantic, index and location (inputs: vertex attributes or varyings).
  std::vector<SignatureElement> inputs;
  std::vector<SignatureElement> outputs;
};

class ShaderSource {
 public:
  virtual ~ShaderSource() = default;
  virtual const char* name() const = 0;
  // A failed status is a rejection: its message is the translator's own. Kiln's modules are
  // validated (spirv-val, the target's environment) before they are used.
  virtual Status translate(std::span<const std::uint8_t> bytecode, StageProgram& out) = 0;
  // The same under the layer's interface (render-state parameters, D3D9 varying map); a
  // source that cannot take one translates as translate() does.
  virtual Status translate_with(std::span<const std::uint8_t> bytecode,
                                const std::shared_ptr<const ShaderInterface>& interface,
                                StageProgram& out) {
    (void)interface;
    return translate(bytecode, out);
  }
};

// The layout the runner builds every pipeline from, passed to kiln as its interface (not kiln's
// own model): one descriptor set, bindings sequential per stage and register space in blocks of
// kLayoutBlock (CBVs from +0, SRVs +16, UAVs +144, UAV counters +208, samplers +272); raw and
// structured buffers are R32_UINT texel buffers and counters storage texel buffers, as vkd3d
// binds them. `push_cb0`: cb0 (space 0) is `push_cb0_bytes` of push constants at offset 0.
constexpr std::uint32_t kLayoutBlock = 336;
constexpr std::uint32_t kPushConstantBytes = 128; // Vulkan's guaranteed push-constant size
std::shared_ptr<const ShaderInterface> runner_interface(std::uint32_t push_cb0_bytes = 0);

class KilnShaderSource final : public ShaderSource {
 public:
  // `interface`: the layout kiln translates for; null: kiln's own binding model.
  explicit KilnShaderSource(std::shared_ptr<const ShaderInterface> interface = runner_interface())
      : interface_(std::move(interface)) {}
  const char* name() const override { return "kiln"; }
  Status translate(std::span<const std::uint8_t> bytecode, StageProgram& out) override;
  Status translate_with(std::span<const std::uint8_t> bytecode,
                        const std::shared_ptr<const ShaderInterface>& interface,
                        StageProgram& out) override;

 private:
  std::shared_ptr<const ShaderInterface> interface_;
  Translator translator_;
  TranslateResult result_;
};

class Vkd3dShaderSource final : public ShaderSource {
 public:
  Vkd3dShaderSource(); // loads the library; available() false when it is absent
  ~Vkd3dShaderSource() override;
  Vkd3dShaderSource(const Vkd3dShaderSource&) = delete;
  Vkd3dShaderSource& operator=(const Vkd3dShaderSource&) = delete;

  bool available() const { return library_ != nullptr; }
  const std::string& note() const { return note_; }
  const char* name() const override { return "vkd3d"; }
  Status translate(std::span<const std::uint8_t> bytecode, StageProgram& out) override;
  // The interface's sample count goes to vkd3d-shader as its RASTERIZER_SAMPLE_COUNT
  // parameter; the runner's bindings are kiln's own model either way.
  Status translate_with(std::span<const std::uint8_t> bytecode,
                        const std::shared_ptr<const ShaderInterface>& interface,
                        StageProgram& out) override;

 private:
  std::unique_ptr<vkd3d::ShaderLibrary> library_; // null when not usable
  std::string note_;
};

// kiln's binding model (docs/pipeline.md): binding = register * 5 + class, with class CBV 0,
// SRV 1, UAV 2, sampler 3, UAV counter 4. The reference translator is given the same numbers.
constexpr std::uint32_t kiln_binding(ResourceBinding::Class register_class,
                                     std::uint32_t register_index) {
  return register_index * 5 + std::uint32_t(register_class);
}

// The OpEntryPoint name of a SPIR-V module ("main" when there is none).
std::string spirv_entry_point(std::span<const std::uint32_t> words);

// Input signature of a DXBC vertex shader: semantic, index, location = input register.
Status dxbc_vertex_inputs(std::span<const std::uint8_t> bytecode,
                          std::vector<SignatureElement>& out);

} // namespace kiln::conformance
