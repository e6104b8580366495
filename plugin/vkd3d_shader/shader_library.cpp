#include "plugin/vkd3d_shader/shader_library.h"

#include "plugin/vkd3d_shader/shared_object.h"

namespace kiln::vkd3d {

ShaderLibrary::ShaderLibrary(const std::string& name_or_path) {
  open(name_or_path);
}

void ShaderLibrary::open(const std::string& name_or_path) {
  path_ = name_or_path;
  Result<void*> opened = open_shared_object(path_);
  if (!opened) {
    error_ = opened.status().message();
    return;
  }
  handle_ = opened.value();
  bool complete = true;
#define KILN_X(name)                                                                               \
  name = reinterpret_cast<PFN_##name>(find_shared_object_symbol(handle_, #name));                  \
  complete = complete && name != nullptr;
  KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
  if (!complete) {
    error_ = path_ + ": not a vkd3d-shader 1.2 library (a function is missing)";
    close_shared_object(handle_);
    handle_ = nullptr;
#define KILN_X(name) name = nullptr;
    KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
  }
}

ShaderLibrary::~ShaderLibrary() {
  if (handle_) close_shared_object(handle_);
}

std::string ShaderLibrary::version() const {
  const char* text =
      vkd3d_shader_get_version ? vkd3d_shader_get_version(nullptr, nullptr) : nullptr;
  return text ? text : "";
}

const char* result_name(int result) {
  switch (result) {
  case VKD3D_OK:
    return "VKD3D_OK";
  case VKD3D_ERROR:
    return "VKD3D_ERROR";
  case VKD3D_ERROR_OUT_OF_MEMORY:
    return "VKD3D_ERROR_OUT_OF_MEMORY";
  case VKD3D_ERROR_INVALID_ARGUMENT:
    return "VKD3D_ERROR_INVALID_ARGUMENT";
  case VKD3D_ERROR_NOT_IMPLEMENTED:
    return "VKD3D_ERROR_NOT_IMPLEMENTED";
  case VKD3D_ERROR_INVALID_SHADER:
    return "VKD3D_ERROR_INVALID_SHADER";
  default:
    return "unknown vkd3d_result";
  }
}

std::string first_message_line(const char* messages) {
  if (!messages) return {};
  std::string line = messages;
  if (const std::size_t eol = line.find('\n'); eol != std::string::npos) line.resize(eol);
  return line;
}

} // namespace kiln::vkd3d
