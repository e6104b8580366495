#include "plugin/vkd3d_shader/real_library.h"

#include <cstdlib>
#include <filesystem>

namespace kiln::vkd3d {

namespace {

// Depth of forwarded calls on this thread. Per-thread by nature: it describes the call stack.
thread_local unsigned forward_depth = 0;

std::string default_path() {
  if (const char* path = std::getenv("KILN_VKD3D_SHADER_REAL"); path && *path) return path;
  return KILN_REAL_VKD3D_SHADER_PATH; // set by CMake: the system library's resolved path
}

} // namespace

RealLibrary::RealLibrary(std::string path) {
  if (path.empty()) path = default_path();
  if (path.empty() || !std::filesystem::path(path).is_absolute()) {
    path_ = path;
    error_ = "no absolute path to the system's libvkd3d-shader (set KILN_VKD3D_SHADER_REAL)";
    return;
  }
  open(path);
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
