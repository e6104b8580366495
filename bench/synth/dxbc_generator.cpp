// Random SM4/SM5 programs: declarations matching the signatures, then a body with the opcode
// mix of real shaders (mad/mul/mov/add/dp, samples, loads, branches, loops), then the outputs.

#include "bench/synth/dxbc_body.h"
#include "bench/synth/synthetic_corpus.h"

#include <algorithm>

namespace kiln::synth {

using namespace detail;
using namespace dxbc;
namespace opd = dxbc::operand;

std::vector<std::uint8_t> generate_dxbc(Random& rng, ShaderStage stage, std::uint32_t target_tokens,
                                        std::string* profile) {
  if (stage == ShaderStage::Hull || stage == ShaderStage::Domain)
    return generate_dxbc_tessellation(rng, stage, target_tokens, profile);
  const bool sm5 = stage == ShaderStage::Compute || rng.chance(0.6);
  ProgramWriter w(stage, sm5 ? 5 : 4, 0);
  Resources res;
  res.general_temps = std::clamp<std::uint32_t>(target_tokens / 60, 2, 24);
  res.cb_elements = rng.between(2, 32) + target_tokens / 200;
  std::vector<SignatureElement> inputs, outputs;
  // Small programs (blits, clears: the median real shader) declare little.
  const bool small = target_tokens < 150;
  const bool tiny = target_tokens < 45;
  res.has_cb = !(tiny && rng.chance(0.7));
  const std::uint32_t varyings = rng.between(1, small ? 2 : 4);

  switch (stage) {
  case ShaderStage::Vertex:
    res.cb_dynamic = res.has_cb && rng.chance(0.3);
    res.cb_elements = std::max(res.cb_elements, 8u);
    res.textures = rng.chance(0.1) ? 1 : 0;
    res.samplers = res.textures;
    inputs = {{"POSITION", 0, 0, 3, 0, 0xf, 0xf},
              {"NORMAL", 0, 0, 3, 1, 0x7, 0x7},
              {"TEXCOORD", 0, 0, 3, 2, 0x3, 0x3}};
    outputs.push_back({"SV_Position", 0, 1, 3, 0, 0xf, 0x0});
    for (std::uint32_t i = 0; i < varyings; ++i)
      outputs.push_back({"TEXCOORD", i, 0, 3, i + 1, 0xf, 0x0});
    res.inputs = 3;
    break;
  case ShaderStage::Pixel:
    res.textures = tiny    ? 0
                   : small ? rng.between(0, 1)
                           : rng.between(0, 3) + (rng.chance(0.3) ? rng.between(1, 5) : 0);
    res.samplers = res.textures ? rng.between(1, std::min(res.textures, 3u)) : 0;
    inputs.push_back({"SV_Position", 0, 1, 3, 0, 0xf, 0x3});
    for (std::uint32_t i = 0; i < varyings; ++i)
      inputs.push_back({"TEXCOORD", i, 0, 3, i + 1, 0xf, 0xf});
    outputs.push_back({"SV_Target", 0, 0, 3, 0, 0xf, 0x0});
    res.inputs = varyings;
    res.input_base = 1;
    break;
  case ShaderStage::Geometry:
    inputs = {{"SV_Position", 0, 1, 3, 0, 0xf, 0xf}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0xf}};
    outputs = {{"SV_Position", 0, 1, 3, 0, 0xf, 0x0}, {"TEXCOORD", 0, 0, 3, 1, 0xf, 0x0}};
    break;
  case ShaderStage::Compute:
  default:
    res.textures = rng.between(0, 3);
    res.samplers = res.textures ? 1 : 0;
    break;
  }

  declare_common(w, res);
  switch (stage) {
  case ShaderStage::Vertex:
    w.emit(Op::DclInput, {input_dcl(0, 0xf)});
    w.emit(Op::DclInput, {input_dcl(1, 0x7)});
    w.emit(Op::DclInput, {input_dcl(2, 0x3)});
    w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {1 /* position */});
    for (std::uint32_t i = 0; i < varyings; ++i) w.emit(Op::DclOutput, {opd::output_dst(i + 1)});
    break;
  case ShaderStage::Pixel:
    w.emit(Op::DclInputPsSiv, {input_dcl(0, 0x3)}, 4 /* linear noperspective */, {1});
    for (std::uint32_t i = 0; i < varyings; ++i)
      w.emit(Op::DclInputPs, {input_dcl(i + 1, 0xf)}, 2 /* linear */);
    w.emit(Op::DclOutput, {opd::output_dst(0)});
    break;
  case ShaderStage::Geometry: {
    w.emit(Op::DclGsInputPrimitive, {}, 3 /* triangle */);
    w.emit(Op::DclGsOutputTopology, {}, 5 /* triangle strip */);
    w.emit(Op::DclMaxOutputVertexCount, {}, 0, {3});
    Operand position, texcoord;
    position.push(0x002010f2); // v[n][r].xyzw, 2-D
    position.push(3);
    position.push(0);
    texcoord = position;
    texcoord.tokens[2] = 1;
    w.emit(Op::DclInputSiv, {position}, 0, {1});
    w.emit(Op::DclInput, {texcoord});
    w.emit(Op::DclOutputSiv, {opd::output_dst(0)}, 0, {1});
    w.emit(Op::DclOutput, {opd::output_dst(1)});
    break;
  }
  case ShaderStage::Compute:
  default: {
    Operand uav;
    uav.push(0x0011e000); // u#, no components
    uav.push(0);
    w.emit(Op::DclUavTyped, {uav}, 3 /* texture2d */, {0x5555});
    Operand thread_id;
    thread_id.push(0x00020032); // vThreadID.xy
    w.emit(Op::DclInput, {thread_id});
    break;
  }
  }
  w.emit(Op::DclTemps, {}, 0, {res.general_temps + kLoopCounters});
  if (stage == ShaderStage::Compute)
    w.emit(Op::DclThreadGroup, {}, 0, {8, rng.chance(0.7) ? 8u : 1u, 1});

  // Prologue: seed the temps the way real shaders start (transform, fetch, thread id).
  if (stage == ShaderStage::Vertex && !res.has_cb) {
    w.emit(Op::Mov, {opd::temp_dst(0, 0xf), opd::input(0)}); // pass-through
  } else if (stage == ShaderStage::Vertex) {
    for (std::uint32_t c = 0; c < 4; ++c)
      w.emit(Op::Dp4, {opd::temp_dst(0, 1u << c), opd::input(0), opd::cb(0, c)});
  } else if (stage == ShaderStage::Compute) {
    w.emit(Op::Utof, {opd::temp_dst(0, 0x3), opd::thread_id(swizzle(0, 1, 0, 0))});
  } else if (stage == ShaderStage::Pixel) {
    w.emit(Op::Mov, {opd::temp_dst(0, 0xf), opd::input(1)});
  }

  const std::size_t epilogue = 12 + 6 * outputs.size();
  const std::size_t used = w.token_count() + epilogue;
  BodyGenerator body(w, rng, stage, res);
  body.block(target_tokens > used ? target_tokens - used : 4, 0);

  switch (stage) {
  case ShaderStage::Vertex:
  case ShaderStage::Pixel:
    for (std::uint32_t o = 0; o < outputs.size(); ++o)
      w.emit(Op::Mov,
             {opd::output_dst(outputs[o].register_index), opd::temp(o % res.general_temps)});
    break;
  case ShaderStage::Geometry:
    for (std::uint32_t vertex = 0; vertex < 3; ++vertex) {
      w.emit(Op::Add, {opd::output_dst(0), opd::input_2d(vertex, 0), opd::temp(0)});
      w.emit(Op::Mov, {opd::output_dst(1), opd::input_2d(vertex, 1)});
      w.emit(Op::Emit, {});
    }
    w.emit(Op::Cut, {});
    break;
  case ShaderStage::Compute:
  default:
    w.emit(Op::StoreUavTyped,
           {opd::uav(0, 0xf, true), opd::thread_id(swizzle(0, 1, 1, 1)), opd::temp(0)});
    break;
  }
  w.emit(Op::Ret, {});

  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter container;
  container.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk(inputs));
  container.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk(outputs));
  container.add_chunk(sm5 ? fourcc('S', 'H', 'E', 'X') : fourcc('S', 'H', 'D', 'R'),
                      std::span<const std::uint32_t>(program));
  if (profile) *profile = std::string(shader_stage_abbrev(stage)) + (sm5 ? "_5_0" : "_4_0");
  return container.finish();
}

} // namespace kiln::synth
