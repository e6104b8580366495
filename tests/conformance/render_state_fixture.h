#pragma once
// What the render-state execution tests share (render_state_test.cpp and the matrices in
// render_state_*_test.cpp): a one-case script in the package's format with its two shaders,
// replayed through kiln-conformance's executor on lavapipe with the fixed-function state passed
// as immediate parameters (test parameter false) or as specialization constants (true), and the
// text helpers that write vertex data and probes.

#include "tests/conformance/executor.h"
#include "tests/conformance/one_case_fixture.h"
#include "tests/translator/d3d9/token_builder.h"
#include "tests/support/shared_data.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace kiln::conformance::render_state {

// A script of one [test] block: the vertex and pixel shader (D3D9 tokens, or the words of a
// DXBC container), the resource sections (`state`; empty for `draw quad` scripts), the commands,
// and the model it is replayed at (sm2 and sm3 take D3D9 shaders, sm4 and sm5 DXBC).
struct Script {
  std::vector<std::uint32_t> vs, ps;
  std::string state;
  std::vector<std::string> commands;
  std::string model = "sm2";
};

// A float as the script format reads one: with a '.', or it would be an integer.
inline std::string num(float f) {
  char text[48];
  std::snprintf(text, sizeof text, "%.9g", double(f));
  std::string out = text;
  if (out.find_first_of(".en") == std::string::npos) out += ".0";
  return out;
}

inline std::string rgba(float r, float g, float b, float a) {
  return "rgba(" + num(r) + ", " + num(g) + ", " + num(b) + ", " + num(a) + ")";
}
inline std::string rgba(const std::array<float, 4>& c) {
  return rgba(c[0], c[1], c[2], c[3]);
}

inline std::string vertex(std::array<float, 4> position, std::array<float, 4> t) {
  std::string line;
  for (float f : position) line += num(f) + " ";
  for (float f : t) line += " " + num(f);
  return line + "\n";
}

// Vertex buffer 0 holds position (x, y, z, w) then texcoord0, per vertex.
inline constexpr const char* kLayout =
    "[input layout]\n0 r32g32b32a32-float position\n0 r32g32b32a32-float texcoord\n[vb 0]\n";

// Three vertices covering the viewport, texcoord0 `t0` to `t2`. Positions are scaled by w, so
// the triangle covers the viewport whatever w; pixel (320, 240) (NDC (0, 0) with D3D9's half
// pixel) weighs the three vertices equally.
inline std::string covering_triangle(float z, float w, std::array<float, 4> t0 = {},
                                     std::array<float, 4> t1 = {}, std::array<float, 4> t2 = {}) {
  return kLayout + vertex({-2 * w, -2 * w, z, w}, t0) + vertex({-2 * w, 4 * w, z, w}, t1) +
         vertex({4 * w, -2 * w, z, w}, t2);
}

// One point at the centre of the viewport with texcoord0 `t`.
inline std::string centre_point(std::array<float, 4> t) {
  return kLayout + vertex({0, 0, 0, 1}, t);
}

// A DXBC container from the shared package (its bytes as words, what Script holds).
inline std::vector<std::uint32_t> package_blob(const std::filesystem::path& relative) {
  const std::vector<std::uint8_t> bytes = test::read_bytes(test::conformance_dir() / relative);
  std::vector<std::uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

class RenderStateTest : public OneCaseFixture<::testing::TestWithParam<bool>> {
 protected:
  RenderStateTest() : OneCaseFixture("render_state") {}

  // Replays the script at its model and returns its one case's result.
  CaseResult run(const Script& script, std::vector<ShaderParameter> extra = {}) {
    const bool d3d9 = script.model == "sm2" || script.model == "sm3";
    const std::string extension = d3d9 ? ".d3d9" : ".dxbc";
    const auto write = [&](const std::string& name, const std::vector<std::uint32_t>& words) {
      const std::vector<std::uint8_t> bytes = d3d9::test::to_bytes(words);
      std::ofstream(folder_ / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    };
    write("vs" + extension, script.vs);
    write("ps" + extension, script.ps);
    const TestFile file =
        one_case_file("render-state", folder_, script.model, script.state,
                      {{"vs", folder_ / ("vs" + extension)}, {"ps", folder_ / ("ps" + extension)}},
                      script.commands);
    KilnShaderSource kiln;
    Executor executor(*context_, kiln);
    executor.set_parameters_as_spec_constants(GetParam());
    executor.set_extra_parameters(std::move(extra));
    std::vector<CaseResult> results;
    executor.run_file(file, script.model, -1, results);
    EXPECT_EQ(results.size(), 1u);
    return results.empty() ? CaseResult{} : results[0];
  }
};

#define EXPECT_PASSES(script, ...)                                                                 \
  do {                                                                                             \
    const ::kiln::conformance::CaseResult r = run(script, ##__VA_ARGS__);                          \
    EXPECT_EQ(r.outcome, ::kiln::conformance::Outcome::Pass) << r.message;                         \
    EXPECT_EQ(r.probes_passed, r.probes);                                                          \
  } while (0)

inline std::string parameter_name(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "SpecializationConstants" : "Immediate";
}

} // namespace kiln::conformance::render_state
