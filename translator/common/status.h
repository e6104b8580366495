#pragma once
// Status: success, or an error message meant for a person ("chunk SHEX: truncated at token 41").
// Errors are rare and never on the hot path, so the message is a plain std::string.

#include <string>
#include <utility>

namespace kiln {

class [[nodiscard]] Status {
public:
  Status() = default;
  static Status ok() { return {}; }
  static Status error(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    return s;
  }

  bool is_ok() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const std::string& message() const { return message_; }

private:
  bool failed_ = false;
  std::string message_;
};

} // namespace kiln
