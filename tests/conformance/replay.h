#pragma once
// Internal to the executor: the state of one replay (one test file at one model) and the GPU
// objects behind the script's resources. executor.cpp runs commands; replay_resources.cpp
// creates resources and descriptor bindings.

#include "tests/conformance/executor.h"
#include "tests/conformance/resources.h"

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
  // D3D9 fixed-function state: anything but the default makes D3D9 draws skip (no kiln option).
  // Alpha test and flat shading are emulated by the runner (emulate_alpha_test,
  // link_by_semantic); fog, clip planes and point size/sprites make draws skip.
  CompareFunc alpha_func = CompareFunc::Always;
  float alpha_ref = 0.0f;
  bool flat_shading = false, point_size = false, point_sprite = false;
  bool fog = false;
  unsigned clip_planes = 0; // enabled mask

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
  CommandResult translate(const std::string& stage, StageProgram const*& out);

  // executor.cpp
  CommandResult run(const Command& command, CaseResult& result);
  CommandResult draw(const DrawCommand& draw);
  CommandResult dispatch(const std::array<std::uint32_t, 3>& groups);
  CommandResult copy(const std::string& from, const std::string& to);
  CommandResult probe(const ProbeCommand& probe, CaseResult& result);
  // D3D9 alpha test around one draw: `before` holds the attachments' contents from before
  // the draw; pixels whose new render-target-0 alpha fails the test get them back.
  struct AttachmentSnapshot {
    vulkan::Image* image;
    std::vector<std::uint8_t> bytes;
  };
  // D3D9: PS input locations rewritten to the VS output locations of the same semantic
  // (FORMAT.md 5), and COLOR inputs made flat under `shade mode flat`; `linked` stays empty
  // when the module needs no change.
  CommandResult link_by_semantic(const StageProgram& vs, const StageProgram& ps,
                                 std::vector<std::uint32_t>& linked);
  CommandResult snapshot_attachments(std::vector<AttachmentSnapshot>& out);
  CommandResult emulate_alpha_test(std::vector<AttachmentSnapshot>& before);
};

} // namespace kiln::conformance
