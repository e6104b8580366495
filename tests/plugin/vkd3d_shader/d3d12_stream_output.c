/* D3D12 stream output from the vertex shader: the conformance suite's instance-id vs_4_0
 * (triangles from SV_VertexID and SV_InstanceID; COLOR is (0, c, 0, c) with c = 0.25 for
 * instance 0, 0.5 for instance 1), 3 vertices x 2 instances captured as SV_Position.xy and
 * COLOR (24-byte stride) with rasterization off. Prints the buffer-filled size the device
 * wrote, the 36 captured floats in order, and the float after them (the fill value, untouched).
 * (COLOR.y alone would be the sharper test, but the system's vkd3d-shader 1.2 cannot capture a
 * range that starts past component 0: "Unhandled component range".)
 * usage: d3d12-stream-output VS.dxbc */
#include "d3d12_support.h"

#include <stdlib.h>
#include <string.h>

enum { kStride = 24, kVertices = 6, kDataBytes = 256 };

int main(int argc, char** argv) {
  static const D3D12_SO_DECLARATION_ENTRY entries[] = {
      {0, "SV_Position", 0, 0, 2, 0},
      {0, "COLOR", 0, 0, 4, 0},
  };
  static const UINT stride = kStride;
  struct d3d12_context ctx;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  D3D12_STREAM_OUTPUT_BUFFER_VIEW view;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* buffer;
  unsigned char* bytes;
  UINT filled;
  unsigned i;

  d3d12_init_args(&ctx, "d3d12-stream-output", argc, "VS.dxbc");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_desc(&ctx, &desc, root_signature, DXGI_FORMAT_UNKNOWN,
                               D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
                               (struct d3d12_stages){.vs = argv[1]});
  d3d12_stream_output_desc(&desc, entries, sizeof entries / sizeof entries[0], &stride,
                           D3D12_SO_NO_RASTERIZED_STREAM);
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  buffer = d3d12_stream_output_buffer(&ctx, kDataBytes, &view);

  d3d12_bind_graphics(&ctx, NULL, NULL, root_signature, pipeline,
                      D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ID3D12GraphicsCommandList_SOSetTargets(ctx.list, 0, 1, &view);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 3, 2, 0, 0);

  bytes = d3d12_read_stream_output(&ctx, buffer, kDataBytes, &filled);
  d3d12_print_uint(&ctx, filled);
  for (i = 0; i < kVertices * kStride / 4 + 1; ++i) {
    float value;
    memcpy(&value, bytes + 4 * i, sizeof value);
    d3d12_print_float(&ctx, value);
  }
  d3d12_print_end(&ctx);
  free(bytes);

  ID3D12Resource_Release(buffer);
  d3d12_destroy_pipeline(&ctx, NULL, pipeline, root_signature);
  return 0;
}
