// The D3D9 fixed-function state other than fog through kiln-conformance's executor, across the
// shader models it meets: the alpha test with every function for ps_1_1, ps_1_4, ps_2_0 and
// ps_3_0; user clip planes one to eight with vs_2_0 and vs_3_0 (and a DXBC vs_4_0, which
// vkd3d's runner clips too); point size from the state and from the shader (oPts, dcl_psize),
// clamped, at vs_2_0 and vs_3_0; point sprites replacing every texture coordinate a pixel
// shader reads (t# in ps_1_x and ps_2_0, TEXCOORD# in ps_3_0, a DXBC one-float TEXCOORD,
// sprites and size being vkd3d's at sm4 too); flat shading of COLOR0 and COLOR1 but not of
// texture coordinates. Expected values follow D3D9's definitions, computed here.

#include "tests/conformance/render_state_fixture.h"
#include "tests/conformance/render_state_shaders.h"

#include <algorithm>

namespace kiln::conformance {
namespace {

using namespace render_state;

class RenderStateMatrixTest : public RenderStateTest {};

const std::string kRed = rgba(1, 0, 0, 1), kGreen = rgba(0, 1, 0, 1), kClear = rgba(0, 0, 0, 0);

// The vertex shader a pixel shader model pairs with (D3D9 links ps_3_0 with vs_3_0 only).
unsigned vs_major_for(PsModel ps) {
  return ps == PsModel::Ps30 ? 3 : 2;
}
std::string model_for(unsigned vs_major) {
  return vs_major == 3 ? "sm3" : "sm2";
}

// ---- Alpha test ---------------------------------------------------------------------------

// Every D3DCMPFUNC against ref 0.5 with the shader's alpha below, at and above it: a failing
// pixel keeps the cleared red.
TEST_P(RenderStateMatrixTest, AlphaTestEveryFunctionEveryPixelShaderModel) {
  struct Func {
    const char* name;
    bool below, at, above;
  };
  const Func funcs[] = {{"never", false, false, false},       {"less", true, false, false},
                        {"equal", false, true, false},        {"less equal", true, true, false},
                        {"greater", false, false, true},      {"not equal", true, false, true},
                        {"greater equal", false, true, true}, {"always", true, true, true}};
  for (PsModel ps : kEveryPsModel) {
    const unsigned vs_major = vs_major_for(ps);
    Script s{vertex_shader(vs_major, 0), constant_colour_shader(ps), "", {}, model_for(vs_major)};
    for (const Func& f : funcs) {
      const float alphas[] = {0.25f, 0.5f, 0.75f};
      const bool passes[] = {f.below, f.at, f.above};
      for (int i = 0; i < 3; ++i) {
        s.commands.push_back("clear rtv 0 1.0 0.0 0.0 1.0");
        s.commands.push_back("uniform 0 float4 0.0 1.0 0.0 " + num(alphas[i]));
        s.commands.push_back(std::string("alpha test ") + f.name + " 0.5");
        s.commands.push_back("draw quad");
        s.commands.push_back("probe (320, 240) " + (passes[i] ? rgba(0, 1, 0, alphas[i]) : kRed));
      }
    }
    SCOPED_TRACE(model_name(ps));
    EXPECT_PASSES(s);
  }
}

// ---- Clip planes --------------------------------------------------------------------------

// Eight planes, each cutting off a different part of the viewport: 0-3 the margins beyond
// |x|, |y| = 0.75, 4-7 the corners beyond |x| + |y| = 1. `outside[i]` is a pixel only plane i
// removes; (320, 240) none does. With D3D9's half pixel, pixel (px, py) is at NDC
// (px / 320 - 1, 1 - py / 240).
struct Plane {
  std::array<float, 4> plane;
  unsigned x, y; // the pixel outside it alone
};
const Plane kPlanes[8] = {
    {{1, 0, 0, 0.75f}, 70, 240},  {{-1, 0, 0, 0.75f}, 570, 240}, {{0, 1, 0, 0.75f}, 320, 430},
    {{0, -1, 0, 0.75f}, 320, 50}, {{1, 1, 0, 1}, 100, 400},      {{1, -1, 0, 1}, 100, 80},
    {{-1, 1, 0, 1}, 540, 400},    {{-1, -1, 0, 1}, 540, 80},
};

std::string probe_at(unsigned x, unsigned y, const std::string& colour) {
  return "probe (" + std::to_string(x) + ", " + std::to_string(y) + ") " + colour;
}

// Enables exactly the planes of `mask` (set earlier in the script), draws and checks every
// plane's pixel: red (cleared) where its plane is on, the shader's green elsewhere.
void draw_with_planes(Script& s, unsigned& enabled, unsigned mask) {
  for (unsigned i = 0; i < 8; ++i) {
    const bool on = mask & (1u << i);
    if (on == bool(enabled & (1u << i))) continue;
    // (Not a conditional expression of two strings: GCC 12.2 at -O2 built that one wrong.)
    std::string command = "clip-plane " + std::to_string(i);
    if (on)
      for (float f : kPlanes[i].plane) command += " " + num(f);
    else
      command += " disable";
    s.commands.push_back(command);
  }
  enabled = mask;
  s.commands.push_back("clear rtv 0 1.0 0.0 0.0 1.0");
  s.commands.push_back("draw quad");
  s.commands.push_back(probe_at(320, 240, kGreen));
  for (unsigned i = 0; i < 8; ++i)
    s.commands.push_back(probe_at(kPlanes[i].x, kPlanes[i].y, (mask & (1u << i)) ? kRed : kGreen));
}

// Each plane alone, then one to eight planes at once, then a scattered set, then none.
std::vector<unsigned> plane_masks() {
  std::vector<unsigned> masks;
  for (unsigned i = 0; i < 8; ++i) masks.push_back(1u << i);
  for (unsigned n = 1; n <= 8; ++n) masks.push_back((1u << n) - 1);
  masks.push_back(0x4a);
  masks.push_back(0);
  return masks;
}

Script clip_script(std::vector<std::uint32_t> vs, std::vector<std::uint32_t> ps,
                   std::string model) {
  Script s{
      std::move(vs), std::move(ps), "", {"uniform 0 float4 0.0 1.0 0.0 1.0"}, std::move(model)};
  unsigned enabled = 0;
  for (unsigned mask : plane_masks()) draw_with_planes(s, enabled, mask);
  return s;
}

TEST_P(RenderStateMatrixTest, ClipPlanesOneToEightWithVs2AndVs3) {
  for (unsigned vs_major : {2u, 3u}) {
    SCOPED_TRACE("vs_" + std::to_string(vs_major) + "_0");
    EXPECT_PASSES(clip_script(vertex_shader(vs_major, 0),
                              constant_colour_shader(vs_major == 3 ? PsModel::Ps30 : PsModel::Ps20),
                              model_for(vs_major)));
  }
}

// Planes are in clip space: with w = 2 the same planes cut the same pixels (x w + 0.75 w >= 0).
TEST_P(RenderStateMatrixTest, ClipPlanesTakeTheClipSpacePosition) {
  for (unsigned vs_major : {2u, 3u}) {
    Script s = clip_script(vertex_shader(vs_major, 0),
                           constant_colour_shader(vs_major == 3 ? PsModel::Ps30 : PsModel::Ps20),
                           model_for(vs_major));
    s.state = covering_triangle(0.5f, 2.0f);
    std::replace(s.commands.begin(), s.commands.end(), std::string("draw quad"),
                 std::string("draw triangle list 3"));
    SCOPED_TRACE("vs_" + std::to_string(vs_major) + "_0");
    EXPECT_PASSES(s);
  }
}

// vkd3d's runner hands its clip planes to every vertex shader, DXBC ones too (FORMAT.md 4.5 is
// about sm2/sm3, but the state applies at sm4 as well); pixels here have no half-pixel shift,
// which the probes' pixels do not depend on.
TEST_P(RenderStateMatrixTest, ClipPlanesWithADxbcVertexShader) {
  const auto package = test::conformance_dir();
  KILN_REQUIRE_DIR(package, "the conformance package");
  Script s = clip_script(package_blob("_common/draw-quad.vs.sm4.dxbc"),
                         package_blob("tests/uniform-semantics/0.ps.sm4.dxbc"), "sm4");
  // That pixel shader returns the float at c0.x: 1 gives white instead of green.
  s.commands[0] = "uniform 0 float 1.0";
  for (std::string& c : s.commands)
    if (c.ends_with(kGreen)) c = c.substr(0, c.size() - kGreen.size()) + rgba(1, 1, 1, 1);
  EXPECT_PASSES(s);
}

// ---- Point size and sprites ---------------------------------------------------------------

// A point at the viewport's centre (320.5, 240.5 with D3D9's half pixel) of size n covers the
// pixels whose centres are within n / 2.
std::vector<std::string> point_probes(float size, const std::string& inside_colour) {
  const int inside = int(320 + size / 2 - 1), outside = int(320 + size / 2 + 1);
  return {probe_at(unsigned(inside), 240, inside_colour), probe_at(unsigned(outside), 240, kClear),
          probe_at(320, unsigned(inside - 80), inside_colour),
          probe_at(320, unsigned(outside - 80), kClear)};
}

// D3DRS_POINTSIZE when the shader writes no size, else the shader's (t.z = 12); either clamped
// to [D3DRS_POINTSIZE_MIN, D3DRS_POINTSIZE_MAX].
TEST_P(RenderStateMatrixTest, PointSizeFromStateAndShaderClampedAtVs2AndVs3) {
  struct Setting {
    const char* command;
    float fixed, from_shader; // expected size without / with the shader's psize
  } settings[] = {{"point-size 10.0 1.0 64.0", 10, 12},
                  {"point-size 2.0 16.0 64.0", 16, 16},
                  {"point-size 30.0 1.0 6.0", 6, 6},
                  {"point-size 20.0 1.0 64.0", 20, 12},
                  // min above max: the maximum (max with the minimum, then min with the maximum)
                  {"point-size 10.0 20.0 8.0", 8, 8}};
  for (unsigned vs_major : {2u, 3u}) {
    for (bool shader_size : {false, true}) {
      Script s{vertex_shader(vs_major, shader_size ? kOutPointSize : 0u),
               constant_colour_shader(vs_major == 3 ? PsModel::Ps30 : PsModel::Ps20),
               centre_point({0, 0, 12, 0}),
               {"uniform 0 float4 0.0 1.0 0.0 1.0"},
               model_for(vs_major)};
      for (const Setting& setting : settings) {
        s.commands.push_back("clear rtv 0 0.0 0.0 0.0 0.0");
        s.commands.push_back(setting.command);
        s.commands.push_back("draw point list 1");
        for (std::string& p :
             point_probes(shader_size ? setting.from_shader : setting.fixed, kGreen))
          s.commands.push_back(p);
      }
      SCOPED_TRACE("vs_" + std::to_string(vs_major) + "_0" + (shader_size ? " writing psize" : ""));
      EXPECT_PASSES(s);
    }
  }
}

// With point sprites every texture coordinate the pixel shader reads is (u, v, 0, 0) of the
// sprite: (0, 0) at its top left, (1, 1) at its bottom right. (ps_1_1's texcoord sets w = 1,
// ps_1_4's texcrd leaves it to c0.w = 1; ps_1_x saturates its colour.) Off again, the vertex's
// coordinates come through.
TEST_P(RenderStateMatrixTest, PointSpritesReplaceEveryTexCoord) {
  const std::array<float, 4> t = {0.25f, 0.75f, 16.0f, 0.5f}; // t.z is the shader's psize
  const auto sprite = [&](PsModel ps, unsigned x, unsigned y) {
    // PointCoord of pixel (x, y) of a 16-pixel sprite centred on (320.5, 240.5).
    const float u = 0.5f + (float(x) - 320.0f) / 16.0f, v = 0.5f + (float(y) - 240.0f) / 16.0f;
    return is_ps1(ps) ? rgba(u, v, 0, 1) : rgba(u, v, 0, 0);
  };
  const std::string vertex_value = rgba(t);
  for (PsModel ps : kEveryPsModel) {
    for (unsigned index : {0u, 1u}) {
      for (bool shader_size : {false, true}) {
        const unsigned vs_major = vs_major_for(ps);
        const unsigned outputs = kOutTexCoord0 | kOutTexCoord1 | (shader_size ? kOutPointSize : 0u);
        Script s{vertex_shader(vs_major, outputs),
                 texcoord_input_shader(ps, index),
                 centre_point(t),
                 {"uniform 0 float4 0.0 0.0 0.0 1.0", "clear rtv 0 0.0 0.0 0.0 0.0",
                  "point-size 16.0 1.0 64.0", "point-sprite on", "draw point list 1"},
                 model_for(vs_major)};
        for (const auto& [x, y] : {std::pair{320u, 240u}, {314u, 236u}, {326u, 246u}})
          s.commands.push_back(probe_at(x, y, sprite(ps, x, y) + " 4096"));
        s.commands.push_back("clear rtv 0 0.0 0.0 0.0 0.0");
        s.commands.push_back("point-sprite off");
        s.commands.push_back("draw point list 1");
        s.commands.push_back(
            probe_at(320, 240, is_ps1(ps) ? rgba(t[0], t[1], 1, 1) : vertex_value));
        SCOPED_TRACE(std::string(model_name(ps)) + " texcoord" + std::to_string(index) +
                     (shader_size ? ", shader psize" : ""));
        EXPECT_PASSES(s);
      }
    }
  }
}

// vkd3d's runner hands point size and sprites to DXBC shaders as well. The package's vs_4_0
// writes TEXCOORD = 0.2 (one float) and its ps_4_0 returns that float in all four channels: a
// sprite's u there, with no half-pixel shift at sm4 (the point's centre is (320, 240)).
TEST_P(RenderStateMatrixTest, PointSpritesAndSizeWithDxbcShaders) {
  const auto package = test::conformance_dir();
  KILN_REQUIRE_DIR(package, "the conformance package");
  const auto grey = [](float v) { return rgba(v, v, v, v); };
  const auto u = [](unsigned x) { return 0.5f + (float(x) + 0.5f - 320.0f) / 16.0f; };
  Script s{package_blob("tests/entry-point-semantics/0.vs.sm4.dxbc"),
           package_blob("tests/entry-point-semantics/3.ps.sm4.dxbc"),
           "[input layout]\n0 r32g32b32a32-float position\n[vb 0]\n0.0 0.0 0.0 1.0\n",
           {"clear rtv 0 0.0 0.0 0.0 0.0", "point-size 16.0 1.0 64.0", "point-sprite on",
            "draw point list 1", probe_at(314, 236, grey(u(314)) + " 4096"),
            probe_at(326, 240, grey(u(326)) + " 4096"), probe_at(329, 240, kClear),
            "point-sprite off", "clear rtv 0 0.0 0.0 0.0 0.0", "draw point list 1",
            probe_at(326, 240, grey(0.2f)), probe_at(329, 240, kClear)},
           "sm4"};
  EXPECT_PASSES(s);
}

// ---- Shade mode ---------------------------------------------------------------------------

// shade mode flat: COLOR0 and COLOR1 take the first vertex's value; texture coordinates are
// still interpolated (at the centre, the mean of the three vertices; ps_1_4's alpha is c0.w).
TEST_P(RenderStateMatrixTest, FlatShadingOfBothColoursAtEveryPixelShaderModel) {
  const std::array<float, 4> v0 = {0.75f, 0, 0, 1}, v1 = {0, 0.75f, 0, 1}, v2 = {0, 0, 0.75f, 1};
  const std::string mean = rgba(0.25f, 0.25f, 0.25f, 1);
  for (PsModel ps : kEveryPsModel) {
    const unsigned vs_major = vs_major_for(ps);
    const auto run_with = [&](std::vector<std::uint32_t> shader, const std::string& flat) {
      Script s{vertex_shader(vs_major, kOutDiffuse | kOutSpecular | kOutTexCoord0),
               std::move(shader),
               covering_triangle(0, 1, v0, v1, v2),
               {"uniform 0 float4 0.0 0.0 0.0 1.0", "clear rtv 0 0.0 0.0 0.0 0.0",
                "shade mode flat", "draw triangle list 3", "probe (320, 240) " + flat + " 64",
                "shade mode linear", "draw triangle list 3", "probe (320, 240) " + mean + " 64"},
               model_for(vs_major)};
      EXPECT_PASSES(s);
    };
    SCOPED_TRACE(model_name(ps));
    run_with(colour_input_shader(ps, 0), rgba(v0));
    run_with(colour_input_shader(ps, 1), rgba(v0));
    run_with(texcoord_input_shader(ps, 0), mean);
  }
}

INSTANTIATE_TEST_SUITE_P(Parameters, RenderStateMatrixTest, ::testing::Values(false, true),
                         parameter_name);

} // namespace
} // namespace kiln::conformance
