/* D3D12 buffer views of every kind and their GetDimensions (bufinfo): a compute shader
 * (generated: d3d12_shaders.cpp) reads the size of a raw, a structured (stride 4) and a typed
 * SRV and of a raw, two structured (strides 20 and 32) and a typed UAV, all four components,
 * and stores them to a results UAV. Two descriptor tables give the views two shapes each, from
 * the buffer's start and from an element further on (FirstElement), and R32_FLOAT or R16_FLOAT
 * for the typed SRV. D3D's answer: a raw view's size in bytes, a structured view's element
 * count, a typed view's element count, whatever FirstElement is.
 * usage: d3d12-buffer-sizes CS.dxbc */
#include "d3d12_support.h"

#include <stdlib.h>

enum { kSrvs = 3, kUavs = 5, kViews = kSrvs + kUavs, kTables = 2, kSized = 7, kBytes = 1024 };

/* One view: its format (R32_TYPELESS: raw), structure stride (structured), first element and
 * element count. */
struct view_shape {
  DXGI_FORMAT format;
  UINT stride, first, count;
};

/* Per table: t0 raw, t1 structured (4), t2 typed, u1 raw, u2 structured (20), u3 typed,
 * u4 structured (32). Offsets are multiples of 16 bytes (texel-buffer view alignment). */
static const struct view_shape kShapes[kTables][kSized] = {
    {{DXGI_FORMAT_R32_TYPELESS, 0, 0, 25},
     {DXGI_FORMAT_UNKNOWN, 4, 0, 5},
     {DXGI_FORMAT_R32_FLOAT, 0, 0, 50},
     {DXGI_FORMAT_R32_TYPELESS, 0, 0, 25},
     {DXGI_FORMAT_UNKNOWN, 20, 0, 5},
     {DXGI_FORMAT_R32_FLOAT, 0, 0, 50},
     {DXGI_FORMAT_UNKNOWN, 32, 8, 2}},
    {{DXGI_FORMAT_R32_TYPELESS, 0, 64, 4},
     {DXGI_FORMAT_UNKNOWN, 4, 64, 2},
     {DXGI_FORMAT_R16_FLOAT, 0, 128, 2},
     {DXGI_FORMAT_R32_TYPELESS, 0, 64, 64},
     {DXGI_FORMAT_UNKNOWN, 20, 16, 2},
     {DXGI_FORMAT_R32_FLOAT, 0, 64, 1},
     {DXGI_FORMAT_UNKNOWN, 32, 0, 5}},
};

static D3D12_CPU_DESCRIPTOR_HANDLE at(D3D12_CPU_DESCRIPTOR_HANDLE start, UINT increment,
                                      UINT index) {
  start.ptr += (SIZE_T)increment * index;
  return start;
}

static void create_srv(struct d3d12_context* ctx, ID3D12Resource* buffer,
                       const struct view_shape* shape, D3D12_CPU_DESCRIPTOR_HANDLE descriptor) {
  D3D12_SHADER_RESOURCE_VIEW_DESC view = {0};
  view.Format = shape->format;
  view.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
  view.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
  view.Buffer.FirstElement = shape->first;
  view.Buffer.NumElements = shape->count;
  view.Buffer.StructureByteStride = shape->stride;
  if (shape->format == DXGI_FORMAT_R32_TYPELESS) view.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
  ID3D12Device_CreateShaderResourceView(ctx->device, buffer, &view, descriptor);
}

static void create_uav(struct d3d12_context* ctx, ID3D12Resource* buffer,
                       const struct view_shape* shape, D3D12_CPU_DESCRIPTOR_HANDLE descriptor) {
  D3D12_UNORDERED_ACCESS_VIEW_DESC view = {0};
  view.Format = shape->format;
  view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  view.Buffer.FirstElement = shape->first;
  view.Buffer.NumElements = shape->count;
  view.Buffer.StructureByteStride = shape->stride;
  if (shape->format == DXGI_FORMAT_R32_TYPELESS) view.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
  ID3D12Device_CreateUnorderedAccessView(ctx->device, buffer, NULL, &view, descriptor);
}

int main(int argc, char** argv) {
  struct d3d12_context ctx;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12Resource *results, *srv_buffers[kSrvs], *uav_buffers[kUavs - 1];
  ID3D12DescriptorHeap* heap;
  D3D12_ROOT_PARAMETER parameters[2];
  D3D12_DESCRIPTOR_RANGE ranges[2] = {{0}};
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_UNORDERED_ACCESS_VIEW_DESC results_view = {0};
  D3D12_CPU_DESCRIPTOR_HANDLE cpu_start;
  D3D12_GPU_DESCRIPTOR_HANDLE gpu_table;
  const UINT result_bytes = kTables * kSized * 16;
  UINT increment, table, i, *words;

  d3d12_init_args(&ctx, "d3d12-buffer-sizes", argc, "CS.dxbc");

  /* b0: the results' byte offset as a root constant; t0-t2 and u0-u4 through a table. */
  parameters[0] = d3d12_root_constants(0, 4, D3D12_SHADER_VISIBILITY_ALL);
  ranges[0].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
  ranges[0].NumDescriptors = kSrvs;
  ranges[1].RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  ranges[1].NumDescriptors = kUavs;
  ranges[1].OffsetInDescriptorsFromTableStart = kSrvs;
  parameters[1] = d3d12_root_table(ranges, 2);
  root_desc.NumParameters = 2;
  root_desc.pParameters = parameters;
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  pipeline = d3d12_compute_pipeline(&ctx, root_signature, d3d12_load_shader(&ctx, argv[1]));

  results = d3d12_buffer(&ctx, D3D12_HEAP_TYPE_DEFAULT, result_bytes,
                         D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  for (i = 0; i < kSrvs; ++i)
    srv_buffers[i] = d3d12_buffer(&ctx, D3D12_HEAP_TYPE_DEFAULT, kBytes, D3D12_RESOURCE_FLAG_NONE,
                                  D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  for (i = 0; i < kUavs - 1; ++i)
    uav_buffers[i] = d3d12_buffer(&ctx, D3D12_HEAP_TYPE_DEFAULT, kBytes,
                                  D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                                  D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

  heap = d3d12_shader_visible_heap(&ctx, kTables * kViews);
  increment = ID3D12Device_GetDescriptorHandleIncrementSize(ctx.device,
                                                            D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
  cpu_start = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
  results_view.Format = DXGI_FORMAT_R32_TYPELESS;
  results_view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  results_view.Buffer.NumElements = result_bytes / 4;
  results_view.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
  for (table = 0; table < kTables; ++table) {
    const UINT base = table * kViews;
    for (i = 0; i < kSrvs; ++i)
      create_srv(&ctx, srv_buffers[i], &kShapes[table][i], at(cpu_start, increment, base + i));
    ID3D12Device_CreateUnorderedAccessView(ctx.device, results, NULL, &results_view,
                                           at(cpu_start, increment, base + kSrvs));
    for (i = 0; i < kUavs - 1; ++i)
      create_uav(&ctx, uav_buffers[i], &kShapes[table][kSrvs + i],
                 at(cpu_start, increment, base + kSrvs + 1 + i));
  }

  d3d12_bind_compute(&ctx, root_signature, heap, pipeline);
  for (table = 0; table < kTables; ++table) {
    const UINT constants[4] = {table * kSized * 16, 0, 0, 0};
    gpu_table = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap);
    gpu_table.ptr += (UINT64)increment * table * kViews;
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(ctx.list, 1, gpu_table);
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(ctx.list, 0, 4, constants, 0);
    ID3D12GraphicsCommandList_Dispatch(ctx.list, 1, 1, 1);
    d3d12_uav_barrier(&ctx, results);
  }
  words = d3d12_read_buffer(&ctx, results, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, 0, result_bytes);
  for (i = 0; i < result_bytes / 4; ++i) d3d12_print_uint(&ctx, words[i]);
  d3d12_print_end(&ctx);
  free(words);

  ID3D12DescriptorHeap_Release(heap);
  for (i = 0; i < kUavs - 1; ++i) ID3D12Resource_Release(uav_buffers[i]);
  for (i = 0; i < kSrvs; ++i) ID3D12Resource_Release(srv_buffers[i]);
  ID3D12Resource_Release(results);
  d3d12_destroy_pipeline(&ctx, NULL, pipeline, root_signature);
  return 0;
}
