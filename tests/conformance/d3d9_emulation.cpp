// D3D9 behaviour around kiln's modules (FORMAT.md 4.5 and 5): the runner does no shader work
// of its own. The fixed-function state of the script becomes kiln render-state parameters
// (docs/abi.md, "Parameters"), and D3D9 stages link through kiln's varying map, built here
// from the two stages' semantics the way vkd3d's runner builds its own.

#include "tests/conformance/replay.h"

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <strings.h>

namespace kiln::conformance {

namespace {

// D3DDECLUSAGE by the semantic names kiln's reflection reports for D3D9 varyings.
constexpr std::pair<const char*, std::uint32_t> kUsages[] = {
    {"Position", 0}, {"BlendWeight", 1}, {"BlendIndices", 2}, {"Normal", 3},     {"PSize", 4},
    {"TexCoord", 5}, {"Tangent", 6},     {"Binormal", 7},     {"TessFactor", 8}, {"PositionT", 9},
    {"Color", 10},   {"Fog", 11},        {"Depth", 12},       {"Sample", 13}};
constexpr std::uint32_t kFogUsage = 11;

bool usage_of(const std::string& semantic, std::uint32_t& usage) {
  for (const auto& [name, value] : kUsages)
    if (strcasecmp(semantic.c_str(), name) == 0) return (usage = value, true);
  return false;
}

// A decoration or an image type depends on these: kiln takes them as immediates only.
bool immediate_only(ParameterName name) {
  return name == ParameterName::FLAT_INTERPOLATION || name == ParameterName::D3D9_TEXTURE_TYPES ||
         name == ParameterName::D3D9_PROJECTED_TEXTURES;
}

ShaderParameter immediate_u32(ParameterName name, std::uint32_t value) {
  ShaderParameter p;
  p.name = name;
  p.data_type = parameter_data_type(name);
  p.value[0] = value;
  return p;
}

ShaderParameter immediate_f32(ParameterName name, std::span<const float> values) {
  ShaderParameter p;
  p.name = name;
  p.data_type = parameter_data_type(name);
  std::memcpy(p.value.data(), values.data(), values.size() * 4);
  return p;
}

} // namespace

std::uint32_t Executor::Replay::sample_count() const {
  std::uint32_t samples = 1;
  for (const auto& r : resources)
    if (r->desc.kind == ResourceKind::Rtv) samples = std::max(1u, r->desc.samples);
  return samples;
}

void Executor::Replay::add_render_state(ShaderInterface& out, bool as_spec_constants) const {
  using P = ParameterName;
  std::vector<ShaderParameter>& list = out.parameters;
  list.push_back(immediate_u32(P::RASTERIZER_SAMPLE_COUNT, sample_count()));
  // CompareFunc counts from Never = 0; kiln_compare_func numbers as D3DCMP, from 1.
  list.push_back(immediate_u32(P::ALPHA_TEST_FUNC, std::uint32_t(alpha_func) + 1));
  list.push_back(immediate_f32(P::ALPHA_TEST_REF, std::span(&alpha_ref, 1)));
  list.push_back(immediate_u32(P::FLAT_INTERPOLATION, flat_shading ? 1 : 0));

  // Fog as vkd3d's runner sets it: `none` is vertex fog (the factor is the coordinate:
  // linear with start 1, end 0), the table modes take position z (ortho) or w.
  std::uint32_t mode = KILN_FOG_NONE, source = KILN_FOG_SOURCE_FOG_OUTPUT;
  float start = 0.0f, end = 1.0f, density = 1.0f;
  switch (fog.mode) {
  case FogCommand::Mode::Disable:
    break;
  case FogCommand::Mode::None:
    mode = KILN_FOG_LINEAR, start = 1.0f, end = 0.0f;
    break;
  case FogCommand::Mode::Linear:
    mode = KILN_FOG_LINEAR, start = fog.start, end = fog.end;
    break;
  case FogCommand::Mode::Exp:
  case FogCommand::Mode::Exp2:
    mode = fog.mode == FogCommand::Mode::Exp ? KILN_FOG_EXP : KILN_FOG_EXP2;
    density = fog.density;
    break;
  }
  if (mode != KILN_FOG_NONE && fog.mode != FogCommand::Mode::None)
    source = ortho_fog ? KILN_FOG_SOURCE_Z : KILN_FOG_SOURCE_W;
  list.push_back(immediate_u32(P::FOG_FRAGMENT_MODE, mode));
  list.push_back(immediate_u32(P::FOG_SOURCE, source));
  list.push_back(immediate_f32(P::FOG_COLOUR, fog_colour));
  list.push_back(immediate_f32(P::FOG_START, std::span(&start, 1)));
  list.push_back(immediate_f32(P::FOG_END, std::span(&end, 1)));
  list.push_back(immediate_f32(P::FOG_DENSITY, std::span(&density, 1)));

  list.push_back(immediate_u32(P::CLIP_PLANE_MASK, clip_planes));
  for (unsigned i = 0; i < 8; ++i)
    list.push_back(immediate_f32(P(unsigned(P::CLIP_PLANE_0) + i), clip_plane_values[i]));
  list.push_back(immediate_f32(P::POINT_SIZE, std::span(&point_size[0], 1)));
  list.push_back(immediate_f32(P::POINT_SIZE_MIN, std::span(&point_size[1], 1)));
  list.push_back(immediate_f32(P::POINT_SIZE_MAX, std::span(&point_size[2], 1)));
  list.push_back(immediate_u32(P::POINT_SPRITE, point_sprite ? 1 : 0));
  // What a sampler without dcl (ps_1_x) samples: the type of the texture bound to it.
  std::uint32_t texture_types = 0;
  for (const auto& r : resources) {
    if (r->desc.kind != ResourceKind::Srv || r->desc.slot >= 16) continue;
    const std::uint32_t type = r->desc.dim == ResourceDim::Tex3D  ? KILN_D3D9_TEXTURE_3D
                               : r->desc.dim == ResourceDim::Cube ? KILN_D3D9_TEXTURE_CUBE
                                                                  : KILN_D3D9_TEXTURE_2D;
    texture_types |= type << (2 * r->desc.slot);
  }
  list.push_back(immediate_u32(P::D3D9_TEXTURE_TYPES, texture_types));
  // State the script format has no directive for (tests: Executor::set_extra_parameters).
  for (const ShaderParameter& extra : extra_parameters) {
    std::erase_if(list, [&](const ShaderParameter& p) { return p.name == extra.name; });
    list.push_back(extra);
  }

  if (as_spec_constants) {
    // One module for every state: each parameter becomes its own specialization constant
    // (ids from kRenderStateSpecId on), its value handed to the pipeline instead.
    std::uint32_t id = kRenderStateSpecId;
    for (ShaderParameter& p : list) {
      if (immediate_only(p.name)) continue;
      p.type = ShaderParameter::Type::SpecializationConstant;
      p.value[0] = id;
      p.value[1] = p.value[2] = p.value[3] = 0;
      id += p.data_type == ParameterDataType::F32_VEC4 ? 4 : 1;
    }
  }
}

void Executor::Replay::specialization_data(std::vector<VkSpecializationMapEntry>& entries,
                                           std::vector<std::uint32_t>& data) const {
  entries.clear();
  data.clear();
  ShaderInterface values;
  add_render_state(values, false);
  std::uint32_t id = kRenderStateSpecId;
  for (const ShaderParameter& p : values.parameters) {
    if (immediate_only(p.name)) continue;
    const unsigned words = p.data_type == ParameterDataType::F32_VEC4 ? 4 : 1;
    for (unsigned i = 0; i < words; ++i) {
      entries.push_back({id++, std::uint32_t(data.size() * 4), 4});
      data.push_back(p.value[i]);
    }
  }
}

CommandResult Executor::Replay::build_varying_map(ShaderInterface& out) {
  // vkd3d's runner links D3D9 stages by semantic (FORMAT.md 5): every vertex output gets a
  // location, a pixel input of the same usage and index the same one; inputs nothing feeds
  // (and FOG, which fog parameters add) get locations of their own.
  const StageProgram *vs = nullptr, *ps = nullptr;
  if (CommandResult r = translate("vs", nullptr, vs); r.kind != CommandResult::Kind::Ok) return r;
  if (CommandResult r = translate("ps", nullptr, ps); r.kind != CommandResult::Kind::Ok) return r;
  const auto add = [&](const SignatureElement& e) {
    std::uint32_t usage;
    if (e.builtin != ~0u || !usage_of(e.semantic, usage)) return;
    if (out.varying_location(usage, e.semantic_index) >= 0) return;
    out.varyings.push_back({usage, e.semantic_index, std::uint32_t(out.varyings.size())});
  };
  if (vs)
    for (const SignatureElement& e : vs->outputs) add(e);
  if (ps)
    for (const SignatureElement& e : ps->inputs) add(e);
  if (out.varying_location(kFogUsage, 0) < 0)
    out.varyings.push_back({kFogUsage, 0, std::uint32_t(out.varyings.size())});
  return CommandResult::ok();
}

void Executor::Replay::add_every_model_state(ShaderInterface& out) const {
  // vkd3d's runner hands its fixed-function state to DXBC shaders as well, and vkd3d's
  // compiler applies the alpha test, clip planes (vertex shaders), point size and point sprites
  // at every model (flat shading and fog stay D3D9's). Only state the script has moved from
  // its default is passed, so DXBC shaders of scripts that never touch it translate as without.
  using P = ParameterName;
  std::vector<ShaderParameter>& list = out.parameters;
  if (alpha_func != CompareFunc::Always) {
    list.push_back(immediate_u32(P::ALPHA_TEST_FUNC, std::uint32_t(alpha_func) + 1));
    list.push_back(immediate_f32(P::ALPHA_TEST_REF, std::span(&alpha_ref, 1)));
  }
  if (clip_planes) {
    list.push_back(immediate_u32(P::CLIP_PLANE_MASK, clip_planes));
    for (unsigned i = 0; i < 8; ++i)
      list.push_back(immediate_f32(P(unsigned(P::CLIP_PLANE_0) + i), clip_plane_values[i]));
  }
  if (point_size != Replay::kDefaultPointSize) {
    list.push_back(immediate_f32(P::POINT_SIZE, std::span(&point_size[0], 1)));
    list.push_back(immediate_f32(P::POINT_SIZE_MIN, std::span(&point_size[1], 1)));
    list.push_back(immediate_f32(P::POINT_SIZE_MAX, std::span(&point_size[2], 1)));
  }
  if (point_sprite) list.push_back(immediate_u32(P::POINT_SPRITE, 1));
}

CommandResult
Executor::Replay::render_state_interface(std::shared_ptr<const ShaderInterface>& out) {
  out = nullptr;
  auto interface = std::make_shared<ShaderInterface>();
  // What the device enables, kiln may use, as a layer tells it: without this, kiln rejects
  // SV_RenderTargetArrayIndex and SV_ViewportArrayIndex written by vertex and domain shaders.
  if (context.has_viewport_index_layer())
    interface->extensions |= extension_bit(Extension::ViewportIndexLayer);
  if (!fixed_function) {
    // SV_SampleCount / GetRenderTargetSampleCount: the render state of D3D10+.
    interface->parameters.push_back(
        immediate_u32(ParameterName::RASTERIZER_SAMPLE_COUNT, sample_count()));
    add_every_model_state(*interface);
    out = std::move(interface);
    return CommandResult::ok();
  }
  add_render_state(*interface, parameters_as_spec_constants);
  if (d3d9)
    if (CommandResult r = build_varying_map(*interface); r.kind != CommandResult::Kind::Ok)
      return r;
  out = std::move(interface);
  return CommandResult::ok();
}

} // namespace kiln::conformance
