#include "tests/conformance/executor.h"

#include "tests/conformance/replay.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <strings.h>

namespace kiln::conformance {

namespace {

// FORMAT.md 4.2: one triangle covering the viewport.
constexpr float kQuadVertices[] = {-2.0f, -2.0f, -2.0f, 4.0f, 4.0f, -2.0f};

// Capabilities vkd3d's runner lacked on lavapipe (README.md); cases needing them are skipped.
constexpr const char* kMissingCapabilities[] = {"depth-bounds", "rov", "native-16-bit", "wave-ops"};

std::string format_values(ValueKind kind, const std::uint32_t* bits, unsigned count) {
  std::string text = "(";
  for (unsigned i = 0; i < count; ++i) {
    if (i) text += ", ";
    if (kind == ValueKind::Float) {
      float f;
      std::memcpy(&f, &bits[i], 4);
      char buffer[48];
      std::snprintf(buffer, sizeof buffer, "%.9g", double(f));
      text += buffer;
    } else if (kind == ValueKind::Int) {
      text += std::to_string(std::int32_t(bits[i]));
    } else {
      text += std::to_string(bits[i]);
    }
  }
  return text + ")";
}

VkPrimitiveTopology vk_topology(const DrawCommand& d) {
  switch (d.topology) {
  case Topology::TriangleStrip:
    return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  case Topology::PointList:
    return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  case Topology::PatchList:
    return VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  case Topology::TriangleList:
    break;
  }
  return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
}

// Index of the Vulkan stage and the cases.json stage name, in pipeline order.
struct StageName {
  const char* name;
  VkShaderStageFlagBits stage;
};
constexpr StageName kGraphicsStages[] = {{"vs", VK_SHADER_STAGE_VERTEX_BIT},
                                         {"hs", VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT},
                                         {"ds", VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT},
                                         {"gs", VK_SHADER_STAGE_GEOMETRY_BIT},
                                         {"ps", VK_SHADER_STAGE_FRAGMENT_BIT}};

} // namespace

const char* outcome_name(Outcome outcome) {
  static constexpr const char* kNames[] = {
#define KILN_X(id, name) name,
      KILN_CONFORMANCE_OUTCOMES(KILN_X)
#undef KILN_X
  };
  return kNames[int(outcome)];
}

Executor::Executor(vulkan::Context& context, ShaderSource& source)
    : context_(context), source_(source) {}
Executor::~Executor() = default;

void Executor::run_file(const TestFile& file, const std::string& model, int only_section,
                        std::vector<CaseResult>& out) {
  run_file(file, model, only_section, [&](const CaseResult& r) { out.push_back(r); });
}

void Executor::run_file(const TestFile& file, const std::string& model, int only_section,
                        const std::function<void(const CaseResult&)>& report) {
  const auto replay_it = file.replay.find(model);
  if (replay_it == file.replay.end()) return;
  const ModelReplay& plan = replay_it->second;
  const std::set<unsigned> state(plan.state_sections.begin(), plan.state_sections.end());
  const std::set<unsigned> tests(plan.run_test_sections.begin(), plan.run_test_sections.end());
  Replay replay(context_, source_, file, model);
  replay.fixed_function = replay.d3d9 || fixed_function_everywhere_;
  replay.parameters_as_spec_constants = parameters_as_spec_constants_;
  replay.extra_parameters = extra_parameters_;
  Status broken; // a state section that could not be applied fails every later case

  for (const Section& section : file.sections) {
    if (only_section >= 0 && section.index > unsigned(only_section)) break;
    if (state.count(section.index)) {
      if (Status s = replay.apply_section(section); !s && broken) broken = s;
      continue;
    }
    if (!tests.count(section.index)) continue;
    const CaseInfo* info = nullptr;
    for (const CaseInfo& c : file.cases)
      if (c.model == model && c.test_section == section.index) info = &c;
    if (info == nullptr) continue;
    replay.current = info;
    replay.draw_failed = false;

    CaseResult result;
    result.id = info->id;
    result.model = model;
    result.verified = info->verified;
    result.included = info->included;
    const auto settle = [&](const CommandResult& r) {
      if (r.kind == CommandResult::Kind::Ok || result.outcome != Outcome::Pass) return;
      // One printable line: messages quote translator output (names, reflection strings).
      std::string message = r.message;
      for (char& ch : message)
        if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f)
          ch = '?';
      result.outcome = r.kind == CommandResult::Kind::Fail       ? Outcome::Fail
                       : r.kind == CommandResult::Kind::Rejected ? Outcome::Rejected
                                                                 : Outcome::Skipped;
      result.message = std::move(message);
    };
    if (!broken) settle(CommandResult::fail("state section failed: " + broken.message()));
    for (const std::string& capability : info->capabilities)
      for (const char* missing : kMissingCapabilities)
        if (capability == missing)
          settle(CommandResult::skipped("capability " + capability + " (missing on lavapipe)"));
    for (const auto& [line, text] : info->commands) {
      Command command;
      std::string error;
      if (!parse_command(text, line, command, error)) {
        settle(CommandResult::skipped("command not understood (" + error + ")"));
        continue;
      }
      CommandResult r = replay.run(command, result);
      if (r.kind != CommandResult::Kind::Ok && r.kind != CommandResult::Kind::Skipped)
        r.message = "line " + std::to_string(line) + ": " + r.message;
      settle(r);
    }
    if (only_section < 0 || section.index == unsigned(only_section)) report(result);
  }
}

CommandResult Executor::Replay::run(const Command& c, CaseResult& result) {
  using K = Command::Kind;
  switch (c.kind) {
  case K::Draw:
    return draw(c.draw);
  case K::Dispatch:
    return dispatch(c.groups);
  case K::Probe:
    return probe(c.probe, result);
  case K::Uniform: {
    const std::size_t end = c.uniform.offset_words + c.uniform.words.size();
    if (end > 16384) return CommandResult::fail("uniform beyond 64 KiB");
    if (uniforms.size() < end) uniforms.resize((end + 3) & ~std::size_t(3), 0x7f7f7f7fu);
    std::copy(c.uniform.words.begin(), c.uniform.words.end(),
              uniforms.begin() + c.uniform.offset_words);
    return CommandResult::ok();
  }
  case K::ClearRtv: {
    if (c.slot == 0) {
      if (Status s = ensure_default_render_target(); !s) return CommandResult::fail(s.message());
    }
    GpuResource* rt = find(ResourceKind::Rtv, c.slot);
    if (rt == nullptr) return CommandResult::fail("clear of an undeclared rtv");
    std::uint32_t bits[4];
    std::memcpy(bits, c.floats.data(), 16);
    if (Status s = rt->image.clear_color(bits); !s) return CommandResult::fail(s.message());
    return CommandResult::ok();
  }
  case K::ClearDsv: {
    GpuResource* ds = find(ResourceKind::Dsv, 0);
    if (ds == nullptr) return CommandResult::fail("clear of an undeclared dsv");
    if (Status s = ds->image.clear_depth(c.floats[0]); !s) return CommandResult::fail(s.message());
    return CommandResult::ok();
  }
  case K::Depth:
    depth_func = c.func;
    return CommandResult::ok();
  case K::SampleMask:
    sample_mask = c.mask;
    return CommandResult::ok();
  case K::Viewport:
    if (c.slot >= 16) return CommandResult::fail("viewport index above 15");
    if (viewport_rects.size() <= c.slot) viewport_rects.resize(c.slot + 1, {0, 0, 0, 0});
    viewport_rects[c.slot] = c.floats;
    return CommandResult::ok();
  case K::AlphaTest:
    alpha_func = c.func;
    alpha_ref = c.floats[0];
    return CommandResult::ok();
  case K::ShadeMode:
    flat_shading = c.flag;
    return CommandResult::ok();
  case K::PointSize:
    std::copy_n(c.floats.begin(), 3, point_size.begin());
    return CommandResult::ok();
  case K::PointSprite:
    point_sprite = c.flag;
    return CommandResult::ok();
  case K::Fog:
    fog = c.fog;
    if (c.fog.source != FogCommand::Source::Default)
      ortho_fog = c.fog.source == FogCommand::Source::Ortho;
    return CommandResult::ok();
  case K::FogColour:
    fog_colour = c.floats;
    return CommandResult::ok();
  case K::ClipPlane:
    clip_planes = c.flag ? clip_planes | (1u << c.slot) : clip_planes & ~(1u << c.slot);
    if (c.flag) clip_plane_values[c.slot] = c.floats;
    return CommandResult::ok();
  case K::DepthBounds:
    return CommandResult::skipped("depth-bounds (missing on lavapipe)");
  case K::Copy:
    return copy(c.copy_source, c.copy_destination);
  }
  return CommandResult::skipped("unknown command");
}

CommandResult Executor::Replay::draw(const DrawCommand& d) {
  draw_failed = true;
  if (Status s = ensure_default_render_target(); !s) return CommandResult::fail(s.message());
  if (d.quad) {
    input_layout = {InputElement{0, Format::Rg32Float, "position", 0}};
    ResourceDesc vb;
    vb.kind = ResourceKind::Vb;
    vb.dim = ResourceDim::Buffer;
    for (float f : kQuadVertices) {
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      vb.data.push_back(bits);
    }
    vb.has_data = true;
    auto resource = std::make_unique<GpuResource>();
    if (Status s = create_resource(vb, *resource); !s) return CommandResult::fail(s.message());
    if (GpuResource* old = find(ResourceKind::Vb, 0))
      *std::find_if(resources.begin(), resources.end(),
                    [&](const auto& r) { return r.get() == old; }) = std::move(resource);
    else
      resources.push_back(std::move(resource));
  }

  // Shaders, translated under the fixed-function state and D3D9 linkage (d3d9_emulation.cpp).
  std::shared_ptr<const ShaderInterface> render_state;
  if (CommandResult r = render_state_interface(render_state); r.kind != CommandResult::Kind::Ok)
    return r;
  std::vector<VkSpecializationMapEntry> spec_entries;
  std::vector<std::uint32_t> spec_data;
  VkSpecializationInfo specialization{};
  if (render_state && fixed_function && parameters_as_spec_constants) {
    specialization_data(spec_entries, spec_data);
    specialization = {std::uint32_t(spec_entries.size()), spec_entries.data(), spec_data.size() * 4,
                      spec_data.data()};
  }
  std::vector<const StageProgram*> programs_bound;
  std::vector<vulkan::ShaderStageCode> stages;
  const StageProgram* vs = nullptr;
  std::string key;
  for (const StageName& stage : kGraphicsStages) {
    const StageProgram* program = nullptr;
    if (CommandResult r = translate(stage.name, render_state, program);
        r.kind != CommandResult::Kind::Ok)
      return r;
    if (program == nullptr) continue;
    if (stage.stage == VK_SHADER_STAGE_VERTEX_BIT) vs = program;
    programs_bound.push_back(program);
    stages.push_back({stage.stage, program->spirv, program->entry_point.c_str(),
                      specialization.mapEntryCount ? &specialization : nullptr});
    key += current->blobs.at(stage.name).string() + ";";
  }
  if (vs == nullptr) return CommandResult::fail("draw without a vertex shader");
  if (render_state) {
    std::vector<std::uint8_t> encoded;
    render_state->encode(encoded);
    key += std::to_string(std::hash<std::string_view>{}(
               std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()))) +
           ";";
    for (std::uint32_t word : spec_data) key += std::to_string(word) + ",";
  }

  // Attachments: location n = [rtv n].
  std::vector<vulkan::RenderTarget> colors;
  std::vector<VkFormat> color_formats;
  const GpuResource* depth = find(ResourceKind::Dsv, 0);
  std::uint32_t width = depth ? depth->desc.width : ~0u, height = depth ? depth->desc.height : ~0u;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  std::uint32_t layers = ~0u;
  for (const auto& r : resources) {
    if (r->desc.kind != ResourceKind::Rtv) continue;
    if (r->desc.slot >= 8) return CommandResult::fail("render target slot above 7");
    if (colors.size() <= r->desc.slot) {
      colors.resize(r->desc.slot + 1);
      color_formats.resize(r->desc.slot + 1, VK_FORMAT_UNDEFINED);
    }
    colors[r->desc.slot].image = &r->image;
    color_formats[r->desc.slot] = vk_format(r->desc.format);
    layers =
        std::min(layers, r->desc.dim == ResourceDim::Tex2DArray ? r->desc.depth_or_layers : 1u);
    width = std::min(width, r->desc.width);
    height = std::min(height, r->desc.height);
    samples = VkSampleCountFlagBits(std::max(1u, r->desc.samples));
  }

  // Vertex input: layout elements matched to the VS inputs by semantic (FORMAT.md 5).
  vulkan::GraphicsPipelineDesc pipeline;
  pipeline.stages = stages;
  std::vector<VkBuffer> vertex_buffers;
  std::vector<std::uint32_t> slot_offsets;
  for (const InputElement& e : input_layout) {
    if (slot_offsets.size() <= e.slot) slot_offsets.resize(e.slot + 1, 0);
    const std::uint32_t size = 4 * format_info(e.format).components;
    for (const SignatureElement& input : vs->inputs) {
      if (strcasecmp(input.semantic.c_str(), e.semantic.c_str()) == 0 &&
          input.semantic_index == e.semantic_index)
        pipeline.vertex_attributes.push_back(
            {input.location, e.slot, vk_format(e.format), slot_offsets[e.slot]});
    }
    slot_offsets[e.slot] += size;
  }
  if (!d3d9) {
    // D3D11 refuses an input layout that leaves a vertex shader input unfed; here it would
    // read undefined values, so say which input it is (often a reflection naming problem).
    for (const SignatureElement& input : vs->inputs) {
      if (input.builtin != ~0u) continue;
      const bool fed = std::any_of(input_layout.begin(), input_layout.end(), [&](const auto& e) {
        return strcasecmp(input.semantic.c_str(), e.semantic.c_str()) == 0 &&
               input.semantic_index == e.semantic_index;
      });
      if (!fed)
        return CommandResult::fail(
            "vertex shader input '" + input.semantic + std::to_string(input.semantic_index) +
            "' (location " + std::to_string(input.location) + ") has no [input layout] element");
    }
  }
  for (std::uint32_t slot = 0; slot < slot_offsets.size(); ++slot) {
    if (slot_offsets[slot] == 0) continue;
    const GpuResource* vb = find(ResourceKind::Vb, slot);
    if (vb == nullptr) return CommandResult::fail("input layout uses slot without a [vb]");
    pipeline.vertex_bindings.push_back({slot, slot_offsets[slot], VK_VERTEX_INPUT_RATE_VERTEX});
    if (vertex_buffers.size() <= slot) vertex_buffers.resize(slot + 1, VK_NULL_HANDLE);
    vertex_buffers[slot] = vb->buffer.handle();
  }

  std::vector<vulkan::DescriptorWrite> writes;
  std::uint32_t push_bytes = 0;
  if (CommandResult r = descriptor_writes(programs_bound, writes, push_bytes);
      r.kind != CommandResult::Kind::Ok)
    return r;

  pipeline.topology = vk_topology(d);
  pipeline.patch_control_points = d.topology == Topology::PatchList ? d.patch_size : 0;
  pipeline.color_formats = color_formats;
  pipeline.depth_format = depth ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_UNDEFINED;
  pipeline.depth_compare = VkCompareOp(depth_func);
  pipeline.samples = samples;
  pipeline.sample_mask = sample_mask;
  pipeline.viewport_count = std::max<std::uint32_t>(1, std::uint32_t(viewport_rects.size()));

  key += std::to_string(int(pipeline.topology)) + ":" + std::to_string(d.patch_size) + ":" +
         std::to_string(int(depth_func)) + ":" + std::to_string(sample_mask) + ":" +
         std::to_string(pipeline.viewport_count) + ":" + std::to_string(push_bytes) + "|";
  for (const auto& a : pipeline.vertex_attributes)
    key += std::to_string(a.location) + "," + std::to_string(a.binding) + "," +
           std::to_string(a.format) + "," + std::to_string(a.offset) + ";";
  for (const auto& b : pipeline.vertex_bindings)
    key += "b" + std::to_string(b.binding) + "," + std::to_string(b.stride) + ";";
  for (const auto& w : writes)
    key += "d" + std::to_string(w.set) + "," + std::to_string(w.binding) + "," +
           std::to_string(int(w.type)) + ";";

  auto& cached = pipelines[key];
  if (!cached) {
    auto made = std::make_unique<CachedPipeline>();
    if (Status s =
            vulkan::DescriptorBinding::create(context, writes, push_bytes, made->descriptors);
        !s)
      return CommandResult::fail(s.message());
    pipeline.layout = made->descriptors.layout();
    if (Status s = vulkan::GraphicsPipeline::create(context, pipeline, made->graphics); !s) {
      pipelines.erase(key);
      return CommandResult::fail(s.message());
    }
    cached = std::move(made);
  } else if (Status s = cached->descriptors.update(writes); !s) {
    return CommandResult::fail(s.message());
  }

  vulkan::DrawDesc draw;
  draw.pipeline = &cached->graphics;
  draw.descriptors = &cached->descriptors;
  std::vector<std::uint8_t> push(push_bytes, 0x7f);
  std::memcpy(push.data(), uniforms.data(),
              std::min<std::size_t>(push.size(), uniforms.size() * 4));
  draw.push_constants = push;
  draw.color = colors;
  draw.depth = depth ? &depth->image : nullptr;
  draw.vertex_buffers = vertex_buffers;
  draw.render_area = {{0, 0}, {width, height}};
  draw.layer_count = layers == ~0u || depth ? 1 : layers; // the depth target has one layer
  // D3D orientation (y down) through a negative viewport height; sm2/sm3 add D3D9's
  // half-pixel offset.
  const float shift = d3d9 ? 0.5f : 0.0f;
  if (viewport_rects.empty())
    draw.viewports.push_back(
        {shift, float(height) + shift, float(width), -float(height), 0.0f, 1.0f});
  for (const auto& v : viewport_rects)
    draw.viewports.push_back({v[0] + shift, v[1] + v[3] + shift, v[2], -v[3], 0.0f, 1.0f});
  draw.vertex_count = d.quad ? 3 : d.vertex_count;
  draw.instance_count = d.quad ? 1 : d.instance_count;
  if (Status s = vulkan::draw(context, draw); !s) return CommandResult::fail(s.message());
  draw_failed = false;
  return CommandResult::ok();
}

CommandResult Executor::Replay::copy(const std::string& from, const std::string& to) {
  // "rtv 1", "srv 0", "uav 2", "vb 0" or "dsv" (FORMAT.md 4.4).
  const auto resolve = [&](const std::string& name) -> GpuResource* {
    static constexpr std::pair<const char*, ResourceKind> kKinds[] = {{"rtv", ResourceKind::Rtv},
                                                                      {"srv", ResourceKind::Srv},
                                                                      {"uav", ResourceKind::Uav},
                                                                      {"vb", ResourceKind::Vb},
                                                                      {"dsv", ResourceKind::Dsv}};
    for (const auto& [word, kind] : kKinds) {
      const std::size_t n = std::strlen(word);
      if (name.compare(0, n, word) != 0) continue;
      if (kind == ResourceKind::Dsv) return find(kind, 0);
      char* end = nullptr;
      const unsigned long slot = std::strtoul(name.c_str() + n, &end, 10);
      if (end == name.c_str() + n || *end != '\0') return nullptr;
      return find(kind, unsigned(slot));
    }
    return nullptr;
  };
  GpuResource* source = resolve(from);
  GpuResource* destination = resolve(to);
  if (source == nullptr || destination == nullptr)
    return CommandResult::fail("copy " + from + " " + to + ": no such resource");
  Status s = Status::error("copy between a buffer and a texture");
  if (source->is_buffer() && destination->is_buffer())
    s = vulkan::copy_buffer(context, source->buffer, destination->buffer);
  else if (!source->is_buffer() && !destination->is_buffer())
    s = destination->image.copy_from(source->image);
  return s ? CommandResult::ok() : CommandResult::fail("copy: " + s.message());
}

CommandResult Executor::Replay::dispatch(const std::array<std::uint32_t, 3>& groups) {
  draw_failed = true;
  const StageProgram* cs = nullptr;
  if (CommandResult r = translate("cs", nullptr, cs); r.kind != CommandResult::Kind::Ok) return r;
  if (cs == nullptr) return CommandResult::fail("dispatch without a compute shader");
  std::vector<vulkan::DescriptorWrite> writes;
  std::uint32_t push_bytes = 0;
  if (CommandResult r = descriptor_writes({cs}, writes, push_bytes);
      r.kind != CommandResult::Kind::Ok)
    return r;
  std::string key = "cs:" + current->blobs.at("cs").string() + ":" + std::to_string(push_bytes);
  for (const auto& w : writes)
    key += "d" + std::to_string(w.set) + "," + std::to_string(w.binding) + "," +
           std::to_string(int(w.type)) + ";";
  auto& cached = pipelines[key];
  if (!cached) {
    auto made = std::make_unique<CachedPipeline>();
    if (Status s =
            vulkan::DescriptorBinding::create(context, writes, push_bytes, made->descriptors);
        !s)
      return CommandResult::fail(s.message());
    if (Status s = vulkan::ComputeProgram::create(
            context, {VK_SHADER_STAGE_COMPUTE_BIT, cs->spirv, cs->entry_point.c_str()},
            made->descriptors.layout(), made->compute);
        !s) {
      pipelines.erase(key);
      return CommandResult::fail(s.message());
    }
    cached = std::move(made);
  } else if (Status s = cached->descriptors.update(writes); !s) {
    return CommandResult::fail(s.message());
  }
  std::vector<std::uint8_t> push(push_bytes, 0x7f);
  std::memcpy(push.data(), uniforms.data(),
              std::min<std::size_t>(push.size(), uniforms.size() * 4));
  if (Status s = vulkan::dispatch(context, cached->compute, cached->descriptors, push, groups[0],
                                  groups[1], groups[2]);
      !s)
    return CommandResult::fail(s.message());
  draw_failed = false;
  return CommandResult::ok();
}

CommandResult Executor::Replay::probe(const ProbeCommand& p, CaseResult& result) {
  ++result.probes;
  if (draw_failed) return CommandResult::ok(); // the failed draw already decided the case
  GpuResource* target = nullptr;
  switch (p.target) {
  case ProbeTarget::RenderTarget:
    if (p.slot == 0) {
      if (Status s = ensure_default_render_target(); !s) return CommandResult::fail(s.message());
    }
    target = find(ResourceKind::Rtv, p.slot);
    break;
  case ProbeTarget::Uav:
    target = find(ResourceKind::Uav, p.slot);
    break;
  case ProbeTarget::Dsv:
    target = find(ResourceKind::Dsv, 0);
    break;
  }
  if (target == nullptr) return CommandResult::fail("probe of an undeclared resource");
  if (target->desc.samples > 1 && format_info(target->desc.format).kind != ValueKind::Float)
    return CommandResult::skipped("probes of multisampled integer targets");

  std::vector<std::uint8_t> bytes;
  std::size_t row_pitch = 0;
  if (target->is_buffer()) {
    bytes = target->buffer.read<std::uint8_t>();
    row_pitch = bytes.size();
  } else {
    if (Status s = target->image.read(0, p.layer, bytes); !s)
      return CommandResult::fail(s.message());
    row_pitch =
        std::size_t(target->desc.width) * vulkan::format_texel_size(vk_format(target->desc.format));
  }
  const std::size_t texel_bytes = std::size_t(p.value_count) * 4;
  for (unsigned y = p.top; y < p.bottom; ++y) {
    for (unsigned x = p.left; x < p.right; ++x) {
      const std::size_t offset = std::size_t(y) * row_pitch + x * texel_bytes;
      if (offset + texel_bytes > bytes.size())
        return CommandResult::fail("probe (" + std::to_string(x) + ", " + std::to_string(y) +
                                   ") outside the resource");
      std::uint32_t got[4] = {};
      std::memcpy(got, bytes.data() + offset, texel_bytes);
      bool match = true;
      for (unsigned i = 0; i < p.value_count; ++i)
        match = match && (p.kind == ValueKind::Float ? floats_match(p.values[i], got[i], p.ulps)
                                                     : p.values[i] == got[i]);
      if (!match) {
        std::string text = "(" + std::to_string(x) + ", " + std::to_string(y) + "): expected " +
                           format_values(p.kind, p.values.data(), p.value_count) + " got " +
                           format_values(p.kind, got, p.value_count);
        if (p.ulps) text += " (" + std::to_string(p.ulps) + " ulp)";
        return CommandResult::fail(text);
      }
    }
  }
  ++result.probes_passed;
  return CommandResult::ok();
}

} // namespace kiln::conformance
