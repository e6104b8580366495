#pragma once
// Internal to the synthetic corpus: the random SM4/SM5 body shared by every stage's generator
// (dxbc_generator.cpp, dxbc_tessellation.cpp).

#include "bench/synth/dxbc_writer.h"
#include "bench/synth/random.h"

#include <algorithm>
#include <string>

namespace kiln::synth::detail {

using namespace ::kiln::synth::dxbc;
namespace opd = ::kiln::synth::dxbc::operand;

inline constexpr std::uint32_t kLoopCounters = 3; // reserved temps after the general ones

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

inline void declare_common(ProgramWriter& w, const Resources& res) {
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

inline Operand input_dcl(std::uint32_t reg, std::uint32_t mask) {
  return opd::dst(OperandType::Input, reg, mask);
}

// The tessellation stages (hull with its phases, domain), generated by dxbc_tessellation.cpp.
std::vector<std::uint8_t> generate_dxbc_tessellation(Random& rng, ShaderStage stage,
                                                     std::uint32_t target_tokens,
                                                     std::string* profile);

} // namespace kiln::synth::detail
