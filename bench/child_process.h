#pragma once
// Running work in a child process, so that a crash or a hang inside a peer library (an
// assertion or a loop in vkd3d-shader) costs the child, not the benchmark: the vkd3d peer's
// screening (peer_vkd3d.cpp) and kiln execute's vkd3d-shader translations
// (execute/translate.cpp). POSIX only, as those are.

#include <cstdint>
#include <functional>
#include <string>

namespace kiln::bench {

struct ChildOutcome {
  enum class End : std::uint8_t {
    Unknown,   // no child could be started (pipe, fork), or it could not be waited for
    Exited,    // exit_status says how
    Signalled, // `signal` ended it; SIGALRM: it ran past its time limit
  };
  End end = End::Unknown;
  int exit_status = 0;
  int signal = 0;
  std::string payload; // what the work returned, as far as the child wrote it back
  bool exited_cleanly() const { return end == End::Exited && exit_status == 0; }
};

// Forks a child that silences its stderr (its messages would interleave with the report),
// arms alarm(time_limit_s) (a hang counts as a crash), runs work() and writes what it returns
// back through a pipe, then exits with status 0 (2 when the write failed). The parent reads
// the payload and waits for the child.
ChildOutcome run_in_child(const std::function<std::string()>& work, unsigned time_limit_s = 30);

} // namespace kiln::bench
