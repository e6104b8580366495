#pragma once
// Resource, sampler and input-layout sections (FORMAT.md 3.3-3.5), parsed into descriptions a
// Vulkan executor turns into objects.

#include "tests/conformance/commands.h"
#include "tests/conformance/script.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::conformance {

// Formats named in test scripts: name, components, component kind, bytes per component.
#define KILN_CONFORMANCE_FORMATS(X)                                                                \
  X(Rgba32Float, "r32g32b32a32-float", 4, Float)                                                   \
  X(Rgba32Sint, "r32g32b32a32-sint", 4, Int)                                                       \
  X(Rgba32Uint, "r32g32b32a32-uint", 4, Uint)                                                      \
  X(Rg32Float, "r32g32-float", 2, Float)                                                           \
  X(Rg32Sint, "r32g32-sint", 2, Int)                                                               \
  X(Rg32Uint, "r32g32-uint", 2, Uint)                                                              \
  X(R32Float, "r32-float", 1, Float)                                                               \
  X(R32Sint, "r32-sint", 1, Int)                                                                   \
  X(R32Uint, "r32-uint", 1, Uint)                                                                  \
  X(R32Typeless, "r32-typeless", 1, Uint)                                                          \
  X(R32FloatShadow, "r32-float-shadow", 1, Float)                                                  \
  X(D32Float, "d32-float", 1, Float)

enum class Format {
#define KILN_X(id, name, components, kind) id,
  KILN_CONFORMANCE_FORMATS(KILN_X)
#undef KILN_X
};

struct FormatInfo {
  const char* name;
  unsigned components;
  ValueKind kind;
};
const FormatInfo& format_info(Format format);
bool parse_format(const std::string& name, Format& out);

enum class ResourceKind { Srv, Uav, Rtv, Dsv, Vb };
enum class ResourceDim {
  Buffer,
  RawBuffer,
  StructuredBuffer,
  Tex2D,
  Tex3D,
  Cube,
  Tex2DArray,
  Tex2DMS
};

struct ResourceDesc {
  ResourceKind kind = ResourceKind::Srv;
  unsigned slot = 0;
  Format format = Format::Rgba32Float;
  ResourceDim dim = ResourceDim::Tex2D;
  unsigned width = 1, height = 1, depth_or_layers = 1, samples = 1, levels = 1;
  unsigned stride = 0; // structured buffers: bytes per element
  bool has_data = false;
  std::vector<std::uint32_t> data; // initial contents, 32-bit words
};

enum class Filter { Point, Linear };
enum class AddressMode { Clamp, Wrap, Mirror, MirrorOnce, Border };

struct SamplerDesc {
  unsigned slot = 0;
  Filter min = Filter::Point, mag = Filter::Point, mip = Filter::Point;
  AddressMode address[3] = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  bool comparison = false;
  CompareFunc func = CompareFunc::Always;
};

struct InputElement {
  unsigned slot = 0;
  Format format = Format::Rg32Float;
  std::string semantic;
  unsigned semantic_index = 0;
};

bool parse_resource(const Section& section, ResourceDesc& out, std::string& error);
bool parse_sampler(const Section& section, SamplerDesc& out, std::string& error);
bool parse_input_layout(const Section& section, std::vector<InputElement>& out, std::string& error);

} // namespace kiln::conformance
