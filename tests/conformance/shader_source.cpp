#include "tests/conformance/shader_source.h"

#include "translator/dxbc/container.h"
#include "translator/dxbc/signature.h"
#include "translator/spirv/validate.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
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

// The declarations of vkd3d_shader.h (1.2 ABI) this file uses; enums are 32-bit there.
enum Vkd3dConstant : std::uint32_t {
  kCompileInfo = 0,
  kInterfaceInfo = 1,
  kSpirvTargetInfo = 4,
  kEnvironmentVulkan10 = 2,
  kParameterSampleCount = 1,
  kParameterImmediate = 1,
  kParameterSpecializationConstant = 2,
  kParameterUint32 = 1,
  kSourceDxbcTpf = 1,
  kTargetSpirvBinary = 1,
  kLogLevelError = 1,
  kDescriptorSrv = 0,
  kDescriptorUav = 1,
  kDescriptorCbv = 2,
  kDescriptorSampler = 3,
  kVisibilityAll = 0,
  kBindingBufferAndImage = 3,
};

struct Vkd3dCode {
  const void* code;
  std::size_t size;
};

struct Vkd3dCompileInfo {
  std::uint32_t type;
  const void* next;
  Vkd3dCode source;
  std::uint32_t source_type;
  std::uint32_t target_type;
  const void* options;
  unsigned int option_count;
  std::uint32_t log_level;
  const char* source_name;
};

struct Vkd3dResourceBinding {
  std::uint32_t type;
  unsigned int register_space;
  unsigned int register_index;
  std::uint32_t shader_visibility;
  unsigned int flags;
  unsigned int set, binding, count;
};

struct Vkd3dParameter {
  std::uint32_t name;
  std::uint32_t type;
  std::uint32_t data_type;
  std::uint32_t value; // the immediate u32, or the specialization constant's id
};

struct Vkd3dSpirvTargetInfo {
  std::uint32_t type;
  const void* next;
  const char* entry_point;
  std::uint32_t environment;
  const std::uint32_t* extensions;
  unsigned int extension_count;
  const Vkd3dParameter* parameters;
  unsigned int parameter_count;
  bool dual_source_blending;
  const unsigned int* output_swizzles;
  unsigned int output_swizzle_count;
};

struct Vkd3dInterfaceInfo {
  std::uint32_t type;
  const void* next;
  const Vkd3dResourceBinding* bindings;
  unsigned int binding_count;
  const void* push_constant_buffers;
  unsigned int push_constant_buffer_count;
  const void* combined_samplers;
  unsigned int combined_sampler_count;
  const void* uav_counters;
  unsigned int uav_counter_count;
};

constexpr std::uint32_t kRegistersPerClass = 32;

} // namespace

Vkd3dShaderSource::Vkd3dShaderSource() {
  setenv("VKD3D_SHADER_DEBUG", "none", /*overwrite=*/0);
  for (const char* name : {"libvkd3d-shader.so.1", "libvkd3d-shader.so"}) {
    if ((library_ = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      note_ = name;
      break;
    }
  }
  if (library_ == nullptr) {
    note_ = "libvkd3d-shader.so.1 not found (Debian package libvkd3d-shader1)";
    return;
  }
  compile_ = reinterpret_cast<decltype(compile_)>(dlsym(library_, "vkd3d_shader_compile"));
  free_code_ =
      reinterpret_cast<decltype(free_code_)>(dlsym(library_, "vkd3d_shader_free_shader_code"));
  free_messages_ =
      reinterpret_cast<decltype(free_messages_)>(dlsym(library_, "vkd3d_shader_free_messages"));
  if (!compile_ || !free_code_ || !free_messages_) {
    compile_ = nullptr;
    note_ += ": not the vkd3d-shader 1.x ABI";
  }
}

Vkd3dShaderSource::~Vkd3dShaderSource() {
  if (library_ != nullptr) dlclose(library_);
}

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
  std::vector<Vkd3dResourceBinding> bindings;
  const std::uint32_t types[] = {kDescriptorCbv, kDescriptorSrv, kDescriptorUav,
                                 kDescriptorSampler};
  const ResourceBinding::Class classes[] = {
      ResourceBinding::Class::Cbv, ResourceBinding::Class::Srv, ResourceBinding::Class::Uav,
      ResourceBinding::Class::Sampler};
  for (std::uint32_t c = 0; c < 4; ++c)
    for (std::uint32_t r = 0; r < kRegistersPerClass; ++r)
      bindings.push_back({types[c], 0, r, kVisibilityAll, kBindingBufferAndImage, 0,
                          kiln_binding(classes[c], r), 1});
  Vkd3dInterfaceInfo interface {};
  interface.type = kInterfaceInfo;
  interface.bindings = bindings.data();
  interface.binding_count = unsigned(bindings.size());
  Vkd3dParameter sample_count{kParameterSampleCount, kParameterImmediate, kParameterUint32, 1};
  Vkd3dSpirvTargetInfo target{};
  target.type = kSpirvTargetInfo;
  target.next = &interface;
  target.entry_point = "main";
  target.environment = kEnvironmentVulkan10;
  if (const ShaderParameter* p =
          layer ? layer->parameter(ParameterName::RASTERIZER_SAMPLE_COUNT) : nullptr) {
    const bool spec = p->type == ShaderParameter::Type::SpecializationConstant;
    sample_count.type = spec ? kParameterSpecializationConstant : kParameterImmediate;
    sample_count.value = p->value[0];
    target.parameters = &sample_count;
    target.parameter_count = 1;
  }
  Vkd3dCompileInfo info{};
  info.type = kCompileInfo;
  info.next = &target;
  info.source = {bytecode.data(), bytecode.size()};
  info.source_type = kSourceDxbcTpf;
  info.target_type = kTargetSpirvBinary;
  info.log_level = kLogLevelError;
  info.source_name = "kiln-conformance";
  Vkd3dCode code{nullptr, 0};
  char* messages = nullptr;
  const int rc = compile_(&info, &code, &messages);
  std::string error;
  if (rc < 0) {
    error = "vkd3d_shader_compile failed (" + std::to_string(rc) + ")";
    if (messages && *messages) {
      std::string first = messages;
      first.resize(std::min(first.find('\n'), first.size()));
      error += ": " + first;
    }
  } else {
    out = StageProgram{};
    out.spirv.resize(code.size / 4);
    std::memcpy(out.spirv.data(), code.code, out.spirv.size() * 4);
    out.entry_point = spirv_entry_point(out.spirv);
  }
  if (code.code) free_code_(&code);
  if (messages) free_messages_(messages);
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
