#include "bench/peer_vkd3d.h"

#include <cstddef>
#include <dlfcn.h>

namespace kiln::bench {

namespace {

// The few declarations of the public vkd3d_shader.h (vkd3d 1.2) this file needs, declared
// here so the build does not depend on libvkd3d-shader-dev. Enums are 32-bit in that ABI.
enum Vkd3dConstants : std::uint32_t {
  kStructureTypeCompileInfo = 0,
  kSourceDxbcTpf = 1,
  kTargetSpirvBinary = 1,
  kLogLevelError = 1,
};

struct Vkd3dCode {
  const void* code;
  std::size_t size;
};

struct Vkd3dCompileInfo {
  std::uint32_t type; // enum vkd3d_shader_structure_type
  const void* next;
  Vkd3dCode source;
  std::uint32_t source_type; // enum vkd3d_shader_source_type
  std::uint32_t target_type; // enum vkd3d_shader_target_type
  const void* options;       // const struct vkd3d_shader_compile_option*
  unsigned int option_count;
  std::uint32_t log_level; // enum vkd3d_shader_log_level
  const char* source_name;
};

constexpr const char* kLibraries[] = {"libvkd3d-shader.so.1", "libvkd3d-shader.so"};

} // namespace

Vkd3dPeer::Vkd3dPeer() {
  for (const char* name : kLibraries) {
    library_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library_) {
      note_ = name;
      break;
    }
  }
  if (!library_) {
    note_ = "libvkd3d-shader.so.1 not found (Debian package libvkd3d-shader1): no peer figures";
    return;
  }
  compile_ = reinterpret_cast<decltype(compile_)>(dlsym(library_, "vkd3d_shader_compile"));
  free_code_ =
      reinterpret_cast<decltype(free_code_)>(dlsym(library_, "vkd3d_shader_free_shader_code"));
  free_messages_ =
      reinterpret_cast<decltype(free_messages_)>(dlsym(library_, "vkd3d_shader_free_messages"));
  using VersionFunction = const char* (*)(unsigned*, unsigned*);
  if (auto version =
          reinterpret_cast<VersionFunction>(dlsym(library_, "vkd3d_shader_get_version"))) {
    if (const char* text = version(nullptr, nullptr)) note_ = text;
  }
  if (!compile_ || !free_code_ || !free_messages_) {
    compile_ = nullptr;
    note_ += ": vkd3d_shader_compile and friends missing (not the 1.x ABI)";
  }
}

Vkd3dPeer::~Vkd3dPeer() {
  if (library_) dlclose(library_);
}

bool Vkd3dPeer::translate(std::span<const std::uint8_t> bytecode, std::size_t& spirv_bytes,
                          std::string& error) {
  spirv_bytes = 0;
  if (!compile_) {
    error = "vkd3d not available";
    return false;
  }
  Vkd3dCompileInfo info{};
  info.type = kStructureTypeCompileInfo;
  info.source = {bytecode.data(), bytecode.size()};
  info.source_type = kSourceDxbcTpf;
  info.target_type = kTargetSpirvBinary;
  info.log_level = kLogLevelError;
  info.source_name = "kiln-bench";
  Vkd3dCode out{nullptr, 0};
  char* messages = nullptr;
  const int rc = compile_(&info, &out, &messages);
  if (rc >= 0) spirv_bytes = out.size;
  if (rc < 0) {
    error = messages && *messages ? messages : "vkd3d_shader_compile failed";
    if (const std::size_t eol = error.find('\n'); eol != std::string::npos) error.resize(eol);
    error += " (rc " + std::to_string(rc) + ")";
  }
  if (out.code) free_code_(&out);
  if (messages) free_messages_(messages);
  return rc >= 0;
}

} // namespace kiln::bench
