#include "translator/spirv/validate.h"

#include <spirv-tools/libspirv.hpp>
#include <string>

namespace kiln {

namespace {
spv_target_env to_spv_env(SpirvTarget target) {
  switch (target) {
  case SpirvTarget::Vulkan10:
    return SPV_ENV_VULKAN_1_0;
  case SpirvTarget::Vulkan11:
    return SPV_ENV_VULKAN_1_1;
  case SpirvTarget::Vulkan12:
    return SPV_ENV_VULKAN_1_2;
  case SpirvTarget::Vulkan13:
    return SPV_ENV_VULKAN_1_3;
  }
  return SPV_ENV_VULKAN_1_3;
}
} // namespace

Status validate_spirv(std::span<const std::uint32_t> words, SpirvTarget target) {
  if (words.empty()) return Status::error("empty module");
  spvtools::SpirvTools tools(to_spv_env(target));
  std::string first_message;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        if (first_message.empty())
          first_message = std::string(message) + " (word " + std::to_string(position.index) + ")";
      });
  if (tools.Validate(words.data(), words.size())) return Status::ok();
  return Status::error(first_message.empty() ? "validation failed" : first_message);
}

} // namespace kiln
