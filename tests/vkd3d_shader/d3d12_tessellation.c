/* D3D12 pass-through tessellation with the primitive ID in the hull and domain shaders: three
 * 3-control-point patches from a vertex buffer through the conformance suite's geometry/3.vs,
 * a generated hs_5_0 without a control-point phase (the patch passes through; factors 1; the
 * patch-constant phase outputs SV_PrimitiveID as a float) and ds_5_0 (d3d12_shaders.cpp) that
 * interpolates the patch and writes colour (hull primitive ID, domain SV_PrimitiveID, the
 * vertices' blue, 1), then geometry/5.ps, into a 64x64 float target cleared to -1. Patch 0
 * covers the left of the centre, 1 the right, 2 the top; the bottom stays clear. Prints the
 * pixels (16, 32), (48, 32), (32, 16) and (32, 48) as r g b a.
 * usage: d3d12-tessellation VS.dxbc HS.dxbc DS.dxbc PS.dxbc */
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  static const float clear[4] = {-1, -1, -1, -1};
  /* position (x, y, 0, 1), colour (0, 0, blue, 1) per control point. */
#define CP(x, y, blue) x, y, 0.0f, 1.0f, 0.0f, 0.0f, blue, 1.0f
  static const float vertices[] = {
      CP(-1, -1, 0.25f), CP(-1, 1, 0.25f), CP(0, 0, 0.25f), CP(1, -1, 0.5f), CP(1, 1, 0.5f),
      CP(0, 0, 0.5f),    CP(-1, 1, 0.75f), CP(1, 1, 0.75f), CP(0, 0, 0.75f),
  };
#undef CP
  static const UINT probes[4][2] = {{16, 32}, {48, 32}, {32, 16}, {32, 48}};
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

  if (argc != 5) {
    fprintf(stderr, "usage: d3d12-tessellation VS.dxbc HS.dxbc DS.dxbc PS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-tessellation");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_defaults(&desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                                   D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
  desc.VS = d3d12_load_shader(&ctx, argv[1]);
  desc.HS = d3d12_load_shader(&ctx, argv[2]);
  desc.DS = d3d12_load_shader(&ctx, argv[3]);
  desc.PS = d3d12_load_shader(&ctx, argv[4]);
  desc.InputLayout.pInputElementDescs = layout;
  desc.InputLayout.NumElements = sizeof layout / sizeof layout[0];
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, vertices, sizeof vertices);

  vbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(vb);
  vbv.SizeInBytes = sizeof vertices;
  vbv.StrideInBytes = 8 * sizeof(float);
  d3d12_render_target_bind(&ctx, &rt, clear);
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx.list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx.list, pipeline);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(
      ctx.list, D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
  ID3D12GraphicsCommandList_IASetVertexBuffers(ctx.list, 0, 1, &vbv);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 9, 1, 0, 0);
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
