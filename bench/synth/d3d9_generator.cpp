// Random vs/ps 2.0 and 3.0 token streams: a CTAB comment, dcl/def, a body with the opcode mix
// of real D3D9 shaders (mad/mul/add/dp/texld, static and dynamic flow control where the shader
// model has it), then the outputs.

#include "bench/synth/d3d9_writer.h"
#include "bench/synth/random.h"
#include "bench/synth/synthetic_corpus.h"

#include <algorithm>

namespace kiln::synth {

namespace {

using namespace d3d9;

struct Model {
  bool pixel = false;
  std::uint32_t major = 2;
  std::uint32_t temps = 8;
  std::uint32_t constants = 16; // c0..c(n-1) in the constant table
  std::uint32_t inputs = 1;
  std::uint32_t samplers = 0;
  bool flow = false;    // rep/loop/if (vs_2_0+, ps_3_0)
  bool dynamic = false; // ifc (SM3)
};

class D3D9Body {
 public:
  D3D9Body(TokenWriter& w, Random& rng, const Model& m) : w_(w), rng_(rng), m_(m) {}

  void block(std::size_t budget, int depth) {
    const std::size_t end = w_.token_count() + budget;
    while (w_.token_count() < end) {
      const std::size_t left = end - w_.token_count();
      const std::uint32_t pick = rng_.below(100);
      if (m_.flow && depth < 2 && left > 40 && pick < 5) {
        branch(left, depth);
      } else if (m_.flow && depth == 0 && left > 50 && pick < 7) {
        loop(left, depth);
      } else {
        arithmetic();
      }
    }
  }

 private:
  std::uint32_t temp() { return rng_.below(m_.temps); }
  std::uint32_t mask() {
    static constexpr std::uint32_t kMasks[] = {0xf, 0xf, 0xf, 0x7, 0x7, 0x3, 0x1, 0x2, 0x8};
    return kMasks[rng_.below(sizeof(kMasks) / sizeof(kMasks[0]))];
  }
  std::uint32_t swz() {
    switch (rng_.below(5)) {
    case 0:
      return swizzle(0, 0, 0, 0);
    case 1:
      return swizzle(rng_.below(4), rng_.below(4), rng_.below(4), rng_.below(4));
    default:
      return kIdentity;
    }
  }
  std::uint32_t source() {
    const std::uint32_t pick = rng_.below(100);
    if (pick < 50) return src(Reg::Temp, temp(), swz());
    if (pick < 80) return src(Reg::Const, rng_.below(m_.constants), swz());
    if (pick < 90) {
      // ps_2_0 reads its interpolated inputs from t#, everything else from v#.
      const Reg reg = m_.pixel && m_.major < 3 ? Reg::Address : Reg::Input;
      return src(reg, rng_.below(m_.inputs), swz());
    }
    return negate(src(Reg::Temp, temp(), swz()));
  }
  std::uint32_t dest() { return dst(Reg::Temp, temp(), mask()); }

  void arithmetic() {
    const std::uint32_t pick = rng_.below(100);
    if (pick < 20) return w_.emit(Op::Mad, {dest(), source(), source(), source()});
    if (pick < 36) return w_.emit(Op::Mul, {dest(), source(), source()});
    if (pick < 48) return w_.emit(Op::Mov, {dest(), source()});
    if (pick < 60) return w_.emit(Op::Add, {dest(), source(), source()});
    if (pick < 67)
      return w_.emit(Op::Dp4, {dst(Reg::Temp, temp(), 1u << rng_.below(4)), source(), source()});
    if (pick < 73)
      return w_.emit(Op::Dp3, {dst(Reg::Temp, temp(), 1u << rng_.below(4)), source(), source()});
    if (pick < 75)
      return w_.emit(Op::Rsq, {dst(Reg::Temp, temp(), 0x1), src(Reg::Temp, temp(), 0)});
    if (pick < 77)
      return w_.emit(Op::Rcp, {dst(Reg::Temp, temp(), 0x1), src(Reg::Temp, temp(), 0)});
    if (pick < 80)
      return w_.emit(rng_.chance(0.5) ? Op::Max : Op::Min, {dest(), source(), source()});
    if (pick < 81) return w_.emit(Op::Frc, {dest(), source()});
    if (pick < 82) return w_.emit(Op::Nrm, {dst(Reg::Temp, temp(), 0x7), src(Reg::Temp, temp())});
    if (pick < 83)
      return w_.emit(Op::Pow, {dst(Reg::Temp, temp(), 0x1), src(Reg::Temp, temp(), 0),
                               src(Reg::Const, rng_.below(m_.constants), 0)});
    if (pick < 85)
      return w_.emit(rng_.chance(0.5) ? Op::Slt : Op::Sge, {dest(), source(), source()});
    if (pick < 87 && m_.pixel) return w_.emit(Op::Cmp, {dest(), source(), source(), source()});
    if (pick < 88 && m_.pixel) return w_.emit(Op::Lrp, {dest(), source(), source(), source()});
    if (pick < 90 && !m_.pixel) {
      // c[a0.x + n]: the indexed constant access of skinning shaders.
      w_.emit(Op::MovA, {dst(Reg::Address, 0, 0x1), src(Reg::Temp, temp(), 0)});
      return w_.emit(Op::Mov, {dest(), relative(src(Reg::Const, rng_.below(m_.constants / 2))),
                               address_token()});
    }
    if (pick < 99 && m_.samplers && (m_.pixel || m_.major >= 3)) {
      const Reg coord_reg = m_.pixel && m_.major < 3 ? Reg::Address : Reg::Input;
      const std::uint32_t coord =
          rng_.chance(0.6) ? src(coord_reg, rng_.below(m_.inputs)) : src(Reg::Temp, temp());
      // vs_3_0 may only use texldl (texld with the "lod" control, opcode 95): keep to ps here.
      if (m_.pixel)
        return w_.emit(Op::TexLd, {dst(Reg::Temp, temp(), 0xf), coord,
                                   src(Reg::Sampler, rng_.below(m_.samplers))});
    }
    w_.emit(Op::Mad, {dest(), source(), source(), source()});
  }

  void branch(std::size_t left, int depth) {
    if (m_.dynamic && rng_.chance(0.6)) {
      constexpr std::uint32_t kLessThan = 4;
      w_.emit(Op::IfC, {src(Reg::Temp, temp(), 0), src(Reg::Const, rng_.below(m_.constants), 0)},
              kLessThan);
    } else {
      w_.emit(Op::If, {src(Reg::ConstBool, rng_.below(2), 0)});
    }
    const std::size_t inner = std::max<std::size_t>(6, rng_.below(std::uint32_t(left / 3)) + 6);
    block(inner, depth + 1);
    if (rng_.chance(0.4)) {
      w_.emit(Op::Else, {});
      block(std::max<std::size_t>(6, inner / 2), depth + 1);
    }
    w_.emit(Op::EndIf, {});
  }

  void loop(std::size_t left, int depth) {
    const std::size_t inner = std::max<std::size_t>(8, rng_.below(std::uint32_t(left / 3)) + 8);
    if (rng_.chance(0.5)) {
      w_.emit(Op::Rep, {src(Reg::ConstInt, 0)});
      block(inner, depth + 1);
      w_.emit(Op::EndRep, {});
    } else {
      w_.emit(Op::Loop, {src(Reg::Loop, 0), src(Reg::ConstInt, 1)});
      block(inner, depth + 1);
      w_.emit(Op::EndLoop, {});
    }
  }

  TokenWriter& w_;
  Random& rng_;
  const Model& m_;
};

} // namespace

std::vector<std::uint8_t> generate_d3d9(Random& rng, ShaderStage stage, std::uint32_t target_tokens,
                                        std::string* profile) {
  Model m;
  m.pixel = stage == ShaderStage::Pixel;
  // ps_2_0 holds at most 64 arithmetic + 32 texture instructions: larger ones are ps_3_0.
  m.major = (m.pixel && target_tokens > 300) ? 3 : (rng.chance(0.5) ? 3 : 2);
  // Small programs declare little and have no flow control (nor its defi/defb).
  const bool small = target_tokens < 150;
  m.flow = !small && (!m.pixel || m.major >= 3);
  m.dynamic = m.major >= 3;
  m.temps = m.pixel && m.major < 3 ? 12 : 16;
  m.constants = m.pixel ? rng.between(4, m.major >= 3 ? 64 : 24)
                        : rng.between(8, 96) + std::min<std::uint32_t>(target_tokens / 20, 120);
  m.inputs = m.pixel ? rng.between(1, small ? 2 : 4) : 3;
  m.samplers = m.pixel ? rng.between(1, small ? 2 : 4) : 0;

  TokenWriter w(m.pixel, m.major, 0);
  if (rng.chance(0.85)) w.constant_table(m.constants, m.samplers);

  const std::uint32_t outputs = m.pixel ? 1 : rng.between(1, small ? 2 : 4);
  if (m.pixel) {
    for (std::uint32_t i = 0; i < m.inputs; ++i) {
      if (m.major >= 3)
        w.dcl_usage(Usage::TexCoord, i, dst(Reg::Input, i));
      else
        w.dcl_usage(Usage::Position, 0, dst(Reg::Address, i)); // "dcl t#"
    }
    for (std::uint32_t s = 0; s < m.samplers; ++s) w.dcl_sampler_2d(s);
  } else {
    w.dcl_usage(Usage::Position, 0, dst(Reg::Input, 0));
    w.dcl_usage(Usage::Normal, 0, dst(Reg::Input, 1));
    w.dcl_usage(Usage::TexCoord, 0, dst(Reg::Input, 2));
    if (m.major >= 3) {
      w.dcl_usage(Usage::Position, 0, dst(Reg::TexCrdOut, 0));
      for (std::uint32_t i = 1; i < outputs + 1; ++i)
        w.dcl_usage(Usage::TexCoord, i - 1, dst(Reg::TexCrdOut, i));
    }
  }
  const std::uint32_t def_reg = m.constants;
  w.def(def_reg, rng.small_float(), rng.small_float(), 1.0f, 0.0f);
  if (m.flow) {
    w.defi(0, static_cast<std::int32_t>(rng.between(2, 8)), 0, 1);
    w.defi(1, static_cast<std::int32_t>(rng.between(2, 8)), 0, 1);
    w.defb(0, true);
    w.defb(1, false);
  }

  // Prologue: the transform of a vertex shader, the first fetch of a pixel shader.
  if (!m.pixel) {
    w.emit(Op::M4x4, {dst(Reg::Temp, 0), src(Reg::Input, 0), src(Reg::Const, 0)});
  } else {
    const Reg coord = m.major >= 3 ? Reg::Input : Reg::Address;
    w.emit(Op::TexLd, {dst(Reg::Temp, 0), src(coord, 0), src(Reg::Sampler, 0)});
  }

  const std::size_t epilogue = 4 + 3 * outputs;
  const std::size_t used = w.token_count() + epilogue;
  D3D9Body body(w, rng, m);
  body.block(target_tokens > used ? target_tokens - used : 3, 0);

  if (m.pixel) {
    w.emit(Op::Mov, {dst(Reg::ColorOut, 0), src(Reg::Temp, 0)});
  } else if (m.major >= 3) {
    for (std::uint32_t o = 0; o < outputs + 1; ++o)
      w.emit(Op::Mov, {dst(Reg::TexCrdOut, o), src(Reg::Temp, o % m.temps)});
  } else {
    w.emit(Op::Mov, {dst(Reg::RastOut, 0), src(Reg::Temp, 0)}); // oPos
    for (std::uint32_t o = 0; o < outputs; ++o)
      w.emit(Op::Mov, {dst(Reg::TexCrdOut, o), src(Reg::Temp, (o + 1) % m.temps)}); // oT#
  }
  if (profile) *profile = std::string(m.pixel ? "ps_" : "vs_") + char('0' + m.major) + "_0";
  return to_bytes(w.finish());
}

} // namespace kiln::synth
