#include "bench/execute/stage_support.h"

#include "bench/execute/seed.h"

#include <map>

namespace kiln::execute {

namespace {

// One output per word position of a record (a captured vertex, the storage buffer's one
// record), so that each word keeps its own type ('f', 'u', 'i' in `kinds`).
void append_captured(const vulkan::Buffer& buffer, const char* name, const std::string& kinds,
                     std::uint32_t records, std::vector<Output>& outputs) {
  const std::vector<std::uint32_t> words = buffer.read<std::uint32_t>();
  for (std::size_t c = 0; c < kinds.size(); ++c) {
    Output o;
    o.name = name + std::to_string(c);
    o.kind = kinds[c];
    o.components = 1;
    o.compare_mask = 1;
    for (std::uint32_t r = 0; r < records; ++r) o.words.push_back(words[r * kinds.size() + c]);
    outputs.push_back(std::move(o));
  }
}

} // namespace

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

VkFormat vector_format(char scalar, std::uint32_t count) {
  static constexpr VkFormat f[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT,
                                   VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
  static constexpr VkFormat u[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT,
                                   VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32A32_UINT};
  static constexpr VkFormat i[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT,
                                   VK_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32A32_SINT};
  return (scalar == 'f' ? f : scalar == 'i' ? i : u)[count - 1];
}

std::vector<Varying> varyings_of(const ModuleInterface& interface, std::uint32_t storage,
                                 bool patch) {
  std::map<std::uint32_t, std::map<std::uint32_t, char>> locations;
  for (const ComponentFact& c : interface.components)
    if (c.storage == storage && c.patch == patch)
      locations[c.location][c.component] = c.scalar == 'b' ? 'u' : c.scalar;
  std::vector<Varying> out;
  for (const auto& [location, components] : locations) {
    Varying* open = nullptr;
    for (const auto& [component, scalar] : components) {
      if (open && open->component + open->count == component && open->scalar == scalar) {
        ++open->count;
        continue;
      }
      out.push_back({location, component, 1, scalar});
      open = &out.back();
    }
  }
  return out;
}

bool has_builtin(const ModuleInterface& interface, std::uint32_t storage, spv::BuiltIn builtin,
                 std::uint32_t* array_size) {
  for (const BuiltInFact& b : interface.builtins)
    if (b.storage == storage && b.builtin == std::uint32_t(builtin)) {
      if (array_size) *array_size = b.array_size;
      return true;
    }
  return false;
}

Status reseed(vulkan::Context& context, const Reflection& reflection, std::uint64_t seed,
              const ConstantWords& constants, vulkan::DescriptorBinding& descriptors,
              Resources& resources) {
  Resources fresh;
  if (Status s = fresh.create(context, reflection, seed, constants); !s) return s;
  if (Status s = descriptors.update(fresh.writes()); !s) return s;
  resources = std::move(fresh); // the earlier run has completed: nothing reads them any more
  return Status::ok();
}

Status build_timed(vulkan::Context& context, const vulkan::GraphicsPipelineDesc& desc,
                   vulkan::GraphicsPipeline& pipeline, double& build_ms) {
  Timer timer{build_ms};
  return vulkan::GraphicsPipeline::create(context, desc, pipeline);
}

namespace {

ModuleInterface without_outputs(ModuleInterface facts) {
  std::erase_if(facts.components,
                [](const ComponentFact& c) { return c.storage == spv::StorageClassOutput; });
  std::erase_if(facts.builtins,
                [](const BuiltInFact& b) { return b.storage == spv::StorageClassOutput; });
  return facts;
}

} // namespace

std::string generated_stage_interface_difference(ShaderStage stage, const ModuleInterface& kiln,
                                                 const ModuleInterface& reference) {
  if (stage != ShaderStage::Hull && stage != ShaderStage::Domain && stage != ShaderStage::Geometry)
    return {};
  const std::vector<std::string> differences =
      stage == ShaderStage::Hull
          ? interface_differences(kiln, reference)
          : interface_differences(without_outputs(kiln), without_outputs(reference));
  return differences.empty() ? std::string() : differences.front();
}

std::string missing_device_feature(vulkan::Context& context, ShaderStage stage) {
  if (stage != ShaderStage::Hull && stage != ShaderStage::Domain && stage != ShaderStage::Geometry)
    return {};
  VkPhysicalDeviceFeatures features{};
  vkGetPhysicalDeviceFeatures(context.physical_device(), &features);
  if (!context.has_transform_feedback()) return "the device has no VK_EXT_transform_feedback";
  if (stage == ShaderStage::Geometry && !features.geometryShader)
    return "the device has no geometryShader";
  if ((stage == ShaderStage::Hull || stage == ShaderStage::Domain) && !features.tessellationShader)
    return "the device has no tessellationShader";
  if (stage == ShaderStage::Hull && !features.vertexPipelineStoresAndAtomics)
    return "the device has no vertexPipelineStoresAndAtomics";
  return {};
}

bool run_capture(vulkan::Context& context, const CaptureDraw& draw, const Reflection& reflection,
                 std::uint64_t seed, const ConstantWords& constants, unsigned runs, StageRun& out,
                 std::string& error) {
  vulkan::GraphicsPipelineDesc desc;
  std::vector<vulkan::Buffer> vertex_buffers(draw.varyings.size() + 1);
  for (std::uint32_t a = 0; a <= draw.varyings.size(); ++a) {
    const bool position = a == draw.varyings.size();
    const char scalar = position ? 'f' : draw.varyings[a].scalar;
    const std::uint32_t count = position ? 4 : draw.varyings[a].count;
    desc.vertex_bindings.push_back({a, count * 4, VK_VERTEX_INPUT_RATE_VERTEX});
    desc.vertex_attributes.push_back({a, a, vector_format(scalar, count), 0});
    if (Status s = vulkan::Buffer::create(context, draw.vertex_count * count * 4,
                                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertex_buffers[a]);
        !s)
      return (error = s.message(), false);
    auto* words = static_cast<std::uint32_t*>(vertex_buffers[a].mapped());
    const std::uint64_t stream =
        mix64(seed + 0x51ed +
              (position ? 0x905 : draw.varyings[a].location * 4 + draw.varyings[a].component));
    for (std::uint32_t i = 0; i < draw.vertex_count * count; ++i)
      words[i] = seeded_word(scalar, stream, i);
  }

  Resources resources;
  if (Status s = resources.create(context, reflection, seed, constants); !s)
    return (error = s.message(), false);
  // The capture buffers: transform feedback, and the storage buffer a generated stage writes.
  vulkan::Buffer feedback, storage;
  const bool xfb = !draw.xfb_kinds.empty(), stored = !draw.storage_kinds.empty();
  if (Status s = vulkan::Buffer::create(
          context,
          std::max<VkDeviceSize>(4, VkDeviceSize(draw.xfb_kinds.size()) * draw.xfb_vertices * 4),
          VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, feedback);
      !s)
    return (error = s.message(), false);
  if (Status s =
          vulkan::Buffer::create(context, std::max<VkDeviceSize>(4, draw.storage_kinds.size() * 4),
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, storage);
      !s)
    return (error = s.message(), false);
  std::vector<vulkan::DescriptorWrite> writes(resources.writes().begin(), resources.writes().end());
  if (stored) {
    vulkan::DescriptorWrite w;
    w.set = 1;
    w.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.buffer = storage.handle();
    writes.push_back(w);
  }
  vulkan::DescriptorBinding descriptors;
  if (Status s = vulkan::DescriptorBinding::create(context, writes, 0, descriptors); !s)
    return (error = s.message(), false);
  desc.layout = descriptors.layout();
  desc.topology = draw.topology;
  desc.patch_control_points = draw.patch_control_points;
  desc.rasterizer_discard = true;
  desc.stages = draw.stages;
  vulkan::GraphicsPipeline pipeline;
  if (Status s = build_timed(context, desc, pipeline, out.build_ms); !s)
    return (error = s.message(), false);

  for (unsigned run = 0; run < runs; ++run) {
    if (run > 0) {
      if (Status s = reseed(context, reflection, seed, constants, descriptors, resources); !s)
        return (error = s.message(), false);
    }
    for (vulkan::Buffer* buffer : {&feedback, &storage}) {
      auto* mapped = static_cast<std::uint32_t*>(buffer->mapped());
      std::fill(mapped, mapped + buffer->size() / 4, kUnwrittenWord);
    }
    vulkan::DrawDesc call;
    call.pipeline = &pipeline;
    call.descriptors = &descriptors;
    for (const vulkan::Buffer& b : vertex_buffers) call.vertex_buffers.push_back(b.handle());
    call.viewports = {{0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 1.0f}};
    call.render_area = {{0, 0}, {1, 1}};
    call.vertex_count = draw.vertex_count;
    if (xfb) call.xfb_buffers = {feedback.handle()};
    double ms = 0;
    {
      Timer timer{ms};
      if (Status s = vulkan::draw(context, call); !s) return (error = s.message(), false);
    }
    out.run_ms.push_back(ms);
    std::vector<Output> outputs;
    append_captured(feedback, "xfb component ", draw.xfb_kinds, draw.xfb_vertices, outputs);
    append_captured(storage, "captured word ", draw.storage_kinds, 1, outputs);
    if (Status s = resources.read(outputs); !s) return (error = s.message(), false);
    out.outputs.push_back(std::move(outputs));
  }
  return true;
}

} // namespace kiln::execute
