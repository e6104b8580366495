/* The D3D12 boilerplate shared by the test programs on Debian's libvkd3d
 * (tests/plugin/vkd3d_shader/d3d12_*.c): a device with one direct queue, command list and fence,
 * buffers with upload and readback, a float render target (optionally an array) read back per
 * layer, root signatures and pipelines with plain defaults.
 *
 * These are test programs: a failing call prints one line naming the program and the call on
 * stderr and exits with status 1, so each program reads as the sequence of D3D12 calls it
 * tests. Programs include this header instead of vkd3d_utils.h; the GUIDs are defined once, in
 * d3d12_support.c. */
#ifndef KILN_TESTS_D3D12_SUPPORT_H
#define KILN_TESTS_D3D12_SUPPORT_H

#define COBJMACROS
#define WIDL_C_INLINE_WRAPPERS
#include <stddef.h>
#include <vkd3d_utils.h>

enum { D3D12_SUPPORT_MAX_PENDING = 16, D3D12_SUPPORT_MAX_SHADERS = 8 };

struct d3d12_context {
  const char* program; /* the name in error messages */
  ID3D12Device* device;
  ID3D12CommandQueue* queue;
  ID3D12CommandAllocator* allocator;
  ID3D12GraphicsCommandList* list;
  ID3D12Fence* fence;
  UINT64 fence_value;
  /* Upload buffers recorded into the open list; released once it has executed. */
  ID3D12Resource* pending[D3D12_SUPPORT_MAX_PENDING];
  unsigned pending_count;
  void* shaders[D3D12_SUPPORT_MAX_SHADERS];
  unsigned shader_count;
  unsigned printed; /* numbers printed on the output line so far */
};

/* Creates the device (feature level 11.0), queue, allocator, an open command list and a fence. */
void d3d12_init(struct d3d12_context* ctx, const char* program);
/* d3d12_init once the command line holds one argument per word of ARGS (as "VS.dxbc PS.dxbc");
 * otherwise prints "usage: PROGRAM ARGS" on stderr and exits with status 2. */
void d3d12_init_args(struct d3d12_context* ctx, const char* program, int argc, const char* args);
void d3d12_destroy(struct d3d12_context* ctx);
/* Exits with "PROGRAM: WHAT failed (hr 0x...)" when hr is a failure. */
void d3d12_check(const struct d3d12_context* ctx, HRESULT hr, const char* what);
/* Closes the list, executes it, waits for the fence, then resets allocator and list (open). */
void d3d12_execute_and_wait(struct d3d12_context* ctx);

/* A DXBC file as shader bytecode (owned by ctx); exits when it cannot be read. */
D3D12_SHADER_BYTECODE d3d12_load_shader(struct d3d12_context* ctx, const char* path);

ID3D12RootSignature* d3d12_root_signature(struct d3d12_context* ctx,
                                          const D3D12_ROOT_SIGNATURE_DESC* desc);
/* A root parameter of COUNT 32-bit constants at b(SHADER_REGISTER), seen by VISIBILITY. */
D3D12_ROOT_PARAMETER d3d12_root_constants(UINT shader_register, UINT count,
                                          D3D12_SHADER_VISIBILITY visibility);
/* A root parameter: a descriptor table of the COUNT RANGES, seen by every stage. */
D3D12_ROOT_PARAMETER d3d12_root_table(const D3D12_DESCRIPTOR_RANGE* ranges, UINT count);
/* A shader-visible CBV/SRV/UAV descriptor heap of COUNT descriptors. */
ID3D12DescriptorHeap* d3d12_shader_visible_heap(struct d3d12_context* ctx, UINT count);
/* Rasterizer (solid, no culling, depth clip), blend (write all), sample mask and count set;
 * one render target of FORMAT unless it is DXGI_FORMAT_UNKNOWN. */
void d3d12_graphics_pipeline_defaults(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                                      ID3D12RootSignature* root_signature, DXGI_FORMAT format,
                                      D3D12_PRIMITIVE_TOPOLOGY_TYPE topology);
/* The DXBC files of a graphics pipeline's stages; NULL where a stage is absent. */
struct d3d12_stages {
  const char *vs, *hs, *ds, *gs, *ps;
};
/* d3d12_graphics_pipeline_defaults, then the shaders of STAGES loaded into DESC
 * (d3d12_load_shader, in the order VS, HS, DS, GS, PS). */
void d3d12_graphics_pipeline_desc(struct d3d12_context* ctx,
                                  D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                                  ID3D12RootSignature* root_signature, DXGI_FORMAT format,
                                  D3D12_PRIMITIVE_TOPOLOGY_TYPE topology,
                                  struct d3d12_stages stages);
/* Sets DESC to capture the COUNT ENTRIES into one buffer of *STRIDE bytes a vertex (STRIDE
 * outlives DESC), rasterizing RASTERIZED_STREAM (D3D12_SO_NO_RASTERIZED_STREAM: none). */
void d3d12_stream_output_desc(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc,
                              const D3D12_SO_DECLARATION_ENTRY* entries, UINT count,
                              const UINT* stride, UINT rasterized_stream);
/* Sets DESC's input layout to the conformance suite's geometry/3.vs's: SV_POSITION and COLOR,
 * four floats each, interleaved in slot 0. */
void d3d12_position_color_layout(D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc);
ID3D12PipelineState* d3d12_graphics_pipeline(struct d3d12_context* ctx,
                                             const D3D12_GRAPHICS_PIPELINE_STATE_DESC* desc);
ID3D12PipelineState* d3d12_compute_pipeline(struct d3d12_context* ctx,
                                            ID3D12RootSignature* root_signature,
                                            D3D12_SHADER_BYTECODE cs);

ID3D12Resource* d3d12_buffer(struct d3d12_context* ctx, D3D12_HEAP_TYPE heap, UINT64 bytes,
                             D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state);
/* An upload-heap buffer holding DATA (GENERIC_READ: vertex buffers, copy sources). */
ID3D12Resource* d3d12_upload_buffer(struct d3d12_context* ctx, const void* data, UINT64 bytes);
/* Records a copy of DATA into DST at OFFSET (DST in COPY_DEST) through a temporary upload
 * buffer. */
void d3d12_upload(struct d3d12_context* ctx, ID3D12Resource* dst, UINT64 offset, const void* data,
                  UINT64 bytes);
/* Records BEFORE -> COPY_SOURCE, copies BYTES from OFFSET, executes and waits: a malloc'd copy
 * the caller frees. The buffer is left in COPY_SOURCE. */
void* d3d12_read_buffer(struct d3d12_context* ctx, ID3D12Resource* buffer,
                        D3D12_RESOURCE_STATES before, UINT64 offset, UINT64 bytes);

/* A stream-output buffer: DATA_BYTES of data filled with -1.0f, then the filled-size counter
 * (16 bytes) zeroed as D3D12 asks of the application; in STREAM_OUT state, with its VIEW. */
ID3D12Resource* d3d12_stream_output_buffer(struct d3d12_context* ctx, UINT data_bytes,
                                           D3D12_STREAM_OUTPUT_BUFFER_VIEW* view);
/* Reads such a buffer back (d3d12_read_buffer): a malloc'd copy of its data and counter the
 * caller frees, with the counter in *FILLED. */
unsigned char* d3d12_read_stream_output(struct d3d12_context* ctx, ID3D12Resource* buffer,
                                        UINT data_bytes, UINT* filled);

void d3d12_transition(struct d3d12_context* ctx, ID3D12Resource* resource,
                      D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after);
void d3d12_uav_barrier(struct d3d12_context* ctx, ID3D12Resource* resource);

/* An R32G32B32A32_FLOAT render target of WIDTH x HEIGHT with LAYERS array layers (a
 * Texture2DArray view when LAYERS > 1), in RENDER_TARGET state, with its RTV. */
struct d3d12_render_target {
  ID3D12Resource* resource;
  ID3D12DescriptorHeap* rtv_heap;
  D3D12_CPU_DESCRIPTOR_HANDLE rtv;
  UINT width, height, layers;
};
void d3d12_render_target_create(struct d3d12_context* ctx, struct d3d12_render_target* rt,
                                UINT width, UINT height, UINT layers);
void d3d12_render_target_destroy(struct d3d12_render_target* rt);
/* Destroys RT (unless it is NULL), releases PIPELINE and ROOT_SIGNATURE, then d3d12_destroy. */
void d3d12_destroy_pipeline(struct d3d12_context* ctx, struct d3d12_render_target* rt,
                            ID3D12PipelineState* pipeline, ID3D12RootSignature* root_signature);
/* Clears it to COLOR and sets it as the only render target with a full viewport and scissor. */
void d3d12_render_target_bind(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                              const float color[4]);
/* Binds RT cleared to COLOR (d3d12_render_target_bind) unless RT is NULL, then sets the
 * graphics ROOT_SIGNATURE, PIPELINE and primitive TOPOLOGY. */
void d3d12_bind_graphics(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                         const float color[4], ID3D12RootSignature* root_signature,
                         ID3D12PipelineState* pipeline, D3D_PRIMITIVE_TOPOLOGY topology);
/* Sets the compute ROOT_SIGNATURE, HEAP as the only descriptor heap, and PIPELINE. */
void d3d12_bind_compute(struct d3d12_context* ctx, ID3D12RootSignature* root_signature,
                        ID3D12DescriptorHeap* heap, ID3D12PipelineState* pipeline);
/* Records IASetVertexBuffers of VB (BYTES, STRIDE bytes a vertex) in slot 0. */
void d3d12_set_vertex_buffer(struct d3d12_context* ctx, ID3D12Resource* vb, UINT bytes,
                             UINT stride);
/* Reads every layer back (executes and waits): floats [layer][y][x][rgba], which the caller
 * frees. The target is left in COPY_SOURCE. */
float* d3d12_render_target_read(struct d3d12_context* ctx, const struct d3d12_render_target* rt);
/* The pixel (X, Y) of LAYER in what d3d12_render_target_read returned. */
const float* d3d12_pixel(const struct d3d12_render_target* rt, const float* texels, UINT layer,
                         UINT x, UINT y);

/* The program's one line of output: numbers separated by single spaces (%g for floats), ended
 * by d3d12_print_end. */
void d3d12_print_uint(struct d3d12_context* ctx, unsigned value);
void d3d12_print_float(struct d3d12_context* ctx, float value);
void d3d12_print_pixel(struct d3d12_context* ctx, const float* rgba);
void d3d12_print_end(struct d3d12_context* ctx);
/* Reads RT back (d3d12_render_target_read) and prints the pixels of layer 0 at the COUNT
 * (x, y) PROBES. */
void d3d12_print_probes(struct d3d12_context* ctx, const struct d3d12_render_target* rt,
                        const UINT (*probes)[2], unsigned count);

/* The whole of a program drawing with a vertex and a pixel shader (PROGRAM VS.dxbc PS.dxbc):
 * an empty root signature, no input layout, VERTICES x INSTANCES of a triangle list into a
 * 64x64 float target cleared to CLEAR; prints the pixels at the COUNT PROBES. Returns main's
 * status. */
int d3d12_draw_program(const char* program, int argc, char** argv, const float clear[4],
                       UINT vertices, UINT instances, const UINT (*probes)[2], unsigned count);

#endif
