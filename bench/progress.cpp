#include "bench/progress.h"

#include <cstdio>
#include <unistd.h>

namespace kiln::bench {

Progress::Progress(std::string label, std::size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && total > 0),
      terminal_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::advance() {
  ++done_;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    if (now - last_draw_ > std::chrono::milliseconds(100) || done_ == total_) {
      last_draw_ = now;
      draw();
    }
  } else if ((done_ - last_reported_) * 10 >= total_ &&
             now - last_draw_ > std::chrono::seconds(2)) {
    last_draw_ = now;
    last_reported_ = done_;
    draw();
  }
}

void Progress::draw() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (terminal_) {
    constexpr int kWidth = 30;
    const int filled = int(double(done_) / double(total_) * kWidth);
    std::fprintf(stderr, "\r%-12s [%.*s%*s] %zu/%zu %.1fs", label_.c_str(), filled,
                 "##############################", kWidth - filled, "", done_, total_, seconds);
  } else {
    std::fprintf(stderr, "kiln bench: %s %zu/%zu (%.1fs)\n", label_.c_str(), done_, total_,
                 seconds);
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || finished_) return;
  finished_ = true;
  if (terminal_) {
    draw();
    std::fputc('\n', stderr);
  } else if (last_reported_ != done_) {
    draw();
  }
}

} // namespace kiln::bench
