/* A D3D12 draw with a vertex and a pixel shader into a render target: the conformance suite's
 * instance-id shaders (vs_4_0 building four triangles from SV_VertexID and SV_InstanceID out of
 * an immediate constant buffer, one per quadrant, coloured by instance; ps_4_0 passing the
 * colour on), 3 vertices x 4 instances into a 64x64 float target. Prints the centre pixel of
 * each quadrant (top-left, top-right, bottom-right, bottom-left) as r g b a.
 * usage: d3d12-draw VS.dxbc PS.dxbc */
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  static const float clear[4] = {0, 0, 0, 0};
  static const UINT probes[4][2] = {{16, 16}, {48, 16}, {48, 48}, {16, 48}};
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  float* texels;
  unsigned i;

  if (argc != 3) {
    fprintf(stderr, "usage: d3d12-draw VS.dxbc PS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-draw");
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
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 3, 4, 0, 0);
  texels = d3d12_render_target_read(&ctx, &rt);
  for (i = 0; i < 4; ++i)
    d3d12_print_pixel(&ctx, d3d12_pixel(&rt, texels, 0, probes[i][0], probes[i][1]));
  d3d12_print_end(&ctx);
  free(texels);

  d3d12_render_target_destroy(&rt);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(&ctx);
  return 0;
}
