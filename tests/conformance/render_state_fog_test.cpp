// D3D9 fog through kiln-conformance's executor, as a matrix: every fog mode (disable, none,
// linear, exp, exp2) with every source of the fog coordinate (the vertex shader's FOG output,
// the specular alpha when it writes none, position z with `ortho`, position w with
// `non-ortho`), for vs_2_0 and vs_3_0 against ps_1_1, ps_1_4, ps_2_0 and ps_3_0, with the
// `fog` command written both ways the script format allows (`fog linear ortho 0 4`, vkd3d's
// runner's order, and `fog linear 0 4 ortho`). Expected colours come from D3D9's fog formulas,
// computed here in double precision.

#include "tests/conformance/render_state_fixture.h"
#include "tests/conformance/render_state_shaders.h"

#include <cmath>

namespace kiln::conformance {
namespace {

using namespace render_state;

// Every vertex: position (x w, y w, z, w) and texcoord0 t; the fog output is t.x, the specular
// alpha t.w. Each source gives a different coordinate, so a wrong source fails the probe.
constexpr float kZ = 0.25f, kW = 2.0f;
constexpr std::array<float, 4> kT = {0.6f, 0.3f, 0.5f, 0.9f};
constexpr double kFogOutput = kT[0], kSpecularAlpha = kT[3];

// The shader's colour c0, the fog colour (its alpha differs: D3D9 ignores it, and fog leaves
// the colour's alpha alone).
constexpr std::array<double, 4> kColour = {1.0, 0.5, 0.25, 0.75};
constexpr std::array<double, 4> kFogColour = {0.0, 0.25, 1.0, 0.5};

// D3DFOGMODE's formulas for the factor f (1: the colour, 0: the fog colour), clamped to [0, 1].
double linear_factor(double start, double end, double c) {
  return std::clamp((end - c) / (end - start), 0.0, 1.0);
}
double exp_factor(double density, double c) {
  return std::clamp(std::exp(-density * c), 0.0, 1.0);
}
double exp2_factor(double density, double c) {
  return std::clamp(std::exp(-(density * c) * (density * c)), 0.0, 1.0);
}

// The probe of a fogged pixel: rgb = f colour + (1 - f) fog colour, alpha unchanged.
std::string fogged_probe(double f) {
  std::array<float, 4> out;
  for (int i = 0; i < 3; ++i) out[i] = float(f * kColour[i] + (1.0 - f) * kFogColour[i]);
  out[3] = float(kColour[3]);
  return "probe (320, 240) " + rgba(out) + " 4096";
}

struct FogDraw {
  std::string command;
  double factor;
};

// One clear, draw and probe per fog command, in order (`ortho` / `non-ortho` persist).
Script fog_script(unsigned vs_major, unsigned vs_outputs, PsModel ps,
                  const std::vector<FogDraw>& draws) {
  Script s{vertex_shader(vs_major, vs_outputs),
           constant_colour_shader(ps),
           covering_triangle(kZ, kW, kT, kT, kT),
           {"uniform 0 float4 " + num(float(kColour[0])) + " " + num(float(kColour[1])) + " " +
                num(float(kColour[2])) + " " + num(float(kColour[3])),
            "fog-colour " + num(float(kFogColour[0])) + " " + num(float(kFogColour[1])) + " " +
                num(float(kFogColour[2])) + " " + num(float(kFogColour[3]))},
           vs_major == 3 ? "sm3" : "sm2"};
  for (const FogDraw& d : draws) {
    s.commands.push_back("clear rtv 0 0.0 0.0 0.0 0.0");
    s.commands.push_back(d.command);
    s.commands.push_back("draw triangle list 3");
    s.commands.push_back(fogged_probe(d.factor));
  }
  return s;
}

// The table modes (linear, exp, exp2) take position z (`ortho`) or w (`non-ortho`), whatever
// the shader writes; `fog none` is vertex fog, whose factor is the shader's coordinate
// (`vertex_fog`) and ignores `ortho`.
std::vector<FogDraw> every_mode(double vertex_fog) {
  return {
      {"fog disable", 1.0},
      {"fog none", std::clamp(vertex_fog, 0.0, 1.0)},
      {"fog none ortho", std::clamp(vertex_fog, 0.0, 1.0)},
      {"fog linear 0.0 4.0", linear_factor(0, 4, kZ)}, // ortho from the line above
      {"fog linear non-ortho 0.0 4.0", linear_factor(0, 4, kW)},
      {"fog exp 0.5", exp_factor(0.5, kW)}, // non-ortho from the line above
      {"fog exp ortho 0.5", exp_factor(0.5, kZ)},
      {"fog exp2 non-ortho 0.5", exp2_factor(0.5, kW)},
      {"fog exp2 0.5 ortho", exp2_factor(0.5, kZ)},
      {"fog linear 1.0 2.5 non-ortho", linear_factor(1, 2.5, kW)},
      {"fog linear ortho 0.0 0.125", linear_factor(0, 0.125, kZ)}, // beyond the end: 0
      {"fog none", std::clamp(vertex_fog, 0.0, 1.0)},
  };
}

class FogMatrixTest : public RenderStateTest {
 protected:
  void check(unsigned vs_outputs, double vertex_fog) {
    for (unsigned vs_major : {2u, 3u}) {
      for (PsModel ps : kEveryPsModel) {
        SCOPED_TRACE("vs_" + std::to_string(vs_major) + "_0, " + model_name(ps));
        EXPECT_PASSES(fog_script(vs_major, vs_outputs, ps, every_mode(vertex_fog)));
      }
    }
  }
};

// The shader's FOG output is the coordinate even where it also writes a specular colour.
TEST_P(FogMatrixTest, FogOutputAndSpecular) {
  check(kOutFog | kOutSpecular, kFogOutput);
}

// Without a FOG output, vertex fog takes the specular alpha.
TEST_P(FogMatrixTest, SpecularWithoutFogOutput) {
  check(kOutSpecular, kSpecularAlpha);
}

TEST_P(FogMatrixTest, FogOutputWithoutSpecular) {
  check(kOutFog, kFogOutput);
}

// A coordinate outside [0, 1] clamps the factor; the table modes still take z or w.
TEST_P(FogMatrixTest, VertexFogClamps) {
  for (unsigned vs_major : {2u, 3u}) {
    Script s = fog_script(vs_major, kOutFog, PsModel::Ps20,
                          {{"fog none", 1.0}, {"fog exp2 ortho 0.5", exp2_factor(0.5, kZ)}});
    // t.x = 1.5 and then -0.5: factor 1, then 0.
    s.state = covering_triangle(kZ, kW, {1.5f, 0, 0, 0}, {1.5f, 0, 0, 0}, {1.5f, 0, 0, 0});
    EXPECT_PASSES(s);
    s.state = covering_triangle(kZ, kW, {-0.5f, 0, 0, 0}, {-0.5f, 0, 0, 0}, {-0.5f, 0, 0, 0});
    s.commands[5] = fogged_probe(0.0);
    EXPECT_PASSES(s);
  }
}

// Fog blends after the alpha test, which sees the shader's alpha; fog leaves that alpha alone.
TEST_P(FogMatrixTest, AlphaTestSeesTheShadersAlpha) {
  for (PsModel ps : kEveryPsModel) {
    const unsigned vs_major = ps == PsModel::Ps30 ? 3 : 2;
    Script s = fog_script(vs_major, kOutFog, ps, {{"fog none", kFogOutput}});
    s.commands.insert(s.commands.begin(), "alpha test equal " + num(float(kColour[3])));
    SCOPED_TRACE(model_name(ps));
    EXPECT_PASSES(s);
  }
}

INSTANTIATE_TEST_SUITE_P(Parameters, FogMatrixTest, ::testing::Values(false, true), parameter_name);

} // namespace
} // namespace kiln::conformance
