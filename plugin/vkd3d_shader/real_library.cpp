#include "plugin/vkd3d_shader/real_library.h"

#include <cstdlib>
#include <dlfcn.h>

namespace kiln::vkd3d {

namespace {

// Depth of forwarded calls on this thread. Per-thread by nature: it describes the call stack.
thread_local unsigned forward_depth = 0;

std::string default_path() {
  if (const char* path = std::getenv("KILN_VKD3D_SHADER_REAL"); path && *path) return path;
  return KILN_REAL_VKD3D_SHADER_PATH; // set by CMake: the system library's resolved path
}

} // namespace

RealLibrary::RealLibrary(std::string path)
    : path_(path.empty() ? default_path() : std::move(path)) {
  if (path_.empty() || path_.front() != '/') {
    error_ = "no absolute path to the system's libvkd3d-shader (set KILN_VKD3D_SHADER_REAL)";
    return;
  }
  handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    error_ = why ? why : "dlopen failed";
    return;
  }
  bool complete = true;
#define KILN_X(name)                                                                               \
  name = reinterpret_cast<PFN_##name>(dlsym(handle_, #name));                                      \
  complete = complete && name != nullptr;
  KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
  if (!complete) {
    error_ = path_ + ": not a vkd3d-shader 1.2 library (a function is missing)";
    dlclose(handle_);
    handle_ = nullptr;
#define KILN_X(name) name = nullptr;
    KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
  }
}

RealLibrary::~RealLibrary() {
  if (handle_) dlclose(handle_);
}

ForwardScope::ForwardScope() {
  ++forward_depth;
}

ForwardScope::~ForwardScope() {
  --forward_depth;
}

bool ForwardScope::active() {
  return forward_depth != 0;
}

} // namespace kiln::vkd3d
