#include "bench/peer_vkd3d.h"

#include "bench/child_process.h"
#include "plugin/vkd3d_shader/shader_library.h"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::bench {

Vkd3dPeer::Vkd3dPeer() {
  // vkd3d prints a "fixme:" line for every construct it does not handle; quiet it unless the
  // user asked for its messages.
  setenv("VKD3D_SHADER_DEBUG", "none", /*overwrite=*/0);
  // By SONAME, so LD_LIBRARY_PATH decides which library is measured (kiln's drop-in included).
  library_ = std::make_unique<vkd3d::ShaderLibrary>("libvkd3d-shader.so.1");
  if (!library_->loaded()) {
    note_ =
        "libvkd3d-shader.so.1 not usable (Debian package libvkd3d-shader1): " + library_->error() +
        "; no peer figures";
    library_.reset();
    return;
  }
  note_ = library_->version();
  if (note_.empty()) note_ = library_->path();
}

Vkd3dPeer::~Vkd3dPeer() = default;

bool Vkd3dPeer::translate(std::span<const std::uint8_t> bytecode, std::size_t& spirv_bytes,
                          std::string& error) {
  spirv_bytes = 0;
  if (!library_) {
    error = "vkd3d not available";
    return false;
  }
  vkd3d_shader_compile_info info{};
  info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info.source = {bytecode.data(), bytecode.size()};
  info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  info.log_level = VKD3D_SHADER_LOG_ERROR;
  info.source_name = "kiln-bench";
  vkd3d_shader_code out{nullptr, 0};
  char* messages = nullptr;
  const int rc = library_->vkd3d_shader_compile(&info, &out, &messages);
  if (rc >= 0) spirv_bytes = out.size;
  if (rc < 0) {
    error = std::string("vkd3d_shader_compile: ") + vkd3d::result_name(rc);
    if (std::string first = vkd3d::first_message_line(messages); !first.empty())
      error += ": " + first;
  }
  if (out.code) library_->vkd3d_shader_free_shader_code(&out);
  if (messages) library_->vkd3d_shader_free_messages(messages);
  return rc >= 0;
}

bool Vkd3dPeer::survives(std::span<const std::uint8_t> bytecode, std::string& error) {
  if (!library_) {
    error = "vkd3d not available";
    return false;
  }
  const ChildOutcome child = run_in_child([&] {
    std::size_t bytes = 0;
    std::string ignored;
    translate(bytecode, bytes, ignored);
    return std::string();
  });
  // Not run: cannot screen, so time it anyway.
  if (child.end == ChildOutcome::End::Unknown || child.exited_cleanly()) return true;
  if (child.end == ChildOutcome::End::Signalled)
    error = std::string("vkd3d crashed (") + strsignal(child.signal) +
            ") in a screening child process; not timed";
  else
    error = "vkd3d screening child exited with status " + std::to_string(child.exit_status);
  return false;
}

} // namespace kiln::bench
