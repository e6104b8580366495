#include "translator/translate.h"

#include "translator/common/arena.h"

namespace kiln {

struct Translator::Workspace {
  Arena arena;
};

std::string_view spirv_target_name(SpirvTarget target) {
  switch (target) {
  case SpirvTarget::Vulkan11: return "vulkan1.1";
  case SpirvTarget::Vulkan12: return "vulkan1.2";
  case SpirvTarget::Vulkan13: return "vulkan1.3";
  }
  return "vulkan1.3";
}

bool parse_spirv_target(std::string_view name, SpirvTarget& out) {
  for (SpirvTarget t : {SpirvTarget::Vulkan11, SpirvTarget::Vulkan12, SpirvTarget::Vulkan13}) {
    if (spirv_target_name(t) == name) {
      out = t;
      return true;
    }
  }
  return false;
}

Translator::Translator() : workspace_(std::make_unique<Workspace>()) {}
Translator::~Translator() = default;

Status Translator::translate(std::span<const std::uint8_t> bytecode,
                             const TranslateOptions& options, TranslateResult& out) {
  (void)options;
  out.spirv.clear();
  out.diagnostics.clear();
  out.reflection = {};
  workspace_->arena.reset();

  const InputInfo info = detect_input_kind(bytecode);
  out.kind = info.kind;
  switch (info.kind) {
  case InputKind::Dxbc: return Status::error("DXBC translation: not implemented yet");
  case InputKind::D3D9: return Status::error("D3D9 translation: not implemented yet");
  default: return Status::error(std::string(info.description));
  }
}

} // namespace kiln
