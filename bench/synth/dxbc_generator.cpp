// Random SM4/SM5 programs: declarations matching the signatures, then a body with the opcode
// mix of real shaders (mad/mul/mov/add/dp, samples, loads, branches, loops), then the outputs.

#include "bench/synth/dxbc_writer.h"
#include "bench/synth/random.h"
#include "bench/synth/synthetic_corpus.h"

#include <algorithm>

namespace kiln::synth {

namespace {

using namespace dxbc;
namespace opd = dxbc::operand;

constexpr std::uint32_t kLoopCounters = 3; // reserved temps after the general ones

struct Resources {
  std::uint32_t general_temps = 4;
  bool has_cb = true; // tiny programs (a constant colour, a pass-through) often have none
  std::uint32_t cb_elements = 8;
  bool cb_dynamic = false;
  std::uint32_t inputs = 0;     // readable input registers v0..v(n-1)
  std::uint32_t input_base = 0; // first readable input register
  std::uint32_t textures = 0;
  std::uint32_t samplers = 0;
};

class BodyGenerator {
 public:
  BodyGenerator(ProgramWriter& writer, Random& rng, ShaderStage stage, const Resources& res)
      : w_(writer), rng_(rng), stage_(stage), res_(res) {}

  void block(std::size_t budget_tokens, int depth) {
    const std::size_t end = w_.token_count() + budget_tokens;
    while (w_.token_count() < end) {
      const std::size_t left = end - w_.token_count();
      const std::uint32_t pick = rng_.below(100);
      if (depth < 3 && left > 40 && pick < 4) {
        branch(left, depth);
      } else if (depth < static_cast<int>(kLoopCounters) && left > 60 && pick < 6) {
        loop(left, depth);
      } else {
        arithmetic();
      }
    }
  }

 private:
  std::uint32_t temp_reg() { return rng_.below(res_.general_temps); }

  std::uint32_t mask() {
    static constexpr std::uint32_t kMasks[] = {0xf, 0xf, 0xf, 0xf, 0x7, 0x7,
                                               0x3, 0x1, 0x1, 0x2, 0x4, 0x8};
    return kMasks[rng_.below(sizeof(kMasks) / sizeof(kMasks[0]))];
  }

  std::uint32_t swz() {
    switch (rng_.below(6)) {
    case 0:
      return swizzle(0, 0, 0, 0);
    case 1:
      return swizzle(1, 1, 1, 1);
    case 2:
      return swizzle(0, 1, 0, 1);
    case 3:
      return swizzle(rng_.below(4), rng_.below(4), rng_.below(4), rng_.below(4));
    default:
      return kXyzw;
    }
  }

  Operand source() {
    const std::uint32_t pick = rng_.below(100);
    if (pick < 45) return opd::temp(temp_reg(), swz());
    if (pick < 70 && res_.has_cb) return opd::cb(0, rng_.below(res_.cb_elements), swz());
    if (pick < 80 && res_.inputs)
      return opd::input(res_.input_base + rng_.below(res_.inputs), swz());
    if (pick < 88) return opd::negate(opd::temp(temp_reg(), swz()));
    if (pick < 90) return opd::absolute(opd::temp(temp_reg(), swz()));
    if (rng_.chance(0.5)) return opd::imm1(rng_.small_float());
    return opd::imm4(rng_.small_float(), rng_.small_float(), rng_.small_float(),
                     rng_.small_float());
  }

  Operand dst() { return opd::temp_dst(temp_reg(), mask()); }
  Operand scalar_dst() { return opd::temp_dst(temp_reg(), 1u << rng_.below(4)); }

  void arithmetic() {
    const std::uint32_t pick = rng_.below(100);
    const bool can_sample = res_.textures > 0 && res_.samplers > 0;
    if (pick < 18) return w_.emit(Op::Mad, {dst(), source(), source(), source()});
    if (pick < 34) return w_.emit(Op::Mul, {dst(), source(), source()});
    if (pick < 46) return w_.emit(Op::Mov, {dst(), source()});
    if (pick < 60) return w_.emit(Op::Add, {dst(), source(), source()});
    if (pick < 66) return w_.emit(Op::Dp4, {scalar_dst(), source(), source()});
    if (pick < 71) return w_.emit(Op::Dp3, {scalar_dst(), source(), source()});
    if (pick < 73) return w_.emit(Op::Dp2, {scalar_dst(), source(), source()});
    if (pick < 76)
      return w_.emit(rng_.chance(0.5) ? Op::Max : Op::Min, {dst(), source(), source()});
    if (pick < 78) return w_.emit(Op::Rsq, {dst(), source()});
    if (pick < 79) return w_.emit(Op::Sqrt, {dst(), source()});
    if (pick < 80) return w_.emit(Op::Frc, {dst(), source()});
    if (pick < 81) return w_.emit(rng_.chance(0.5) ? Op::Exp : Op::Log, {dst(), source()});
    if (pick < 82) return w_.emit(Op::Div, {dst(), source(), source()});
    if (pick < 83) return w_.emit_saturated(Op::Mad, {dst(), source(), source(), source()});
    if (pick < 85) {
      const std::uint32_t flag = temp_reg();
      w_.emit(rng_.chance(0.5) ? Op::Lt : Op::Ge, {opd::temp_dst(flag, 0x1), source(), source()});
      return w_.emit(Op::Movc, {dst(), opd::temp(flag, swizzle(0, 0, 0, 0)), source(), source()});
    }
    if (pick < 86) return w_.emit(Op::SinCos, {scalar_dst(), scalar_dst(), source()});
    if (pick < 87 && stage_ == ShaderStage::Pixel)
      return w_.emit(rng_.chance(0.5) ? Op::DerivRtx : Op::DerivRty, {dst(), source()});
    if (pick < 88 && res_.cb_dynamic) {
      const std::uint32_t index = temp_reg();
      w_.emit(Op::Ftoi, {opd::temp_dst(index, 0x1), source()});
      const std::uint32_t base = rng_.below(std::max(1u, res_.cb_elements / 2));
      return w_.emit(Op::Mov, {dst(), opd::cb_relative(0, base, index, 0, swz())});
    }
    if (pick < 97 && can_sample) {
      const Operand coord = opd::temp(temp_reg(), swizzle(0, 1, 0, 0));
      const Operand texture = opd::resource(rng_.below(res_.textures));
      const Operand sampler = opd::sampler(rng_.below(res_.samplers));
      if (stage_ == ShaderStage::Pixel)
        return w_.emit(Op::Sample, {opd::temp_dst(temp_reg(), 0xf), coord, texture, sampler});
      return w_.emit(Op::SampleL,
                     {opd::temp_dst(temp_reg(), 0xf), coord, texture, sampler, opd::imm1(0.0f)});
    }
    if (pick < 100 && res_.textures > 0) {
      const std::uint32_t address = temp_reg();
      w_.emit(Op::Ftoi, {opd::temp_dst(address, 0xf), source()});
      return w_.emit(Op::Ld, {opd::temp_dst(temp_reg(), 0xf), opd::temp(address),
                              opd::resource(rng_.below(res_.textures))});
    }
    w_.emit(Op::Mad, {dst(), source(), source(), source()});
  }

  void branch(std::size_t left, int depth) {
    const std::uint32_t flag = temp_reg();
    w_.emit(rng_.chance(0.5) ? Op::Lt : Op::Ge, {opd::temp_dst(flag, 0x1), source(), source()});
    constexpr std::uint32_t kTestNonZero = 1u << 7; // bit 18 of the opcode token
    w_.emit(Op::If, {opd::temp_scalar(flag, 0)}, kTestNonZero);
    const std::size_t inner = std::max<std::size_t>(8, rng_.below(std::uint32_t(left / 3)) + 8);
    block(inner, depth + 1);
    if (rng_.chance(0.4)) {
      w_.emit(Op::Else, {});
      block(std::max<std::size_t>(8, inner / 2), depth + 1);
    }
    if (stage_ == ShaderStage::Pixel && rng_.chance(0.1))
      w_.emit(Op::Discard, {opd::temp_scalar(flag, 0)}, kTestNonZero);
    w_.emit(Op::EndIf, {});
  }

  // for (i = 0; i < n; ++i) with the counter in a reserved temp: x counts, y tests.
  void loop(std::size_t left, int depth) {
    const std::uint32_t counter = res_.general_temps + static_cast<std::uint32_t>(depth);
    constexpr std::uint32_t kTestNonZero = 1u << 7;
    w_.emit(Op::Mov, {opd::temp_dst(counter, 0x1), opd::imm1_bits(0)});
    w_.emit(Op::Loop, {});
    w_.emit(Op::IGe, {opd::temp_dst(counter, 0x2), opd::temp_scalar(counter, 0),
                      opd::imm1_bits(rng_.between(2, 16))});
    w_.emit(Op::Breakc, {opd::temp_scalar(counter, 1)}, kTestNonZero);
    block(std::max<std::size_t>(10, rng_.below(std::uint32_t(left / 3)) + 10), depth + 1);
    w_.emit(Op::IAdd,
            {opd::temp_dst(counter, 0x1), opd::temp_scalar(counter, 0), opd::imm1_bits(1)});
    w_.emit(Op::EndLoop, {});
  }

  ProgramWriter& w_;
  Random& rng_;
  ShaderStage stage_;
  const Resources& res_;
};

void declare_common(ProgramWriter& w, const Resources& res) {
  w.emit(Op::DclGlobalFlags, {}, 1); // refactoringAllowed
  if (res.has_cb) {
    Operand cb;
    cb.push(0x00208e46); // cb0[n], 2-D immediate indices
    cb.push(0);
    cb.push(res.cb_elements);
    w.emit(Op::DclConstantBuffer, {cb}, res.cb_dynamic ? 1 : 0);
  }
  for (std::uint32_t s = 0; s < res.samplers; ++s) w.emit(Op::DclSampler, {opd::sampler(s)});
  for (std::uint32_t t = 0; t < res.textures; ++t) {
    Operand texture;
    texture.push(0x00107000); // t#, no components
    texture.push(t);
    w.emit(Op::DclResource, {texture}, 3 /* texture2d */, {0x5555 /* float x4 */});
  }
}

Operand input_dcl(std::uint32_t reg, std::uint32_t mask) {
  return opd::dst(OperandType::Input, reg, mask);
}

} // namespace

std::vector<std::uint8_t> generate_dxbc(Random& rng, ShaderStage stage, std::uint32_t target_tokens,
                                        std::string* profile) {
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
