#include "tests/conformance/shader_source.h"

#include "plugin/vkd3d_shader/shader_library.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/signature.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <spirv/unified1/spirv.hpp>

namespace kiln::conformance {

// ---- kiln -----------------------------------------------------------------------------------

std::shared_ptr<const ShaderInterface> runner_interface(std::uint32_t push_cb0_bytes) {
  auto layout = std::make_shared<ShaderInterface>();
  constexpr std::uint32_t kSpaces = 4;
  for (std::uint32_t stage = 0; stage < std::uint32_t(ShaderStage::Count); ++stage) {
    const StageMask visible = stage_bit(ShaderStage(stage));
    for (std::uint32_t space = 0; space < kSpaces; ++space) {
      const std::uint32_t base = (stage * kSpaces + space) * kLayoutBlock;
      const auto range = [&](DescriptorClass c, std::uint8_t flags, std::uint32_t at,
                             BindingRange::BufferForm form =
                                 BindingRange::BufferForm::StorageBuffer) {
        BindingRange r;
        r.register_class = c;
        r.flags = flags;
        r.buffer_form = form;
        r.space = space;
        r.first_register = 0;
        r.register_count = kRegistersUnbounded;
        r.stages = visible;
        r.set = 0;
        r.binding = base + at;
        layout->bindings.push_back(r);
      };
      range(DescriptorClass::Cbv, 0, 0);
      range(DescriptorClass::Srv, BindingRange::Image, 16);
      range(DescriptorClass::Srv, BindingRange::Buffer, 16, BindingRange::BufferForm::TexelBuffer);
      range(DescriptorClass::Uav, BindingRange::Image, 144);
      range(DescriptorClass::Uav, BindingRange::Buffer, 144, BindingRange::BufferForm::TexelBuffer);
      range(DescriptorClass::Sampler, 0, 272);
      for (std::uint32_t u = 0; u < 64; ++u) {
        UavCounterBinding counter;
        counter.space = space;
        counter.register_index = u;
        counter.stages = visible;
        counter.form = UavCounterBinding::Form::StorageTexelBuffer;
        counter.binding = base + 208 + u;
        layout->uav_counters.push_back(counter);
      }
    }
  }
  if (push_cb0_bytes) layout->push_constant_buffers.push_back({0, 0, 0, 0, push_cb0_bytes});
  return layout;
}

Status KilnShaderSource::translate(std::span<const std::uint8_t> bytecode, StageProgram& out) {
  return translate_with(bytecode, nullptr, out);
}

Status KilnShaderSource::translate_with(std::span<const std::uint8_t> bytecode,
                                        const std::shared_ptr<const ShaderInterface>& interface,
                                        StageProgram& out) {
  TranslateOptions options;
  // The runner's layout with the case's render state: one interface, as a layer passes it.
  if (interface && interface_) {
    auto combined = std::make_shared<ShaderInterface>(*interface);
    combined->bindings = interface_->bindings;
    combined->push_constant_buffers = interface_->push_constant_buffers;
    combined->combined_samplers = interface_->combined_samplers;
    combined->uav_counters = interface_->uav_counters;
    options.interface = std::move(combined);
  } else {
    options.interface = interface ? interface : interface_;
  }
  if (Status s = translator_.translate(bytecode, options, result_); !s) return s;
  // Invalid SPIR-V can bring lavapipe down; it is a failure of kiln, reported as one.
  out = StageProgram{};
  if (Status s = validate_spirv(result_.spirv, options.target); !s) {
    out.invalid = "invalid SPIR-V (spirv-val): " + s.message();
    return Status::ok();
  }
  out.spirv = std::move(result_.spirv);
  out.entry_point = spirv_entry_point(out.spirv);
  out.has_resources = true;
  out.resources = result_.reflection.resources;
  out.inputs = result_.reflection.inputs;
  out.outputs = result_.reflection.outputs;
  if (out.inputs.empty() && result_.kind == InputKind::Dxbc) {
    // Reflection without inputs: fall back to the signature (location = input register).
    if (Status s = dxbc_vertex_inputs(bytecode, out.inputs); !s) out.inputs.clear();
  }
  return Status::ok();
}

// ---- vkd3d ----------------------------------------------------------------------------------

namespace {

constexpr std::uint32_t kRegistersPerClass = 32;

} // namespace

Vkd3dShaderSource::Vkd3dShaderSource() {
  setenv("VKD3D_SHADER_DEBUG", "none", /*overwrite=*/0);
  // By SONAME, so LD_LIBRARY_PATH can point the runner at kiln's drop-in.
  library_ = std::make_unique<vkd3d::ShaderLibrary>("libvkd3d-shader.so.1");
  if (!library_->loaded()) {
    note_ =
        "libvkd3d-shader.so.1 not usable (Debian package libvkd3d-shader1): " + library_->error();
    library_.reset();
    return;
  }
  note_ = library_->path();
}

Vkd3dShaderSource::~Vkd3dShaderSource() = default;

Status Vkd3dShaderSource::translate(std::span<const std::uint8_t> bytecode, StageProgram& out) {
  return translate_with(bytecode, nullptr, out);
}

Status Vkd3dShaderSource::translate_with(std::span<const std::uint8_t> bytecode,
                                         const std::shared_ptr<const ShaderInterface>& layer,
                                         StageProgram& out) {
  if (!available()) return Status::error("vkd3d-shader not available: " + note_);
  if (bytecode.size() < 4 || std::memcmp(bytecode.data(), "DXBC", 4) != 0)
    return Status::error("vkd3d-shader 1.2 reads DXBC only");
  // Every register of every class the tests use, at kiln's binding numbers.
  std::vector<vkd3d_shader_resource_binding> bindings;
  const vkd3d_shader_descriptor_type types[] = {
      VKD3D_SHADER_DESCRIPTOR_TYPE_CBV, VKD3D_SHADER_DESCRIPTOR_TYPE_SRV,
      VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER};
  const ResourceBinding::Class classes[] = {
      ResourceBinding::Class::Cbv, ResourceBinding::Class::Srv, ResourceBinding::Class::Uav,
      ResourceBinding::Class::Sampler};
  for (std::uint32_t c = 0; c < 4; ++c)
    for (std::uint32_t r = 0; r < kRegistersPerClass; ++r) {
      vkd3d_shader_resource_binding binding{};
      binding.type = types[c];
      binding.register_index = r;
      binding.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
      binding.flags = VKD3D_SHADER_BINDING_FLAG_BUFFER | VKD3D_SHADER_BINDING_FLAG_IMAGE;
      binding.binding = {0, kiln_binding(classes[c], r), 1};
      bindings.push_back(binding);
    }
  vkd3d_shader_interface_info interface {};
  interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
  interface.bindings = bindings.data();
  interface.binding_count = unsigned(bindings.size());
  vkd3d_shader_parameter sample_count{};
  sample_count.name = VKD3D_SHADER_PARAMETER_NAME_RASTERIZER_SAMPLE_COUNT;
  sample_count.type = VKD3D_SHADER_PARAMETER_TYPE_IMMEDIATE_CONSTANT;
  sample_count.data_type = VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32;
  sample_count.u.immediate_constant.u.u32 = 1;
  vkd3d_shader_spirv_target_info target{};
  target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
  target.next = &interface;
  target.entry_point = "main";
  target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
  if (const ShaderParameter* p =
          layer ? layer->parameter(ParameterName::RASTERIZER_SAMPLE_COUNT) : nullptr) {
    if (p->type == ShaderParameter::Type::SpecializationConstant) {
      sample_count.type = VKD3D_SHADER_PARAMETER_TYPE_SPECIALIZATION_CONSTANT;
      sample_count.u.specialization_constant.id = p->value[0];
    } else {
      sample_count.u.immediate_constant.u.u32 = p->value[0];
    }
    target.parameters = &sample_count;
    target.parameter_count = 1;
  }
  vkd3d_shader_compile_info info{};
  info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info.next = &target;
  info.source = {bytecode.data(), bytecode.size()};
  info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  info.log_level = VKD3D_SHADER_LOG_ERROR;
  info.source_name = "kiln-conformance";
  vkd3d_shader_code code{nullptr, 0};
  char* messages = nullptr;
  const int rc = library_->vkd3d_shader_compile(&info, &code, &messages);
  std::string error;
  if (rc < 0) {
    error = std::string("vkd3d_shader_compile failed (") + vkd3d::result_name(rc) + ")";
    if (std::string first = vkd3d::first_message_line(messages); !first.empty())
      error += ": " + first;
  } else {
    out = StageProgram{};
    out.spirv.resize(code.size / 4);
    std::memcpy(out.spirv.data(), code.code, out.spirv.size() * 4);
    out.entry_point = spirv_entry_point(out.spirv);
  }
  if (code.code) library_->vkd3d_shader_free_shader_code(&code);
  if (messages) library_->vkd3d_shader_free_messages(messages);
  if (rc < 0) return Status::error(error);
  if (Status s = dxbc_vertex_inputs(bytecode, out.inputs); !s) return s;
  return Status::ok();
}

// ---- helpers --------------------------------------------------------------------------------

std::string spirv_entry_point(std::span<const std::uint32_t> words) {
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) break;
    if ((words[i] & 0xffff) == spv::OpEntryPoint && count > 3) {
      const char* text = reinterpret_cast<const char*>(&words[i + 3]);
      const std::size_t limit = (count - 3) * 4;
      return std::string(text, strnlen(text, limit));
    }
    i += count;
  }
  return "main";
}

Status dxbc_vertex_inputs(std::span<const std::uint8_t> bytecode,
                          std::vector<SignatureElement>& out) {
  out.clear();
  dxbc::Container container;
  if (Status s = dxbc::parse_container(bytecode, container); !s) return s;
  if (!container.input.present()) return Status::ok();
  dxbc::PodArray<dxbc::SignatureElement> elements;
  if (Status s = dxbc::parse_signature(container.input, elements); !s) return s;
  for (const dxbc::SignatureElement& e : elements) {
    SignatureElement element;
    element.semantic = std::string(e.semantic_name);
    element.semantic_index = e.semantic_index;
    element.location = e.register_index;
    element.component_mask = e.mask;
    if (e.system_value != 0) element.builtin = e.system_value; // D3D_NAME, not spv::BuiltIn
    out.push_back(std::move(element));
  }
  return Status::ok();
}

} // namespace kiln::conformance
