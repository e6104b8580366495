#pragma once
// A small declarative argument parser for the `kiln` subcommands: each command lists its
// options once, and both parsing and `--help` derive from that list.

#include "translator/common/status.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::cli {

struct OptionSpec {
  std::string_view name;       // "--target"
  std::string_view value_name; // "ENV"; empty for a flag
  std::string_view help;
  bool repeatable = false;
};

struct CommandSpec {
  std::string_view name;    // "translate"
  std::string_view usage;   // "INPUT [-o OUT.spv] [--target ...]"
  std::string_view summary; // one line
  std::string_view details; // paragraphs after the option list (may be empty)
  std::span<const OptionSpec> options;
  std::size_t min_positional = 0;
  std::size_t max_positional = 0; // SIZE_MAX: unbounded
};

enum class ParseOutcome { Ok, Help, UsageError };

class ParsedArgs {
 public:
  bool has(std::string_view option) const;
  // The last value given for an option, or `fallback`.
  std::string_view value(std::string_view option, std::string_view fallback = {}) const;
  std::vector<std::string_view> values(std::string_view option) const;
  const std::vector<std::string_view>& positional() const { return positional_; }

 private:
  friend ParseOutcome parse_args(const CommandSpec&, std::span<char*>, ParsedArgs&);
  std::vector<std::pair<std::string_view, std::string_view>> options_;
  std::vector<std::string_view> positional_;
};

// Parses `args` (without the program and command names). On UsageError a message has been
// printed to stderr; on Help the help text has been printed to stdout.
ParseOutcome parse_args(const CommandSpec& spec, std::span<char*> args, ParsedArgs& out);

void print_help(const CommandSpec& spec);

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; // input rejected or a check failed
inline constexpr int kExitUsage = 2;

// Prints "kiln: SUBJECT: reason" on stderr and returns kExitFailed.
int fail(std::string_view subject, std::string_view reason);
// Prints "kiln: reason" on stderr and returns kExitUsage.
int usage_error(std::string_view reason);

// Reads the number given to `option` into `out` when the option is present. Returns false, with
// a usage error printed ("--reps needs a number from 1 to 1000, not 'x'"), when it is not a
// whole number in [low, high]; true when it is, or when the option is absent (`out` untouched).
bool option_number(const ParsedArgs& args, std::string_view option, std::uint64_t low,
                   std::uint64_t high, std::uint64_t& out);

// Reads a whole file. A failure says why in one line.
Status read_file(const std::string& path, std::vector<std::uint8_t>& bytes);
// Writes a whole file (through a temporary name, so a failure leaves no partial output).
Status write_file(const std::string& path, std::span<const std::uint8_t> bytes);

} // namespace kiln::cli
