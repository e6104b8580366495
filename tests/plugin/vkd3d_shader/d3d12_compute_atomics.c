/* A D3D12 program on Debian's libvkd3d: root constants and a UAV descriptor table feeding a
 * compute shader (vkd3d's uav-atomics test, precompiled in ../shared/conformance), two
 * dispatches, the UAV read back and printed as one line of decimal words. Run once with the
 * system's libvkd3d-shader and once with kiln's (LD_LIBRARY_PATH): the lines must agree
 * (tests/plugin/vkd3d_shader/CMakeLists.txt).
 * usage: d3d12-compute-atomics SHADER.dxbc */
#include "d3d12_support.h"

#include <stdlib.h>

enum { kWords = 11 };

int main(int argc, char** argv) {
  static const UINT initial[kWords] = {0xd, 5, 6, 0x10, 4, 4, 7, 2, 0, 5, 0};
  static const UINT constants[2][4] = {{3, 5, 0, 0}, {1, 2, 0, 0}};
  struct d3d12_context ctx;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource* uav;
  ID3D12DescriptorHeap* heap;
  D3D12_ROOT_PARAMETER parameters[2];
  D3D12_DESCRIPTOR_RANGE range = {0};
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_UNORDERED_ACCESS_VIEW_DESC view = {0};
  UINT* words;
  unsigned i;

  d3d12_init_args(&ctx, "d3d12-compute-atomics", argc, "SHADER.dxbc");

  /* b0 as four root constants; u1 through a descriptor table. */
  parameters[0] = d3d12_root_constants(0, 4, D3D12_SHADER_VISIBILITY_ALL);
  range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  range.NumDescriptors = 1;
  range.BaseShaderRegister = 1;
  parameters[1] = d3d12_root_table(&range, 1);
  root_desc.NumParameters = 2;
  root_desc.pParameters = parameters;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  pipeline = d3d12_compute_pipeline(&ctx, root_signature, d3d12_load_shader(&ctx, argv[1]));

  uav = d3d12_buffer(&ctx, D3D12_HEAP_TYPE_DEFAULT, sizeof initial,
                     D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
  heap = d3d12_shader_visible_heap(&ctx, 1);
  view.Format = DXGI_FORMAT_R32_UINT;
  view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  view.Buffer.NumElements = kWords;
  ID3D12Device_CreateUnorderedAccessView(
      ctx.device, uav, NULL, &view, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));

  d3d12_upload(&ctx, uav, 0, initial, sizeof initial);
  d3d12_transition(&ctx, uav, D3D12_RESOURCE_STATE_COPY_DEST,
                   D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  d3d12_bind_compute(&ctx, root_signature, heap, pipeline);
  ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
      ctx.list, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
  for (i = 0; i < 2; ++i) {
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(ctx.list, 0, 4, constants[i], 0);
    ID3D12GraphicsCommandList_Dispatch(ctx.list, i + 1, 1, 1);
    d3d12_uav_barrier(&ctx, uav);
  }
  words = d3d12_read_buffer(&ctx, uav, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, 0, sizeof initial);
  for (i = 0; i < kWords; ++i) d3d12_print_uint(&ctx, words[i]);
  d3d12_print_end(&ctx);
  free(words);

  ID3D12DescriptorHeap_Release(heap);
  ID3D12Resource_Release(uav);
  d3d12_destroy_pipeline(&ctx, NULL, pipeline, root_signature);
  return 0;
}
