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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kStride = 16,
  kMaxVertices = 16,
  kDataBytes = kMaxVertices * kStride,
  kFilledSizeOffset = kDataBytes, /* the filled-size counter after the data */
  kBufferBytes = kDataBytes + 16,
};

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
  static const UINT strides[] = {kStride};
  static const UINT probes[5][2] = {{0, 0}, {63, 0}, {0, 63}, {63, 63}, {32, 32}};
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_PARAMETER parameter;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  D3D12_VERTEX_BUFFER_VIEW vbv;
  D3D12_STREAM_OUTPUT_BUFFER_VIEW view;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource *vb, *buffer;
  float initial[kBufferBytes / 4];
  unsigned char* bytes;
  float* texels;
  UINT filled, count, corners = 0, distinct = 0, i;
  int seen[4] = {0, 0, 0, 0};
  double area = 0;

  if (argc != 5) {
    fprintf(stderr, "usage: d3d12-hull-passthrough VS.dxbc HS.dxbc DS.dxbc PS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-hull-passthrough");
  memset(&parameter, 0, sizeof parameter);
  parameter.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
  parameter.Constants.ShaderRegister = 0;
  parameter.Constants.Num32BitValues = 8;
  parameter.ShaderVisibility = D3D12_SHADER_VISIBILITY_HULL;
  root_desc.NumParameters = 1;
  root_desc.pParameters = &parameter;
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT |
                    D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_defaults(&desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                                   D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
  desc.VS = d3d12_load_shader(&ctx, argv[1]);
  desc.HS = d3d12_load_shader(&ctx, argv[2]);
  desc.DS = d3d12_load_shader(&ctx, argv[3]);
  desc.PS = d3d12_load_shader(&ctx, argv[4]);
  desc.InputLayout.pInputElementDescs = layout;
  desc.InputLayout.NumElements = sizeof layout / sizeof layout[0];
  desc.StreamOutput.pSODeclaration = entries;
  desc.StreamOutput.NumEntries = sizeof entries / sizeof entries[0];
  desc.StreamOutput.pBufferStrides = strides;
  desc.StreamOutput.NumStrides = 1;
  desc.StreamOutput.RasterizedStream = 0;
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);
  vb = d3d12_upload_buffer(&ctx, control_points, sizeof control_points);

  /* The data filled with -1, the filled-size counter zeroed as D3D12 asks of the application. */
  for (i = 0; i < kBufferBytes / 4; ++i) initial[i] = -1.0f;
  memset((char*)initial + kFilledSizeOffset, 0, sizeof(UINT));
  buffer = d3d12_buffer(&ctx, D3D12_HEAP_TYPE_DEFAULT, kBufferBytes, D3D12_RESOURCE_FLAG_NONE,
                        D3D12_RESOURCE_STATE_COPY_DEST);
  d3d12_upload(&ctx, buffer, 0, initial, sizeof initial);
  d3d12_transition(&ctx, buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_STREAM_OUT);
  view.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(buffer);
  view.SizeInBytes = kDataBytes;
  view.BufferFilledSizeLocation = view.BufferLocation + kFilledSizeOffset;
  vbv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(vb);
  vbv.SizeInBytes = sizeof control_points;
  vbv.StrideInBytes = 4 * sizeof(float);

  d3d12_render_target_bind(&ctx, &rt, clear);
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx.list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx.list, pipeline);
  ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(ctx.list, 0, 8, factors, 0);
  ID3D12GraphicsCommandList_SOSetTargets(ctx.list, 0, 1, &view);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(
      ctx.list, D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
  ID3D12GraphicsCommandList_IASetVertexBuffers(ctx.list, 0, 1, &vbv);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 4, 1, 0, 0);
  bytes = d3d12_read_buffer(&ctx, buffer, D3D12_RESOURCE_STATE_STREAM_OUT, 0, kBufferBytes);
  texels = d3d12_render_target_read(&ctx, &rt);

  memcpy(&filled, bytes + kFilledSizeOffset, sizeof filled);
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
  for (i = 0; i < 5; ++i)
    d3d12_print_pixel(&ctx, d3d12_pixel(&rt, texels, 0, probes[i][0], probes[i][1]));
  d3d12_print_end(&ctx);
  free(texels);
  free(bytes);

  ID3D12Resource_Release(buffer);
  ID3D12Resource_Release(vb);
  d3d12_render_target_destroy(&rt);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(&ctx);
  return 0;
}
