#include "bench/execute/d3d9.h"

#include "bench/execute/seed.h"
#include "bench/execute/spirv_words.h"
#include "bench/execute/stages.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

namespace {

using P = ParameterName;

std::uint32_t bits_of(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}
float float_of(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// A value from `seed` for the render state's parameter `salt`: u32 in [low, low + count), or a
// float in [low, high) on a 1/256 grid.
std::uint32_t seeded_u32(std::uint64_t seed, std::uint64_t salt, std::uint32_t low,
                         std::uint32_t count) {
  return low + seeded_int(seed, salt, count);
}
std::uint32_t seeded_f32(std::uint64_t seed, std::uint64_t salt, float low, float high) {
  return bits_of(seeded_float(seed, salt, low, high));
}

// What a corrupted specialized form passes instead of `value`: another mode, another mask,
// another number.
std::uint32_t corrupted(ParameterName name, std::uint32_t value) {
  switch (name) {
  case P::ALPHA_TEST_FUNC:
    return value % 7 + 1; // LESS .. GREATER_EQUAL: another comparison
  case P::FOG_FRAGMENT_MODE:
    return value % 3 + 1; // EXP .. LINEAR: another formula
  case P::FOG_SOURCE:
    return (value + 1) % 3;
  case P::CLIP_PLANE_MASK:
  case P::POINT_SPRITE:
    return value ^ 1u;
  default:
    return bits_of(float_of(value) * 1.5f + 0.25f);
  }
}

} // namespace

RenderStateForms seeded_render_state(std::uint64_t seed, bool corrupt) {
  RenderStateForms forms;
  const std::uint64_t s = mix64(seed ^ 0xd3d9);
  std::uint64_t salt = 0;
  const auto add = [&](ParameterName name, std::array<std::uint32_t, 4> value) {
    const ParameterDataType type = parameter_data_type(name);
    ShaderParameter immediate{name, ShaderParameter::Type::Immediate, type, value};
    forms.immediate.push_back(immediate);
    ShaderParameter specialized = immediate;
    specialized.type = ShaderParameter::Type::SpecializationConstant;
    const std::uint32_t first_id = std::uint32_t(forms.data.size());
    specialized.value = {first_id, 0, 0, 0};
    forms.specialized.push_back(specialized);
    const unsigned words = type == ParameterDataType::F32_VEC4 ? 4 : 1;
    for (unsigned i = 0; i < words; ++i) {
      const std::uint32_t id = first_id + i;
      forms.entries.push_back({id, id * 4, 4});
      forms.data.push_back(corrupt ? corrupted(name, value[i]) : value[i]);
    }
  };
  // Alpha test: any comparison but ALWAYS (no test) and NEVER (nothing drawn).
  add(P::ALPHA_TEST_FUNC, {seeded_u32(s, ++salt, KILN_COMPARE_LESS, 6)});
  add(P::ALPHA_TEST_REF, {seeded_f32(s, ++salt, 0.25f, 0.75f)});
  add(P::FOG_FRAGMENT_MODE, {seeded_u32(s, ++salt, KILN_FOG_EXP, 3)});
  add(P::FOG_SOURCE, {seeded_u32(s, ++salt, KILN_FOG_SOURCE_FOG_OUTPUT, 3)});
  add(P::FOG_COLOUR, {seeded_f32(s, ++salt, 0, 1), seeded_f32(s, ++salt, 0, 1),
                      seeded_f32(s, ++salt, 0, 1), seeded_f32(s, ++salt, 0, 1)});
  add(P::FOG_START, {seeded_f32(s, ++salt, -0.5f, 0.25f)});
  add(P::FOG_END, {seeded_f32(s, ++salt, 0.75f, 2.0f)});
  add(P::FOG_DENSITY, {seeded_f32(s, ++salt, 0.5f, 4.0f)});
  // Some of the eight clip planes, each through the volume the vertices fill.
  add(P::CLIP_PLANE_MASK, {seeded_u32(s, ++salt, 1, 255)});
  for (unsigned plane = 0; plane < 8; ++plane)
    add(P(unsigned(P::CLIP_PLANE_0) + plane),
        {seeded_f32(s, ++salt, -1, 1), seeded_f32(s, ++salt, -1, 1), seeded_f32(s, ++salt, -1, 1),
         seeded_f32(s, ++salt, -0.5f, 0.5f)});
  add(P::POINT_SIZE, {seeded_f32(s, ++salt, 0.5f, 16.0f)});
  add(P::POINT_SIZE_MIN, {seeded_f32(s, ++salt, 1.0f, 4.0f)});
  add(P::POINT_SIZE_MAX, {seeded_f32(s, ++salt, 4.0f, 32.0f)});
  // Point sprites replace every texture coordinate: on for one shader in four only.
  add(P::POINT_SPRITE, {seeded_u32(s, ++salt, 0, 4) == 0 ? 1u : 0u});
  for (unsigned stage = 0; stage < 6; ++stage) {
    add(P(unsigned(P::D3D9_BUMP_MATRIX_0) + stage),
        {seeded_f32(s, ++salt, -1, 1), seeded_f32(s, ++salt, -1, 1), seeded_f32(s, ++salt, -1, 1),
         seeded_f32(s, ++salt, -1, 1)});
    add(P(unsigned(P::D3D9_BUMP_LUMINANCE_0) + stage),
        {seeded_f32(s, ++salt, 0, 2), seeded_f32(s, ++salt, -0.5f, 0.5f), 0, 0});
  }
  return forms;
}

std::string d3d9_model(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 4) return {};
  std::uint32_t token;
  std::memcpy(&token, bytes.data(), 4);
  const std::uint32_t kind = token >> 16;
  if (kind != 0xfffe && kind != 0xffff) return {};
  const std::uint32_t major = (token >> 8) & 0xff, minor = token & 0xff;
  // 2.1 is what the 2_x models write, 0xff the software (sw) models.
  const std::string minor_name = minor == 0xff              ? "sw"
                                 : major == 2 && minor == 1 ? "x"
                                                            : std::to_string(minor);
  return std::string(kind == 0xfffe ? "vs_" : "ps_") + std::to_string(major) + "_" + minor_name;
}

namespace {

struct Form {
  TranslateResult result;
  ModuleInterface facts;
  StageRun run;
  CapturedBuiltins builtins; // vertex shaders: capture_vertex_builtins()
  std::string captured;      // vertex shaders: each captured word's type
};

// Words of two runs that must be identical; "" when they are, else the first difference.
std::string first_difference(const std::vector<Output>& a, const std::vector<Output>& b,
                             std::uint64_t& compared, std::uint64_t& different) {
  compared = different = 0;
  if (a.size() != b.size()) return "different outputs read back";
  std::string first;
  for (std::size_t o = 0; o < a.size(); ++o) {
    if (a[o].name != b[o].name || a[o].words.size() != b[o].words.size())
      return "output " + a[o].name + " has another shape";
    for (std::size_t w = 0; w < a[o].words.size(); ++w) {
      ++compared;
      if (a[o].words[w] == b[o].words[w]) continue;
      ++different;
      if (first.empty()) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "%s word %zu: immediate 0x%08x (%g), specialized 0x%08x (%g)",
                      a[o].name.c_str(), w, a[o].words[w], double(float_of(a[o].words[w])),
                      b[o].words[w], double(float_of(b[o].words[w])));
        first = text;
      }
    }
  }
  return first;
}

// Every output of a vertex shader with a semantic, captured by transform feedback in reflection
// order: each element's components from x up to its last. The built-ins the render state adds
// are captured after them (capture_vertex_builtins).
StreamOutput capture_everything(const Reflection& reflection, std::string& captured) {
  StreamOutput out;
  std::uint32_t words = 0;
  for (const SignatureElement& e : reflection.outputs) {
    if (e.semantic.empty() || !e.component_mask) continue;
    StreamOutputElement element;
    element.semantic = e.semantic;
    element.semantic_index = e.semantic_index;
    element.component_count = std::uint8_t(32 - __builtin_clz(e.component_mask));
    out.elements.push_back(element);
    words += element.component_count;
  }
  out.buffer_strides[0] = words * 4;
  out.rasterized_stream = kNoRasterizedStream;
  captured.assign(words, 'f');
  return out;
}

// A vertex shader's captured words as both forms can be compared: PointSize, then the distance
// of each enabled clip plane by plane number (the immediate form writes one per enabled plane,
// the specialized form all eight, 0 for a disabled one, which clips nothing), then Position.
void name_builtin_words(std::vector<Output>& outputs, std::size_t first,
                        const CapturedBuiltins& builtins, std::uint32_t plane_mask,
                        bool indexed_by_plane) {
  if (first + builtins.words() > outputs.size()) return;
  std::vector<Output> kept(outputs.begin(), outputs.begin() + std::ptrdiff_t(first));
  std::size_t at = first;
  if (builtins.clip_distances >= 0) {
    outputs[at].name = "PointSize";
    kept.push_back(outputs[at++]);
    for (int i = 0; i < builtins.clip_distances; ++i, ++at) {
      unsigned plane = unsigned(i);
      if (!indexed_by_plane) {
        // The i-th enabled plane.
        std::uint32_t mask = plane_mask;
        for (int skip = 0; skip < i; ++skip) mask &= mask - 1;
        plane = mask ? unsigned(__builtin_ctz(mask)) : 8;
      } else if (!(plane_mask >> plane & 1)) {
        continue;
      }
      Output o = outputs[at];
      o.name = "ClipDistance (plane " + std::to_string(plane) + ")";
      kept.push_back(std::move(o));
    }
  }
  if (builtins.position) {
    for (const char c : {'x', 'y', 'z', 'w'}) {
      Output o = outputs[at++];
      o.name = std::string("Position.") + c;
      kept.push_back(std::move(o));
    }
  }
  kept.insert(kept.end(), outputs.begin() + std::ptrdiff_t(at), outputs.end());
  outputs = std::move(kept);
}

} // namespace

CapturedBuiltins capture_vertex_builtins(std::vector<std::uint32_t>& spirv) {
  std::uint32_t point_size = 0, clip = 0, position = 0, stride = 0, entry = 0;
  std::size_t first_stride = 0, first_decoration = 0, after_capabilities = 0, after_entry = 0;
  bool has_xfb_capability = false;
  std::map<std::uint32_t, std::uint32_t> pointee, array_length, constant;
  std::map<std::uint32_t, std::uint32_t> variable_type;
  const std::size_t unreadable = walk_instructions(spirv, [&](const auto& instruction) {
    const std::uint32_t count = instruction.count();
    const std::size_t at = instruction.at;
    const auto op = instruction.op;
    if (op == spv::OpCapability) {
      after_capabilities = at + count;
      has_xfb_capability |= spirv[at + 1] == spv::CapabilityTransformFeedback;
    }
    if (op == spv::OpEntryPoint && count >= 3) {
      entry = spirv[at + 2];
      after_entry = at + count;
    }
    if ((op == spv::OpDecorate || op == spv::OpMemberDecorate) && !first_decoration)
      first_decoration = at;
    if (op == spv::OpDecorate && count >= 4 && spirv[at + 2] == spv::DecorationBuiltIn) {
      if (spirv[at + 3] == spv::BuiltInPointSize) point_size = spirv[at + 1];
      if (spirv[at + 3] == spv::BuiltInClipDistance) clip = spirv[at + 1];
      if (spirv[at + 3] == spv::BuiltInPosition) position = spirv[at + 1];
    }
    if (op == spv::OpDecorate && count == 4 && spirv[at + 2] == spv::DecorationXfbStride) {
      stride = spirv[at + 3];
      if (!first_stride) first_stride = at;
    }
    if (op == spv::OpConstant && count == 4) constant[spirv[at + 2]] = spirv[at + 3];
    if (op == spv::OpTypeArray && count == 4) array_length[spirv[at + 1]] = spirv[at + 3];
    if (op == spv::OpTypePointer && count == 4) pointee[spirv[at + 1]] = spirv[at + 3];
    if (op == spv::OpVariable && count >= 4 && spirv[at + 3] == spv::StorageClassOutput)
      variable_type[spirv[at + 2]] = spirv[at + 1];
  });
  if (unreadable) return {};
  CapturedBuiltins captured;
  if (point_size && variable_type.count(point_size)) {
    captured.clip_distances = 0;
    if (clip && variable_type.count(clip))
      captured.clip_distances = int(constant[array_length[pointee[variable_type[clip]]]]);
  }
  // A standalone vec4 Output (kiln's D3D9 modules have no gl_PerVertex block).
  captured.position = position && variable_type.count(position);
  if (!captured.words() || !entry || !first_decoration || !after_capabilities) return {};
  const std::uint32_t new_stride = stride + 4 * captured.words();
  std::vector<std::uint32_t> added;
  const auto decorate = [&](std::uint32_t id, spv::Decoration d, std::uint32_t value) {
    added.insert(added.end(), {(4u << 16) | spv::OpDecorate, id, std::uint32_t(d), value});
  };
  std::uint32_t offset = stride;
  const auto capture = [&](std::uint32_t id, std::uint32_t words) {
    decorate(id, spv::DecorationXfbBuffer, 0);
    decorate(id, spv::DecorationXfbStride, new_stride);
    decorate(id, spv::DecorationOffset, offset);
    offset += 4 * words;
  };
  if (captured.clip_distances >= 0) capture(point_size, 1);
  if (captured.clip_distances > 0) capture(clip, std::uint32_t(captured.clip_distances));
  if (captured.position) capture(position, 4);
  walk_instructions(spirv, [&](const auto& instruction) {
    if (instruction.op == spv::OpDecorate && instruction.count() == 4 &&
        instruction.words[2] == spv::DecorationXfbStride)
      instruction.words[3] = new_stride;
  });
  // Back to front, so that the earlier places stay where they are. A module that captured
  // nothing yet (no output with a semantic) gets transform feedback here.
  const std::size_t decorations_at = first_stride ? first_stride : first_decoration;
  spirv.insert(spirv.begin() + std::ptrdiff_t(decorations_at), added.begin(), added.end());
  if (!first_stride) {
    const std::uint32_t mode[] = {(3u << 16) | spv::OpExecutionMode, entry,
                                  std::uint32_t(spv::ExecutionModeXfb)};
    spirv.insert(spirv.begin() + std::ptrdiff_t(after_entry), std::begin(mode), std::end(mode));
  }
  if (!has_xfb_capability) {
    const std::uint32_t capability[] = {(2u << 16) | spv::OpCapability,
                                        std::uint32_t(spv::CapabilityTransformFeedback)};
    spirv.insert(spirv.begin() + std::ptrdiff_t(after_capabilities), std::begin(capability),
                 std::end(capability));
  }
  return captured;
}

ShaderRecord execute_d3d9(vulkan::Context& context, Translator& translator, const std::string& file,
                          std::span<const std::uint8_t> bytes, std::uint64_t seed, bool corrupt,
                          void (*phase)(const char*)) {
  ShaderRecord record;
  record.file = file;
  record.d3d9 = true;
  record.stage = d3d9_model(bytes);
  auto finish = [&](Verdict verdict, std::string reason) {
    record.verdict = verdict;
    record.reason = std::move(reason);
    return record;
  };
  // The state and the contents follow the shader, not its place in the run.
  std::uint64_t shader_seed = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) shader_seed = (shader_seed ^ b) * 0x100000001b3ull;
  shader_seed = mix64(shader_seed ^ seed);
  const RenderStateForms state = seeded_render_state(shader_seed, corrupt);

  TranslateOptions options;
  options.target =
      context.api_version() >= VK_API_VERSION_1_3 ? SpirvTarget::Vulkan13 : SpirvTarget::Vulkan10;
  auto base = std::make_shared<ShaderInterface>();
  base->extensions = extension_bit(Extension::DemoteToHelperInvocation);
  if (context.has_transform_feedback())
    base->extensions |= extension_bit(Extension::TransformFeedback);
  Form forms[2]; // immediate, specialized
  std::string captured;
  phase("translate-kiln");
  for (int f = 0; f < 2; ++f) {
    auto interface = std::make_shared<ShaderInterface>(*base);
    interface->parameters = f == 0 ? state.immediate : state.specialized;
    options.interface = interface;
    if (Status s = translator.translate(bytes, options, forms[f].result); !s)
      return finish(Verdict::KilnFailed, (f ? "specialized: " : "") + s.message());
    if (f == 0 && forms[0].result.reflection.stage == ShaderStage::Vertex) {
      // A vertex shader's outputs are captured: translated again with every output named.
      base->stream_output = capture_everything(forms[0].result.reflection, captured);
      interface->stream_output = base->stream_output;
      options.interface = interface;
      if (Status s = translator.translate(bytes, options, forms[0].result); !s)
        return finish(Verdict::KilnFailed, "captured: " + s.message());
    }
    if (forms[0].result.reflection.stage == ShaderStage::Vertex) {
      forms[f].builtins = capture_vertex_builtins(forms[f].result.spirv);
      forms[f].captured = captured;
      forms[f].captured.append(forms[f].builtins.words(), 'f');
    }
    if (Status s = validate_spirv(forms[f].result.spirv, options.target); !s)
      return finish(Verdict::KilnFailed,
                    std::string(f ? "specialized" : "immediate") + " form invalid: " + s.message());
    std::string why;
    if (!read_module_interface(forms[f].result.spirv, forms[f].facts, why))
      return finish(Verdict::NotExecuted, "module not readable: " + why);
  }
  const Reflection& reflection = forms[0].result.reflection;
  const ShaderStage stage = reflection.stage;
  if (stage != ShaderStage::Vertex && stage != ShaderStage::Pixel)
    return finish(Verdict::NotExecuted, "not a vertex or pixel shader");
  if (std::string why = Resources::unsupported(reflection); !why.empty())
    return finish(Verdict::NotExecuted, why);
  if (std::string why = stage_unsupported(stage, reflection, forms[0].facts); !why.empty())
    return finish(Verdict::NotExecuted, why);

  // The generated vertex shader feeds every input either form reads.
  ModuleInterface both = forms[0].facts;
  for (const ComponentFact& c : forms[1].facts.components)
    if (!std::binary_search(both.components.begin(), both.components.end(), c))
      both.components.push_back(c);
  std::sort(both.components.begin(), both.components.end());
  both.components.erase(std::unique(both.components.begin(), both.components.end(),
                                    [](const ComponentFact& a, const ComponentFact& b) {
                                      return a.storage == b.storage && a.location == b.location &&
                                             a.component == b.component;
                                    }),
                        both.components.end());
  for (const BuiltInFact& b : forms[1].facts.builtins)
    if (std::find(both.builtins.begin(), both.builtins.end(), b) == both.builtins.end())
      both.builtins.push_back(b);

  // The integer and boolean constant registers (i#: cb1, b#: cb2) hold small integers: loop
  // counts, starts and steps of 0-3, and bits 0-1.
  ConstantWords constants;
  for (const ResourceBinding& r : reflection.resources)
    if (r.register_class == ResourceBinding::Class::Cbv &&
        (r.register_index == 1 || r.register_index == 2))
      for (std::uint32_t w = 0; w < 64; ++w) constants.integers[r.set << 16 | r.binding].insert(w);

  const VkSpecializationInfo specialization{std::uint32_t(state.entries.size()),
                                            state.entries.data(), state.data.size() * 4,
                                            state.data.data()};
  std::string error;
  auto run = [&](int f) {
    phase(f == 0 ? "run-kiln" : "run-specialized");
    return run_stage(context, stage, forms[f].result.spirv, reflection, both, shader_seed,
                     constants, forms[f].captured, f == 0 ? 2 : 1, forms[f].run, error,
                     f == 0 ? nullptr : &specialization);
  };
  record.kiln_first = true;
  if (!run(0) || !run(1)) return finish(failed_run_verdict(error), error);
  std::uint32_t plane_mask = 0;
  for (const ShaderParameter& p : state.immediate)
    if (p.name == ParameterName::CLIP_PLANE_MASK) plane_mask = p.value[0];
  for (int f = 0; f < 2; ++f)
    for (std::vector<Output>& outputs : forms[f].run.outputs)
      name_builtin_words(outputs, captured.size(), forms[f].builtins, plane_mask, f == 1);
  record.kiln_build_ms = forms[0].run.build_ms;
  record.vkd3d_build_ms = forms[1].run.build_ms;
  record.kiln_run_ms = forms[0].run.run_ms[0];
  record.vkd3d_run_ms = forms[1].run.run_ms[0];
  record.op_class = "bit-exact";
  std::uint64_t compared = 0, different = 0;
  if (std::string d =
          first_difference(forms[0].run.outputs[0], forms[0].run.outputs[1], compared, different);
      !d.empty())
    return finish(Verdict::Nondeterministic, "the immediate form's second run: " + d);
  std::string d =
      first_difference(forms[0].run.outputs[0], forms[1].run.outputs[0], compared, different);
  record.words_compared = compared;
  record.words_different = different;
  // A shader that writes nothing read back (a pixel shader without oC#) only shows it runs.
  const bool same = d.empty();
  if (same && compared == 0) d = "ran; writes nothing the harness reads back";
  return finish(same ? Verdict::Match : Verdict::Differ, d);
}

} // namespace kiln::execute
