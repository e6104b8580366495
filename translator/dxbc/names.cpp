#include "translator/dxbc/names.h"

namespace kiln::dxbc {
namespace {

template <std::size_t N>
std::string_view pick(const std::string_view (&names)[N], std::uint32_t i) {
  return i < N ? names[i] : std::string_view("unknown");
}

} // namespace

std::string_view operand_prefix(OperandType type) {
  static constexpr std::string_view kPrefixes[] = {
#define KILN_DXBC_OT_PREFIX(name, number, prefix) prefix,
      KILN_DXBC_OPERAND_TYPES(KILN_DXBC_OT_PREFIX)
#undef KILN_DXBC_OT_PREFIX
  };
  return pick(kPrefixes, std::uint32_t(type));
}

std::string_view resource_dimension_name(ResourceDimension dim) {
  static constexpr std::string_view kNames[] = {
#define KILN_DXBC_DIMENSION_NAME(name, value, fxc, reflected) fxc,
      KILN_DXBC_RESOURCE_DIMENSIONS(KILN_DXBC_DIMENSION_NAME)
#undef KILN_DXBC_DIMENSION_NAME
  };
  return pick(kNames, std::uint32_t(dim));
}

std::string_view return_type_name(std::uint32_t type) {
  static constexpr std::string_view kNames[] = {
#define KILN_DXBC_RETURN_TYPE_NAME(name, value, fxc, reflected) fxc,
      KILN_DXBC_RETURN_TYPES(KILN_DXBC_RETURN_TYPE_NAME)
#undef KILN_DXBC_RETURN_TYPE_NAME
  };
  return pick(kNames, type);
}

std::string_view interpolation_name(InterpolationMode mode) {
  static constexpr std::string_view kNames[] = {"undefined",
                                                "constant",
                                                "linear",
                                                "linear centroid",
                                                "linear noperspective",
                                                "linear noperspective centroid",
                                                "linear sample",
                                                "linear noperspective sample"};
  return pick(kNames, std::uint32_t(mode));
}

std::string_view system_value_name(std::uint32_t name) {
  static constexpr std::string_view kNames[] = {"undefined",
                                                "position",
                                                "clip_distance",
                                                "cull_distance",
                                                "rendertarget_array_index",
                                                "viewport_array_index",
                                                "vertex_id",
                                                "primitive_id",
                                                "instance_id",
                                                "is_front_face",
                                                "sampleIndex",
                                                "finalQuadUeq0EdgeTessFactor",
                                                "finalQuadVeq0EdgeTessFactor",
                                                "finalQuadUeq1EdgeTessFactor",
                                                "finalQuadVeq1EdgeTessFactor",
                                                "finalQuadUInsideTessFactor",
                                                "finalQuadVInsideTessFactor",
                                                "finalTriUeq0EdgeTessFactor",
                                                "finalTriVeq0EdgeTessFactor",
                                                "finalTriWeq0EdgeTessFactor",
                                                "finalTriInsideTessFactor",
                                                "finalLineDetailTessFactor",
                                                "finalLineDensityTessFactor"};
  return pick(kNames, name);
}

std::string_view program_type_prefix(ProgramType type) {
  static constexpr std::string_view kNames[] = {"ps", "vs", "gs", "hs", "ds", "cs"};
  return pick(kNames, std::uint32_t(type));
}

std::string_view primitive_topology_name(std::uint32_t topology) {
  static constexpr std::string_view kNames[] = {"undefined", "pointlist",    "linelist",
                                                "linestrip", "trianglelist", "trianglestrip"};
  return pick(kNames, topology);
}

std::string_view primitive_name(std::uint32_t primitive) {
  static constexpr std::string_view kNames[] = {"undefined", "point",   "line",    "triangle",
                                                "unknown",   "unknown", "lineadj", "triangleadj"};
  if (primitive >= 8 && primitive <= 39) return "patch";
  return pick(kNames, primitive);
}

std::string_view tess_domain_name(std::uint32_t domain) {
  static constexpr std::string_view kNames[] = {"domain_undefined", "domain_isoline", "domain_tri",
                                                "domain_quad"};
  return pick(kNames, domain);
}

std::string_view tess_partitioning_name(std::uint32_t partitioning) {
  static constexpr std::string_view kNames[] = {"partitioning_undefined", "partitioning_integer",
                                                "partitioning_pow2", "partitioning_fractional_odd",
                                                "partitioning_fractional_even"};
  return pick(kNames, partitioning);
}

std::string_view tess_output_primitive_name(std::uint32_t primitive) {
  static constexpr std::string_view kNames[] = {"output_undefined", "output_point", "output_line",
                                                "output_triangle_cw", "output_triangle_ccw"};
  return pick(kNames, primitive);
}

std::string_view sampler_mode_name(std::uint32_t mode) {
  static constexpr std::string_view kNames[] = {"mode_default", "mode_comparison", "mode_mono"};
  return pick(kNames, mode);
}

} // namespace kiln::dxbc
