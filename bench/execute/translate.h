#pragma once
// The one request both translators get (docs/execution.md, "Same layout for both"): a
// vkd3d_shader_compile_info with an explicit vkd3d_shader_interface_info that binds every
// descriptor the bytecode declares (kiln's scan) at its own binding of set 0, in declaration
// order, each UAV counter right after. kiln translates it through its drop-in's reading of the
// request (plugin/vkd3d_shader/compile_request.h, never forwarded); Debian's libvkd3d-shader 1.2
// translates it in a forked child, since it aborts on some shaders.

#include "bench/execute/class_linkage.h"
#include "plugin/vkd3d_shader/real_library.h"
#include "translator/common/reflection.h"
#include "translator/translate.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::execute {

class Request {
 public:
  // Scans `bytecode` (kept by reference: it must outlive the request). False with `why` set
  // when the bytecode cannot be scanned.
  bool build(std::span<const std::uint8_t> bytecode, std::string& why);
  Request() = default;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  const vkd3d_shader_compile_info& info() const { return info_; }
  const SourceReflection& source() const { return source_; }
  std::span<const std::uint8_t> bytecode() const { return bytecode_; }

  // A vertex or domain shader's outputs (a geometry shader's of stream 0), all captured by
  // transform feedback into buffer 0 in signature order (the request's
  // vkd3d_shader_transform_feedback_info): what each captured word is.
  struct CapturedWord {
    char kind = 'f'; // the element's component type: 'f', 'u', 'i'
  };
  const std::vector<CapturedWord>& captured() const { return captured_; }

  // The shader declares an SM5.1 descriptor array. vkd3d-shader 1.2 takes a binding of count 1
  // for it (a larger count is VKD3D_ERROR_INVALID_SHADER) and declares one descriptor, whatever
  // the index; kiln's drop-in forwards such requests, so kiln's translation gets the same
  // placement as an explicit interface with array bindings (kiln_options_with_arrays()).
  bool has_descriptor_arrays() const { return has_arrays_; }
  // Where each declared descriptor (and UAV counter) sits, as both translations place it.
  struct Placement {
    const ResourceBinding* descriptor = nullptr;
    bool counter = false;      // the UAV counter of `descriptor`
    std::uint32_t binding = 0; // in set 0
  };
  const std::vector<Placement>& placements() const { return placements_; }

  // A shader with class linkage: its interfaces, and the binding of set 0 the request gives
  // kiln's selection buffer (cb14 of space 0, after the declared descriptors; vkd3d-shader 1.2
  // gets the binding too and declares nothing there). See docs/execution.md, "Class linkage".
  const ClassLinkageFacts& class_linkage() const { return class_linkage_; }
  std::uint32_t selection_binding() const { return selection_binding_; }

 private:
  SourceReflection source_;
  std::vector<vkd3d_shader_resource_binding> bindings_;
  std::vector<vkd3d_shader_uav_counter_binding> counters_;
  vkd3d_shader_interface_info interface_{};
  std::vector<vkd3d_shader_transform_feedback_element> xfb_elements_;
  unsigned xfb_stride_ = 0;
  vkd3d_shader_transform_feedback_info xfb_{};
  std::vector<CapturedWord> captured_;
  bool has_arrays_ = false;
  std::vector<Placement> placements_;
  ClassLinkageFacts class_linkage_;
  std::uint32_t selection_binding_ = 0;
  std::span<const std::uint8_t> bytecode_;
  vkd3d_shader_spirv_target_info target_{};
  vkd3d_shader_compile_info info_{};
};

struct Translation {
  std::vector<std::uint32_t> spirv;
  std::string error;      // empty when translated
  bool crashed = false;   // the translator died (vkd3d: in its child)
  bool forwarded = false; // kiln's drop-in would hand the request to the system library
  explicit operator bool() const { return error.empty(); }
};

// kiln's translation of the request; `reflection` gets the descriptors where the module put
// them. A request with descriptor arrays is translated under an explicit interface that puts
// each range where the request puts it, as one binding of an array of descriptors
// (docs/execution.md, "Descriptor arrays").
// With `fixed_instances`, the request's class-instance selection is baked into the module
// (kiln's fixed instances) instead of read from the selection buffer.
Translation translate_with_kiln(Translator& translator, const Request& request,
                                Reflection& reflection,
                                std::span<const ClassInstance> fixed_instances = {});

// Debian's libvkd3d-shader's translation, in a child process (a crash or a hang past 30 s is
// reported, not inherited).
Translation translate_with_vkd3d(const vkd3d::RealLibrary& library, const Request& request);

} // namespace kiln::execute
