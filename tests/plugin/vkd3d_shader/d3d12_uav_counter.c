/* D3D12 UAV counters: two structured-buffer UAVs with counter resources in a descriptor table,
 * and a compute shader (generated: d3d12_shaders.cpp) where each of 3 x 4 threads appends its
 * thread ID to the first (IncrementCounter) and consumes a slot of the second
 * (DecrementCounter), storing its ID + 100 there. The first counter starts at 2 over 16 slots,
 * the second at 12 over 12 slots; untouched slots hold 1000. Which thread gets which slot is
 * up to the device, so the program prints, per buffer: the final counter, the first and last
 * slot written, and the buffer's values sorted.
 * usage: d3d12-uav-counter CS.dxbc */
#include "d3d12_support.h"

#include <stdlib.h>

enum { kUnwritten = 1000, kMaxSlots = 16 };

struct counted_uav {
  UINT slots, counter;
  ID3D12Resource *buffer, *counter_buffer;
};

static int compare_uints(const void* a, const void* b) {
  const UINT x = *(const UINT*)a, y = *(const UINT*)b;
  return x < y ? -1 : x > y;
}

static void create(struct d3d12_context* ctx, struct counted_uav* uav, UINT slots, UINT counter,
                   D3D12_CPU_DESCRIPTOR_HANDLE descriptor) {
  D3D12_UNORDERED_ACCESS_VIEW_DESC view = {0};
  UINT initial[kMaxSlots];
  UINT i;
  uav->slots = slots;
  uav->counter = counter;
  uav->buffer =
      d3d12_buffer(ctx, D3D12_HEAP_TYPE_DEFAULT, slots * sizeof(UINT),
                   D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
  uav->counter_buffer =
      d3d12_buffer(ctx, D3D12_HEAP_TYPE_DEFAULT, sizeof(UINT),
                   D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
  for (i = 0; i < slots; ++i) initial[i] = kUnwritten;
  d3d12_upload(ctx, uav->buffer, 0, initial, slots * sizeof(UINT));
  d3d12_upload(ctx, uav->counter_buffer, 0, &counter, sizeof counter);
  d3d12_transition(ctx, uav->buffer, D3D12_RESOURCE_STATE_COPY_DEST,
                   D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  d3d12_transition(ctx, uav->counter_buffer, D3D12_RESOURCE_STATE_COPY_DEST,
                   D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  view.Format = DXGI_FORMAT_UNKNOWN;
  view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  view.Buffer.NumElements = slots;
  view.Buffer.StructureByteStride = sizeof(UINT);
  view.Buffer.CounterOffsetInBytes = 0;
  ID3D12Device_CreateUnorderedAccessView(ctx->device, uav->buffer, uav->counter_buffer, &view,
                                         descriptor);
}

static void print(struct d3d12_context* ctx, struct counted_uav* uav) {
  UINT* counter = d3d12_read_buffer(ctx, uav->counter_buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                    0, sizeof(UINT));
  UINT* values = d3d12_read_buffer(ctx, uav->buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, 0,
                                   uav->slots * sizeof(UINT));
  UINT first = kUnwritten, last = kUnwritten, i;
  for (i = 0; i < uav->slots; ++i)
    if (values[i] != kUnwritten) {
      if (first == kUnwritten) first = i;
      last = i;
    }
  d3d12_print_uint(ctx, *counter);
  d3d12_print_uint(ctx, first);
  d3d12_print_uint(ctx, last);
  qsort(values, uav->slots, sizeof(UINT), compare_uints);
  for (i = 0; i < uav->slots; ++i) d3d12_print_uint(ctx, values[i]);
  free(values);
  free(counter);
  ID3D12Resource_Release(uav->counter_buffer);
  ID3D12Resource_Release(uav->buffer);
}

int main(int argc, char** argv) {
  struct d3d12_context ctx;
  struct counted_uav appended, consumed;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12DescriptorHeap* heap;
  D3D12_DESCRIPTOR_RANGE range = {0};
  const D3D12_ROOT_PARAMETER parameter = d3d12_root_table(&range, 1);
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_CPU_DESCRIPTOR_HANDLE descriptor;

  d3d12_init_args(&ctx, "d3d12-uav-counter", argc, "CS.dxbc");
  range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  range.NumDescriptors = 2;
  root_desc.NumParameters = 1;
  root_desc.pParameters = &parameter;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  pipeline = d3d12_compute_pipeline(&ctx, root_signature, d3d12_load_shader(&ctx, argv[1]));

  heap = d3d12_shader_visible_heap(&ctx, 2);
  descriptor = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
  create(&ctx, &appended, 16, 2, descriptor);
  descriptor.ptr += ID3D12Device_GetDescriptorHandleIncrementSize(
      ctx.device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  create(&ctx, &consumed, 12, 12, descriptor);

  d3d12_bind_compute(&ctx, root_signature, heap, pipeline);
  ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
      ctx.list, 0, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
  ID3D12GraphicsCommandList_Dispatch(ctx.list, 3, 1, 1);
  d3d12_uav_barrier(&ctx, NULL);
  d3d12_execute_and_wait(&ctx);
  print(&ctx, &appended);
  print(&ctx, &consumed);
  d3d12_print_end(&ctx);

  ID3D12DescriptorHeap_Release(heap);
  d3d12_destroy_pipeline(&ctx, NULL, pipeline, root_signature);
  return 0;
}
