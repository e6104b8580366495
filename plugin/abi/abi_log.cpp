#include "plugin/abi/abi_log.h"

#include "translator/common/caught.h"

#include <cstdio>
#include <string>

namespace kiln::abi {

kiln_log_level parse_log_level(const char* text, kiln_log_level fallback) {
  if (!text || !*text) return fallback;
  const std::string_view value(text);
  if (value == "error" || value == "0") return KILN_LOG_ERROR;
  if (value == "warn" || value == "warning" || value == "1") return KILN_LOG_WARNING;
  if (value == "info" || value == "2") return KILN_LOG_INFO;
  if (value == "debug" || value == "3") return KILN_LOG_DEBUG;
  if (value == "none" || value == "4") return KILN_LOG_NONE;
  return fallback;
}

void Logger::log(kiln_log_level level, std::string_view message) const {
  if (!enabled(level)) return;
  const std::string line(message); // the callback gets a terminated string
  if (callback_) {
    callback_(user_data_, level, line.c_str());
    return;
  }
  static constexpr const char* kNames[] = {"error", "warning", "info", "debug"};
  // One fprintf per line so lines from several threads do not interleave.
  std::fprintf(stderr, "kiln: %s: %s\n", kNames[level < KILN_LOG_NONE ? level : 0], line.c_str());
}

kiln_result log_caught(const Logger& logger, const char* entry) noexcept {
  const Caught what = caught();
  try {
    logger.log(KILN_LOG_ERROR, std::string(entry) + ": " + what.what);
  } catch (...) {
    // The layer's callback or the message itself failed: stderr still gets the line.
    std::fprintf(stderr, "kiln: error: %s: %s\n", entry, what.what);
  }
  return what.out_of_memory ? KILN_ERROR_OUT_OF_MEMORY : KILN_ERROR_INTERNAL;
}

} // namespace kiln::abi
