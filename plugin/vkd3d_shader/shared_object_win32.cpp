// shared_object.h on Windows: LoadLibraryW and GetProcAddress.

#include "plugin/vkd3d_shader/shared_object.h"

#include <windows.h>

namespace kiln::vkd3d {

namespace {

std::wstring wide(const std::string& utf8) {
  const int length = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), nullptr, 0);
  std::wstring out(std::size_t(length > 0 ? length : 0), L'\0');
  if (length > 0)
    ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), out.data(), length);
  return out;
}

// The module this code is linked into (libvkd3d-shader-1.dll, or a test program).
HMODULE this_module() {
  HMODULE module = nullptr;
  ::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                           GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                       reinterpret_cast<LPCWSTR>(&this_module), &module);
  return module;
}

} // namespace

Result<void*> open_shared_object(const std::string& name_or_path) {
  HMODULE module = ::LoadLibraryW(wide(name_or_path).c_str());
  if (!module)
    return Status::error(name_or_path + ": LoadLibrary failed (Windows error " +
                         std::to_string(::GetLastError()) + ")");
  if (module == this_module()) {
    ::FreeLibrary(module);
    return Status::error(name_or_path + ": names kiln's own library, not a real vkd3d-shader");
  }
  return static_cast<void*>(module);
}

void* find_shared_object_symbol(void* handle, const char* name) {
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(handle), name));
}

void close_shared_object(void* handle) {
  ::FreeLibrary(static_cast<HMODULE>(handle));
}

void pin_this_module() {
  HMODULE module = nullptr;
  ::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                       reinterpret_cast<LPCWSTR>(&pin_this_module), &module);
}

} // namespace kiln::vkd3d
