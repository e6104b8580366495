#include "bench/peer_vkd3d.h"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

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

// vkd3d_result codes, named so rejections group by their meaning.
const char* result_name(int rc) {
  switch (rc) {
  case -1:
    return "VKD3D_ERROR";
  case -2:
    return "VKD3D_ERROR_OUT_OF_MEMORY";
  case -3:
    return "VKD3D_ERROR_INVALID_ARGUMENT";
  case -4:
    return "VKD3D_ERROR_NOT_IMPLEMENTED";
  case -5:
    return "VKD3D_ERROR_INVALID_SHADER";
  default:
    return "unknown error";
  }
}

constexpr const char* kLibraries[] = {"libvkd3d-shader.so.1", "libvkd3d-shader.so"};

} // namespace

Vkd3dPeer::Vkd3dPeer() {
  // vkd3d prints a "fixme:" line for every construct it does not handle; quiet it unless the
  // user asked for its messages.
  setenv("VKD3D_SHADER_DEBUG", "none", /*overwrite=*/0);
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
    error = std::string("vkd3d_shader_compile: ") + result_name(rc);
    if (messages && *messages) {
      std::string first_line = messages;
      if (const std::size_t eol = first_line.find('\n'); eol != std::string::npos)
        first_line.resize(eol);
      error += ": " + first_line;
    }
  }
  if (out.code) free_code_(&out);
  if (messages) free_messages_(messages);
  return rc >= 0;
}

bool Vkd3dPeer::survives(std::span<const std::uint8_t> bytecode, std::string& error) {
  if (!compile_) {
    error = "vkd3d not available";
    return false;
  }
  const pid_t child = fork();
  if (child < 0) return true; // cannot screen: time it anyway
  if (child == 0) {
    alarm(30); // a hang counts as a crash
    // The child's assertion message would interleave with the report; the record says it.
    if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, STDERR_FILENO);
    std::size_t bytes = 0;
    std::string ignored;
    translate(bytecode, bytes, ignored);
    _exit(0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return true;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (WIFSIGNALED(status))
    error = std::string("vkd3d crashed (") + strsignal(WTERMSIG(status)) +
            ") in a screening child process; not timed";
  else
    error = "vkd3d screening child exited with status " + std::to_string(WEXITSTATUS(status));
  return false;
}

} // namespace kiln::bench
