/* A D3D12 program on Debian's libvkd3d: root constants and a UAV descriptor table feeding a
 * compute shader (vkd3d's uav-atomics test, precompiled in ../shared/conformance), two
 * dispatches, the UAV read back and printed as one line of decimal words. Run once with the
 * system's libvkd3d-shader and once with kiln's (LD_LIBRARY_PATH): the lines must agree
 * (tests/vkd3d_shader/CMakeLists.txt).
 * usage: d3d12-compute-atomics SHADER.dxbc */

#define COBJMACROS
#define INITGUID
#define WIDL_C_INLINE_WRAPPERS
#include <vkd3d_utils.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWords = 11 };

static int fail(const char *what, HRESULT hr) {
  fprintf(stderr, "d3d12-compute-atomics: %s failed (hr 0x%08x)\n", what, (unsigned)hr);
  return 1;
}

static void *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  void *data = NULL;
  long length;
  if (!file) return NULL;
  if (fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0 &&
      (data = malloc((size_t)length)) && fread(data, 1, (size_t)length, file) != (size_t)length) {
    free(data);
    data = NULL;
  }
  if (data) *size = (size_t)length;
  fclose(file);
  return data;
}

static ID3D12Resource *create_buffer(ID3D12Device *device, D3D12_HEAP_TYPE heap, UINT64 bytes,
                                     D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state) {
  D3D12_HEAP_PROPERTIES properties = {0};
  D3D12_RESOURCE_DESC desc = {0};
  ID3D12Resource *resource = NULL;
  properties.Type = heap;
  desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  desc.Width = bytes;
  desc.Height = 1;
  desc.DepthOrArraySize = 1;
  desc.MipLevels = 1;
  desc.SampleDesc.Count = 1;
  desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  desc.Flags = flags;
  if (FAILED(ID3D12Device_CreateCommittedResource(device, &properties, D3D12_HEAP_FLAG_NONE, &desc,
                                                  state, NULL, &IID_ID3D12Resource,
                                                  (void **)&resource)))
    return NULL;
  return resource;
}

static void transition(ID3D12GraphicsCommandList *list, ID3D12Resource *resource,
                       D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
  D3D12_RESOURCE_BARRIER barrier = {0};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  barrier.Transition.pResource = resource;
  barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
  barrier.Transition.StateBefore = before;
  barrier.Transition.StateAfter = after;
  ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
}

static void uav_barrier(ID3D12GraphicsCommandList *list, ID3D12Resource *resource) {
  D3D12_RESOURCE_BARRIER barrier = {0};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = resource;
  ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &barrier);
}

int main(int argc, char **argv) {
  static const UINT initial[kWords] = {0xd, 5, 6, 0x10, 4, 4, 7, 2, 0, 5, 0};
  static const UINT constants[2][4] = {{3, 5, 0, 0}, {1, 2, 0, 0}};
  ID3D12Device *device;
  ID3D12RootSignature *root_signature;
  ID3D12PipelineState *pipeline;
  ID3D12Resource *uav, *upload, *readback;
  ID3D12DescriptorHeap *heap;
  ID3D12CommandQueue *queue;
  ID3D12CommandAllocator *allocator;
  ID3D12GraphicsCommandList *list;
  ID3D12Fence *fence;
  ID3D10Blob *blob, *error = NULL;
  D3D12_ROOT_PARAMETER parameters[2];
  D3D12_DESCRIPTOR_RANGE range = {0};
  D3D12_ROOT_SIGNATURE_DESC root_desc = {0};
  D3D12_COMPUTE_PIPELINE_STATE_DESC pipeline_desc = {0};
  D3D12_DESCRIPTOR_HEAP_DESC heap_desc = {0};
  D3D12_UNORDERED_ACCESS_VIEW_DESC view = {0};
  D3D12_COMMAND_QUEUE_DESC queue_desc = {0};
  D3D12_RANGE read_range = {0, sizeof initial};
  HANDLE event;
  void *code, *mapped;
  size_t code_size = 0;
  HRESULT hr;
  unsigned i;

  if (argc != 2) {
    fprintf(stderr, "usage: d3d12-compute-atomics SHADER.dxbc\n");
    return 2;
  }
  if (!(code = read_file(argv[1], &code_size))) {
    fprintf(stderr, "d3d12-compute-atomics: cannot read %s\n", argv[1]);
    return 2;
  }
  if (FAILED(hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device,
                                    (void **)&device)))
    return fail("D3D12CreateDevice", hr);

  /* b0 as four root constants; u1 through a descriptor table. */
  memset(parameters, 0, sizeof parameters);
  parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
  parameters[0].Constants.Num32BitValues = 4;
  parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
  range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
  range.NumDescriptors = 1;
  range.BaseShaderRegister = 1;
  parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
  parameters[1].DescriptorTable.NumDescriptorRanges = 1;
  parameters[1].DescriptorTable.pDescriptorRanges = &range;
  parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
  root_desc.NumParameters = 2;
  root_desc.pParameters = parameters;
  if (FAILED(hr = D3D12SerializeRootSignature(&root_desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob,
                                              &error)))
    return fail("D3D12SerializeRootSignature", hr);
  if (FAILED(hr = ID3D12Device_CreateRootSignature(
                 device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                 &IID_ID3D12RootSignature, (void **)&root_signature)))
    return fail("CreateRootSignature", hr);
  ID3D10Blob_Release(blob);

  pipeline_desc.pRootSignature = root_signature;
  pipeline_desc.CS.pShaderBytecode = code;
  pipeline_desc.CS.BytecodeLength = code_size;
  if (FAILED(hr = ID3D12Device_CreateComputePipelineState(device, &pipeline_desc,
                                                          &IID_ID3D12PipelineState,
                                                          (void **)&pipeline)))
    return fail("CreateComputePipelineState", hr);

  uav = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, sizeof initial,
                      D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST);
  upload = create_buffer(device, D3D12_HEAP_TYPE_UPLOAD, sizeof initial, D3D12_RESOURCE_FLAG_NONE,
                         D3D12_RESOURCE_STATE_GENERIC_READ);
  readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, sizeof initial,
                           D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
  if (!uav || !upload || !readback) return fail("CreateCommittedResource", E_FAIL);
  if (FAILED(hr = ID3D12Resource_Map(upload, 0, NULL, &mapped))) return fail("Map", hr);
  memcpy(mapped, initial, sizeof initial);
  ID3D12Resource_Unmap(upload, 0, NULL);

  heap_desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  heap_desc.NumDescriptors = 1;
  heap_desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  if (FAILED(hr = ID3D12Device_CreateDescriptorHeap(device, &heap_desc,
                                                    &IID_ID3D12DescriptorHeap, (void **)&heap)))
    return fail("CreateDescriptorHeap", hr);
  view.Format = DXGI_FORMAT_R32_UINT;
  view.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
  view.Buffer.NumElements = kWords;
  ID3D12Device_CreateUnorderedAccessView(
      device, uav, NULL, &view, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap));

  queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
  if (FAILED(hr = ID3D12Device_CreateCommandQueue(device, &queue_desc, &IID_ID3D12CommandQueue,
                                                  (void **)&queue)) ||
      FAILED(hr = ID3D12Device_CreateCommandAllocator(device, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                      &IID_ID3D12CommandAllocator,
                                                      (void **)&allocator)) ||
      FAILED(hr = ID3D12Device_CreateCommandList(device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                 allocator, NULL,
                                                 &IID_ID3D12GraphicsCommandList, (void **)&list)))
    return fail("command objects", hr);

  ID3D12GraphicsCommandList_CopyBufferRegion(list, uav, 0, upload, 0, sizeof initial);
  transition(list, uav, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  ID3D12GraphicsCommandList_SetComputeRootSignature(list, root_signature);
  ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &heap);
  ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
      list, 1, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap));
  ID3D12GraphicsCommandList_SetPipelineState(list, pipeline);
  for (i = 0; i < 2; ++i) {
    ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, 4, constants[i], 0);
    ID3D12GraphicsCommandList_Dispatch(list, i + 1, 1, 1);
    uav_barrier(list, uav);
  }
  transition(list, uav, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
  ID3D12GraphicsCommandList_CopyBufferRegion(list, readback, 0, uav, 0, sizeof initial);
  if (FAILED(hr = ID3D12GraphicsCommandList_Close(list))) return fail("Close", hr);
  ID3D12CommandQueue_ExecuteCommandLists(queue, 1, (ID3D12CommandList **)&list);

  if (FAILED(hr = ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence,
                                           (void **)&fence)))
    return fail("CreateFence", hr);
  event = vkd3d_create_event();
  ID3D12CommandQueue_Signal(queue, fence, 1);
  ID3D12Fence_SetEventOnCompletion(fence, 1, event);
  if (vkd3d_wait_event(event, VKD3D_INFINITE) != VKD3D_WAIT_OBJECT_0) return fail("wait", E_FAIL);
  vkd3d_destroy_event(event);

  if (FAILED(hr = ID3D12Resource_Map(readback, 0, &read_range, &mapped))) return fail("Map", hr);
  for (i = 0; i < kWords; ++i) printf(i ? " %u" : "%u", ((const UINT *)mapped)[i]);
  printf("\n");
  ID3D12Resource_Unmap(readback, 0, NULL);

  ID3D12Fence_Release(fence);
  ID3D12GraphicsCommandList_Release(list);
  ID3D12CommandAllocator_Release(allocator);
  ID3D12CommandQueue_Release(queue);
  ID3D12DescriptorHeap_Release(heap);
  ID3D12Resource_Release(readback);
  ID3D12Resource_Release(upload);
  ID3D12Resource_Release(uav);
  ID3D12PipelineState_Release(pipeline);
  ID3D12RootSignature_Release(root_signature);
  ID3D12Device_Release(device);
  free(code);
  return 0;
}
