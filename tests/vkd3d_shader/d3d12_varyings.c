/* A D3D12 draw whose vertex-to-pixel interface packs several elements into registers under
 * different component masks (d3d12_shaders.cpp, varyings_vs / varyings_ps): TEXCOORD0 in
 * o1.xy = (0.125, 0.25), TEXCOORD1 in o1.zw = (0.5, 1), FACTOR alone in o2.z = 2, and a flat
 * uint ID in o3.x = 3; the pixel shader also reads SV_Position.xy. One full-viewport triangle
 * into a 64x64 float target; every pixel (x, y) is
 * (0.125 + 1, 0.25 + 0.5, 2 * 3, (y + 0.5) * 64 + x + 0.5). Run with KILN_VKD3D_SHADER_FORWARD
 * naming one of the two stages, it is a pipeline whose stages come from kiln and from the
 * system's vkd3d-shader, which must line up element by element. Prints the pixels (16, 32),
 * (48, 16) and (63, 63) as r g b a.
 * usage: d3d12-varyings VS.dxbc PS.dxbc */
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  static const float clear[4] = {-1, -1, -1, -1};
  static const UINT probes[3][2] = {{16, 32}, {48, 16}, {63, 63}};
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  float* texels;
  unsigned i;

  if (argc != 3) {
    fprintf(stderr, "usage: d3d12-varyings VS.dxbc PS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-varyings");
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_defaults(&desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                                   D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE);
  desc.VS = d3d12_load_shader(&ctx, argv[1]);
  desc.PS = d3d12_load_shader(&ctx, argv[2]);
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);

  d3d12_render_target_bind(&ctx, &rt, clear);
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx.list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx.list, pipeline);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(ctx.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 3, 1, 0, 0);
  texels = d3d12_render_target_read(&ctx, &rt);
  for (i = 0; i < 3; ++i)
    d3d12_print_pixel(&ctx, d3d12_pixel(&rt, texels, 0, probes[i][0], probes[i][1]));
  d3d12_print_end(&ctx);
  free(texels);

  d3d12_render_target_destroy(&rt);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(&ctx);
  return 0;
}
