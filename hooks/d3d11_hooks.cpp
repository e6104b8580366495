// ID3D11Device::Create*Shader-shaped entry points (include/kiln/kiln_hooks.h).

#include "hooks/hooks_common.h"
#include "plugin/abi/abi_context.h"

#include <string>

namespace {

using kiln::ShaderStage;

// D3D11 limits on stream output declarations (d3d11.h).
constexpr std::uint32_t kSoStreamCount = 4;          // D3D11_SO_STREAM_COUNT
constexpr std::uint32_t kSoBufferSlotCount = 4;      // D3D11_SO_BUFFER_SLOT_COUNT
constexpr std::uint32_t kSoMaxEntries = 4 * 128;     // streams * D3D11_SO_OUTPUT_COMPONENT_COUNT
constexpr std::uint32_t kSoMaxStrideBytes = 2048;    // D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES
constexpr std::uint32_t kSoNoRasterizedStream = ~0u; // D3D11_SO_NO_RASTERIZED_STREAM

std::span<const std::uint8_t> bytes_of(const void* bytecode, size_t length) {
  return {static_cast<const std::uint8_t*>(bytecode), bytecode ? length : 0};
}

kiln_hresult create(kiln_context* context, const kiln::ShaderInput& input, ShaderStage stage,
                    kiln_shader** out_shader,
                    std::shared_ptr<const kiln::ShaderInterface> interface = nullptr) {
  return kiln::hooks::create_shader(context, input, kiln::InputKind::Dxbc, stage, KILN_E_INVALIDARG,
                                    out_shader, std::move(interface));
}

kiln_hresult create(kiln_context* context, const void* bytecode, size_t length, ShaderStage stage,
                    kiln_shader** out_shader) {
  return create(context, kiln::read_shader_input(bytes_of(bytecode, length)), stage, out_shader);
}

// The context's interface (or kiln's own model, every optional feature available) with the
// declaration as its stream output.
std::shared_ptr<const kiln::ShaderInterface>
stream_output_interface(const kiln_context* context, const kiln_so_declaration_entry* entries,
                        std::uint32_t entry_count, const std::uint32_t* strides,
                        std::uint32_t stride_count, std::uint32_t rasterized_stream) {
  auto interface = std::make_shared<kiln::ShaderInterface>();
  if (context->options.interface)
    *interface = *context->options.interface;
  else
    interface->extensions = kiln::kAllExtensions;
  kiln::StreamOutput& so = interface->stream_output;
  so.elements.clear();
  for (std::uint32_t i = 0; i < entry_count; ++i) {
    kiln::StreamOutputElement e;
    e.stream = entries[i].stream;
    if (entries[i].semantic_name) e.semantic = entries[i].semantic_name;
    e.semantic_index = entries[i].semantic_index;
    e.component_index = entries[i].start_component;
    e.component_count = entries[i].component_count;
    e.output_slot = entries[i].output_slot;
    so.elements.push_back(std::move(e));
  }
  so.buffer_strides = {};
  for (std::uint32_t i = 0; i < stride_count; ++i) so.buffer_strides[i] = strides[i];
  so.rasterized_stream = rasterized_stream;
  return interface;
}

// Empty when the declaration is one D3D11 would accept, else why not.
std::string check_stream_output(const kiln_so_declaration_entry* entries, std::uint32_t entry_count,
                                const std::uint32_t* strides, std::uint32_t stride_count,
                                std::uint32_t rasterized_stream) {
  if (entry_count > kSoMaxEntries) return "too many stream output entries";
  if (entry_count && !entries) return "stream output entries missing";
  if (stride_count > kSoBufferSlotCount) return "too many stream output buffer strides";
  if (stride_count && !strides) return "stream output strides missing";
  for (std::uint32_t i = 0; i < stride_count; ++i)
    if (strides[i] > kSoMaxStrideBytes || strides[i] % 4 != 0)
      return "stream output stride " + std::to_string(i) + " is invalid";
  if (rasterized_stream >= kSoStreamCount && rasterized_stream != kSoNoRasterizedStream)
    return "rasterized stream is invalid";
  for (std::uint32_t i = 0; i < entry_count; ++i) {
    const kiln_so_declaration_entry& e = entries[i];
    if (e.stream >= kSoStreamCount || e.output_slot >= kSoBufferSlotCount ||
        e.component_count == 0 || e.start_component + e.component_count > 4)
      return "stream output entry " + std::to_string(i) + " is invalid";
  }
  return {};
}

} // namespace

extern "C" {

KILN_API kiln_hresult kiln_d3d11_create_vertex_shader(kiln_context* context, const void* bytecode,
                                                      size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Vertex, out_shader);
}
KILN_API kiln_hresult kiln_d3d11_create_hull_shader(kiln_context* context, const void* bytecode,
                                                    size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Hull, out_shader);
}
KILN_API kiln_hresult kiln_d3d11_create_domain_shader(kiln_context* context, const void* bytecode,
                                                      size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Domain, out_shader);
}
KILN_API kiln_hresult kiln_d3d11_create_geometry_shader(kiln_context* context, const void* bytecode,
                                                        size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Geometry, out_shader);
}
KILN_API kiln_hresult kiln_d3d11_create_pixel_shader(kiln_context* context, const void* bytecode,
                                                     size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Pixel, out_shader);
}
KILN_API kiln_hresult kiln_d3d11_create_compute_shader(kiln_context* context, const void* bytecode,
                                                       size_t length, kiln_shader** out_shader) {
  return create(context, bytecode, length, ShaderStage::Compute, out_shader);
}

KILN_API kiln_hresult kiln_d3d11_create_geometry_shader_with_stream_output(
    kiln_context* context, const void* bytecode, size_t length,
    const kiln_so_declaration_entry* entries, uint32_t entry_count, const uint32_t* buffer_strides,
    uint32_t stride_count, uint32_t rasterized_stream, kiln_shader** out_shader) {
  if (!out_shader) return KILN_E_INVALIDARG;
  *out_shader = nullptr;
  if (!context) return KILN_E_INVALIDARG;
  const std::string problem =
      check_stream_output(entries, entry_count, buffer_strides, stride_count, rasterized_stream);
  if (!problem.empty()) {
    context->logger.log(KILN_LOG_WARNING, "CreateGeometryShaderWithStreamOutput: " + problem);
    return KILN_E_INVALIDARG;
  }
  // The stage check: a geometry shader, or a vertex/domain shader whose output only feeds
  // stream output.
  if (!bytecode) return KILN_E_INVALIDARG;
  const kiln::ShaderInput input = kiln::read_shader_input(bytes_of(bytecode, length));
  ShaderStage stage = ShaderStage::Count;
  if (!kiln::declared_stage(input, stage) ||
      (stage != ShaderStage::Geometry && stage != ShaderStage::Vertex &&
       stage != ShaderStage::Domain))
    return KILN_E_INVALIDARG;
  // Transform feedback decorations (docs/abi.md, "Outputs"); the rasterized stream is the
  // layer's pipeline state. A declaration naming no output fails the shader's handle.
  std::shared_ptr<const kiln::ShaderInterface> interface;
  try {
    if (entry_count > 0)
      interface = stream_output_interface(context, entries, entry_count, buffer_strides,
                                          stride_count, rasterized_stream);
  } catch (...) {
    // The same boundary as create_shader's: logged, out of memory or the invalid-call code.
    return kiln::abi::log_caught(context->logger, "CreateGeometryShaderWithStreamOutput") ==
                   KILN_ERROR_OUT_OF_MEMORY
               ? KILN_E_OUTOFMEMORY
               : KILN_E_INVALIDARG;
  }
  return create(context, input, stage, out_shader, std::move(interface));
}

} // extern "C"
