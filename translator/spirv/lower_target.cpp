// SPIR-V backend: what the target environment and the layer's enabled extensions allow
// (docs/abi.md, "Extensions and fallbacks"). Every lowering that needs an optional feature asks
// here, so the policy (enabled, core in the target, or the fallback) is decided in one place.
#include "translator/spirv/lower_state.h"

namespace kiln::spirv {

bool Lowering::State::extension_enabled(Extension e) const {
  if (!options.interface) return true; // kiln's own model: everything available
  if (options.interface->extensions & extension_bit(e)) return true;
  const std::uint32_t core = extension_info(e).core_in_vulkan_minor;
  return core != kNeverCore && vulkan_minor_version(options.target) >= core;
}

bool Lowering::State::missing_extension(ir::SsaDef def, std::string_view what, Extension e) {
  const ExtensionInfo info = extension_info(e);
  std::string message(what);
  message += " needs ";
  message += info.vulkan_extension;
  message += " (kiln extension '";
  message += info.cli_name;
  message += "'), which the interface does not enable";
  return fail(at(def), message);
}

void Lowering::State::use_spirv_extension(Extension e) {
  const ExtensionInfo info = extension_info(e);
  // Core SPIR-V from this version on: no OpExtension.
  std::uint32_t core_spirv_minor = 0xff;
  switch (e) {
  case Extension::DemoteToHelperInvocation:
    core_spirv_minor = 6;
    break;
  case Extension::DescriptorIndexing:
    core_spirv_minor = 5;
    break;
  case Extension::ShaderDrawParameters:
    core_spirv_minor = 3;
    break;
  default:
    break;
  }
  if (!info.spirv_extension.empty() && !spirv_at_least(options.target, core_spirv_minor))
    mb.require_extension(info.spirv_extension);
}

spv::StorageClass Lowering::State::storage_buffer_class() const {
  // SPIR-V 1.0 has no StorageBuffer storage class without SPV_KHR_storage_buffer_storage_class;
  // a Uniform BufferBlock is the same descriptor (VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) in every
  // Vulkan 1.0 implementation.
  return spirv_at_least(options.target, 3) ? spv::StorageClassStorageBuffer
                                           : spv::StorageClassUniform;
}

spv::Decoration Lowering::State::storage_block_decoration() const {
  return spirv_at_least(options.target, 3) ? spv::DecorationBlock : spv::DecorationBufferBlock;
}

Id Lowering::State::discard_function() {
  // Called where Demote would be: OpKill is a terminator, but a call is not, so the caller's
  // block (and the phis naming it) stays whole.
  if (!discard_function_id) discard_function_id = mb.allocate_id();
  return discard_function_id;
}

void Lowering::State::emit_discard_function() {
  if (!discard_function_id) return;
  const Id void_type = mb.type_void();
  mb.begin_function(void_type, spv::FunctionControlMaskNone, mb.type_function(void_type, {}),
                    discard_function_id);
  mb.label();
  mb.op_void(spv::OpKill, {});
  mb.end_function();
}

void Lowering::State::emit_demote() {
  if (!extension_enabled(Extension::DemoteToHelperInvocation)) {
    // Fallback: the invocation ends (OpKill); it no longer helps its quad's derivatives.
    mb.op(spv::OpFunctionCall, mb.type_void(), {discard_function()});
    return;
  }
  mb.require_capability(spv::CapabilityDemoteToHelperInvocation);
  use_spirv_extension(Extension::DemoteToHelperInvocation);
  mb.op_void(spv::OpDemoteToHelperInvocation, {});
}

} // namespace kiln::spirv
