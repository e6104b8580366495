#include "bench/execute/stages.h"

#include "bench/execute/passthrough.h"
#include "bench/execute/seed.h"
#include "bench/execute/stage_support.h"

#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

namespace {

constexpr std::uint32_t kTargetSize = 8;
// The pixel shader's colour outputs: per location, the components it declares and their type.
struct ColourOutput {
  std::uint32_t mask = 0;
  char scalar = 'f';
};
std::map<std::uint32_t, ColourOutput> colour_outputs(const ModuleInterface& interface) {
  std::map<std::uint32_t, ColourOutput> out;
  for (const ComponentFact& c : interface.components)
    if (c.storage == spv::StorageClassOutput && c.index == 0) {
      out[c.location].mask |= 1u << c.component;
      out[c.location].scalar = c.scalar == 'b' ? 'u' : c.scalar;
    }
  return out;
}

bool run_compute(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                 const Reflection& reflection, std::uint64_t seed, const ConstantWords& constants,
                 unsigned runs, StageRun& out, std::string& error) {
  Resources resources;
  if (Status s = resources.create(context, reflection, seed, constants); !s)
    return (error = s.message(), false);
  vulkan::DescriptorBinding descriptors;
  if (Status s = vulkan::DescriptorBinding::create(context, resources.writes(), 0, descriptors); !s)
    return (error = s.message(), false);
  vulkan::ComputeProgram program;
  {
    Timer timer{out.build_ms};
    if (Status s = vulkan::ComputeProgram::create(context, {VK_SHADER_STAGE_COMPUTE_BIT, spirv},
                                                  descriptors.layout(), program);
        !s)
      return (error = s.message(), false);
  }
  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      if (Status s = reseed(context, reflection, seed, constants, descriptors, resources); !s)
        return (error = s.message(), false);
    }
    double ms = 0;
    {
      Timer timer{ms};
      if (Status s = vulkan::dispatch(context, program, descriptors, {}, 1, 1, 1); !s)
        return (error = s.message(), false);
    }
    out.run_ms.push_back(ms);
    std::vector<Output> outputs;
    if (Status s = resources.read(outputs); !s) return (error = s.message(), false);
    out.outputs.push_back(std::move(outputs));
  }
  return true;
}

bool run_pixel(vulkan::Context& context, std::span<const std::uint32_t> spirv,
               const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
               const ConstantWords& constants, unsigned runs,
               const VkSpecializationInfo* specialization, StageRun& out, std::string& error) {
  const std::vector<Varying> varyings = varyings_of(interface, spv::StorageClassInput, false);
  std::uint32_t clip = 0, cull = 0;
  has_builtin(interface, spv::StorageClassInput, spv::BuiltInClipDistance, &clip);
  has_builtin(interface, spv::StorageClassInput, spv::BuiltInCullDistance, &cull);
  const std::vector<std::uint32_t> vertex_shader = passthrough_vertex_shader(varyings, clip);

  // Three vertices of one triangle over the whole target, w differing so that perspective and
  // noperspective interpolation differ; every attribute seeded per vertex.
  constexpr float kCorners[3][2] = {{-1.0f, -1.0f}, {3.0f, -1.0f}, {-1.0f, 3.0f}};
  constexpr float kW[3] = {1.0f, 2.0f, 1.5f};
  vulkan::GraphicsPipelineDesc desc;
  std::vector<vulkan::Buffer> vertex_buffers(varyings.size() + 1);
  for (std::uint32_t a = 0; a <= varyings.size(); ++a) {
    const bool position = a == varyings.size();
    const char scalar = position ? 'f' : varyings[a].scalar;
    const std::uint32_t count = position ? 4 : varyings[a].count;
    desc.vertex_bindings.push_back({a, count * 4, VK_VERTEX_INPUT_RATE_VERTEX});
    desc.vertex_attributes.push_back({a, a, vector_format(scalar, count), 0});
    if (Status s = vulkan::Buffer::create(context, 3 * count * 4, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                          vertex_buffers[a]);
        !s)
      return (error = s.message(), false);
    auto* words = static_cast<std::uint32_t*>(vertex_buffers[a].mapped());
    for (std::uint32_t v = 0; v < 3; ++v)
      for (std::uint32_t c = 0; c < count; ++c) {
        std::uint32_t& word = words[v * count + c];
        if (position) {
          const float value = c < 2 ? kCorners[v][c] * kW[v] : c == 2 ? 0.5f * kW[v] : kW[v];
          std::memcpy(&word, &value, 4);
        } else {
          word = seeded_word(scalar, mix64(seed + 0x51ed + a), v * 4 + c);
        }
      }
  }
  if (cull) return (error = "reads SV_CullDistance", false);

  Resources resources;
  if (Status s = resources.create(context, reflection, seed, constants); !s)
    return (error = s.message(), false);
  vulkan::DescriptorBinding descriptors;
  if (Status s = vulkan::DescriptorBinding::create(context, resources.writes(), 0, descriptors); !s)
    return (error = s.message(), false);

  const auto colours = colour_outputs(interface);
  const bool depth = has_builtin(interface, spv::StorageClassOutput, spv::BuiltInFragDepth);
  std::uint32_t locations = colours.empty() ? 0 : colours.rbegin()->first + 1;
  desc.color_formats.assign(locations, VK_FORMAT_UNDEFINED);
  for (const auto& [location, colour] : colours)
    desc.color_formats[location] = vector_format(colour.scalar, 4);
  desc.depth_format = depth ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_UNDEFINED;
  desc.layout = descriptors.layout();
  desc.stages = {{VK_SHADER_STAGE_VERTEX_BIT, vertex_shader},
                 {VK_SHADER_STAGE_FRAGMENT_BIT, spirv, "main", specialization}};
  vulkan::GraphicsPipeline pipeline;
  if (Status s = build_timed(context, desc, pipeline, out.build_ms); !s)
    return (error = s.message(), false);

  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      if (Status s = reseed(context, reflection, seed, constants, descriptors, resources); !s)
        return (error = s.message(), false);
    }
    std::vector<vulkan::Image> targets(locations);
    vulkan::Image depth_target;
    vulkan::DrawDesc draw;
    draw.pipeline = &pipeline;
    draw.descriptors = &descriptors;
    draw.color.resize(locations);
    for (const auto& [location, colour] : colours) {
      vulkan::ImageDesc image;
      image.format = desc.color_formats[location];
      image.width = image.height = kTargetSize;
      image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
      if (Status s = vulkan::Image::create(context, image, targets[location]); !s)
        return (error = s.message(), false);
      const std::uint32_t clear[4] = {kUnwrittenWord, kUnwrittenWord, kUnwrittenWord,
                                      kUnwrittenWord};
      if (Status s = targets[location].clear_color(clear); !s) return (error = s.message(), false);
      draw.color[location].image = &targets[location];
    }
    if (depth) {
      vulkan::ImageDesc image;
      image.format = VK_FORMAT_D32_SFLOAT;
      image.width = image.height = kTargetSize;
      image.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
      if (Status s = vulkan::Image::create(context, image, depth_target); !s)
        return (error = s.message(), false);
      if (Status s = depth_target.clear_depth(0.25f); !s) return (error = s.message(), false);
      draw.depth = &depth_target;
    }
    for (const vulkan::Buffer& b : vertex_buffers) draw.vertex_buffers.push_back(b.handle());
    draw.viewports = {{0.0f, 0.0f, float(kTargetSize), float(kTargetSize), 0.0f, 1.0f}};
    draw.render_area = {{0, 0}, {kTargetSize, kTargetSize}};
    draw.vertex_count = 3;
    double ms = 0;
    {
      Timer timer{ms};
      if (Status s = vulkan::draw(context, draw); !s) return (error = s.message(), false);
    }
    out.run_ms.push_back(ms);
    std::vector<Output> outputs;
    for (const auto& [location, colour] : colours) {
      Output o;
      o.name = "rt" + std::to_string(location);
      o.kind = colour.scalar;
      o.compare_mask = colour.mask;
      std::vector<std::uint8_t> bytes;
      if (Status s = targets[location].read(0, 0, bytes); !s) return (error = s.message(), false);
      o.words.resize(bytes.size() / 4);
      std::memcpy(o.words.data(), bytes.data(), o.words.size() * 4);
      outputs.push_back(std::move(o));
    }
    if (depth) {
      Output o;
      o.name = "depth";
      o.components = 1;
      o.compare_mask = 1;
      std::vector<std::uint8_t> bytes;
      if (Status s = depth_target.read(0, 0, bytes); !s) return (error = s.message(), false);
      o.words.resize(bytes.size() / 4);
      std::memcpy(o.words.data(), bytes.data(), o.words.size() * 4);
      outputs.push_back(std::move(o));
    }
    if (Status s = resources.read(outputs); !s) return (error = s.message(), false);
    out.outputs.push_back(std::move(outputs));
  }
  return true;
}

bool run_vertex(vulkan::Context& context, std::span<const std::uint32_t> spirv,
                const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
                const ConstantWords& constants, const std::string& captured, unsigned runs,
                const VkSpecializationInfo* specialization, StageRun& out, std::string& error) {
  if (!context.has_transform_feedback())
    return (error = "the device has no VK_EXT_transform_feedback", false);
  constexpr std::uint32_t kVertices = 4;
  // One four-component attribute per input location, of the type of its first component.
  std::map<std::uint32_t, char> locations;
  for (const ComponentFact& c : interface.components)
    if (c.storage == spv::StorageClassInput && !locations.count(c.location))
      locations[c.location] = c.scalar == 'b' ? 'u' : c.scalar;
  vulkan::GraphicsPipelineDesc desc;
  std::vector<vulkan::Buffer> vertex_buffers(locations.size());
  std::uint32_t a = 0;
  for (const auto& [location, scalar] : locations) {
    desc.vertex_bindings.push_back({a, 16, VK_VERTEX_INPUT_RATE_VERTEX});
    desc.vertex_attributes.push_back({location, a, vector_format(scalar, 4), 0});
    if (Status s = vulkan::Buffer::create(context, kVertices * 16,
                                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_buffers[a]);
        !s)
      return (error = s.message(), false);
    auto* words = static_cast<std::uint32_t*>(vertex_buffers[a].mapped());
    for (std::uint32_t i = 0; i < kVertices * 4; ++i)
      words[i] = seeded_word(scalar, mix64(seed + 0x51ed + location), i);
    ++a;
  }
  Resources resources;
  if (Status s = resources.create(context, reflection, seed, constants); !s)
    return (error = s.message(), false);
  vulkan::DescriptorBinding descriptors;
  if (Status s = vulkan::DescriptorBinding::create(context, resources.writes(), 0, descriptors); !s)
    return (error = s.message(), false);
  desc.layout = descriptors.layout();
  desc.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  desc.rasterizer_discard = true;
  desc.stages = {{VK_SHADER_STAGE_VERTEX_BIT, spirv, "main", specialization}};
  vulkan::GraphicsPipeline pipeline;
  if (Status s = build_timed(context, desc, pipeline, out.build_ms); !s)
    return (error = s.message(), false);
  const std::uint32_t stride = std::uint32_t(captured.size()) * 4;
  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      if (Status s = reseed(context, reflection, seed, constants, descriptors, resources); !s)
        return (error = s.message(), false);
    }
    vulkan::Buffer feedback;
    if (Status s =
            vulkan::Buffer::create(context, std::max(4u, stride * kVertices),
                                   VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, feedback);
        !s)
      return (error = s.message(), false);
    vulkan::DrawDesc draw;
    draw.pipeline = &pipeline;
    draw.descriptors = &descriptors;
    for (const vulkan::Buffer& b : vertex_buffers) draw.vertex_buffers.push_back(b.handle());
    draw.viewports = {{0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f}};
    draw.render_area = {{0, 0}, {1, 1}};
    draw.vertex_count = kVertices;
    draw.xfb_buffers = {feedback.handle()};
    double ms = 0;
    {
      Timer timer{ms};
      if (Status s = vulkan::draw(context, draw); !s) return (error = s.message(), false);
    }
    out.run_ms.push_back(ms);
    std::vector<Output> outputs;
    // One output per captured component position, so that each word keeps its own type.
    const std::vector<std::uint32_t> words = feedback.read<std::uint32_t>();
    for (std::size_t c = 0; c < captured.size(); ++c) {
      Output o;
      o.name = "xfb component " + std::to_string(c);
      o.kind = captured[c];
      o.components = 1;
      o.compare_mask = 1;
      for (std::uint32_t v = 0; v < kVertices; ++v)
        o.words.push_back(words[v * captured.size() + c]);
      outputs.push_back(std::move(o));
    }
    if (Status s = resources.read(outputs); !s) return (error = s.message(), false);
    out.outputs.push_back(std::move(outputs));
  }
  return true;
}

} // namespace

std::string stage_unsupported(ShaderStage stage, const Reflection& reflection,
                              const ModuleInterface& interface) {
  if (stage == ShaderStage::Count) return "not a shader stage the harness runs";
  if (std::string why = Resources::unsupported(reflection); !why.empty()) return why;
  if ((stage == ShaderStage::Geometry || stage == ShaderStage::Hull ||
       stage == ShaderStage::Domain) &&
      has_builtin(interface, spv::StorageClassInput, spv::BuiltInCullDistance))
    return "reads SV_CullDistance";
  if (stage == ShaderStage::Pixel) {
    if (has_builtin(interface, spv::StorageClassOutput, spv::BuiltInFragStencilRefEXT))
      return "writes SV_StencilRef";
    if (has_builtin(interface, spv::StorageClassInput, spv::BuiltInCullDistance))
      return "reads SV_CullDistance";
    for (const ComponentFact& c : interface.components)
      if (c.storage == spv::StorageClassOutput && c.index != 0) return "dual-source blending";
  }
  return {};
}

bool run_stage(vulkan::Context& context, ShaderStage stage, std::span<const std::uint32_t> spirv,
               const Reflection& reflection, const ModuleInterface& interface, std::uint64_t seed,
               const ConstantWords& constants, const std::string& captured, unsigned runs,
               StageRun& out, std::string& error, const VkSpecializationInfo* specialization) {
  if (stage == ShaderStage::Geometry)
    return run_geometry(context, spirv, reflection, interface, seed, constants, captured, runs, out,
                        error);
  if (stage == ShaderStage::Domain)
    return run_domain(context, spirv, reflection, interface, seed, constants, captured, runs, out,
                      error);
  if (stage == ShaderStage::Hull)
    return run_hull(context, spirv, reflection, interface, seed, constants, runs, out, error);
  if (stage == ShaderStage::Vertex)
    return run_vertex(context, spirv, reflection, interface, seed, constants, captured, runs,
                      specialization, out, error);
  if (stage == ShaderStage::Compute)
    return run_compute(context, spirv, reflection, seed, constants, runs, out, error);
  return run_pixel(context, spirv, reflection, interface, seed, constants, runs, specialization,
                   out, error);
}

} // namespace kiln::execute
