// IDirect3DDevice9::CreateVertexShader / CreatePixelShader-shaped entry points: a token pointer
// without a length, measured by walking the instruction structure (bounded).

#include "hooks/hooks_common.h"
#include "plugin/abi/abi_context.h"
#include "translator/d3d9/reader.h"

namespace {

kiln_hresult create(kiln_context* context, const std::uint32_t* tokens, kiln::ShaderStage stage,
                    kiln_shader** out_shader) {
  if (!out_shader) return KILN_D3DERR_INVALIDCALL;
  *out_shader = nullptr;
  if (!context || !tokens) return KILN_D3DERR_INVALIDCALL;
  std::size_t token_count = 0;
  if (kiln::Status status = kiln::d3d9::measure(tokens, KILN_D3D9_MAX_TOKENS, token_count);
      !status) {
    context->logger.log(KILN_LOG_WARNING, "D3D9 shader: " + status.message());
    return KILN_D3DERR_INVALIDCALL;
  }
  return kiln::hooks::create_shader(
      context,
      kiln::read_shader_input({reinterpret_cast<const std::uint8_t*>(tokens), token_count * 4}),
      kiln::InputKind::D3D9, stage, KILN_D3DERR_INVALIDCALL, out_shader);
}

} // namespace

extern "C" {

KILN_API kiln_hresult kiln_d3d9_create_vertex_shader(kiln_context* context, const uint32_t* tokens,
                                                     kiln_shader** out_shader) {
  return create(context, tokens, kiln::ShaderStage::Vertex, out_shader);
}

KILN_API kiln_hresult kiln_d3d9_create_pixel_shader(kiln_context* context, const uint32_t* tokens,
                                                    kiln_shader** out_shader) {
  return create(context, tokens, kiln::ShaderStage::Pixel, out_shader);
}

} // extern "C"
