// shared_object.h on Linux: dlopen.

#include "plugin/vkd3d_shader/shared_object.h"

#include <dlfcn.h>

namespace kiln::vkd3d {

Result<void*> open_shared_object(const std::string& name_or_path) {
  void* handle = dlopen(name_or_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return Status::error(why ? why : "dlopen failed");
  }
  return handle;
}

void* find_shared_object_symbol(void* handle, const char* name) {
  return dlsym(handle, name);
}

void close_shared_object(void* handle) {
  dlclose(handle);
}

} // namespace kiln::vkd3d
