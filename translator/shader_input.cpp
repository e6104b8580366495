#include "translator/shader_input.h"

#include "translator/d3d9/reader.h"
#include "translator/dxbc/program.h"

#include <cstring>
#include <string>

namespace kiln {

ShaderInput read_shader_input(std::span<const std::uint8_t> bytes) {
  ShaderInput input;
  input.bytes = bytes;
  input.info = detect_input_kind(bytes);
  switch (input.info.kind) {
  case InputKind::Dxbc:
    input.readable = dxbc::parse_container(bytes, input.container, {.verify_checksum = false});
    break;
  case InputKind::D3D9:
    break;
  default:
    input.readable = Status::error(std::string(input.info.description));
    break;
  }
  return input;
}

namespace {

// `view` moved from `from` to the same place in `to`; an empty view stays empty.
std::span<const std::uint8_t> moved_view(std::span<const std::uint8_t> view,
                                         std::span<const std::uint8_t> from,
                                         std::span<const std::uint8_t> to) {
  if (view.empty()) return {};
  return to.subspan(std::size_t(view.data() - from.data()), view.size());
}

} // namespace

ShaderInput rebased_shader_input(const ShaderInput& input, std::span<const std::uint8_t> copy) {
  ShaderInput out = input;
  out.bytes = copy;
  const auto move = [&](std::span<const std::uint8_t> view) {
    return moved_view(view, input.bytes, copy);
  };
  dxbc::Container& c = out.container;
  c.bytes = move(c.bytes);
  c.program = move(c.program);
  c.input.data = move(c.input.data);
  c.output.data = move(c.output.data);
  c.patch_constant.data = move(c.patch_constant.data);
  c.rdef = move(c.rdef);
  c.sfi0 = move(c.sfi0);
  c.ifce = move(c.ifce);
  return out;
}

Status declared_stage(const ShaderInput& input, ShaderStage& out) {
  if (input.info.kind == InputKind::Dxbc) {
    if (!input.readable) return input.readable;
    const std::span<const std::uint8_t> program = input.container.program;
    if (program.size() < 4) return Status::error("DXBC program chunk is truncated");
    std::uint32_t version;
    std::memcpy(&version, program.data(), 4);
    const std::uint32_t type = version >> 16;
    if (type > std::uint32_t(dxbc::ProgramType::Compute))
      return Status::error("DXBC program type " + std::to_string(type) + " is not a shader stage");
    out = dxbc::stage_of(dxbc::ProgramType(type));
    return Status::ok();
  }
  if (input.info.kind == InputKind::D3D9) {
    std::uint32_t token;
    std::memcpy(&token, input.bytes.data(), 4); // detection saw at least the version token
    d3d9::ShaderVersion version;
    if (!d3d9::parse_version(token, version)) return Status::error("not a D3D9 shader version");
    out = version.stage;
    return Status::ok();
  }
  if (input.info.description.empty()) return Status::error("not shader bytecode");
  return Status::error(std::string(input.info.description));
}

} // namespace kiln
