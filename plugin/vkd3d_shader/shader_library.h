#pragma once
// A libvkd3d-shader (the vkd3d-shader 1.2 C API of Debian's libvkd3d-headers) opened with
// dlopen: the function table of the whole API. The drop-in forwards to the system's library
// through it (real_library.h); the bench's peer and the conformance runner's vkd3d source open
// whichever library the dynamic linker finds, so LD_LIBRARY_PATH can point them at kiln's.

#include <cstddef> // vkd3d_shader.h uses size_t without including it
#include <string>
#include <vkd3d_shader.h>

namespace kiln::vkd3d {

// Every function of the vkd3d-shader 1.2 API: X(name). One list, used for the function table,
// the forwarding wrappers' checks and the test that the drop-in exports exactly these.
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

class ShaderLibrary {
 public:
  // dlopen(name_or_path, RTLD_NOW | RTLD_LOCAL): a bare name goes through the dynamic linker's
  // search (LD_LIBRARY_PATH first). Local, so the library's symbols never interpose. On
  // Windows, LoadLibrary (shared_object.h).
  explicit ShaderLibrary(const std::string& name_or_path);
  ~ShaderLibrary();
  ShaderLibrary(const ShaderLibrary&) = delete;
  ShaderLibrary& operator=(const ShaderLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; } // why it is not loaded
  // vkd3d_shader_get_version()'s text ("vkd3d-shader 1.2"), or "" when not loaded.
  std::string version() const;

#define KILN_X(name) PFN_##name name = nullptr;
  KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X

 protected:
  ShaderLibrary() = default; // for a subclass that decides what to open
  void open(const std::string& name_or_path);
  std::string path_;
  std::string error_;

 private:
  void* handle_ = nullptr;
};

// vkd3d_result's name ("VKD3D_ERROR_INVALID_SHADER"), so rejections group by their meaning.
const char* result_name(int result);

// The first line of a vkd3d message log (empty for none).
std::string first_message_line(const char* messages);

} // namespace kiln::vkd3d
