#pragma once
// The system's real libvkd3d-shader, which kiln's drop-in forwards to for everything it does
// not translate itself (docs/vkd3d-shader.md). It is loaded by its full path, never by the
// SONAME kiln's library now owns, and kept local (RTLD_LOCAL) so its symbols do not interpose.
//
// The real library calls its own exported functions through the PLT (vkd3d_shader_compile
// calls vkd3d_shader_scan, ...), and the dynamic linker resolves those calls to the first
// definition in the global scope: kiln's. ForwardScope marks the calling thread as being
// inside the real library, and every exported function checks it first, so such calls go
// straight back to the real implementation.

#include <cstddef> // vkd3d_shader.h uses size_t without including it
#include <string>
#include <vkd3d_shader.h>

namespace kiln::vkd3d {

// Every function of the vkd3d-shader 1.2 API: X(name). One list, used for the function table,
// the forwarding wrappers' checks and the test that the library exports exactly these.
#define KILN_VKD3D_SHADER_FUNCTIONS(X)                                                             \
  X(vkd3d_shader_get_version)                                                                      \
  X(vkd3d_shader_get_supported_source_types)                                                       \
  X(vkd3d_shader_get_supported_target_types)                                                       \
  X(vkd3d_shader_compile)                                                                          \
  X(vkd3d_shader_free_messages)                                                                    \
  X(vkd3d_shader_free_shader_code)                                                                 \
  X(vkd3d_shader_parse_root_signature)                                                             \
  X(vkd3d_shader_free_root_signature)                                                              \
  X(vkd3d_shader_serialize_root_signature)                                                         \
  X(vkd3d_shader_convert_root_signature)                                                           \
  X(vkd3d_shader_scan)                                                                             \
  X(vkd3d_shader_free_scan_descriptor_info)                                                        \
  X(vkd3d_shader_parse_input_signature)                                                            \
  X(vkd3d_shader_find_signature_element)                                                           \
  X(vkd3d_shader_free_shader_signature)

class RealLibrary {
 public:
  // Loads `path` (empty: $KILN_VKD3D_SHADER_REAL, else the path found at build time).
  explicit RealLibrary(std::string path = {});
  ~RealLibrary();
  RealLibrary(const RealLibrary&) = delete;
  RealLibrary& operator=(const RealLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; } // why it is not loaded

#define KILN_X(name) PFN_##name name = nullptr;
  KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X

 private:
  void* handle_ = nullptr;
  std::string path_;
  std::string error_;
};

// Marks the calling thread as running inside the real library for its lifetime.
class ForwardScope {
 public:
  ForwardScope();
  ~ForwardScope();
  ForwardScope(const ForwardScope&) = delete;
  ForwardScope& operator=(const ForwardScope&) = delete;
  // True while the calling thread is inside a forwarded call.
  static bool active();
};

} // namespace kiln::vkd3d
