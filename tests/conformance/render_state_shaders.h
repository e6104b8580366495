#pragma once
// The D3D9 shaders of the render-state matrices (render_state_*_test.cpp), written token by
// token (tests/translator/d3d9/token_builder.h) for every model the fixed-function state meets: vertex
// shaders vs_2_0 (oPos, oT#, oFog, oPts, oD#) and vs_3_0 (o# declared with their usage), pixel
// shaders ps_1_1 (r0, t#, v#), ps_1_4, ps_2_0 (oC0, t#, v#) and ps_3_0 (oC0, v# with usages).

#include "tests/translator/d3d9/token_builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::conformance::render_state {

using namespace kiln::d3d9::test;

inline constexpr std::uint32_t kMovOp = 1, kDclOp = 31, kTexCoordOp = 64;
// D3DDECLUSAGE values.
inline constexpr unsigned kPositionUsage = 0, kPSizeUsage = 4, kTexCoordUsage = 5, kColorUsage = 10,
                          kFogUsage = 11;

inline std::uint32_t usage_token(unsigned usage, unsigned index = 0) {
  return 0x80000000u | usage | index << 16;
}

// What a vertex shader writes besides its position (v0): each output copies v1, the vertex's
// texcoord0 input t = (t.x, t.y, t.z, t.w).
enum VsOutput : unsigned {
  kOutTexCoord0 = 1,  // TEXCOORD0 = t
  kOutTexCoord1 = 2,  // TEXCOORD1 = t
  kOutFog = 4,        // FOG = t.x
  kOutSpecular = 8,   // COLOR1 = t (its alpha t.w)
  kOutDiffuse = 16,   // COLOR0 = t
  kOutPointSize = 32, // PSIZE = t.z
};

// vs_`major`_0: position = v0 and the outputs above. vs_2_0 writes the fixed registers (oT#,
// oFog, oD#, oPts); vs_3_0 declares o0 as position and one o# per output, with its usage.
inline std::vector<std::uint32_t> vertex_shader(unsigned major, unsigned outputs) {
  std::vector<std::uint32_t> t = {vs_version(major, 0)};
  const auto dcl = [&](unsigned usage, unsigned index, std::uint32_t reg) {
    t.insert(t.end(), {op(kDclOp, 2), usage_token(usage, index), reg});
  };
  dcl(kPositionUsage, 0, dst(kInput, 0));
  dcl(kTexCoordUsage, 0, dst(kInput, 1));
  struct Write {
    std::uint32_t dst, src;
  };
  std::vector<Write> writes;
  const std::uint32_t all = src(kInput, 1), x = src(kInput, 1, replicate(0)),
                      z = src(kInput, 1, replicate(2));
  if (major < 3) {
    writes.push_back({dst(kRastOut, 0), src(kInput, 0)});
    if (outputs & kOutTexCoord0) writes.push_back({dst(kOutput, 0), all});
    if (outputs & kOutTexCoord1) writes.push_back({dst(kOutput, 1), all});
    if (outputs & kOutFog) writes.push_back({dst(kRastOut, 1, 0x1), x});
    if (outputs & kOutSpecular) writes.push_back({dst(kAttrOut, 1), all});
    if (outputs & kOutDiffuse) writes.push_back({dst(kAttrOut, 0), all});
    if (outputs & kOutPointSize) writes.push_back({dst(kRastOut, 2, 0x1), z});
  } else {
    unsigned next = 0;
    const auto output = [&](unsigned usage, unsigned index, unsigned mask, std::uint32_t from) {
      dcl(usage, index, dst(kOutput, next, mask));
      writes.push_back({dst(kOutput, next++, mask), from});
    };
    output(kPositionUsage, 0, 0xF, src(kInput, 0));
    if (outputs & kOutTexCoord0) output(kTexCoordUsage, 0, 0xF, all);
    if (outputs & kOutTexCoord1) output(kTexCoordUsage, 1, 0xF, all);
    if (outputs & kOutFog) output(kFogUsage, 0, 0x1, x);
    if (outputs & kOutSpecular) output(kColorUsage, 1, 0xF, all);
    if (outputs & kOutDiffuse) output(kColorUsage, 0, 0xF, all);
    if (outputs & kOutPointSize) output(kPSizeUsage, 0, 0x1, z);
  }
  for (const Write& w : writes) t.insert(t.end(), {op(kMovOp, 2), w.dst, w.src});
  t.push_back(kEnd);
  return t;
}

enum class PsModel { Ps11, Ps14, Ps20, Ps30 };
inline constexpr PsModel kEveryPsModel[] = {PsModel::Ps11, PsModel::Ps14, PsModel::Ps20,
                                            PsModel::Ps30};

inline const char* model_name(PsModel m) {
  switch (m) {
  case PsModel::Ps11:
    return "ps_1_1";
  case PsModel::Ps14:
    return "ps_1_4";
  case PsModel::Ps20:
    return "ps_2_0";
  case PsModel::Ps30:
    return "ps_3_0";
  }
  return "?";
}

inline bool is_ps1(PsModel m) {
  return m == PsModel::Ps11 || m == PsModel::Ps14;
}

inline std::uint32_t ps_version_token(PsModel m) {
  switch (m) {
  case PsModel::Ps11:
    return ps_version(1, 1);
  case PsModel::Ps14:
    return ps_version(1, 4);
  case PsModel::Ps20:
    return ps_version(2, 0);
  case PsModel::Ps30:
    break;
  }
  return ps_version(3, 0);
}

// mov of `from` to the colour output: r0 in ps_1_x (one token per operand, no length), oC0 from
// ps_2_0 on.
inline void move_to_colour(std::vector<std::uint32_t>& t, PsModel m, std::uint32_t from) {
  if (is_ps1(m))
    t.insert(t.end(), {op(kMovOp), dst(kTemp, 0), from});
  else
    t.insert(t.end(), {op(kMovOp, 2), dst(kColorOut, 0), from});
}

// The colour output = c0 (the script's `uniform 0 float4`).
inline std::vector<std::uint32_t> constant_colour_shader(PsModel m) {
  std::vector<std::uint32_t> t = {ps_version_token(m)};
  move_to_colour(t, m, src(kConst, 0));
  t.push_back(kEnd);
  return t;
}

// The colour output = COLOR`index` (v`index` up to ps_2_0, a declared v0 in ps_3_0).
inline std::vector<std::uint32_t> colour_input_shader(PsModel m, unsigned index) {
  std::vector<std::uint32_t> t = {ps_version_token(m)};
  if (m == PsModel::Ps30) {
    t.insert(t.end(), {op(kDclOp, 2), usage_token(kColorUsage, index), dst(kInput, 0)});
    index = 0;
  } else if (m == PsModel::Ps20) {
    t.insert(t.end(), {op(kDclOp, 2), 0x80000000u, dst(kInput, index)});
  }
  move_to_colour(t, m, src(kInput, index));
  t.push_back(kEnd);
  return t;
}

// The colour output = TEXCOORD`index`: ps_1_1 `texcoord t#` (the coordinate saturated, w = 1),
// ps_1_4 `texcrd r0.xyz, t#` with r0.w = c0.w, ps_2_0 `dcl t#`, ps_3_0 `dcl_texcoord# v0`.
inline std::vector<std::uint32_t> texcoord_input_shader(PsModel m, unsigned index) {
  std::vector<std::uint32_t> t = {ps_version_token(m)};
  switch (m) {
  case PsModel::Ps11:
    t.insert(t.end(), {op(kTexCoordOp), dst(kAddr, index)});
    move_to_colour(t, m, src(kAddr, index));
    break;
  case PsModel::Ps14:
    t.insert(t.end(), {op(kTexCoordOp), dst(kTemp, 0, 0x7), src(kAddr, index)});
    t.insert(t.end(), {op(kMovOp), dst(kTemp, 0, 0x8), src(kConst, 0)});
    break;
  case PsModel::Ps20:
    t.insert(t.end(), {op(kDclOp, 2), 0x80000000u, dst(kAddr, index)});
    move_to_colour(t, m, src(kAddr, index));
    break;
  case PsModel::Ps30:
    t.insert(t.end(), {op(kDclOp, 2), usage_token(kTexCoordUsage, index), dst(kInput, 0)});
    move_to_colour(t, m, src(kInput, 0));
    break;
  }
  t.push_back(kEnd);
  return t;
}

} // namespace kiln::conformance::render_state
