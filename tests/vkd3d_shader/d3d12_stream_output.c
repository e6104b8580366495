/* D3D12 stream output from the vertex shader: the conformance suite's instance-id vs_4_0
 * (triangles from SV_VertexID and SV_InstanceID; COLOR is (0, c, 0, c) with c = 0.25 for
 * instance 0, 0.5 for instance 1), 3 vertices x 2 instances captured as SV_Position.xy and
 * COLOR (24-byte stride) with rasterization off. Prints the buffer-filled size the device
 * wrote, the 36 captured floats in order, and the float after them (the fill value, untouched).
 * (COLOR.y alone would be the sharper test, but the system's vkd3d-shader 1.2 cannot capture a
 * range that starts past component 0: "Unhandled component range".)
 * usage: d3d12-stream-output VS.dxbc */
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kStride = 24,
  kVertices = 6,
  kDataBytes = 256,
  kFilledSizeOffset = kDataBytes, /* the filled-size counter after the data */
  kBufferBytes = kDataBytes + 16,
};

int main(int argc, char** argv) {
  static const D3D12_SO_DECLARATION_ENTRY entries[] = {
      {0, "SV_Position", 0, 0, 2, 0},
      {0, "COLOR", 0, 0, 4, 0},
  };
  static const UINT strides[] = {kStride};
  struct d3d12_context ctx;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  D3D12_STREAM_OUTPUT_BUFFER_VIEW view;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* buffer;
  float initial[kBufferBytes / 4];
  unsigned char* bytes;
  UINT filled;
  unsigned i;

  if (argc != 2) {
    fprintf(stderr, "usage: d3d12-stream-output VS.dxbc\n");
    return 2;
  }
  d3d12_init(&ctx, "d3d12-stream-output");
  root_desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_defaults(&desc, root_signature, DXGI_FORMAT_UNKNOWN,
                                   D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE);
  desc.VS = d3d12_load_shader(&ctx, argv[1]);
  desc.StreamOutput.pSODeclaration = entries;
  desc.StreamOutput.NumEntries = sizeof entries / sizeof entries[0];
  desc.StreamOutput.pBufferStrides = strides;
  desc.StreamOutput.NumStrides = 1;
  desc.StreamOutput.RasterizedStream = D3D12_SO_NO_RASTERIZED_STREAM;
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);

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
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx.list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx.list, pipeline);
  ID3D12GraphicsCommandList_SOSetTargets(ctx.list, 0, 1, &view);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(ctx.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, 3, 2, 0, 0);

  bytes = d3d12_read_buffer(&ctx, buffer, D3D12_RESOURCE_STATE_STREAM_OUT, 0, kBufferBytes);
  memcpy(&filled, bytes + kFilledSizeOffset, sizeof filled);
  d3d12_print_uint(&ctx, filled);
  for (i = 0; i < kVertices * kStride / 4 + 1; ++i) {
    float value;
    memcpy(&value, bytes + 4 * i, sizeof value);
    d3d12_print_float(&ctx, value);
  }
  d3d12_print_end(&ctx);
  free(bytes);

  ID3D12Resource_Release(buffer);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(&ctx);
  return 0;
}
