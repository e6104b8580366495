#include "hooks/hooks_common.h"

#include "plugin/abi/abi_context.h"

#include <new>
#include <string>

namespace kiln::hooks {

kiln_hresult create_shader(kiln_context* context, const ShaderInput& input, InputKind kind,
                           ShaderStage stage, kiln_hresult invalid, kiln_shader** out_shader,
                           std::shared_ptr<const ShaderInterface> interface) {
  if (!out_shader) return invalid;
  *out_shader = nullptr;
  if (!context || (!input.bytes.data() && !input.bytes.empty())) return invalid;
  if (const InputInfo& info = input.info; info.kind != kind) {
    context->logger.log(KILN_LOG_WARNING,
                        std::string(shader_stage_name(stage)) + " shader creation: " +
                            (info.kind == InputKind::Dxbc || info.kind == InputKind::D3D9
                                 ? std::string(info.description) + " given to the " +
                                       (kind == InputKind::Dxbc ? "d3d11" : "d3d9") + " method"
                                 : std::string(info.description)));
    return invalid;
  }
  try {
    switch (abi::submit(*context, input, stage, Priority::Normal, 0, nullptr, *out_shader,
                        std::move(interface))) {
    case KILN_SUCCESS:
      return KILN_S_OK;
    case KILN_ERROR_OUT_OF_MEMORY:
      return KILN_E_OUTOFMEMORY;
    default:
      return invalid;
    }
  } catch (...) {
    // Logged; an internal error is the caller's invalid-call code, as any other failure here.
    return abi::log_caught(context->logger, "create shader") == KILN_ERROR_OUT_OF_MEMORY
               ? KILN_E_OUTOFMEMORY
               : invalid;
  }
}

} // namespace kiln::hooks
