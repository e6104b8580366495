#include "plugin/service/stage_probe.h"

#include "translator/common/input_kind.h"
#include "translator/d3d9/reader.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/program.h"

#include <cstring>
#include <string>

namespace kiln {

namespace {

// The DXBC program type (version token bits 16-31), defined by dxbc::ProgramType.
bool stage_of_program_type(std::uint32_t type, ShaderStage& out) {
  if (type > std::uint32_t(dxbc::ProgramType::Compute)) return false;
  switch (dxbc::ProgramType(type)) {
  case dxbc::ProgramType::Pixel:
    out = ShaderStage::Pixel;
    return true;
  case dxbc::ProgramType::Vertex:
    out = ShaderStage::Vertex;
    return true;
  case dxbc::ProgramType::Geometry:
    out = ShaderStage::Geometry;
    return true;
  case dxbc::ProgramType::Hull:
    out = ShaderStage::Hull;
    return true;
  case dxbc::ProgramType::Domain:
    out = ShaderStage::Domain;
    return true;
  case dxbc::ProgramType::Compute:
    out = ShaderStage::Compute;
    return true;
  }
  return false;
}

} // namespace

Status probe_shader_stage(std::span<const std::uint8_t> bytes, ShaderStage& out) {
  const InputInfo info = detect_input_kind(bytes);
  if (info.kind == InputKind::Dxbc) {
    dxbc::Container container;
    if (Status status = dxbc::parse_container(bytes, container, {.verify_checksum = false});
        !status)
      return status;
    if (container.program.size() < 4) return Status::error("DXBC program chunk is truncated");
    std::uint32_t version;
    std::memcpy(&version, container.program.data(), 4);
    if (!stage_of_program_type(version >> 16, out))
      return Status::error("DXBC program type " + std::to_string(version >> 16) +
                           " is not a shader stage");
    return Status::ok();
  }
  if (info.kind == InputKind::D3D9) {
    std::uint32_t token;
    std::memcpy(&token, bytes.data(), 4); // detection saw at least the version token
    d3d9::ShaderVersion version;
    if (!d3d9::parse_version(token, version)) return Status::error("not a D3D9 shader version");
    out = version.stage;
    return Status::ok();
  }
  if (info.description.empty()) return Status::error("not shader bytecode");
  return Status::error(std::string(info.description));
}

} // namespace kiln
