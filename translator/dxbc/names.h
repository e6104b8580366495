#pragma once
// Names the disassembler prints for enums that the decoded program stores as numbers.

#include "translator/dxbc/program.h"

#include <cstdint>
#include <string_view>

namespace kiln::dxbc {

std::string_view operand_prefix(OperandType type);
std::string_view resource_dimension_name(ResourceDimension dim);
std::string_view return_type_name(std::uint32_t type);
std::string_view interpolation_name(InterpolationMode mode);
std::string_view system_value_name(std::uint32_t name); // D3D10_SB_NAME
std::string_view program_type_prefix(ProgramType type);
std::string_view primitive_topology_name(std::uint32_t topology);
std::string_view primitive_name(std::uint32_t primitive);
std::string_view tess_domain_name(std::uint32_t domain);
std::string_view tess_partitioning_name(std::uint32_t partitioning);
std::string_view tess_output_primitive_name(std::uint32_t primitive);
std::string_view sampler_mode_name(std::uint32_t mode);

} // namespace kiln::dxbc
