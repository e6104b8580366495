#pragma once
// Internal to the executor: the state of one replay (one test file at one model) and the GPU
// objects behind the script's resources. executor.cpp runs commands; replay_resources.cpp
// creates resources and descriptor bindings.

#include "tests/conformance/commands.h"
#include "tests/conformance/executor.h"
#include "tests/conformance/resources.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::conformance {

struct GpuResource {
  ResourceDesc desc;
  vulkan::Buffer buffer; // buffers (srv/uav buffers, vertex buffers)
  vulkan::BufferView texel_view;
  vulkan::Image image;             // textures, render targets, depth
  vulkan::Buffer counter;          // UAV counter, created when a shader asks for one
  vulkan::BufferView counter_view; // the counter as an R32_UINT texel buffer, when asked so
  bool is_buffer() const {
    return desc.kind == ResourceKind::Vb || desc.dim == ResourceDim::Buffer ||
           desc.dim == ResourceDim::RawBuffer || desc.dim == ResourceDim::StructuredBuffer;
  }
};

VkFormat vk_format(Format format);

// First SpecId of the render-state parameters when the runner passes them as specialization
// constants (--spec-constants).
constexpr std::uint32_t kRenderStateSpecId = 100;

// A pipeline with the descriptor layout it was made with, reused while the draw state and
// the shaders stay the same.
struct CachedPipeline {
  vulkan::DescriptorBinding descriptors;
  vulkan::GraphicsPipeline graphics;
  vulkan::ComputeProgram compute;
};

// Outcome of running one command.
struct CommandResult {
  enum class Kind { Ok, Fail, Rejected, Skipped } kind = Kind::Ok;
  std::string message;
  static CommandResult ok() { return {}; }
  static CommandResult fail(std::string m) { return {Kind::Fail, std::move(m)}; }
  static CommandResult rejected(std::string m) { return {Kind::Rejected, std::move(m)}; }
  static CommandResult skipped(std::string m) { return {Kind::Skipped, std::move(m)}; }
};

struct Executor::Replay {
  Replay(vulkan::Context& c, ShaderSource& s, const TestFile& f, std::string m);

  vulkan::Context& context;
  ShaderSource& source;
  const TestFile& file;
  std::string model;
  bool d3d9 = false;           // sm2/sm3
  bool fixed_function = false; // D3D9 fixed-function state applies (d3d9, or forced by tests)

  // Script state (FORMAT.md 1: carries over between blocks).
  std::vector<std::unique_ptr<GpuResource>> resources; // declaration order
  std::vector<SamplerDesc> samplers;                   // declaration order
  std::vector<InputElement> input_layout;
  std::vector<std::uint32_t> uniforms;
  CompareFunc depth_func = CompareFunc::Less;
  std::uint32_t sample_mask = ~0u;
  std::vector<VkViewport> viewports; // explicit `viewport i`; empty = whole render area
  std::vector<std::array<float, 4>> viewport_rects;
  // D3D9 fixed-function state (FORMAT.md 4.5), handed to kiln as render-state parameters
  // (d3d9_emulation.cpp).
  CompareFunc alpha_func = CompareFunc::Always;
  float alpha_ref = 0.0f;
  bool flat_shading = false, point_sprite = false;
  static constexpr std::array<float, 3> kDefaultPointSize = {1.0f, 1.0f, 3.402823466e38f};
  std::array<float, 3> point_size = kDefaultPointSize; // size, min, max
  FogCommand fog;
  bool ortho_fog = false; // `ortho` / `non-ortho` persist until changed
  std::array<float, 4> fog_colour{};
  unsigned clip_planes = 0; // enabled mask
  std::array<std::array<float, 4>, 8> clip_plane_values{};
  bool parameters_as_spec_constants = false;     // Executor::set_parameters_as_spec_constants
  std::vector<ShaderParameter> extra_parameters; // Executor::set_extra_parameters

  // Objects.
  vulkan::Buffer uniform_buffer;                      // cb0: the script's uniform area
  vulkan::Buffer zero_buffer;                         // every other constant buffer
  std::map<std::string, StageProgram> programs;       // blob path -> translation
  std::map<std::string, std::string> rejections;      // blob path -> message
  std::map<std::string, std::string> invalid_modules; // blob path -> validation message
  std::map<std::string, std::unique_ptr<CachedPipeline>> pipelines;
  std::map<unsigned, vulkan::Sampler> sampler_objects;
  bool draw_failed = false; // probes after a failed draw/dispatch are skipped

  // Case being run.
  const CaseInfo* current = nullptr;

  // replay_resources.cpp
  Status apply_section(const Section& section);
  Status create_resource(const ResourceDesc& desc, GpuResource& out);
  GpuResource* find(ResourceKind kind, unsigned slot);
  Status ensure_default_render_target();
  Status write_uniforms();
  // Descriptors for the union of `stages`' resources.
  CommandResult descriptor_writes(const std::vector<const StageProgram*>& stages,
                                  std::vector<vulkan::DescriptorWrite>& writes,
                                  std::uint32_t& push_bytes);
  // The stage's translation under `interface` (null: kiln's own model), cached per blob and
  // interface.
  CommandResult translate(const std::string& stage,
                          const std::shared_ptr<const ShaderInterface>& interface,
                          StageProgram const*& out);

  // executor.cpp
  CommandResult run(const Command& command, CaseResult& result);
  CommandResult draw(const DrawCommand& draw);
  CommandResult dispatch(const std::array<std::uint32_t, 3>& groups);
  CommandResult copy(const std::string& from, const std::string& to);
  CommandResult probe(const ProbeCommand& probe, CaseResult& result);
  // d3d9_emulation.cpp: the fixed-function state as kiln parameters (null when none applies),
  // with the D3D9 varying map that links the draw's stages.
  CommandResult render_state_interface(std::shared_ptr<const ShaderInterface>& out);
  void add_render_state(ShaderInterface& out, bool as_spec_constants) const;
  void add_every_model_state(ShaderInterface& out) const; // DXBC: what vkd3d applies there too
  CommandResult build_varying_map(ShaderInterface& out);
  // The parameters' values for VkSpecializationInfo when they are specialization constants.
  void specialization_data(std::vector<VkSpecializationMapEntry>& entries,
                           std::vector<std::uint32_t>& data) const;
  std::uint32_t sample_count() const;
};

} // namespace kiln::conformance
