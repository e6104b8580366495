// kiln's render-state parameters executed on lavapipe, beyond what the shared package covers:
// flat shading against linear, and the ps_1_x texture state (the bound texture's type,
// projected texturing, the bump-environment matrix and luminance). Each case is a script in the
// package's format with hand-written D3D9 shaders (tests/translator/d3d9/token_builder.h), replayed by
// kiln-conformance's executor at sm2 with the state passed as immediate parameters and again as
// specialization constants. Expected values are worked out here from D3D9's formulas. The
// fixed-function state across shader models is render_state_fog_test.cpp (fog) and
// render_state_matrix_test.cpp (alpha test, clip planes, point size and sprites, flat shading).

#include "tests/conformance/render_state_fixture.h"

#include <cstring>

namespace kiln::conformance {
namespace {

using namespace kiln::d3d9::test;
using namespace render_state;

constexpr std::uint32_t kMov = 1, kDcl = 31;

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
// oD0 = v1
const std::vector<std::uint32_t> kVsColour =
    vertex_shader({op(kMov, 2), dst(kAttrOut, 0), src(kInput, 1)});
// oT0 = v1
const std::vector<std::uint32_t> kVsTexCoord =
    vertex_shader({op(kMov, 2), dst(kOutput, 0), src(kInput, 1)});
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

// ps_2_0: oC0 = v0 (COLOR0).
const std::vector<std::uint32_t> kPsColour = {ps_version(2, 0), op(kDcl, 2), 0x80000000u,
                                              dst(kInput, 0),   op(kMov, 2), dst(kColorOut, 0),
                                              src(kInput, 0),   kEnd};

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
