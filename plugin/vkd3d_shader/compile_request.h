#pragma once
// A vkd3d_shader_compile_info, read as kiln would translate it: the options and interface
// description kiln needs, or the reason kiln cannot honour the request exactly (and so hands
// it to the real library instead of answering approximately).

#include "plugin/vkd3d_shader/real_library.h"
#include "translator/translate.h"

#include <cstdint>
#include <string_view>

namespace kiln::vkd3d {

// Why a request went to the real library: X(enumerator, name in the stats line).
#define KILN_VKD3D_FORWARD_REASONS(X)                                                              \
  X(SourceType, "source-type")           /* not DXBC (TPF) */                                      \
  X(TargetType, "target-type")           /* not SPIR-V binary */                                   \
  X(Environment, "environment")          /* not a Vulkan environment kiln targets */               \
  X(EntryPoint, "entry-point")           /* an entry point name other than "main" */               \
  X(Extension, "extension")              /* a SPIR-V extension kiln does not know */               \
  X(Parameter, "parameter")              /* a shader parameter kiln does not know */               \
  X(Option, "option")                    /* a compile option or value kiln does not know */        \
  X(ApiVersion, "api-version")           /* an API version newer than kiln models */               \
  X(Structure, "structure")              /* a chained structure kiln does not read */              \
  X(Binding, "binding")                  /* a binding kiln cannot express */                       \
  X(Translation, "translation")          /* kiln could not translate the shader */                 \
  X(Forced, "forced")                    /* KILN_VKD3D_SHADER_FORWARD names the stage */           \
  X(Scan, "scan")                        /* kiln's DXBC scanner could not read the bytecode */     \
  X(DescriptorArray, "descriptor-array") /* a scan of an SM5.1 descriptor array (below) */         \
  X(Unavailable, "kiln-unavailable")     /* kiln's service could not start */

enum class ForwardReason : std::uint8_t {
#define KILN_X(name, text) name,
  KILN_VKD3D_FORWARD_REASONS(KILN_X)
#undef KILN_X
      Count,
};
std::string_view forward_reason_name(ForwardReason reason);

// The compile options of the vkd3d-shader API by value: Debian's 1.2 headers name only the first
// three. API_VERSION and TYPED_UAV came with 1.3 and 1.5, WRITE_TESS_GEOM_POINT_SIZE with 1.7.
enum : unsigned {
  kOptionStripDebug = 1,
  kOptionBufferUav = 2,
  kOptionFormatting = 3,
  kOptionApiVersion = 4,
  kOptionTypedUav = 5,
  kOptionWriteTessGeomPointSize = 6,
};
constexpr unsigned kTypedUavReadFormatR32 = 0;
constexpr unsigned kTypedUavReadFormatUnknown = 1;

// The newest VKD3D_SHADER_API_VERSION_1_x whose requests kiln serves (docs/vkd3d-shader.md,
// "API versions"): x = 10. Up to it, the version changes no compiled shader (1.11 stops
// implying 64-bit float support without VKD3D_SHADER_COMPILE_OPTION_FEATURE); it changes
// scans from 1.3 on (scan.cpp).
constexpr unsigned kNewestApiVersion = 10;

struct CompileRequest {
  ShaderInput input; // the source, read once (translator/shader_input.h)
  TranslateOptions options;
  // VKD3D_SHADER_COMPILE_OPTION_WRITE_TESS_GEOM_POINT_SIZE set: tessellation and geometry
  // shaders are to write a point size, which kiln does not (the library forwards those).
  bool tess_geom_point_size = false;
  ShaderStage stage = ShaderStage::Count; // the program's, from the scan that placed the bindings
};

// vkd3d's visibility as kiln's stage mask (0: every stage); false for one kiln does not know.
bool stage_mask_of(vkd3d_shader_visibility visibility, StageMask& out);

// The interface kiln's translation of every request starts from, before the request's options
// and chain are read into it: the optional features vkd3d-shader 1.2 uses unasked, and a point
// size written by geometry stages.
std::shared_ptr<ShaderInterface> vkd3d_request_interface();

// Completes `options` with `interface` as every request's translation ends: vkd3d-shader's
// interface convention, SPIR-V for Vulkan 1.0 without debug names.
void finish_vkd3d_request(std::shared_ptr<ShaderInterface> interface, TranslateOptions& options);

// Fills `out` and returns true when kiln can translate the request exactly as asked; otherwise
// returns false with `reason` set.
bool read_compile_request(const vkd3d_shader_compile_info& info, CompileRequest& out,
                          ForwardReason& reason);

} // namespace kiln::vkd3d
