#pragma once
// Status: success, or an error message meant for a person ("chunk SHEX: truncated at token 41").
// Errors are rare and never on the hot path, so the message is a plain std::string.
//
// ErrorSink: how a stage of the translator reports (readers, converters, the IR parser and
// validator, the passes' backend, the disassemblers). Every check calls `fail(where, what)` and
// returns false; the first report wins (later ones are consequences of it), and the stage turns
// the sink into its one Status at its boundary (outcome()). Handlers of the three opcode tables
// (DXBC, D3D9, IR -> SPIR-V) report the same way.

#include <cstdint>
#include <string>
#include <string_view>
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

// Where in a stage's input a report points: a position in the stage's own unit (a DXBC or D3D9
// token, a SPIR-V word, a byte, a line, an SSA id) and, when known, the name of what stands there
// (an instruction's mnemonic, an op). A default Where points nowhere in particular.
struct Where {
  static constexpr std::uint64_t kNowhere = ~std::uint64_t(0);
  static constexpr std::uint64_t kBesideInput = kNowhere - 1;

  Where() = default;
  Where(std::uint64_t at, std::string_view what_is_there = {}) // NOLINT: a position is a Where
      : position(at), name(what_is_there) {}
  // A report about what the stage was given beside its input (the shader interface, render-state
  // parameters): it points at no position, and every stage spells it as the bare message.
  static Where beside_input() { return Where(kBesideInput); }

  bool known() const { return position < kBesideInput; }
  bool is_beside_input() const { return position == kBesideInput; }

  std::uint64_t position = kNowhere;
  std::string_view name;
};

class ErrorSink {
 public:
  // How a stage spells a report as a message ("SHDR token 41 (sample): " + what); the texts are
  // part of the stage's contract (tests and users match them).
  using Spell = std::string (*)(const Where& where, std::string_view what);

  explicit ErrorSink(Spell spell) : spell_(spell) {}

  // Records the first report; later ones are dropped. Returns false so that a check can end with
  // `return fail(...)`.
  [[gnu::cold]] bool fail(const Where& where, std::string_view what) {
    if (!first_.is_ok()) return false;
    first_ = Status::error(spell_(where, what));
    return false;
  }

  bool failed() const { return !first_.is_ok(); }
  // The first report, taken once at the stage's end; the sink is empty again afterwards.
  Status take() { return std::exchange(first_, Status::ok()); }
  // The stage's Status at its boundary: ok when it ran through (`ran`), else its first report.
  // A check that answered false without reporting (a bug) still fails the stage, with
  // `unreported` as the message.
  Status outcome(bool ran, std::string_view unreported = "stopped without a reason") {
    if (ran && !failed()) return Status::ok();
    if (!failed()) first_ = Status::error(std::string(unreported));
    return take();
  }
  void reset() { first_ = Status::ok(); }

 private:
  Spell spell_;
  Status first_;
};

} // namespace kiln
