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

#include "plugin/vkd3d_shader/shader_library.h"

#include <string>

namespace kiln::vkd3d {

class RealLibrary : public ShaderLibrary {
 public:
  // Loads `path` (empty: $KILN_VKD3D_SHADER_REAL, else the path found at build time); only an
  // absolute path is accepted, never the SONAME the drop-in owns.
  explicit RealLibrary(std::string path = {});
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
