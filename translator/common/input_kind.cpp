#include "translator/common/input_kind.h"

#include "translator/common/byte_reader.h"

namespace kiln {

namespace {

constexpr std::uint32_t fourcc(char a, char b, char c, char d) {
  return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
         std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

// DXBC container: "DXBC", 16-byte checksum, version, total size, chunk count, chunk offsets.
InputInfo classify_container(std::span<const std::uint8_t> bytes) {
  ByteReader reader(bytes);
  reader.skip(4 + 16 + 4 + 4);
  const std::uint32_t chunk_count = reader.u32();
  if (reader.failed() || chunk_count > (bytes.size() / 4))
    return {InputKind::Unknown, "DXBC container with a corrupt header"};

  bool code = false, dxil = false, effect = false, root_signature = false;
  for (std::uint32_t i = 0; i < chunk_count; ++i) {
    const std::uint32_t offset = reader.u32();
    if (reader.failed()) return {InputKind::Unknown, "DXBC container: chunk table truncated"};
    ByteReader chunk(bytes);
    if (!chunk.seek(offset)) return {InputKind::Unknown, "DXBC container: chunk out of range"};
    const std::uint32_t tag = chunk.u32();
    if (chunk.failed()) return {InputKind::Unknown, "DXBC container: chunk out of range"};
    if (tag == fourcc('S', 'H', 'D', 'R') || tag == fourcc('S', 'H', 'E', 'X')) code = true;
    if (tag == fourcc('D', 'X', 'I', 'L')) dxil = true;
    if (tag == fourcc('F', 'X', '1', '0') || tag == fourcc('F', 'X', 'L', 'C')) effect = true;
    if (tag == fourcc('R', 'T', 'S', '0')) root_signature = true;
  }
  if (code) return {InputKind::Dxbc, "DXBC shader (SM4/5)"};
  if (dxil) return {InputKind::Dxil, "DXIL (shader model 6) container: not supported, kiln translates SM1-5.1"};
  if (effect) return {InputKind::Effect, "effect container (fx_4/fx_5 or FXLC): not a shader program"};
  if (root_signature)
    return {InputKind::RootSignature, "root signature container: holds no shader program"};
  return {InputKind::NoCode, "DXBC container without a program chunk (SHDR/SHEX)"};
}

} // namespace

InputInfo detect_input_kind(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 4) return {InputKind::Unknown, "too short to be a shader"};
  ByteReader reader(bytes);
  const std::uint32_t first = reader.u32();
  if (first == fourcc('D', 'X', 'B', 'C')) return classify_container(bytes);
  if (first == 0x07230203u) return {InputKind::Spirv, "SPIR-V module (already translated)"};

  // D3D9: the version token is 0xFFFEmmnn (vertex) or 0xFFFFmmnn (pixel); fx_2_0 effects
  // start with 0xFEFF09xx and texture shaders ("tx_1_0") with 0x5458xxxx.
  const std::uint32_t type = first >> 16;
  const std::uint32_t major = (first >> 8) & 0xff;
  if ((type == 0xfffe || type == 0xffff) && major >= 1 && major <= 3) {
    if (bytes.size() % 4 != 0) return {InputKind::Unknown, "D3D9 token stream of odd length"};
    return {InputKind::D3D9, "D3D9 shader (SM1-3)"};
  }
  if (type == 0xfeff) return {InputKind::Effect, "D3D9 effect (fx_2_0): not a shader program"};
  if (type == 0x5458) return {InputKind::Effect, "D3D9 texture shader (tx_1_0): not supported"};
  if (type == 0xfffe || type == 0xffff)
    return {InputKind::Unknown, "D3D9-like version token with an unsupported shader model"};
  return {InputKind::Unknown, "not a DXBC container or a D3D9 token stream"};
}

std::string_view input_kind_name(InputKind kind) {
  switch (kind) {
  case InputKind::Dxbc: return "dxbc";
  case InputKind::D3D9: return "d3d9";
  case InputKind::Dxil: return "dxil";
  case InputKind::Effect: return "effect";
  case InputKind::RootSignature: return "rootsig";
  case InputKind::NoCode: return "container";
  case InputKind::Spirv: return "spirv";
  case InputKind::Unknown: return "unknown";
  }
  return "unknown";
}

} // namespace kiln
