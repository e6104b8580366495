/* kiln hooks: entry points shaped like the D3D11 and D3D9 device methods that create shaders,
 * for a layer that forwards the game's calls. Each checks the bytecode's container and stage
 * synchronously, submits it (KILN_PRIORITY_NORMAL) and returns a kiln_shader handle; the
 * translation itself fails later on the handle, as with kiln_submit. Thread-safe like kiln.h.
 *
 * Codes follow the D3D APIs: S_OK / D3D_OK (0), E_INVALIDARG for bytecode that is not a
 * shader of the method's stage, E_OUTOFMEMORY, E_NOTIMPL for features kiln cannot translate
 * (stream output), D3DERR_INVALIDCALL for the D3D9 methods. */
#ifndef KILN_KILN_HOOKS_H
#define KILN_KILN_HOOKS_H

#include "kiln/kiln.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t kiln_hresult;

#define KILN_S_OK ((kiln_hresult)0)
#define KILN_E_INVALIDARG ((kiln_hresult)0x80070057u)
#define KILN_E_OUTOFMEMORY ((kiln_hresult)0x8007000Eu)
#define KILN_E_NOTIMPL ((kiln_hresult)0x80004001u)
#define KILN_D3D_OK ((kiln_hresult)0)
#define KILN_D3DERR_INVALIDCALL ((kiln_hresult)0x8876086Cu)

/* D3D11_SO_DECLARATION_ENTRY. */
typedef struct kiln_so_declaration_entry {
  uint32_t stream;
  const char* semantic_name; /* NULL: a gap of component_count components */
  uint32_t semantic_index;
  uint8_t start_component;
  uint8_t component_count;
  uint8_t output_slot;
} kiln_so_declaration_entry;

/* ID3D11Device::Create{Vertex,Hull,Domain,Geometry,Pixel,Compute}Shader: `bytecode` of
 * `length` bytes (a DXBC container, SM4.0-5.1). The class linkage argument is not taken:
 * containers with class linkage are translated or rejected by kiln like any other. */
KILN_API kiln_hresult kiln_d3d11_create_vertex_shader(kiln_context* context, const void* bytecode,
                                                      size_t length, kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d11_create_hull_shader(kiln_context* context, const void* bytecode,
                                                    size_t length, kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d11_create_domain_shader(kiln_context* context, const void* bytecode,
                                                      size_t length, kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d11_create_geometry_shader(kiln_context* context, const void* bytecode,
                                                        size_t length, kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d11_create_pixel_shader(kiln_context* context, const void* bytecode,
                                                     size_t length, kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d11_create_compute_shader(kiln_context* context, const void* bytecode,
                                                       size_t length, kiln_shader** out_shader);
/* ID3D11Device::CreateGeometryShaderWithStreamOutput: a geometry shader (or a vertex/domain
 * shader feeding stream output only). The declaration is checked as D3D11 does (E_INVALIDARG)
 * and becomes Vulkan transform feedback (docs/abi.md, "Outputs"): the context's interface (or
 * kiln's own model) with this stream output. An element that names no output of the shader
 * fails the handle with the reason. The rasterized stream is the layer's pipeline state
 * (VkPipelineRasterizationStateStreamCreateInfoEXT). */
KILN_API kiln_hresult kiln_d3d11_create_geometry_shader_with_stream_output(
    kiln_context* context, const void* bytecode, size_t length,
    const kiln_so_declaration_entry* entries, uint32_t entry_count, const uint32_t* buffer_strides,
    uint32_t stride_count, uint32_t rasterized_stream, kiln_shader** out_shader);

/* IDirect3DDevice9::CreateVertexShader / CreatePixelShader: a token stream without a length.
 * The length is found by walking the instruction structure up to the end token, reading at
 * most KILN_D3D9_MAX_TOKENS tokens (the caller's buffer must hold the shader, as with D3D9). */
#define KILN_D3D9_MAX_TOKENS (1u << 20)
KILN_API kiln_hresult kiln_d3d9_create_vertex_shader(kiln_context* context, const uint32_t* tokens,
                                                     kiln_shader** out_shader);
KILN_API kiln_hresult kiln_d3d9_create_pixel_shader(kiln_context* context, const uint32_t* tokens,
                                                    kiln_shader** out_shader);

typedef kiln_hresult (*PFN_kiln_d3d11_create_shader)(kiln_context*, const void*, size_t,
                                                     kiln_shader**);
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_vertex_shader;
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_hull_shader;
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_domain_shader;
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_geometry_shader;
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_pixel_shader;
typedef PFN_kiln_d3d11_create_shader PFN_kiln_d3d11_create_compute_shader;
typedef kiln_hresult (*PFN_kiln_d3d11_create_geometry_shader_with_stream_output)(
    kiln_context*, const void*, size_t, const kiln_so_declaration_entry*, uint32_t, const uint32_t*,
    uint32_t, uint32_t, kiln_shader**);
typedef kiln_hresult (*PFN_kiln_d3d9_create_shader)(kiln_context*, const uint32_t*, kiln_shader**);
typedef PFN_kiln_d3d9_create_shader PFN_kiln_d3d9_create_vertex_shader;
typedef PFN_kiln_d3d9_create_shader PFN_kiln_d3d9_create_pixel_shader;

#define KILN_HOOK_FUNCTIONS(X)                                                                     \
  X(kiln_d3d11_create_vertex_shader)                                                               \
  X(kiln_d3d11_create_hull_shader)                                                                 \
  X(kiln_d3d11_create_domain_shader)                                                               \
  X(kiln_d3d11_create_geometry_shader)                                                             \
  X(kiln_d3d11_create_pixel_shader)                                                                \
  X(kiln_d3d11_create_compute_shader)                                                              \
  X(kiln_d3d11_create_geometry_shader_with_stream_output)                                          \
  X(kiln_d3d9_create_vertex_shader)                                                                \
  X(kiln_d3d9_create_pixel_shader)

#ifdef __cplusplus
}
#endif

#endif /* KILN_KILN_HOOKS_H */
