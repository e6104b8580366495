#include "bench/execute/translate.h"

#include "bench/child_process.h"
#include "plugin/vkd3d_shader/bindings.h"
#include "plugin/vkd3d_shader/compile_request.h"
#include "translator/dxbc/scan.h"
#include "translator/shader_input.h"

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::execute {

namespace {

vkd3d_shader_descriptor_type descriptor_type_of(ResourceBinding::Class c) {
  switch (c) {
  case ResourceBinding::Class::Srv:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_SRV;
  case ResourceBinding::Class::Uav:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
  case ResourceBinding::Class::Sampler:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER;
  default:
    return VKD3D_SHADER_DESCRIPTOR_TYPE_CBV;
  }
}

} // namespace

bool Request::build(std::span<const std::uint8_t> bytecode, std::string& why) {
  if (Status s = dxbc::scan_dxbc(bytecode, source_); !s) {
    why = "not a DXBC shader kiln scans: " + s.message();
    return false;
  }
  bytecode_ = bytecode;
  std::uint32_t next = 0;
  for (const ResourceBinding& d : source_.descriptors) {
    // Kiln's module runs with every array reduced to element 0 (descriptor_arrays.h).
    has_arrays_ |= d.array_size != 1;
    placements_.push_back({&d, false, next});
    vkd3d_shader_resource_binding b{};
    b.type = descriptor_type_of(d.register_class);
    b.register_space = d.space;
    b.register_index = d.register_index;
    b.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
    const bool buffer =
        d.register_class == ResourceBinding::Class::Cbv || d.dimension == ResourceDimension::Buffer;
    b.flags = buffer ? VKD3D_SHADER_BINDING_FLAG_BUFFER : VKD3D_SHADER_BINDING_FLAG_IMAGE;
    b.binding = {0, next++, 1};
    bindings_.push_back(b);
    if (d.register_class == ResourceBinding::Class::Uav &&
        (d.flags & ResourceBinding::UavCounter)) {
      vkd3d_shader_uav_counter_binding c{};
      c.register_space = d.space;
      c.register_index = d.register_index;
      c.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
      placements_.push_back({&d, true, next});
      c.binding = {0, next++, 1};
      counters_.push_back(c);
    }
  }
  if (!read_class_linkage(bytecode, class_linkage_, why)) {
    why = "class linkage not readable: " + why;
    return false;
  }
  if (!class_linkage_.empty()) {
    if (source_.renamed_ranges || has_arrays_) {
      // Neither the fallback layout nor the explicit array interface names the selection.
      why = "class linkage with SM5.1 descriptor ranges";
      return false;
    }
    selection_binding_ = next;
    vkd3d_shader_resource_binding b{};
    b.type = VKD3D_SHADER_DESCRIPTOR_TYPE_CBV;
    b.register_space = KILN_CLASS_LINKAGE_DEFAULT_SPACE;
    b.register_index = KILN_CLASS_LINKAGE_DEFAULT_REGISTER;
    b.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
    b.flags = VKD3D_SHADER_BINDING_FLAG_BUFFER;
    b.binding = {0, next++, 1};
    bindings_.push_back(b);
  }
  if (source_.renamed_ranges) {
    // SM5.1 ranges named by ids other than their registers: vkd3d-shader 1.2 reads a binding
    // list by those ids, so both get its fallback layout instead (set 0, declaration order),
    // which the drop-in reproduces (docs/vkd3d-shader.md, "Where descriptors land").
    bindings_.clear();
    counters_.clear();
  }
  if (has_arrays_ && source_.stage != ShaderStage::Compute && source_.stage != ShaderStage::Pixel) {
    // kiln's explicit interface below carries no stream output (none of the corpus's arrays
    // is in another stage).
    why = "descriptor array outside a compute or pixel shader";
    return false;
  }
  interface_.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
  interface_.bindings = bindings_.data();
  interface_.binding_count = unsigned(bindings_.size());
  interface_.uav_counters = counters_.data();
  interface_.uav_counter_count = unsigned(counters_.size());
  if (source_.stage == ShaderStage::Vertex || source_.stage == ShaderStage::Domain ||
      source_.stage == ShaderStage::Geometry) {
    // Every output element into buffer 0, in signature order; a geometry shader's of stream 0
    // only (one buffer captures one stream).
    for (const SignatureElement& e : source_.outputs) {
      if (!e.mask || e.stream != 0) continue;
      vkd3d_shader_transform_feedback_element x{};
      x.semantic_name = e.semantic.c_str();
      x.semantic_index = e.semantic_index;
      x.component_index = std::uint8_t(__builtin_ctz(e.mask));
      x.component_count = std::uint8_t(__builtin_popcount(e.mask));
      xfb_elements_.push_back(x);
      const char kind = e.component_type == ComponentType::UInt   ? 'u'
                        : e.component_type == ComponentType::SInt ? 'i'
                                                                  : 'f';
      for (unsigned c = 0; c < x.component_count; ++c) captured_.push_back({kind});
    }
    xfb_stride_ = unsigned(captured_.size() * 4);
    xfb_.type = VKD3D_SHADER_STRUCTURE_TYPE_TRANSFORM_FEEDBACK_INFO;
    xfb_.elements = xfb_elements_.data();
    xfb_.element_count = unsigned(xfb_elements_.size());
    xfb_.buffer_strides = &xfb_stride_;
    xfb_.buffer_stride_count = 1;
    interface_.next = &xfb_;
  }
  target_.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
  target_.next = &interface_;
  target_.entry_point = "main";
  target_.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
  info_.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info_.next = &target_;
  info_.source = {bytecode.data(), bytecode.size()};
  info_.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  info_.log_level = VKD3D_SHADER_LOG_ERROR;
  info_.source_name = "kiln-execute";
  return true;
}

namespace {

// kiln's options for a request with descriptor arrays, which the drop-in forwards: what
// read_compile_request() makes of the harness's request (Vulkan 1.0, vkd3d-shader's interface
// convention, the optional features vkd3d-shader 1.2 uses unasked), with every descriptor at
// the request's binding, a range of several registers as one binding holding an array.
vkd3d::CompileRequest kiln_options_with_arrays(std::span<const std::uint8_t> bytecode,
                                               const std::vector<Request::Placement>& placements) {
  vkd3d::CompileRequest compile;
  compile.input = read_shader_input(bytecode);
  std::shared_ptr<ShaderInterface> interface = vkd3d::vkd3d_request_interface();
  for (const Request::Placement& p : placements) {
    const ResourceBinding& d = *p.descriptor;
    if (p.counter) {
      UavCounterBinding counter;
      counter.space = d.space;
      counter.register_index = d.register_index;
      counter.form = UavCounterBinding::Form::StorageTexelBuffer;
      counter.binding = p.binding;
      interface->uav_counters.push_back(counter);
      continue;
    }
    BindingRange range;
    range.register_class = vkd3d::class_of(d.register_class);
    range.flags = std::uint8_t((vkd3d::is_buffer(d) ? BindingRange::Buffer : BindingRange::Image) |
                               (d.array_size != 1 ? BindingRange::Array : 0));
    range.buffer_form = BindingRange::BufferForm::TexelBuffer; // as vkd3d-shader 1.2 reads them
    range.space = d.space;
    range.first_register = d.register_index;
    range.register_count = d.array_size ? d.array_size : kRegistersUnbounded;
    range.binding = p.binding;
    interface->bindings.push_back(range);
  }
  vkd3d::finish_vkd3d_request(std::move(interface), compile.options);
  return compile;
}

} // namespace

Translation translate_with_kiln(Translator& translator, const Request& request,
                                Reflection& reflection,
                                std::span<const ClassInstance> fixed_instances) {
  Translation out;
  vkd3d::CompileRequest compile;
  vkd3d::ForwardReason reason{};
  if (request.has_descriptor_arrays()) {
    compile = kiln_options_with_arrays(request.bytecode(), request.placements());
  } else if (!vkd3d::read_compile_request(request.info(), compile, reason)) {
    out.forwarded = true;
    out.error = "kiln's drop-in forwards this request (" +
                std::string(vkd3d::forward_reason_name(reason)) + ")";
    return out;
  }
  if (!request.class_linkage().empty() && compile.options.interface) {
    // The drop-in places the descriptors the shader declares, which the selection buffer is
    // not: it goes where the request's binding list puts it, or is replaced by the baked-in
    // selection.
    auto linked = std::make_shared<ShaderInterface>(*compile.options.interface);
    if (fixed_instances.empty()) {
      BindingRange selection;
      selection.register_class = DescriptorClass::Cbv;
      selection.flags = BindingRange::Buffer;
      selection.space = linked->class_linkage.space;
      selection.first_register = linked->class_linkage.register_index;
      selection.binding = request.selection_binding();
      linked->bindings.push_back(selection);
    } else {
      linked->class_linkage.fixed_instances.assign(fixed_instances.begin(), fixed_instances.end());
    }
    compile.options.interface = std::move(linked);
  }
  TranslateResult result;
  if (Status s = translator.translate(compile.input, compile.options, result); !s) {
    out.error = s.message();
    return out;
  }
  out.spirv = std::move(result.spirv);
  reflection = std::move(result.reflection);
  return out;
}

Translation translate_with_vkd3d(const vkd3d::RealLibrary& library, const Request& request) {
  Translation out;
  if (!library.loaded()) {
    out.error = "libvkd3d-shader not loaded: " + library.error();
    return out;
  }
  const bench::ChildOutcome child = bench::run_in_child([&] {
    vkd3d_shader_code code{};
    char* messages = nullptr;
    const int rc = library.vkd3d_shader_compile(&request.info(), &code, &messages);
    std::string payload;
    if (rc < 0) {
      payload = std::string("E") + vkd3d::result_name(rc);
      if (std::string first = vkd3d::first_message_line(messages); !first.empty())
        payload += ": " + first;
    } else {
      payload = "S";
      payload.append(static_cast<const char*>(code.code), code.size);
    }
    return payload;
  });
  const std::string& bytes = child.payload;
  if (child.end == bench::ChildOutcome::End::Unknown) {
    out.error = "could not run vkd3d-shader in a child process";
  } else if (child.end == bench::ChildOutcome::End::Signalled) {
    out.crashed = true;
    out.error = std::string("vkd3d-shader crashed (") + strsignal(child.signal) + ")";
  } else if (bytes.empty() || (bytes[0] != 'S' && bytes[0] != 'E')) {
    out.error = "vkd3d-shader's child exited without a result";
  } else if (bytes[0] == 'E') {
    out.error = bytes.substr(1);
  } else {
    out.spirv.resize((bytes.size() - 1) / 4);
    std::memcpy(out.spirv.data(), bytes.data() + 1, out.spirv.size() * 4);
  }
  return out;
}

} // namespace kiln::execute
