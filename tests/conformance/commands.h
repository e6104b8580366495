#pragma once
// The `[test]` commands of FORMAT.md section 4, parsed into plain structs.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::conformance {

enum class CompareFunc { Never, Less, Equal, LessEqual, Greater, NotEqual, GreaterEqual, Always };

enum class Topology { TriangleList, TriangleStrip, PointList, PatchList };

enum class ProbeTarget { RenderTarget, Uav, Dsv };

enum class ValueKind { Float, Uint, Int };

struct DrawCommand {
  bool quad = false;
  Topology topology = Topology::TriangleList;
  unsigned patch_size = 0;
  unsigned vertex_count = 0;
  unsigned instance_count = 1;
};

struct ProbeCommand {
  ProbeTarget target = ProbeTarget::RenderTarget;
  unsigned slot = 0;
  // Pixels l <= x < r, t <= y < b of `layer`. A single pixel is (x, y, x + 1, y + 1).
  unsigned left = 0, top = 0, right = 1, bottom = 1, layer = 0;
  ValueKind kind = ValueKind::Float;
  unsigned value_count = 0;              // 1, 2 or 4 values per texel
  std::array<std::uint32_t, 4> values{}; // bit patterns
  unsigned ulps = 0;
};

struct UniformCommand {
  unsigned offset_words = 0;
  std::vector<std::uint32_t> words;
};

struct FogCommand {
  enum class Mode { Disable, None, Linear, Exp, Exp2 } mode = Mode::Disable;
  float start = 0, end = 0, density = 0;
  enum class Source { Default, Ortho, NonOrtho } source = Source::Default;
};

struct Command {
  enum class Kind {
    Draw,
    Dispatch,
    Probe,
    Uniform,
    ClearRtv,
    ClearDsv,
    AlphaTest,
    Depth,
    DepthBounds,
    ShadeMode,
    PointSize,
    PointSprite,
    Fog,
    FogColour,
    ClipPlane,
    Viewport,
    SampleMask,
    Copy,
  } kind = Kind::Draw;
  unsigned line = 0;
  DrawCommand draw;
  ProbeCommand probe;
  UniformCommand uniform;
  FogCommand fog;
  std::array<std::uint32_t, 3> groups{}; // dispatch X Y Z
  unsigned slot = 0;                     // clear rtv N, clip-plane i, viewport i
  std::array<float, 4> floats{};         // clear colour, alpha ref, depth, plane, viewport...
  CompareFunc func = CompareFunc::Always;
  bool flag = false; // shade mode flat, point-sprite on, clip-plane enabled
  std::uint32_t mask = ~0u;
  std::string copy_source, copy_destination;
};

// Parses one command line (if() already applied by cases.json). On failure returns false and
// sets `error` to a message naming the construct that was not understood.
bool parse_command(std::string_view text, unsigned line, Command& out, std::string& error);

// "less equal" -> LessEqual. Returns false for an unknown name.
bool parse_compare_func(std::string_view text, CompareFunc& out);

// ULP distance compare of FORMAT.md 4.3: +0 == -0, NaNs of one sign are equal.
bool floats_match(std::uint32_t expected_bits, std::uint32_t actual_bits, unsigned ulps);

} // namespace kiln::conformance
