#include "bench/progress.h"

#include <cstdio>
#include <unistd.h>

namespace kiln::bench {

Progress::Progress(std::string label, std::size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled),
      terminal_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::advance() {
  std::lock_guard lock(mutex_);
  ++done_;
  report_locked();
}

void Progress::update(std::size_t done, std::size_t total) {
  std::lock_guard lock(mutex_);
  done_ = done;
  total_ = total;
  report_locked();
}

void Progress::report_locked() {
  if (!enabled_ || total_ == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    if (now - last_draw_ > std::chrono::milliseconds(100) || done_ == total_) {
      last_draw_ = now;
      draw_locked();
    }
  } else if ((done_ - last_reported_) * 10 >= total_ &&
             now - last_draw_ > std::chrono::seconds(2)) {
    last_draw_ = now;
    last_reported_ = done_;
    draw_locked();
  }
}

void Progress::draw_locked() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (terminal_) {
    constexpr int kWidth = 30;
    const int filled = int(double(done_) / double(total_) * kWidth);
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu %.1fs", label_.c_str(), filled,
                 "##############################", kWidth - filled, "", done_, total_, seconds);
  } else {
    std::fprintf(stderr, "%s %zu/%zu (%.1fs)\n", label_.c_str(), done_, total_, seconds);
  }
  std::fflush(stderr);
}

void Progress::finish() {
  std::lock_guard lock(mutex_);
  if (!enabled_ || total_ == 0 || finished_) return;
  finished_ = true;
  if (terminal_) {
    draw_locked();
    std::fputc('\n', stderr);
  } else if (last_reported_ != done_) {
    draw_locked();
  }
}

} // namespace kiln::bench
