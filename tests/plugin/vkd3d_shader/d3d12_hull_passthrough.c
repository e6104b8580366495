/* D3D12 quad-domain tessellation through a pass-through hull shader whose output signature
 * makes SV_Position an ordinary varying (the reproducer in
 * ../shared/reproducers/2026-11-27/hull-passthrough): a 4-control-point patch, corners
 * (-1, -1), (1, -1), (-1, 1), (1, 1) (z 0, w 1), through a vertex shader that passes POSITION
 * to SV_Position at register 0; hs_quad_cw (no control-point phase; edge and inside factors
 * from cb0, here root constants, all 1) and ds_quad (the bilinear interpolation of the four
 * control points it reads at register 0). The domain shader's SV_Position is captured by stream
 * output and rasterized into a 64x64 float target cleared to -1 by a pixel shader writing
 * (SV_Position.xy, 0.5, 1).
 *
 * With factors 1 the tessellator makes the quad's two triangles: 6 captured vertices, each a
 * corner of the quad, all four corners among them, the triangles' areas adding up to the
 * quad's (4), and every pixel drawn. The order of the vertices and which diagonal splits the
 * quad are the tessellator's, so the line gives those facts, not the raw buffer. Prints: the
 * captured vertex count (filled size / 16), how many of them are corners, how many distinct
 * corners, the summed area, then the pixels (0, 0), (63, 0), (0, 63), (63, 63) and (32, 32) as
 * r g b a.
 * usage: d3d12-hull-passthrough VS.dxbc HS.dxbc DS.dxbc PS.dxbc */
#include "d3d12_support.h"

#include <stdlib.h>
#include <string.h>

enum { kStride = 16, kMaxVertices = 16, kDataBytes = kMaxVertices * kStride };

/* The quad corner (x, y, 0, 1) with x, y in {-1, 1} that V is, as 0..3 ((y > 0) * 2 + (x > 0));
 * -1 when it is none. */
static int corner_of(const float* v) {
  if ((v[0] != -1.0f && v[0] != 1.0f) || (v[1] != -1.0f && v[1] != 1.0f) || v[2] != 0.0f ||
      v[3] != 1.0f)
    return -1;
  return (v[1] > 0) * 2 + (v[0] > 0);
}

int main(int argc, char** argv) {
  static const float clear[4] = {-1, -1, -1, -1};
  static const float control_points[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
  /* cb0[0].xyzw: the four edge factors; cb0[1].xy: the two inside factors. */
  static const float factors[8] = {1, 1, 1, 1, 1, 1, 0, 0};
  static const D3D12_INPUT_ELEMENT_DESC layout[] = {
      {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,
       D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
  };
  static const D3D12_SO_DECLARATION_ENTRY entries[] = {{0, "SV_Position", 0, 0, 4, 0}};
  static const UINT stride = kStride;
  static const UINT probes[5][2] = {{0, 0}, {63, 0}, {0, 63}, {63, 63}, {32, 32}};
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  const D3D12_ROOT_PARAMETER parameter = d3d12_root_constants(0, 8, D3D12_SHADER_VISIBILITY_HULL);
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  D3D12_STREAM_OUTPUT_BUFFER_VIEW view;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource *vb, *buffer;
  unsigned char* bytes;
  UINT filled, count, corners = 0, distinct = 0, i;
  int seen[4] = {0, 0, 0, 0};
  double area = 0;

  d3d12_init_args(&ctx, "d3d12-hull-passthrough", argc, "VS.dxbc HS.dxbc DS.dxbc PS.dxbc");
  root_desc.NumParameters = 1;
  root_desc.pParameters = &parameter;
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT |
                    D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_desc(
      &ctx, &desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
      D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH,
      (struct d3d12_stages){.vs = argv[1], .hs = argv[2], .ds = argv[3], .ps = argv[4]});
  desc.InputLayout.pInputElementDescs = layout;
  desc.InputLayout.NumElements = sizeof layout / sizeof layout[0];
  d3d12_stream_output_desc(&desc, entries, sizeof entries / sizeof entries[0], &stride, 0);
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, control_points, sizeof control_points);
  buffer = d3d12_stream_output_buffer(&ctx, kDataBytes, &view);

  d3d12_bind_graphics(&ctx, &rt, clear, root_signature, pipeline,
                      D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
  ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(ctx.list, 0, 8, factors, 0);
  ID3D12GraphicsCommandList_SOSetTargets(ctx.list, 0, 1, &view);
  d3d12_set_vertex_buffer(&ctx, vb, sizeof control_points, 4 * sizeof(float));
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 4, 1, 0, 0);
  bytes = d3d12_read_stream_output(&ctx, buffer, kDataBytes, &filled);

  count = filled / kStride;
  if (count > kMaxVertices) count = kMaxVertices;
  for (i = 0; i < count; ++i) {
    float v[4];
    int corner;
    memcpy(v, bytes + i * kStride, sizeof v);
    corner = corner_of(v);
    if (corner < 0) continue;
    ++corners;
    if (!seen[corner]++) ++distinct;
  }
  /* Triangle list: vertices 3t, 3t + 1, 3t + 2. */
  for (i = 0; i + 3 <= count; i += 3) {
    float a[4], b[4], c[4];
    memcpy(a, bytes + i * kStride, sizeof a);
    memcpy(b, bytes + (i + 1) * kStride, sizeof b);
    memcpy(c, bytes + (i + 2) * kStride, sizeof c);
    const double twice =
        (double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]);
    area += (twice < 0 ? -twice : twice) / 2;
  }
  d3d12_print_uint(&ctx, filled / kStride);
  d3d12_print_uint(&ctx, corners);
  d3d12_print_uint(&ctx, distinct);
  d3d12_print_float(&ctx, (float)area);
  d3d12_print_probes(&ctx, &rt, probes, sizeof probes / sizeof probes[0]);
  d3d12_print_end(&ctx);
  free(bytes);

  ID3D12Resource_Release(buffer);
  ID3D12Resource_Release(vb);
  d3d12_destroy_pipeline(&ctx, &rt, pipeline, root_signature);
  return 0;
}
