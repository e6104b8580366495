// kiln's render-state parameters executed on lavapipe, beyond what the shared package covers:
// every alpha-test function, flat shading, each fog mode and source, clip planes, point size
// (fixed and the shader's psize, clamped) and point sprites. Each case is a script in the
// package's format with hand-written D3D9 shaders (tests/d3d9/token_builder.h), replayed by
// kiln-conformance's executor at sm2 with the state passed as immediate parameters and again as
// specialization constants. Expected values are worked out here from D3D9's formulas.

#include "tests/conformance/render_state_fixture.h"

#include <cmath>
#include <cstring>

namespace kiln::conformance {
namespace {

using namespace kiln::d3d9::test;
using namespace render_state;

constexpr std::uint32_t kMov = 1, kDcl = 31;
constexpr unsigned kRastOutFog = 1, kRastOutPts = 2;

std::uint32_t usage(unsigned u, unsigned index = 0) {
  return 0x80000000u | u | index << 16;
}
constexpr unsigned kUsagePosition = 0, kUsageTexCoord = 5, kUsageColor = 10;

// vs_2_0: oPos = v0 (position), then `extra` (outputs from v1 = texcoord0).
std::vector<std::uint32_t> vertex_shader(std::initializer_list<std::uint32_t> extra) {
  std::vector<std::uint32_t> t = {vs_version(2, 0), op(kDcl, 2), usage(kUsagePosition),
                                  dst(kInput, 0),   op(kDcl, 2), usage(kUsageTexCoord),
                                  dst(kInput, 1),   op(kMov, 2), dst(kRastOut, 0),
                                  src(kInput, 0)};
  t.insert(t.end(), extra);
  t.push_back(kEnd);
  return t;
}
const std::vector<std::uint32_t> kVsPosition = vertex_shader({});
// oFog = v1.x
const std::vector<std::uint32_t> kVsFog =
    vertex_shader({op(kMov, 2), dst(kRastOut, kRastOutFog, 0x1), src(kInput, 1, replicate(0))});
// oPts = v1.x
const std::vector<std::uint32_t> kVsPointSize =
    vertex_shader({op(kMov, 2), dst(kRastOut, kRastOutPts, 0x1), src(kInput, 1, replicate(0))});
// oD0 = v1
const std::vector<std::uint32_t> kVsColour =
    vertex_shader({op(kMov, 2), dst(kAttrOut, 0), src(kInput, 1)});
// oT0 = v1
const std::vector<std::uint32_t> kVsTexCoord =
    vertex_shader({op(kMov, 2), dst(kOutput, 0), src(kInput, 1)});
// oT0 = v1, oPts = v1.z
const std::vector<std::uint32_t> kVsTexCoordPointSize =
    vertex_shader({op(kMov, 2), dst(kOutput, 0), src(kInput, 1), op(kMov, 2),
                   dst(kRastOut, kRastOutPts, 0x1), src(kInput, 1, replicate(2))});

// oT0 = v1, oT1 = v1
const std::vector<std::uint32_t> kVsTwoTexCoords = vertex_shader(
    {op(kMov, 2), dst(kOutput, 0), src(kInput, 1), op(kMov, 2), dst(kOutput, 1), src(kInput, 1)});

// ps_1_1: tex t0; mov r0, t0 (no sampler dcl: the bound texture decides its type).
constexpr std::uint32_t kTex = 66, kTexBem = 67, kTexBemL = 68;
const std::vector<std::uint32_t> kPsTex = {ps_version(1, 1), op(kTex),      dst(kAddr, 0), op(kMov),
                                           dst(kTemp, 0),    src(kAddr, 0), kEnd};
// ps_1_1: tex t0; texbem(l) t1, t0; mov r0, t1.
std::vector<std::uint32_t> bump_shader(std::uint32_t opcode) {
  return {ps_version(1, 1), op(kTex), dst(kAddr, 0), op(opcode),    dst(kAddr, 1),
          src(kAddr, 0),    op(kMov), dst(kTemp, 0), src(kAddr, 1), kEnd};
}
const std::vector<std::uint32_t> kPsTexBem = bump_shader(kTexBem);
const std::vector<std::uint32_t> kPsTexBemL = bump_shader(kTexBemL);

// ps_2_0: oC0 = c0.
const std::vector<std::uint32_t> kPsConstant = {ps_version(2, 0), op(kMov, 2), dst(kColorOut, 0),
                                                src(kConst, 0), kEnd};
// ps_2_0: oC0 = v0 (COLOR0).
const std::vector<std::uint32_t> kPsColour = {ps_version(2, 0), op(kDcl, 2), 0x80000000u,
                                              dst(kInput, 0),   op(kMov, 2), dst(kColorOut, 0),
                                              src(kInput, 0),   kEnd};
// ps_2_0: oC0 = t0 (TEXCOORD0).
const std::vector<std::uint32_t> kPsTexCoord = {ps_version(2, 0), op(kDcl, 2), 0x80000000u,
                                                dst(kAddr, 0),    op(kMov, 2), dst(kColorOut, 0),
                                                src(kAddr, 0),    kEnd};

// Every comparison against ref 0.5 with alpha below, at and above it: a failing pixel keeps
// the cleared red.
TEST_P(RenderStateTest, AlphaTestEveryFunction) {
  struct Func {
    const char* name;
    bool below, at, above;
  };
  const Func funcs[] = {{"never", false, false, false},       {"less", true, false, false},
                        {"equal", false, true, false},        {"less equal", true, true, false},
                        {"greater", false, false, true},      {"not equal", true, false, true},
                        {"greater equal", false, true, true}, {"always", true, true, true}};
  for (const Func& f : funcs) {
    Script s{kVsPosition, kPsConstant, "", {}};
    const float alphas[] = {0.25f, 0.5f, 0.75f};
    const bool passes[] = {f.below, f.at, f.above};
    for (int i = 0; i < 3; ++i) {
      s.commands.push_back("clear rtv 0 1.0 0.0 0.0 1.0");
      s.commands.push_back("uniform 0 float4 0.0 1.0 0.0 " + std::to_string(alphas[i]));
      s.commands.push_back(std::string("alpha test ") + f.name + " 0.5");
      s.commands.push_back("draw quad");
      s.commands.push_back("probe (320, 240) " +
                           (passes[i] ? rgba(0, 1, 0, alphas[i]) : rgba(1, 0, 0, 1)));
    }
    SCOPED_TRACE(f.name);
    EXPECT_PASSES(s);
  }
}

// shade mode flat: the whole triangle takes its first vertex's colour.
TEST_P(RenderStateTest, FlatShadingUsesTheFirstVertexColour) {
  Script s{kVsColour,
           kPsColour,
           covering_triangle(0, 1, {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}),
           {"clear rtv 0 0.0 0.0 0.0 0.0", "shade mode flat", "draw triangle list 3",
            "probe (320, 240) " + rgba(1, 0, 0, 1), "probe (10, 470) " + rgba(1, 0, 0, 1)}};
  EXPECT_PASSES(s);
  // Linear again: the centre is a blend, not the first vertex's red.
  s.commands = {"clear rtv 0 0.0 0.0 0.0 0.0", "shade mode linear", "draw triangle list 3",
                "probe (320, 240) " + rgba(1, 0, 0, 1)};
  EXPECT_EQ(run(s).outcome, Outcome::Fail);
}

// Fog: colour (1, 0.5, 0, 1) fogged towards (0, 0, 1, 1) with factor f.
std::string fogged(float f) {
  const float colour[3] = {1.0f, 0.5f, 0.0f}, fog[3] = {0.0f, 0.0f, 1.0f};
  float rgb[3];
  for (int i = 0; i < 3; ++i) rgb[i] = fog[i] + (colour[i] - fog[i]) * f;
  return "probe (320, 240) " + rgba(rgb[0], rgb[1], rgb[2], 1.0f) + " 4096";
}

Script fog_script(const std::vector<std::uint32_t>& vs, float z, float w, float fog_value,
                  const std::string& fog) {
  return Script{
      vs,
      kPsConstant,
      covering_triangle(z, w, {fog_value, 0, 0, 0}, {fog_value, 0, 0, 0}, {fog_value, 0, 0, 0}),
      {"clear rtv 0 0.0 0.0 0.0 0.0", "uniform 0 float4 1.0 0.5 0.0 1.0",
       "fog-colour 0.0 0.0 1.0 1.0", fog, "draw triangle list 3"}};
}

TEST_P(RenderStateTest, FogDisabledLeavesTheColour) {
  Script s = fog_script(kVsFog, 0.25f, 1.0f, 0.25f, "fog disable");
  s.commands.push_back("probe (320, 240) " + rgba(1, 0.5f, 0, 1));
  EXPECT_PASSES(s);
}

TEST_P(RenderStateTest, VertexFogUsesTheFogOutput) {
  Script s = fog_script(kVsFog, 0.25f, 1.0f, 0.25f, "fog none");
  s.commands.push_back(fogged(0.25f));
  EXPECT_PASSES(s);
}

TEST_P(RenderStateTest, VertexFogWithoutFogOutputUsesSpecularAlpha) {
  // vs_2_0 leaves oD1 white: specular alpha 1, the colour unchanged.
  Script s = fog_script(kVsPosition, 0.25f, 1.0f, 0.25f, "fog none");
  s.commands.push_back(fogged(1.0f));
  EXPECT_PASSES(s);
}

TEST_P(RenderStateTest, LinearFogFromZAndW) {
  Script z = fog_script(kVsFog, 0.25f, 1.0f, 0.9f, "fog linear 0.0 1.0 ortho");
  z.commands.push_back(fogged(0.75f)); // (end - z) / (end - start), oFog ignored
  EXPECT_PASSES(z);
  Script w = fog_script(kVsFog, 0.25f, 2.0f, 0.9f, "fog linear 1.0 5.0 non-ortho");
  w.commands.push_back(fogged(0.75f)); // (5 - 2) / 4
  EXPECT_PASSES(w);
  // Beyond the range the factor clamps to [0, 1].
  Script far = fog_script(kVsFog, 0.25f, 2.0f, 0.9f, "fog linear 0.0 1.0 non-ortho");
  far.commands.push_back(fogged(0.0f));
  EXPECT_PASSES(far);
}

TEST_P(RenderStateTest, ExpFogFromZAndW) {
  Script z = fog_script(kVsFog, 0.25f, 1.0f, 0.9f, "fog exp 2.0 ortho");
  z.commands.push_back(fogged(std::exp(-0.5f)));
  EXPECT_PASSES(z);
  Script w = fog_script(kVsFog, 0.25f, 2.0f, 0.9f, "fog exp 0.5 non-ortho");
  w.commands.push_back(fogged(std::exp(-1.0f)));
  EXPECT_PASSES(w);
}

TEST_P(RenderStateTest, Exp2FogFromZAndW) {
  Script z = fog_script(kVsFog, 0.5f, 1.0f, 0.9f, "fog exp2 2.0 ortho");
  z.commands.push_back(fogged(std::exp(-1.0f))); // e^-(2 * 0.5)^2
  EXPECT_PASSES(z);
  Script w = fog_script(kVsFog, 0.25f, 2.0f, 0.9f, "fog exp2 0.25 non-ortho");
  w.commands.push_back(fogged(std::exp(-0.25f))); // e^-(0.25 * 2)^2
  EXPECT_PASSES(w);
}

// Clip planes in clip space (D3D9 with a vertex shader): x >= 0 keeps the right half, y >= 0
// the top half (D3D orientation), -w >= 0 nothing; a disabled plane clips nothing.
TEST_P(RenderStateTest, ClipPlanes) {
  const std::string red = rgba(1, 0, 0, 1), green = rgba(0, 1, 0, 1);
  Script s{kVsPosition,
           kPsConstant,
           "",
           {"uniform 0 float4 0.0 1.0 0.0 1.0",
            "clear rtv 0 1.0 0.0 0.0 1.0",
            "clip-plane 0 1.0 0.0 0.0 0.0",
            "draw quad",
            "probe (100, 240) " + red,
            "probe (500, 240) " + green,
            "clear rtv 0 1.0 0.0 0.0 1.0",
            "clip-plane 3 0.0 1.0 0.0 0.0",
            "draw quad",
            "probe (500, 100) " + green,
            "probe (500, 400) " + red,
            "probe (100, 100) " + red,
            "clear rtv 0 1.0 0.0 0.0 1.0",
            "clip-plane 0 disable",
            "draw quad",
            "probe (100, 100) " + green,
            "probe (100, 400) " + red,
            "clear rtv 0 1.0 0.0 0.0 1.0",
            "clip-plane 7 0.0 0.0 0.0 -1.0",
            "draw quad",
            "probe (500, 100) " + red,
            "clip-plane 3 disable",
            "clip-plane 7 disable",
            "draw quad",
            "probe (0, 0, 640, 480) " + green}};
  EXPECT_PASSES(s);
}

// A point at the viewport's centre (320.5, 240.5 with D3D9's half-pixel shift): size n covers
// the pixels whose centres are within n / 2.
std::vector<std::string> point_probes(float size) {
  const std::string black = rgba(0, 0, 0, 0), green = rgba(0, 1, 0, 1);
  const int inside = int(320 + size / 2 - 1), outside = int(320 + size / 2 + 1);
  return {"probe (" + std::to_string(inside) + ", 240) " + green,
          "probe (" + std::to_string(outside) + ", 240) " + black,
          "probe (320, " + std::to_string(inside - 80) + ") " + green,
          "probe (320, " + std::to_string(outside - 80) + ") " + black};
}

TEST_P(RenderStateTest, FixedPointSizeClamped) {
  struct Setting {
    const char* command;
    float size;
  } settings[] = {{"point-size 10.0 1.0 64.0", 10},
                  {"point-size 2.0 12.0 64.0", 12},
                  {"point-size 30.0 1.0 6.0", 6}};
  for (const Setting& setting : settings) {
    Script s{kVsPosition,
             kPsConstant,
             centre_point({}),
             {"uniform 0 float4 0.0 1.0 0.0 1.0", "clear rtv 0 0.0 0.0 0.0 0.0", setting.command,
              "draw point list 1"}};
    for (std::string& p : point_probes(setting.size)) s.commands.push_back(p);
    SCOPED_TRACE(setting.command);
    EXPECT_PASSES(s);
  }
}

TEST_P(RenderStateTest, ShaderPointSizeClamped) {
  for (const auto& [command, size] :
       {std::pair{"point-size 1.0 1.0 64.0", 20.0f}, std::pair{"point-size 1.0 24.0 64.0", 24.0f},
        std::pair{"point-size 1.0 1.0 8.0", 8.0f}}) {
    Script s{kVsPointSize,
             kPsConstant,
             centre_point({20, 0, 0, 0}),
             {"uniform 0 float4 0.0 1.0 0.0 1.0", "clear rtv 0 0.0 0.0 0.0 0.0", command,
              "draw point list 1"}};
    for (std::string& p : point_probes(size)) s.commands.push_back(p);
    SCOPED_TRACE(command);
    EXPECT_PASSES(s);
  }
}

// Point sprites replace texcoord0 with the point coordinate: (0, 0) top left, (1, 1) bottom
// right; off, the interpolated texcoord0 comes through.
TEST_P(RenderStateTest, PointSpritesWithAndWithoutShaderPointSize) {
  const std::array<float, 4> t0 = {0.25f, 0.75f, 16.0f, 1.0f};
  for (const auto* vs : {&kVsTexCoord, &kVsTexCoordPointSize}) {
    Script s{*vs,
             kPsTexCoord,
             centre_point(t0),
             {"clear rtv 0 0.0 0.0 0.0 0.0", "point-size 16.0 1.0 64.0", "point-sprite on",
              "draw point list 1", "probe (320, 240) " + rgba(0.5f, 0.5f, 0, 1) + " 4096",
              "probe (314, 236) " + rgba(0.125f, 0.25f, 0, 1) + " 4096",
              "probe (326, 246) " + rgba(0.875f, 0.875f, 0, 1) + " 4096",
              "clear rtv 0 0.0 0.0 0.0 0.0", "point-sprite off", "draw point list 1",
              "probe (320, 240) " + rgba(t0[0], t0[1], t0[2], t0[3])}};
    SCOPED_TRACE(vs == &kVsTexCoord ? "fixed size" : "shader psize");
    EXPECT_PASSES(s);
  }
}

// A texture section: `texels` colours, in the format's order (layer, row, texel).
std::string texture(unsigned slot, const std::string& size,
                    const std::vector<std::array<float, 4>>& texels) {
  std::string text = "[srv " + std::to_string(slot) + "]\nsize " + size + "\n";
  for (const auto& t : texels)
    text += num(t[0]) + " " + num(t[1]) + " " + num(t[2]) + " " + num(t[3]) + "\n";
  return text;
}

// Texel (x, y[, z]) of a grid holds (x, y, z, 4) / 4: ps_1_x saturates its output.
std::vector<std::array<float, 4>> grid(unsigned width, unsigned height, unsigned depth = 1) {
  std::vector<std::array<float, 4>> texels;
  for (unsigned z = 0; z < depth; ++z)
    for (unsigned y = 0; y < height; ++y)
      for (unsigned x = 0; x < width; ++x) texels.push_back({x / 4.0f, y / 4.0f, z / 4.0f, 1});
  return texels;
}

ShaderParameter extra_u32(ParameterName name, std::uint32_t v) {
  ShaderParameter p;
  p.name = name;
  p.data_type = parameter_data_type(name);
  p.value[0] = v;
  return p;
}

ShaderParameter extra_vec4(ParameterName name, std::array<float, 4> v) {
  ShaderParameter p;
  p.name = name;
  p.data_type = ParameterDataType::F32_VEC4;
  std::memcpy(p.value.data(), v.data(), 16);
  return p;
}

// ps_1_1 `tex` samples the type of texture bound to the stage (D3D9_TEXTURE_TYPES, which the
// runner derives from [srv n]): a volume with (u, v, w), a cube with a direction.
TEST_P(RenderStateTest, UndeclaredSamplersTakeTheBoundTextureType) {
  Script volume{kVsTexCoord,
                kPsTex,
                covering_triangle(0, 1, {0.25f, 0.75f, 0.75f, 1}, {0.25f, 0.75f, 0.75f, 1},
                                  {0.25f, 0.75f, 0.75f, 1}) +
                    texture(0, "(3d, 2, 2, 2)", grid(2, 2, 2)),
                {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
                 "probe (320, 240) " + rgba(0, 0.25f, 0.25f, 1)}};
  EXPECT_PASSES(volume);
  std::vector<std::array<float, 4>> faces;
  for (unsigned face = 0; face < 6; ++face)
    for (int i = 0; i < 4; ++i) faces.push_back({face / 8.0f, 0, 0, 1});
  // Direction (0.25, 1, -0.5): the +Y face (layer 2).
  Script cube{
      kVsTexCoord,
      kPsTex,
      covering_triangle(0, 1, {0.25f, 1, -0.5f, 1}, {0.25f, 1, -0.5f, 1}, {0.25f, 1, -0.5f, 1}) +
          texture(0, "(cube, 2)", faces),
      {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
       "probe (320, 240) " + rgba(0.25f, 0, 0, 1)}};
  EXPECT_PASSES(cube);
}

// D3DTTFF_PROJECTED on stage 0: (0.5, 1.5) / 2 samples texel (0, 1); without it, (1, 1).
TEST_P(RenderStateTest, ProjectedTexturesDivideByW) {
  const std::array<float, 4> t = {0.5f, 1.5f, 0, 2};
  Script s{kVsTexCoord,
           kPsTex,
           covering_triangle(0, 1, t, t, t) + texture(0, "(2d, 2, 2)", grid(2, 2)),
           {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
            "probe (320, 240) " + rgba(0, 0.25f, 0, 1)}};
  EXPECT_PASSES(s, {extra_u32(ParameterName::D3D9_PROJECTED_TEXTURES, 1)});
  s.commands.back() = "probe (320, 240) " + rgba(0.25f, 0.25f, 0, 1);
  EXPECT_PASSES(s);
}

// texbem t1, t0 on stage 1: (0.1, 0.1) + M (0.5, 0.25) with M = identity samples texel (2, 1)
// of a 4x4 grid; texbeml then scales rgb by clamp(0.125 * 2 + 0.25) = 0.5.
TEST_P(RenderStateTest, BumpEnvironmentMatrixAndLuminance) {
  const std::array<float, 4> t = {0.1f, 0.1f, 0, 1};
  std::vector<std::array<float, 4>> bump(4, {0.5f, 0.25f, 0.125f, 0});
  const std::string state = covering_triangle(0, 1, t, t, t) + texture(0, "(2d, 2, 2)", bump) +
                            texture(1, "(2d, 4, 4)", grid(4, 4));
  const std::vector<ShaderParameter> identity = {
      extra_vec4(ParameterName::D3D9_BUMP_MATRIX_1, {1, 0, 0, 1}),
      extra_vec4(ParameterName::D3D9_BUMP_LUMINANCE_1, {2, 0.25f, 0, 0})};
  Script bem{kVsTwoTexCoords,
             kPsTexBem,
             state,
             {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
              "probe (320, 240) " + rgba(0.5f, 0.25f, 0, 1)}};
  EXPECT_PASSES(bem, identity);
  // A swapped matrix: (0.1 + 0.25, 0.1 + 0.5) -> texel (1, 2).
  EXPECT_PASSES(Script{kVsTwoTexCoords,
                       kPsTexBem,
                       state,
                       {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
                        "probe (320, 240) " + rgba(0.25f, 0.5f, 0, 1)}},
                {extra_vec4(ParameterName::D3D9_BUMP_MATRIX_1, {0, 1, 1, 0})});
  Script beml{kVsTwoTexCoords,
              kPsTexBemL,
              state,
              {"clear rtv 0 0.0 0.0 0.0 0.0", "draw triangle list 3",
               "probe (320, 240) " + rgba(0.25f, 0.125f, 0, 1)}};
  EXPECT_PASSES(beml, identity);
}

INSTANTIATE_TEST_SUITE_P(Parameters, RenderStateTest, ::testing::Values(false, true),
                         parameter_name);

} // namespace
} // namespace kiln::conformance
