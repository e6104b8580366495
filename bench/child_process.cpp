#include "bench/child_process.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::bench {

namespace {

// In the child: everything of `bytes` into `fd`, or false.
bool write_all(int fd, const std::string& bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

} // namespace

ChildOutcome run_in_child(const std::function<std::string()>& work, unsigned time_limit_s) {
  ChildOutcome outcome;
  int fds[2];
  if (pipe(fds) != 0) return outcome;
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (child == 0) {
    close(fds[0]);
    alarm(time_limit_s);
    if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, STDERR_FILENO);
    _exit(write_all(fds[1], work()) ? 0 : 2);
  }
  close(fds[1]);
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    outcome.payload.append(buffer, std::size_t(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return outcome; // End::Unknown
  }
  if (WIFSIGNALED(status)) {
    outcome.end = ChildOutcome::End::Signalled;
    outcome.signal = WTERMSIG(status);
  } else {
    outcome.end = ChildOutcome::End::Exited;
    outcome.exit_status = WEXITSTATUS(status);
  }
  return outcome;
}

} // namespace kiln::bench
