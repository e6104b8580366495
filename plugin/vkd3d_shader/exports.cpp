// The public functions of vkd3d_shader.h (API 1.2), exported under the VKD3D_1_0 version node
// (vkd3d_shader.map) of a library named libvkd3d-shader.so.1. DXBC to SPIR-V is kiln's; the
// rest goes to the real library (docs/vkd3d-shader.md). No exception leaves these functions:
// each is one boundary (boundary.h) that logs what it caught and returns VKD3D_ERROR or
// VKD3D_ERROR_OUT_OF_MEMORY (a null pointer, or nothing, where the function returns no code).

#include "plugin/vkd3d_shader/boundary.h"
#include "plugin/vkd3d_shader/library.h"
#include "plugin/vkd3d_shader/signature.h"

using kiln::vkd3d::ForwardScope;
using kiln::vkd3d::guarded;
using kiln::vkd3d::guarded_value;
using kiln::vkd3d::guarded_void;
using kiln::vkd3d::Library;
using kiln::vkd3d::RealLibrary;

namespace {

// Calls the real library's function `Member` (a RealLibrary function pointer) with this thread
// marked as inside it; `unavailable` when the real library could not be loaded.
template <auto Member, typename Result, typename... Args>
Result forward(Result unavailable, Args... args) {
  const RealLibrary& real = Library::instance().real();
  if (!real.loaded()) return unavailable;
  ForwardScope scope;
  return (real.*Member)(args...);
}

template <auto Member, typename... Args>
void forward_void(Args... args) {
  const RealLibrary& real = Library::instance().real();
  if (!real.loaded()) return;
  ForwardScope scope;
  (real.*Member)(args...);
}

// A free function of a structure holding an array (`array`, `count` elements): kiln's array is
// released here and the structure emptied; one the real library allocated goes back to it
// (`Member`).
template <auto Member, typename Holder, typename Array, typename Count>
void release_array(const char* entry, Holder* holder, Array Holder::*array, Count Holder::*count) {
  guarded_void(entry, [&] {
    if (holder && holder->*array && !ForwardScope::active() &&
        Library::instance().release(holder->*array)) {
      holder->*array = nullptr;
      holder->*count = 0;
      return;
    }
    forward_void<Member>(holder);
  });
}

constexpr int kUnavailable = VKD3D_ERROR_NOT_IMPLEMENTED;

} // namespace

extern "C" {
#pragma GCC visibility push(default)

#if defined(_WIN32)
// A PE library exports what is marked dllexport (the visibility pragma is ELF's): every function
// of the API, from the one list.
#define KILN_X(name) __declspec(dllexport) decltype(name) name;
KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
#endif

const char* vkd3d_shader_get_version(unsigned int* major, unsigned int* minor) {
  const auto body = [&]() -> const char* {
    // The API level kiln implements; a call from inside the real library gets its own answer.
    if (ForwardScope::active())
      return forward<&RealLibrary::vkd3d_shader_get_version>("", major, minor);
    if (major) *major = 1;
    if (minor) *minor = 2;
    return "vkd3d-shader 1.2 (kiln)";
  };
  return guarded_value("vkd3d_shader_get_version", static_cast<const char*>(nullptr), body);
}

const enum vkd3d_shader_source_type* vkd3d_shader_get_supported_source_types(unsigned int* count) {
  const auto body = [&]() -> const vkd3d_shader_source_type* {
    static constexpr vkd3d_shader_source_type kDxbc[] = {VKD3D_SHADER_SOURCE_DXBC_TPF};
    const RealLibrary& real = Library::instance().real();
    if (real.loaded()) {
      ForwardScope scope;
      return real.vkd3d_shader_get_supported_source_types(count);
    }
    *count = 1;
    return kDxbc;
  };
  return guarded_value("vkd3d_shader_get_supported_source_types",
                       static_cast<const vkd3d_shader_source_type*>(nullptr), body);
}

const enum vkd3d_shader_target_type*
vkd3d_shader_get_supported_target_types(enum vkd3d_shader_source_type source_type,
                                        unsigned int* count) {
  const auto body = [&]() -> const vkd3d_shader_target_type* {
    static constexpr vkd3d_shader_target_type kSpirv[] = {VKD3D_SHADER_TARGET_SPIRV_BINARY};
    const RealLibrary& real = Library::instance().real();
    if (real.loaded()) {
      ForwardScope scope;
      return real.vkd3d_shader_get_supported_target_types(source_type, count);
    }
    *count = source_type == VKD3D_SHADER_SOURCE_DXBC_TPF ? 1 : 0;
    return kSpirv;
  };
  return guarded_value("vkd3d_shader_get_supported_target_types",
                       static_cast<const vkd3d_shader_target_type*>(nullptr), body);
}

int vkd3d_shader_compile(const struct vkd3d_shader_compile_info* compile_info,
                         struct vkd3d_shader_code* out, char** messages) {
  const auto body = [&]() -> int {
    if (ForwardScope::active() || !compile_info || !out)
      return forward<&RealLibrary::vkd3d_shader_compile>(kUnavailable, compile_info, out, messages);
    Library& library = Library::instance();
    library.count_compile();
    if (library.compile(*compile_info, *out)) {
      if (messages) *messages = nullptr;
      return VKD3D_OK;
    }
    return forward<&RealLibrary::vkd3d_shader_compile>(kUnavailable, compile_info, out, messages);
  };
  return guarded("vkd3d_shader_compile", body);
}

void vkd3d_shader_free_messages(char* messages) {
  const auto body = [&] {
    if (messages && !ForwardScope::active() && Library::instance().release(messages)) return;
    forward_void<&RealLibrary::vkd3d_shader_free_messages>(messages);
  };
  guarded_void("vkd3d_shader_free_messages", body);
}

void vkd3d_shader_free_shader_code(struct vkd3d_shader_code* code) {
  const auto body = [&] {
    if (code && code->code && !ForwardScope::active() && Library::instance().release(code->code))
      return;
    forward_void<&RealLibrary::vkd3d_shader_free_shader_code>(code);
  };
  guarded_void("vkd3d_shader_free_shader_code", body);
}

int vkd3d_shader_parse_root_signature(const struct vkd3d_shader_code* dxbc,
                                      struct vkd3d_shader_versioned_root_signature_desc* root,
                                      char** messages) {
  const auto body = [&]() -> int {
    return forward<&RealLibrary::vkd3d_shader_parse_root_signature>(kUnavailable, dxbc, root,
                                                                    messages);
  };
  return guarded("vkd3d_shader_parse_root_signature", body);
}

void vkd3d_shader_free_root_signature(struct vkd3d_shader_versioned_root_signature_desc* root) {
  const auto body = [&] { forward_void<&RealLibrary::vkd3d_shader_free_root_signature>(root); };
  guarded_void("vkd3d_shader_free_root_signature", body);
}

int vkd3d_shader_serialize_root_signature(
    const struct vkd3d_shader_versioned_root_signature_desc* root, struct vkd3d_shader_code* dxbc,
    char** messages) {
  const auto body = [&]() -> int {
    return forward<&RealLibrary::vkd3d_shader_serialize_root_signature>(kUnavailable, root, dxbc,
                                                                        messages);
  };
  return guarded("vkd3d_shader_serialize_root_signature", body);
}

int vkd3d_shader_convert_root_signature(
    struct vkd3d_shader_versioned_root_signature_desc* dst,
    enum vkd3d_shader_root_signature_version version,
    const struct vkd3d_shader_versioned_root_signature_desc* src) {
  const auto body = [&]() -> int {
    return forward<&RealLibrary::vkd3d_shader_convert_root_signature>(kUnavailable, dst, version,
                                                                      src);
  };
  return guarded("vkd3d_shader_convert_root_signature", body);
}

int vkd3d_shader_scan(const struct vkd3d_shader_compile_info* compile_info, char** messages) {
  const auto body = [&]() -> int {
    if (ForwardScope::active() || !compile_info)
      return forward<&RealLibrary::vkd3d_shader_scan>(kUnavailable, compile_info, messages);
    Library& library = Library::instance();
    library.count_scan();
    if (library.scan(*compile_info)) {
      if (messages) *messages = nullptr;
      return VKD3D_OK;
    }
    return forward<&RealLibrary::vkd3d_shader_scan>(kUnavailable, compile_info, messages);
  };
  return guarded("vkd3d_shader_scan", body);
}

void vkd3d_shader_free_scan_descriptor_info(struct vkd3d_shader_scan_descriptor_info* info) {
  release_array<&RealLibrary::vkd3d_shader_free_scan_descriptor_info>(
      "vkd3d_shader_free_scan_descriptor_info", info,
      &vkd3d_shader_scan_descriptor_info::descriptors,
      &vkd3d_shader_scan_descriptor_info::descriptor_count);
}

int vkd3d_shader_parse_input_signature(const struct vkd3d_shader_code* dxbc,
                                       struct vkd3d_shader_signature* signature, char** messages) {
  const auto body = [&]() -> int {
    if (!ForwardScope::active() && dxbc && signature &&
        kiln::vkd3d::parse_input_signature(Library::instance(), *dxbc, *signature)) {
      if (messages) *messages = nullptr;
      return VKD3D_OK;
    }
    return forward<&RealLibrary::vkd3d_shader_parse_input_signature>(kUnavailable, dxbc, signature,
                                                                     messages);
  };
  return guarded("vkd3d_shader_parse_input_signature", body);
}

// A lookup in the caller's structure, the same whichever library filled it.
struct vkd3d_shader_signature_element*
vkd3d_shader_find_signature_element(const struct vkd3d_shader_signature* signature,
                                    const char* semantic_name, unsigned int semantic_index,
                                    unsigned int stream_index) {
  const auto body = [&]() -> vkd3d_shader_signature_element* {
    if (!signature || !semantic_name) return nullptr;
    return kiln::vkd3d::find_signature_element(*signature, semantic_name, semantic_index,
                                               stream_index);
  };
  return guarded_value("vkd3d_shader_find_signature_element",
                       static_cast<vkd3d_shader_signature_element*>(nullptr), body);
}

void vkd3d_shader_free_shader_signature(struct vkd3d_shader_signature* signature) {
  release_array<&RealLibrary::vkd3d_shader_free_shader_signature>(
      "vkd3d_shader_free_shader_signature", signature, &vkd3d_shader_signature::elements,
      &vkd3d_shader_signature::element_count);
}

#pragma GCC visibility pop
} // extern "C"
