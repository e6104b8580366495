/* D3D12 clip distances written by a geometry shader: one point through the conformance suite's
 * geometry/3.vs (vertex-buffer pass-through) into a generated gs_5_0 (d3d12_shaders.cpp) that
 * emits a full-viewport strip in the point's colour with SV_ClipDistance0 = x + 0.5 and
 * SV_ClipDistance1 = y, then geometry/5.ps; a 64x64 float target cleared to 0. Only the part
 * right of x = -0.5 and above y = 0 is drawn. Prints four pixels as r g b a: (8, 8) cut by the
 * first distance, (24, 8) and (56, 24) drawn, (40, 40) cut by the second.
 * usage: d3d12-gs-clip-distance VS.dxbc GS.dxbc PS.dxbc */
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  static const float clear[4] = {0, 0, 0, 0};
  static const float point[8] = {0.0f, 0.0f, 0.5f, 1.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  static const UINT probes[4][2] = {{8, 8}, {24, 8}, {56, 24}, {40, 40}};
  static const D3D12_INPUT_ELEMENT_DESC layout[] = {
      {"SV_POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,
       D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
      {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16,
       D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
  };
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  D3D12_VERTEX_BUFFER_VIEW vbv;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* vb;
  float* texels;
  unsigned i;

  if (argc != 4) {
    fprintf(stderr, "usage: d3d12-gs-clip-distance VS.dxbc GS.dxbc PS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-gs-clip-distance");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_defaults(&desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                                   D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT);
  desc.VS = d3d12_load_shader(&ctx, argv[1]);
  desc.GS = d3d12_load_shader(&ctx, argv[2]);
  desc.PS = d3d12_load_shader(&ctx, argv[3]);
  desc.InputLayout.pInputElementDescs = layout;
  desc.InputLayout.NumElements = sizeof layout / sizeof layout[0];
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, point, sizeof point);

  vbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(vb);
  vbv.SizeInBytes = sizeof point;
  vbv.StrideInBytes = sizeof point;
  d3d12_render_target_bind(&ctx, &rt, clear);
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx.list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx.list, pipeline);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(ctx.list, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
  ID3D12GraphicsCommandList_IASetVertexBuffers(ctx.list, 0, 1, &vbv);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 1, 1, 0, 0);
  texels = d3d12_render_target_read(&ctx, &rt);
  for (i = 0; i < 4; ++i)
    d3d12_print_pixel(&ctx, d3d12_pixel(&rt, texels, 0, probes[i][0], probes[i][1]));
  d3d12_print_end(&ctx);
  free(texels);

  ID3D12Resource_Release(vb);
  d3d12_render_target_destroy(&rt);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(&ctx);
  return 0;
}
