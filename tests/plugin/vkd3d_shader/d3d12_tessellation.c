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
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* vb;

  d3d12_init_args(&ctx, "d3d12-tessellation", argc, "VS.dxbc HS.dxbc DS.dxbc PS.dxbc");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_desc(
      &ctx, &desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
      D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH,
      (struct d3d12_stages){.vs = argv[1], .hs = argv[2], .ds = argv[3], .ps = argv[4]});
  d3d12_position_color_layout(&desc);
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, vertices, sizeof vertices);

  d3d12_bind_graphics(&ctx, &rt, clear, root_signature, pipeline,
                      D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
  d3d12_set_vertex_buffer(&ctx, vb, sizeof vertices, 8 * sizeof(float));
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 9, 1, 0, 0);
  d3d12_print_probes(&ctx, &rt, probes, sizeof probes / sizeof probes[0]);
  d3d12_print_end(&ctx);

  ID3D12Resource_Release(vb);
  d3d12_destroy_pipeline(&ctx, &rt, pipeline, root_signature);
  return 0;
}
