#pragma once
// Progress on stderr for the commands' long runs (`kiln bench`, `kiln execute`, `kiln cache
// warm`): a bar redrawn in place on a terminal, plain lines every ~10% (at most one per 2 s)
// otherwise, so logs of CI runs stay short. Safe to advance from several threads.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace kiln::bench {

class Progress {
 public:
  // `label` begins every line and names the command and its step ("kiln bench: translating").
  Progress(std::string label, std::size_t total, bool enabled = true);
  void advance(); // one more item done
  // For callers that count for themselves and learn the total as they go (a cache rebuild).
  void update(std::size_t done, std::size_t total);
  void finish(); // the last count, and the terminal's line ended

 private:
  void report_locked();
  void draw_locked();
  std::mutex mutex_;
  std::string label_;
  std::size_t total_, done_ = 0, last_reported_ = 0;
  bool enabled_, terminal_, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

} // namespace kiln::bench
