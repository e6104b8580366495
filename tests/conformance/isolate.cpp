#include "tests/conformance/isolate.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::conformance {

namespace {

// One result per line, tab-separated; messages are already single printable lines.
std::string encode(const CaseResult& r) {
  std::string message = r.message;
  std::replace(message.begin(), message.end(), '\t', ' ');
  return "R\t" + std::to_string(int(r.outcome)) + "\t" + std::to_string(r.probes) + "\t" +
         std::to_string(r.probes_passed) + "\t" + r.id + "\t" + message + "\n";
}

bool decode(const std::string& line, CaseResult& r) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string::npos) return false;
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.push_back(line.substr(start));
  if (fields[0] != "R") return false;
  const int outcome = std::atoi(fields[1].c_str());
  if (outcome < 0 || outcome > int(Outcome::Skipped)) return false;
  r.outcome = Outcome(outcome);
  r.probes = unsigned(std::strtoul(fields[2].c_str(), nullptr, 10));
  r.probes_passed = unsigned(std::strtoul(fields[3].c_str(), nullptr, 10));
  r.id = fields[4];
  r.message = fields[5];
  return true;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += std::size_t(n);
  }
}

[[noreturn]] void run_child(int fd, const TestFile& file, const std::string& model,
                            int only_section, ShaderSource& source, unsigned timeout_seconds,
                            bool spec_constants) {
  alarm(timeout_seconds); // a hang ends as SIGALRM, reported by the parent
  std::string why_not;
  auto context = vulkan::Context::create(why_not);
  if (!context) {
    write_all(fd, "S\t" + why_not + "\n");
    _exit(3);
  }
  {
    Executor executor(*context, source);
    executor.set_parameters_as_spec_constants(spec_constants);
    executor.run_file(file, model, only_section,
                      [&](const CaseResult& r) { write_all(fd, encode(r)); });
  }
  context.reset();
  _exit(0);
}

} // namespace

std::vector<CaseResult> run_file_isolated(const TestFile& file, const std::string& model,
                                          int only_section, ShaderSource& source,
                                          unsigned timeout_seconds, std::string& setup_error,
                                          bool spec_constants) {
  std::vector<CaseResult> results;
  int fds[2];
  if (pipe(fds) != 0) {
    setup_error = std::string("pipe: ") + std::strerror(errno);
    return results;
  }
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    setup_error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return results;
  }
  if (child == 0) {
    close(fds[0]);
    run_child(fds[1], file, model, only_section, source, timeout_seconds, spec_constants);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, std::size_t(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  std::set<std::string> reported;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break; // a line cut off by the child's death
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("S\t", 0) == 0) {
      setup_error = line.substr(2);
      continue;
    }
    CaseResult r;
    if (decode(line, r)) {
      reported.insert(r.id);
      results.push_back(std::move(r));
    }
  }
  // Fill in the fields the child did not send, from the package.
  for (CaseResult& r : results) {
    for (const CaseInfo& c : file.cases) {
      if (c.id == r.id) {
        r.model = c.model;
        r.verified = c.verified;
        r.included = c.included;
      }
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return results;
  if (!setup_error.empty()) return results;

  std::string death;
  if (WIFSIGNALED(status)) {
    death = WTERMSIG(status) == SIGALRM
                ? "timed out after " + std::to_string(timeout_seconds) + " s"
                : std::string("process died (") + strsignal(WTERMSIG(status)) + ")";
  } else {
    death = "process exited with status " + std::to_string(WEXITSTATUS(status));
  }
  // The cases that should have run, in order: the first unreported one was running.
  const auto plan = file.replay.find(model);
  if (plan == file.replay.end()) return results;
  std::vector<unsigned> sections = plan->second.run_test_sections;
  std::sort(sections.begin(), sections.end());
  std::string crashed_in;
  for (unsigned section : sections) {
    if (only_section >= 0 && section != unsigned(only_section)) continue;
    for (const CaseInfo& c : file.cases) {
      if (c.model != model || c.test_section != section || reported.count(c.id)) continue;
      CaseResult r;
      r.id = c.id;
      r.model = model;
      r.verified = c.verified;
      r.included = c.included;
      r.outcome = Outcome::Fail;
      if (crashed_in.empty()) {
        r.message = death + " while running this case (translator or driver)";
        crashed_in = c.id;
      } else {
        r.message = "not run: " + death + " in " + crashed_in;
      }
      results.push_back(std::move(r));
    }
  }
  return results;
}

} // namespace kiln::conformance
