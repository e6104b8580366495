#pragma once
// Progress on stderr: a bar redrawn in place on a terminal, plain lines every ~10% (at most one
// per 2 s) otherwise, so logs of CI runs stay short.

#include <chrono>
#include <cstddef>
#include <string>

namespace kiln::bench {

class Progress {
 public:
  Progress(std::string label, std::size_t total, bool enabled = true);
  void advance(); // one item done
  void finish();

 private:
  void draw();
  std::string label_;
  std::size_t total_, done_ = 0, last_reported_ = 0;
  bool enabled_, terminal_, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

} // namespace kiln::bench
