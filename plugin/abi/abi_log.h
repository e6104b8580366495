#pragma once
// The C ABI's diagnostics: one line per message to the layer's callback (default stderr),
// filtered by a threshold taken from $KILN_LOG_LEVEL when the context is created.

#include "kiln/kiln.h"

#include <string_view>

namespace kiln::abi {

// "error", "warn"/"warning", "info", "debug", "none" or a digit 0-4; `fallback` otherwise.
kiln_log_level parse_log_level(const char* text, kiln_log_level fallback);

class Logger {
 public:
  Logger() = default;
  Logger(kiln_log_callback callback, void* user_data, kiln_log_level threshold)
      : callback_(callback), user_data_(user_data), threshold_(threshold) {}

  bool enabled(kiln_log_level level) const {
    return threshold_ != KILN_LOG_NONE && level <= threshold_;
  }
  // Thread-safe: the callback must be, as kiln.h says.
  void log(kiln_log_level level, std::string_view message) const;

 private:
  kiln_log_callback callback_ = nullptr;
  void* user_data_ = nullptr;
  kiln_log_level threshold_ = KILN_LOG_WARNING;
};

// The catch-everything of a public entry point, called inside its `catch (...)`: logs
// "<entry>: <what it caught>" as an error through `logger` (stderr when the log itself fails) and
// maps it to the entry point's result: KILN_ERROR_OUT_OF_MEMORY for std::bad_alloc,
// KILN_ERROR_INTERNAL for anything else.
kiln_result log_caught(const Logger& logger, const char* entry) noexcept;

} // namespace kiln::abi
