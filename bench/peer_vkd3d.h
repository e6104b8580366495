#pragma once
// A peer translator for `kiln bench --vs vkd3d`: Debian's libvkd3d-shader (1.2 ABI), opened
// with dlopen (plugin/vkd3d_shader/shader_library.h) so kiln does not link against it. Absent
// library: available() is false and note() says why; nothing fails.

#include "translator/common/input_kind.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace kiln::vkd3d {
class ShaderLibrary;
}

namespace kiln::bench {

class Vkd3dPeer {
 public:
  Vkd3dPeer(); // tries to load the library
  ~Vkd3dPeer();
  Vkd3dPeer(const Vkd3dPeer&) = delete;
  Vkd3dPeer& operator=(const Vkd3dPeer&) = delete;

  static constexpr const char* kName = "vkd3d";
  bool available() const { return library_ != nullptr; }
  const std::string& note() const { return note_; } // library path and version, or why not
  // vkd3d-shader 1.2 reads DXBC (TPF) only.
  bool accepts(InputKind kind) const { return kind == InputKind::Dxbc; }

  // DXBC -> SPIR-V binary. Returns false with `error` set (vkd3d's first message line).
  bool translate(std::span<const std::uint8_t> bytecode, std::size_t& spirv_bytes,
                 std::string& error);

  // vkd3d-shader 1.2 aborts on an assertion for some real shaders. Before timing a shader in
  // this process, it is translated once in a forked child; false (with `error`) when the
  // child dies, so the shader is recorded as a peer failure instead of ending the run.
  bool survives(std::span<const std::uint8_t> bytecode, std::string& error);

 private:
  std::unique_ptr<vkd3d::ShaderLibrary> library_; // null when not usable
  std::string note_;
};

} // namespace kiln::bench
