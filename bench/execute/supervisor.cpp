// The worker process and its supervisor (execute.h, run_execute): the worker runs shader after
// shader and streams one line per phase and per result over a pipe; the supervisor records a
// shader whose worker died or spent past the timeout in one phase (ExecuteOptions::
// timeout_seconds), and starts a new worker after it.

#include "bench/execute/d3d9.h"
#include "bench/execute/execute.h"
#include "bench/inputs.h"
#include "bench/progress.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln::execute {

namespace {

// Lines on the pipe: "B <index>", "P <phase>", "R <record fields, tab-separated>", "S <setup
// error>", "D <device name>".
int g_pipe = -1; // the worker's end; only ever set in the worker process

void send(const std::string& line) {
  const std::string text = line + "\n";
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(g_pipe, text.data() + done, text.size() - done);
    if (n <= 0) _exit(3);
    done += std::size_t(n);
  }
}

void announce_phase(const char* phase) {
  send(std::string("P ") + phase);
}

std::string clean(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string serialize(const ShaderRecord& r) {
  std::ostringstream out;
  out.precision(9);
  out << clean(r.file) << '\t' << r.stage << '\t' << int(r.verdict) << '\t' << clean(r.reason)
      << '\t' << r.op_class << '\t' << r.kiln_build_ms << '\t' << r.vkd3d_build_ms << '\t'
      << r.kiln_run_ms << '\t' << r.vkd3d_run_ms << '\t' << r.words_compared << '\t'
      << r.words_different << '\t' << int(r.kiln_first) << '\t' << int(r.d3d9) << '\t'
      << r.timed_pairs;
  return out.str();
}

bool deserialize(const std::string& line, ShaderRecord& r) {
  std::vector<std::string> f;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    f.push_back(line.substr(start, tab - start));
  f.push_back(line.substr(start));
  if (f.size() != 14) return false;
  r.file = f[0];
  r.stage = f[1];
  r.verdict = Verdict(std::stoi(f[2]));
  r.reason = f[3];
  r.op_class = f[4];
  r.kiln_build_ms = std::stod(f[5]);
  r.vkd3d_build_ms = std::stod(f[6]);
  r.kiln_run_ms = std::stod(f[7]);
  r.vkd3d_run_ms = std::stod(f[8]);
  r.words_compared = std::stoull(f[9]);
  r.words_different = std::stoull(f[10]);
  r.kiln_first = f[11] == "1";
  r.d3d9 = f[12] == "1";
  r.timed_pairs = unsigned(std::stoul(f[13]));
  return true;
}

[[noreturn]] void worker_main(int fd, const std::vector<bench::BenchInput>& inputs,
                              std::size_t start, const ExecuteOptions& options) {
  g_pipe = fd;
  // The driver's messages and vkd3d-shader's would interleave with the progress output.
  if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, STDERR_FILENO);
  ShaderExecutor executor(options, options.timeout_seconds * kHungWallFactor);
  if (!executor.setup_error().empty()) {
    send("S " + clean(executor.setup_error()));
    _exit(0);
  }
  send("D " + clean(executor.device_name()));
  for (std::size_t i = start; i < inputs.size(); ++i) {
    send("B " + std::to_string(i));
    const ShaderRecord record =
        executor.execute(inputs[i].path, inputs[i].bytes, i, announce_phase);
    send("R " + serialize(record));
    // The device may still be running the hung shader: a new worker takes the next one.
    if (record.verdict == Verdict::Hung) _exit(0);
  }
  _exit(0);
}

// When the phase running in the worker counts as hung (ExecuteOptions::timeout_seconds).
class PhaseClock {
 public:
  PhaseClock(pid_t worker, unsigned cpu_limit) : worker_(worker), cpu_limit_(cpu_limit) {
    restart();
  }
  void restart() {
    started_ = std::chrono::steady_clock::now();
    cpu_at_start_ = cpu_seconds(worker_);
  }
  // Empty while the phase may go on, else why it is hung.
  std::string hung() const {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const double cpu = cpu_seconds(worker_);
    if (cpu >= 0 && cpu_at_start_ >= 0 && cpu - cpu_at_start_ > cpu_limit_)
      return "more than " + std::to_string(cpu_limit_) + " s of CPU time";
    if (wall > double(cpu_limit_) * kHungWallFactor)
      return "no answer for " + std::to_string(cpu_limit_ * kHungWallFactor) + " s";
    return {};
  }

 private:
  pid_t worker_;
  unsigned cpu_limit_;
  std::chrono::steady_clock::time_point started_;
  double cpu_at_start_ = -1;
};

} // namespace

double cpu_seconds(int pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  char text[1024];
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return -1;
  text[n] = 0;
  // The command name in parentheses may hold spaces; the fields after it start at the state
  // (field 3); utime and stime are fields 14 and 15.
  const char* at = std::strrchr(text, ')');
  if (!at) return -1;
  unsigned long long utime = 0, stime = 0;
  if (std::sscanf(at + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                  &stime) != 2)
    return -1;
  return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
#define KILN_X(id, name)                                                                           \
  case Verdict::id:                                                                                \
    return name;
    KILN_EXECUTE_VERDICTS(KILN_X)
#undef KILN_X
  case Verdict::Count:
    break;
  }
  return "?";
}

Verdict failed_run_verdict(const std::string& error) {
  return error.find("vkWaitForFences") != std::string::npos ? Verdict::Hung : Verdict::DeviceError;
}

ExecuteSummary run_execute(const ExecuteOptions& options) {
  ExecuteSummary summary;
  summary.warm_driver = options.warm_driver;
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> errors;
  std::vector<bench::BenchInput> inputs = bench::collect_inputs(options.paths, errors);
  for (const std::string& e : errors) std::fprintf(stderr, "kiln: %s\n", e.c_str());
  if (options.limit && inputs.size() > options.limit) inputs.resize(options.limit);
  // The driver's own shader cache would make the second translation's build look cheaper.
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
  setenv("VKD3D_SHADER_DEBUG", "none", 0);

  bench::Progress progress("kiln execute:", inputs.size(), options.progress);
  std::size_t next = 0;
  while (next < inputs.size()) {
    int fds[2];
    if (pipe(fds) != 0) {
      summary.setup_error = "pipe failed";
      break;
    }
    std::fflush(nullptr);
    const pid_t worker = fork();
    if (worker == 0) {
      close(fds[0]);
      worker_main(fds[1], inputs, next, options);
    }
    close(fds[1]);
    if (worker < 0) {
      close(fds[0]);
      summary.setup_error = "fork failed";
      break;
    }
    std::string buffer, phase = "start", hung;
    std::ptrdiff_t in_flight = -1;
    bool setup_failed = false, ready = false;
    PhaseClock clock(worker, options.timeout_seconds);
    for (;;) {
      pollfd p{fds[0], POLLIN, 0};
      const int polled = poll(&p, 1, 1000); // the phase's clocks are read once a second
      if (polled == 0) {
        if ((hung = clock.hung()).empty()) continue;
        kill(worker, SIGKILL);
        break;
      }
      if (polled < 0) {
        if (errno == EINTR) continue;
        break;
      }
      char chunk[4096];
      const ssize_t n = read(fds[0], chunk, sizeof chunk);
      if (n <= 0) break;
      buffer.append(chunk, std::size_t(n));
      for (std::size_t newline; (newline = buffer.find('\n')) != std::string::npos;) {
        const std::string line = buffer.substr(0, newline);
        buffer.erase(0, newline + 1);
        if (line.size() < 2) continue;
        const std::string body = line.substr(2);
        switch (line[0]) {
        case 'S':
          summary.setup_error = body;
          setup_failed = true;
          break;
        case 'D':
          summary.device = body;
          ready = true;
          break;
        case 'B':
          in_flight = std::ptrdiff_t(std::stoull(body));
          phase = "start";
          clock.restart();
          break;
        case 'P':
          phase = body;
          clock.restart();
          break;
        case 'R': {
          ShaderRecord record;
          record.input_bytes = inputs[std::size_t(in_flight)].bytes.size();
          if (deserialize(body, record)) summary.records.push_back(std::move(record));
          next = std::size_t(in_flight) + 1;
          in_flight = -1;
          progress.advance();
          break;
        }
        default:
          break;
        }
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(worker, &status, 0);
    if (setup_failed) break;
    if (in_flight < 0) {
      if (next < inputs.size() && !ready) {
        // Died or hung before starting a shader (device creation): nothing more will run.
        summary.setup_error = "the worker stopped before running a shader";
        break;
      }
      continue;
    }
    ShaderRecord record;
    record.file = inputs[std::size_t(in_flight)].path;
    record.input_bytes = inputs[std::size_t(in_flight)].bytes.size();
    record.stage = std::string(shader_stage_abbrev(inputs[std::size_t(in_flight)].stage));
    record.d3d9 = inputs[std::size_t(in_flight)].kind == InputKind::D3D9;
    if (record.d3d9) record.stage = d3d9_model(inputs[std::size_t(in_flight)].bytes);
    record.verdict = !hung.empty() ? Verdict::Hung : Verdict::Crashed;
    record.reason = !hung.empty()
                        ? hung + " during " + phase
                        : std::string("worker died (") +
                              (WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit") +
                              ") during " + phase;
    summary.records.push_back(std::move(record));
    next = std::size_t(in_flight) + 1;
    progress.advance();
  }
  progress.finish();
  for (const ShaderRecord& r : summary.records) ++summary.counts[std::size_t(r.verdict)];
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

} // namespace kiln::execute
