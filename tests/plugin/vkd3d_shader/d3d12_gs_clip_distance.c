/* D3D12 clip distances written by a geometry shader: one point through the conformance suite's
 * geometry/3.vs (vertex-buffer pass-through) into a generated gs_5_0 (d3d12_shaders.cpp) that
 * emits a full-viewport strip in the point's colour with SV_ClipDistance0 = x + 0.5 and
 * SV_ClipDistance1 = y, then geometry/5.ps; a 64x64 float target cleared to 0. Only the part
 * right of x = -0.5 and above y = 0 is drawn. Prints four pixels as r g b a: (8, 8) cut by the
 * first distance, (24, 8) and (56, 24) drawn, (40, 40) cut by the second.
 * usage: d3d12-gs-clip-distance VS.dxbc GS.dxbc PS.dxbc */
#include "d3d12_support.h"

int main(int argc, char** argv) {
  static const float clear[4] = {0, 0, 0, 0};
  static const float point[8] = {0.0f, 0.0f, 0.5f, 1.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  static const UINT probes[4][2] = {{8, 8}, {24, 8}, {56, 24}, {40, 40}};
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* vb;

  d3d12_init_args(&ctx, "d3d12-gs-clip-distance", argc, "VS.dxbc GS.dxbc PS.dxbc");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_desc(&ctx, &desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                               D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT,
                               (struct d3d12_stages){.vs = argv[1], .gs = argv[2], .ps = argv[3]});
  d3d12_position_color_layout(&desc);
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, point, sizeof point);

  d3d12_bind_graphics(&ctx, &rt, clear, root_signature, pipeline, D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
  d3d12_set_vertex_buffer(&ctx, vb, sizeof point, sizeof point);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 1, 1, 0, 0);
  d3d12_print_probes(&ctx, &rt, probes, sizeof probes / sizeof probes[0]);
  d3d12_print_end(&ctx);

  ID3D12Resource_Release(vb);
  d3d12_destroy_pipeline(&ctx, &rt, pipeline, root_signature);
  return 0;
}
