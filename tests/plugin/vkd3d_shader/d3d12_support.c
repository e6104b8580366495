/* See d3d12_support.h. */
#define INITGUID
#include "d3d12_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Readback rows of a texture copy are aligned to this many bytes
 * (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT). */
enum { kPitchAlignment = 256, kTexelBytes = 16 };
/* The space for a stream-output buffer's filled-size counter, after its data. */
enum { kCounterBytes = 16 };

static void die(const struct d3d12_context* ctx, const char* what) {
  fprintf(stderr, "%s: %s\n", ctx->program, what);
  exit(1);
}

void d3d12_check(const struct d3d12_context* ctx, HRESULT hr, const char* what) {
  if (SUCCEEDED(hr)) return;
  fprintf(stderr, "%s: %s failed (hr 0x%08x)\n", ctx->program, what, (unsigned)hr);
  exit(1);
}

void d3d12_init(struct d3d12_context* ctx, const char* program) {
  D3D12_COMMAND_QUEUE_DESC queue_desc = {0};
  memset(ctx, 0, sizeof *ctx);
  ctx->program = program;
  d3d12_check(
      ctx, D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void**)&ctx->device),
      "D3D12CreateDevice");
  queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
  d3d12_check(ctx,
              ID3D12Device_CreateCommandQueue(ctx->device, &queue_desc, &IID_ID3D12CommandQueue,
                                              (void**)&ctx->queue),
              "CreateCommandQueue");
  d3d12_check(ctx,
              ID3D12Device_CreateCommandAllocator(ctx->device, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                  &IID_ID3D12CommandAllocator,
                                                  (void**)&ctx->allocator),
              "CreateCommandAllocator");
  d3d12_check(ctx,
              ID3D12Device_CreateCommandList(ctx->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                             ctx->allocator, NULL, &IID_ID3D12GraphicsCommandList,
                                             (void**)&ctx->list),
              "CreateCommandList");
  d3d12_check(ctx,
              ID3D12Device_CreateFence(ctx->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence,
                                       (void**)&ctx->fence),
              "CreateFence");
}

void d3d12_init_args(struct d3d12_context* ctx, const char* program, int argc, const char* args) {
  int words = 0;
  const char* c;
  for (c = args; *c; ++c)
    if (*c != ' ' && (c == args || c[-1] == ' ')) ++words;
  if (argc != words + 1) {
    fprintf(stderr, "usage: %s %s\n", program, args);
    exit(2);
  }
  d3d12_init(ctx, program);
}

static void release_pending(struct d3d12_context* ctx) {
  while (ctx->pending_count) ID3D12Resource_Release(ctx->pending[--ctx->pending_count]);
}

void d3d12_destroy(struct d3d12_context* ctx) {
  release_pending(ctx);
  while (ctx->shader_count) free(ctx->shaders[--ctx->shader_count]);
  ID3D12Fence_Release(ctx->fence);
  ID3D12GraphicsCommandList_Release(ctx->list);
  ID3D12CommandAllocator_Release(ctx->allocator);
  ID3D12CommandQueue_Release(ctx->queue);
  ID3D12Device_Release(ctx->device);
}

void d3d12_destroy_pipeline(struct d3d12_context* ctx, struct d3d12_render_target* rt,
                            ID3D12PipelineState* pipeline, ID3D12RootSignature* root_signature) {
  if (rt) d3d12_render_target_destroy(rt);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  d3d12_destroy(ctx);
}

void d3d12_execute_and_wait(struct d3d12_context* ctx) {
  HANDLE event;
  d3d12_check(ctx, ID3D12GraphicsCommandList_Close(ctx->list), "Close");
  ID3D12CommandQueue_ExecuteCommandLists(ctx->queue, 1, (ID3D12CommandList**)&ctx->list);
  d3d12_check(ctx, ID3D12CommandQueue_Signal(ctx->queue, ctx->fence, ++ctx->fence_value), "Signal");
  if (!(event = vkd3d_create_event())) die(ctx, "vkd3d_create_event failed");
  d3d12_check(ctx, ID3D12Fence_SetEventOnCompletion(ctx->fence, ctx->fence_value, event),
              "SetEventOnCompletion");
  if (vkd3d_wait_event(event, VKD3D_INFINITE) != VKD3D_WAIT_OBJECT_0)
    die(ctx, "waiting for the fence failed");
  vkd3d_destroy_event(event);
  release_pending(ctx);
  d3d12_check(ctx, ID3D12CommandAllocator_Reset(ctx->allocator), "CommandAllocator Reset");
  d3d12_check(ctx, ID3D12GraphicsCommandList_Reset(ctx->list, ctx->allocator, NULL),
              "CommandList Reset");
}

D3D12_SHADER_BYTECODE d3d12_load_shader(struct d3d12_context* ctx, const char* path) {
  D3D12_SHADER_BYTECODE code = {0};
  FILE* file = fopen(path, "rb");
  void* data = NULL;
  long length = -1;
  if (ctx->shader_count == D3D12_SUPPORT_MAX_SHADERS) die(ctx, "too many shaders");
  if (file && fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) > 0 &&
      fseek(file, 0, SEEK_SET) == 0 && (data = malloc((size_t)length)) &&
      fread(data, 1, (size_t)length, file) != (size_t)length) {
    free(data);
    data = NULL;
  }
  if (file) fclose(file);
  if (!data) {
    fprintf(stderr, "%s: cannot read the shader %s\n", ctx->program, path);
    exit(2);
  }
  ctx->shaders[ctx->shader_count++] = data;
  code.pShaderBytecode = data;
  code.BytecodeLength = (SIZE_T)length;
  return code;
}

ID3D12RootSignature* d3d12_root_signature(struct d3d12_context* ctx,
                                          const D3D12_ROOT_SIGNATURE_DESC* desc) {
  ID3D12RootSignature* root_signature = NULL;
  ID3D10Blob *blob = NULL, *error = NULL;
  d3d12_check(ctx, D3D12SerializeRootSignature(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &error),
              "D3D12SerializeRootSignature");
  d3d12_check(ctx,
              ID3D12Device_CreateRootSignature(ctx->device, 0, ID3D10Blob_GetBufferPointer(blob),
                                               ID3D10Blob_GetBufferSize(blob),
                                               &IID_ID3D12RootSignature, (void**)&root_signature),
              "CreateRootSignature");
  ID3D10Blob_Release(blob);
  if (error) ID3D10Blob_Release(error);
  return root_signature;
}

static D3D12_ROOT_PARAMETER root_parameter(D3D12_ROOT_PARAMETER_TYPE type,
                                           D3D12_SHADER_VISIBILITY visibility) {
  D3D12_ROOT_PARAMETER parameter;
  memset(&parameter, 0, sizeof parameter);
  parameter.ParameterType = type;
  parameter.ShaderVisibility = visibility;
  return parameter;
}

D3D12_ROOT_PARAMETER d3d12_root_constants(UINT shader_register, UINT count,
                                          D3D12_SHADER_VISIBILITY visibility) {
  D3D12_ROOT_PARAMETER parameter =
      root_parameter(D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, visibility);
  parameter.Constants.ShaderRegister = shader_register;
  parameter.Constants.Num32BitValues = count;
  return parameter;
}

D3D12_ROOT_PARAMETER d3d12_root_table(const D3D12_DESCRIPTOR_RANGE* ranges, UINT count) {
  D3D12_ROOT_PARAMETER parameter =
      root_parameter(D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, D3D12_SHADER_VISIBILITY_ALL);
  parameter.DescriptorTable.NumDescriptorRanges = count;
  parameter.DescriptorTable.pDescriptorRanges = ranges;
  return parameter;
}

ID3D12DescriptorHeap* d3d12_shader_visible_heap(struct d3d12_context* ctx, UINT count) {
  D3D12_DESCRIPTOR_HEAP_DESC desc = {0};
  ID3D12DescriptorHeap* heap = NULL;
  desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  desc.NumDescriptors = count;
  desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  d3d12_check(ctx,
              ID3D12Device_CreateDescriptorHeap(ctx->device, &desc, &IID_ID3D12DescriptorHeap,
                                                (void**)&heap),
              "CreateDescriptorHeap");
  return heap;
}

void d3d12_graphics_pipeline_defaults(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                                      ID3D12RootSignature* root_signature, DXGI_FORMAT format,
                                      D3D12_PRIMITIVE_TOPOLOGY_TYPE topology) {
  memset(desc, 0, sizeof *desc);
  desc->pRootSignature = root_signature;
  desc->BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
  desc->SampleMask = ~0u;
  desc->RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
  desc->RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
  desc->RasterizerState.DepthClipEnable = TRUE;
  desc->PrimitiveTopologyType = topology;
  if (format != DXGI_FORMAT_UNKNOWN) {
    desc->NumRenderTargets = 1;
    desc->RTVFormats[0] = format;
  }
  desc->SampleDesc.Count = 1;
}

void d3d12_graphics_pipeline_desc(struct d3d12_context* ctx,
                                  D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                                  ID3D12RootSignature* root_signature, DXGI_FORMAT format,
                                  D3D12_PRIMITIVE_TOPOLOGY_TYPE topology,
                                  struct d3d12_stages stages) {
  d3d12_graphics_pipeline_defaults(desc, root_signature, format, topology);
  if (stages.vs) desc->VS = d3d12_load_shader(ctx, stages.vs);
  if (stages.hs) desc->HS = d3d12_load_shader(ctx, stages.hs);
  if (stages.ds) desc->DS = d3d12_load_shader(ctx, stages.ds);
  if (stages.gs) desc->GS = d3d12_load_shader(ctx, stages.gs);
  if (stages.ps) desc->PS = d3d12_load_shader(ctx, stages.ps);
}

void d3d12_stream_output_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                              const D3D12_SO_DECLARATION_ENTRY* entries, UINT count,
                              const UINT* stride, UINT rasterized_stream) {
  desc->StreamOutput.pSODeclaration = entries;
  desc->StreamOutput.NumEntries = count;
  desc->StreamOutput.pBufferStrides = stride;
  desc->StreamOutput.NumStrides = 1;
  desc->StreamOutput.RasterizedStream = rasterized_stream;
}

void d3d12_position_color_layout(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc) {
  static const D3D12_INPUT_ELEMENT_DESC layout[] = {
      {"SV_POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,
       D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
      {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16,
       D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
  };
  desc->InputLayout.pInputElementDescs = layout;
  desc->InputLayout.NumElements = sizeof layout / sizeof layout[0];
}

ID3D12PipelineState* d3d12_graphics_pipeline(struct d3d12_context* ctx,
                                             const D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc) {
  ID3D12PipelineState* pipeline = NULL;
  d3d12_check(ctx,
              ID3D12Device_CreateGraphicsPipelineState(ctx->device, desc, &IID_ID3D12PipelineState,
                                                       (void**)&pipeline),
              "CreateGraphicsPipelineState");
  return pipeline;
}

ID3D12PipelineState* d3d12_compute_pipeline(struct d3d12_context* ctx,
                                            ID3D12RootSignature* root_signature,
                                            D3D12_SHADER_BYTECODE cs) {
  D3D12_COMPUTE_PIPELINE_STATE_DESC desc = {0};
  ID3D12PipelineState* pipeline = NULL;
  desc.pRootSignature = root_signature;
  desc.CS = cs;
  d3d12_check(ctx,
              ID3D12Device_CreateComputePipelineState(ctx->device, &desc, &IID_ID3D12PipelineState,
                                                      (void**)&pipeline),
              "CreateComputePipelineState");
  return pipeline;
}

ID3D12Resource* d3d12_buffer(struct d3d12_context* ctx, D3D12_HEAP_TYPE heap, UINT64 bytes,
                             D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state) {
  D3D12_HEAP_PROPERTIES properties = {0};
  D3D12_RESOURCE_DESC desc = {0};
  ID3D12Resource* resource = NULL;
  properties.Type = heap;
  desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  desc.Width = bytes;
  desc.Height = 1;
  desc.DepthOrArraySize = 1;
  desc.MipLevels = 1;
  desc.SampleDesc.Count = 1;
  desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  desc.Flags = flags;
  d3d12_check(ctx,
              ID3D12Device_CreateCommittedResource(ctx->device, &properties, D3D12_HEAP_FLAG_NONE,
                                                   &desc, state, NULL, &IID_ID3D12Resource,
                                                   (void**)&resource),
              "CreateCommittedResource (buffer)");
  return resource;
}

ID3D12Resource* d3d12_upload_buffer(struct d3d12_context* ctx, const void* data, UINT64 bytes) {
  ID3D12Resource* buffer =
      d3d12_buffer(ctx, D3D12_HEAP_TYPE_UPLOAD, bytes, D3D12_RESOURCE_FLAG_NONE,
                   D3D12_RESOURCE_STATE_GENERIC_READ);
  void* mapped;
  d3d12_check(ctx, ID3D12Resource_Map(buffer, 0, NULL, &mapped), "Map (upload)");
  memcpy(mapped, data, (size_t)bytes);
  ID3D12Resource_Unmap(buffer, 0, NULL);
  return buffer;
}

void d3d12_upload(struct d3d12_context* ctx, ID3D12Resource* dst, UINT64 offset, const void* data,
                  UINT64 bytes) {
  ID3D12Resource* upload;
  if (ctx->pending_count == D3D12_SUPPORT_MAX_PENDING) d3d12_execute_and_wait(ctx);
  upload = d3d12_upload_buffer(ctx, data, bytes);
  ctx->pending[ctx->pending_count++] = upload;
  ID3D12GraphicsCommandList_CopyBufferRegion(ctx->list, dst, offset, upload, 0, bytes);
}

void* d3d12_read_buffer(struct d3d12_context* ctx, ID3D12Resource* buffer,
                        D3D12_RESOURCE_STATES before, UINT64 offset, UINT64 bytes) {
  ID3D12Resource* readback = d3d12_buffer(ctx, D3D12_HEAP_TYPE_READBACK, bytes,
                                          D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
  D3D12_RANGE range = {0, (SIZE_T)bytes};
  void *mapped, *copy = malloc((size_t)bytes);
  if (!copy) die(ctx, "out of memory");
  if (before != D3D12_RESOURCE_STATE_COPY_SOURCE)
    d3d12_transition(ctx, buffer, before, D3D12_RESOURCE_STATE_COPY_SOURCE);
  ID3D12GraphicsCommandList_CopyBufferRegion(ctx->list, readback, 0, buffer, offset, bytes);
  d3d12_execute_and_wait(ctx);
  d3d12_check(ctx, ID3D12Resource_Map(readback, 0, &range, &mapped), "Map (readback)");
  memcpy(copy, mapped, (size_t)bytes);
  ID3D12Resource_Unmap(readback, 0, NULL);
  ID3D12Resource_Release(readback);
  return copy;
}

ID3D12Resource* d3d12_stream_output_buffer(struct d3d12_context* ctx, UINT data_bytes,
                                           D3D12_STREAM_OUTPUT_BUFFER_VIEW* view) {
  const UINT bytes = data_bytes + kCounterBytes;
  float* initial = malloc(bytes);
  ID3D12Resource* buffer;
  UINT i;
  if (!initial) die(ctx, "out of memory");
  for (i = 0; i < bytes / 4; ++i) initial[i] = -1.0f;
  memset((char*)initial + data_bytes, 0, sizeof(UINT));
  buffer = d3d12_buffer(ctx, D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_FLAG_NONE,
                        D3D12_RESOURCE_STATE_COPY_DEST);
  d3d12_upload(ctx, buffer, 0, initial, bytes);
  free(initial);
  d3d12_transition(ctx, buffer, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_STREAM_OUT);
  view->BufferLocation = ID3D12Resource_GetGPUVirtualAddress(buffer);
  view->SizeInBytes = data_bytes;
  view->BufferFilledSizeLocation = view->BufferLocation + data_bytes;
  return buffer;
}

unsigned char* d3d12_read_stream_output(struct d3d12_context* ctx, ID3D12Resource* buffer,
                                        UINT data_bytes, UINT* filled) {
  unsigned char* bytes = d3d12_read_buffer(ctx, buffer, D3D12_RESOURCE_STATE_STREAM_OUT, 0,
                                           data_bytes + kCounterBytes);
  memcpy(filled, bytes + data_bytes, sizeof *filled);
  return bytes;
}

void d3d12_transition(struct d3d12_context* ctx, ID3D12Resource* resource,
                      D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
  D3D12_RESOURCE_BARRIER barrier = {0};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  barrier.Transition.pResource = resource;
  barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
  barrier.Transition.StateBefore = before;
  barrier.Transition.StateAfter = after;
  ID3D12GraphicsCommandList_ResourceBarrier(ctx->list, 1, &barrier);
}

void d3d12_uav_barrier(struct d3d12_context* ctx, ID3D12Resource* resource) {
  D3D12_RESOURCE_BARRIER barrier = {0};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = resource;
  ID3D12GraphicsCommandList_ResourceBarrier(ctx->list, 1, &barrier);
}

void d3d12_render_target_create(struct d3d12_context* ctx, struct d3d12_render_target* rt,
                                UINT width, UINT height, UINT layers) {
  D3D12_HEAP_PROPERTIES properties = {0};
  D3D12_RESOURCE_DESC desc = {0};
  D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {0};
  D3D12_RENDER_TARGET_VIEW_DESC view = {0};
  memset(rt, 0, sizeof *rt);
  rt->width = width;
  rt->height = height;
  rt->layers = layers;
  properties.Type = D3D12_HEAP_TYPE_DEFAULT;
  desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
  desc.Width = width;
  desc.Height = height;
  desc.DepthOrArraySize = (UINT16)layers;
  desc.MipLevels = 1;
  desc.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
  desc.SampleDesc.Count = 1;
  desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
  d3d12_check(ctx,
              ID3D12Device_CreateCommittedResource(ctx->device, &properties, D3D12_HEAP_FLAG_NONE,
                                                   &desc, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
                                                   &IID_ID3D12Resource, (void**)&rt->resource),
              "CreateCommittedResource (render target)");
  heap_desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV;
  heap_desc.NumDescriptors = 1;
  d3d12_check(ctx,
              ID3D12Device_CreateDescriptorHeap(ctx->device, &heap_desc, &IID_ID3D12DescriptorHeap,
                                                (void**)&rt->rtv_heap),
              "CreateDescriptorHeap (RTV)");
  rt->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rt->rtv_heap);
  view.Format = desc.Format;
  if (layers > 1) {
    view.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
    view.Texture2DArray.ArraySize = layers;
  } else {
    view.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
  }
  ID3D12Device_CreateRenderTargetView(ctx->device, rt->resource, &view, rt->rtv);
}

void d3d12_render_target_destroy(struct d3d12_render_target* rt) {
  ID3D12DescriptorHeap_Release(rt->rtv_heap);
  ID3D12Resource_Release(rt->resource);
}

void d3d12_render_target_bind(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                              const float color[4]) {
  D3D12_VIEWPORT viewport = {0};
  D3D12_RECT scissor = {0};
  viewport.Width = (float)rt->width;
  viewport.Height = (float)rt->height;
  viewport.MaxDepth = 1.0f;
  scissor.right = (LONG)rt->width;
  scissor.bottom = (LONG)rt->height;
  ID3D12GraphicsCommandList_ClearRenderTargetView(ctx->list, rt->rtv, color, 0, NULL);
  ID3D12GraphicsCommandList_OMSetRenderTargets(ctx->list, 1, &rt->rtv, FALSE, NULL);
  ID3D12GraphicsCommandList_RSSetViewports(ctx->list, 1, &viewport);
  ID3D12GraphicsCommandList_RSSetScissorRects(ctx->list, 1, &scissor);
}

void d3d12_bind_graphics(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                         const float color[4], ID3D12RootSignature* root_signature,
                         ID3D12PipelineState* pipeline, D3D_PRIMITIVE_TOPOLOGY topology) {
  if (rt) d3d12_render_target_bind(ctx, rt, color);
  ID3D12GraphicsCommandList_SetGraphicsRootSignature(ctx->list, root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(ctx->list, pipeline);
  ID3D12GraphicsCommandList_IASetPrimitiveTopology(ctx->list, topology);
}

void d3d12_bind_compute(struct d3d12_context* ctx, ID3D12RootSignature* root_signature,
                        ID3D12DescriptorHeap* heap, ID3D12PipelineState* pipeline) {
  ID3D12GraphicsCommandList_SetComputeRootSignature(ctx->list, root_signature);
  ID3D12GraphicsCommandList_SetDescriptorHeaps(ctx->list, 1, &heap);
  ID3D12GraphicsCommandList_SetPipelineState(ctx->list, pipeline);
}

void d3d12_set_vertex_buffer(struct d3d12_context* ctx, ID3D12Resource* vb, UINT bytes,
                             UINT stride) {
  D3D12_VERTEX_BUFFER_VIEW view;
  view.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(vb);
  view.SizeInBytes = bytes;
  view.StrideInBytes = stride;
  ID3D12GraphicsCommandList_IASetVertexBuffers(ctx->list, 0, 1, &view);
}

float* d3d12_render_target_read(struct d3d12_context* ctx, const struct d3d12_render_target* rt) {
  const UINT pitch =
      (rt->width * kTexelBytes + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  const UINT64 layer_bytes = (UINT64)pitch * rt->height;
  ID3D12Resource* readback = d3d12_buffer(ctx, D3D12_HEAP_TYPE_READBACK, layer_bytes * rt->layers,
                                          D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
  float* texels = malloc((size_t)rt->layers * rt->height * rt->width * kTexelBytes);
  D3D12_RANGE range = {0, (SIZE_T)(layer_bytes * rt->layers)};
  const unsigned char* mapped;
  UINT layer, y;
  if (!texels) die(ctx, "out of memory");
  d3d12_transition(ctx, rt->resource, D3D12_RESOURCE_STATE_RENDER_TARGET,
                   D3D12_RESOURCE_STATE_COPY_SOURCE);
  for (layer = 0; layer < rt->layers; ++layer) {
    D3D12_TEXTURE_COPY_LOCATION dst = {0}, src = {0};
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Offset = layer_bytes * layer;
    dst.PlacedFootprint.Footprint.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
    dst.PlacedFootprint.Footprint.Width = rt->width;
    dst.PlacedFootprint.Footprint.Height = rt->height;
    dst.PlacedFootprint.Footprint.Depth = 1;
    dst.PlacedFootprint.Footprint.RowPitch = pitch;
    src.pResource = rt->resource;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = layer; /* one mip level: subresource = array slice */
    ID3D12GraphicsCommandList_CopyTextureRegion(ctx->list, &dst, 0, 0, 0, &src, NULL);
  }
  d3d12_execute_and_wait(ctx);
  d3d12_check(ctx, ID3D12Resource_Map(readback, 0, &range, (void**)&mapped),
              "Map (render target readback)");
  for (layer = 0; layer < rt->layers; ++layer)
    for (y = 0; y < rt->height; ++y)
      memcpy(texels + ((size_t)layer * rt->height + y) * rt->width * 4,
             mapped + layer_bytes * layer + (size_t)pitch * y, (size_t)rt->width * kTexelBytes);
  ID3D12Resource_Unmap(readback, 0, NULL);
  ID3D12Resource_Release(readback);
  return texels;
}

const float* d3d12_pixel(const struct d3d12_render_target* rt, const float* texels, UINT layer,
                         UINT x, UINT y) {
  return texels + (((size_t)layer * rt->height + y) * rt->width + x) * 4;
}

void d3d12_print_uint(struct d3d12_context* ctx, unsigned value) {
  printf(ctx->printed++ ? " %u" : "%u", value);
}

void d3d12_print_float(struct d3d12_context* ctx, float value) {
  printf(ctx->printed++ ? " %g" : "%g", value);
}

void d3d12_print_pixel(struct d3d12_context* ctx, const float* rgba) {
  unsigned i;
  for (i = 0; i < 4; ++i) d3d12_print_float(ctx, rgba[i]);
}

void d3d12_print_end(struct d3d12_context* ctx) {
  printf("\n");
  ctx->printed = 0;
}

void d3d12_print_probes(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                        const UINT (*probes)[2], unsigned count) {
  float* texels = d3d12_render_target_read(ctx, rt);
  unsigned i;
  for (i = 0; i < count; ++i)
    d3d12_print_pixel(ctx, d3d12_pixel(rt, texels, 0, probes[i][0], probes[i][1]));
  free(texels);
}

int d3d12_draw_program(const char* program, int argc, char** argv, const float clear[4],
                       UINT vertices, UINT instances, const UINT (*probes)[2], unsigned count) {
  struct d3d12_context ctx;
  struct d3d12_render_target rt;
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_GRAPHICS_PIPELINE_STATE_DESC desc;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;

  d3d12_init_args(&ctx, program, argc, "VS.dxbc PS.dxbc");
  root_signature = d3d12_root_signature(&ctx, &root_desc);
  d3d12_graphics_pipeline_desc(&ctx, &desc, root_signature, DXGI_FORMAT_R32G32B32A32_FLOAT,
                               D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
                               (struct d3d12_stages){.vs = argv[1], .ps = argv[2]});
  pipeline = d3d12_graphics_pipeline(&ctx, &desc);
  d3d12_render_target_create(&ctx, &rt, 64, 64, 1);

  d3d12_bind_graphics(&ctx, &rt, clear, root_signature, pipeline,
                      D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ID3D12GraphicsCommandList_DrawInstanced(ctx.list, vertices, instances, 0, 0);
  d3d12_print_probes(&ctx, &rt, probes, count);
  d3d12_print_end(&ctx);

  d3d12_destroy_pipeline(&ctx, &rt, pipeline, root_signature);
  return 0;
}
