#pragma once
// The D3D9 token-stream reader: version token, instructions, comments, end token.
//
// decode() is one linear pass into a caller-owned Program whose vectors are reused, so after
// warm-up it allocates nothing; errors name the token offset ("token 12: ...").

#include "translator/common/status.h"
#include "translator/d3d9/program.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kiln::d3d9 {

// Decodes the version token into `out`; false when it is not a D3D9 shader version.
bool parse_version(std::uint32_t token, ShaderVersion& out);

// "vs_1_1", "ps_2_x", "vs_3_sw": the model as written in assembly.
struct VersionName {
  char text[8];
};
VersionName version_name(const ShaderVersion& version);

// How the D3D9 front end (reader and converter) spells a report: "token 12: texld: what" (the
// name when the Where has one; the bare message for a default Where).
std::string spell_error(const Where& where, std::string_view what);

// Decodes a whole token stream. `bytes` must hold exactly the shader: a multiple of four
// bytes ending with the end token. On error `program` holds what was decoded before it.
Status decode(std::span<const std::uint8_t> bytes, Program& program);

// The bounded length scan for callers that have a token pointer without a length
// (IDirect3DDevice9::CreateVertexShader): walks the instruction structure (not a search for
// 0x0000FFFF, which may appear inside literals and comments) and returns the size in bytes
// up to and including the end token, never reading past `max_bytes`.
Status measure(std::span<const std::uint8_t> bytes, std::size_t& shader_bytes);
Status measure(const std::uint32_t* tokens, std::size_t max_tokens, std::size_t& token_count);

} // namespace kiln::d3d9
