#include "cli/args.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

namespace kiln::cli {

bool ParsedArgs::has(std::string_view option) const {
  for (const auto& [name, value] : options_)
    if (name == option) return true;
  return false;
}

std::string_view ParsedArgs::value(std::string_view option, std::string_view fallback) const {
  std::string_view result = fallback;
  for (const auto& [name, value] : options_)
    if (name == option) result = value;
  return result;
}

std::vector<std::string_view> ParsedArgs::values(std::string_view option) const {
  std::vector<std::string_view> result;
  for (const auto& [name, value] : options_)
    if (name == option) result.push_back(value);
  return result;
}

ParseOutcome parse_args(const CommandSpec& spec, std::span<char*> args, ParsedArgs& out) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (!options_done && (arg == "--help" || arg == "-h")) {
      print_help(spec);
      return ParseOutcome::Help;
    }
    if (!options_done && arg == "--") {
      options_done = true;
      continue;
    }
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      out.positional_.push_back(arg);
      continue;
    }
    // "--name=value" or "--name value".
    std::string_view name = arg, inline_value;
    bool has_inline = false;
    if (auto eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
      has_inline = true;
    }
    const OptionSpec* option = nullptr;
    for (const OptionSpec& candidate : spec.options)
      if (candidate.name == name) option = &candidate;
    if (!option) {
      usage_error(std::string("unknown option '") + std::string(name) + "' for 'kiln " +
                  std::string(spec.name) + "' (see --help)");
      return ParseOutcome::UsageError;
    }
    if (option->value_name.empty()) {
      if (has_inline) {
        usage_error(std::string("option '") + std::string(name) + "' takes no value");
        return ParseOutcome::UsageError;
      }
      out.options_.emplace_back(option->name, std::string_view{});
      continue;
    }
    if (!has_inline) {
      if (i + 1 >= args.size()) {
        usage_error(std::string("option '") + std::string(name) + "' needs a value (" +
                    std::string(option->value_name) + ")");
        return ParseOutcome::UsageError;
      }
      inline_value = args[++i];
    }
    if (!option->repeatable && out.has(option->name)) {
      usage_error(std::string("option '") + std::string(name) + "' given twice");
      return ParseOutcome::UsageError;
    }
    out.options_.emplace_back(option->name, inline_value);
  }
  if (out.positional_.size() < spec.min_positional) {
    usage_error(std::string("'kiln ") + std::string(spec.name) + "' needs " +
                std::string(spec.usage) + " (see --help)");
    return ParseOutcome::UsageError;
  }
  if (out.positional_.size() > spec.max_positional) {
    usage_error(std::string("too many arguments for 'kiln ") + std::string(spec.name) +
                "' (see --help)");
    return ParseOutcome::UsageError;
  }
  return ParseOutcome::Ok;
}

void print_help(const CommandSpec& spec) {
  std::printf("usage: kiln %.*s %.*s\n\n%.*s\n", int(spec.name.size()), spec.name.data(),
              int(spec.usage.size()), spec.usage.data(), int(spec.summary.size()),
              spec.summary.data());
  if (!spec.options.empty()) {
    std::printf("\noptions:\n");
    for (const OptionSpec& option : spec.options) {
      std::string left = std::string(option.name);
      if (!option.value_name.empty()) left += " " + std::string(option.value_name);
      std::printf("  %-24s %.*s\n", left.c_str(), int(option.help.size()), option.help.data());
    }
    std::printf("  %-24s %s\n", "-h, --help", "show this help");
  }
  if (!spec.details.empty()) std::printf("\n%.*s\n", int(spec.details.size()), spec.details.data());
}

int fail(std::string_view subject, std::string_view reason) {
  std::fprintf(stderr, "kiln: %.*s: %.*s\n", int(subject.size()), subject.data(),
               int(reason.size()), reason.data());
  return kExitFailed;
}

int usage_error(std::string_view reason) {
  std::fprintf(stderr, "kiln: %.*s\n", int(reason.size()), reason.data());
  return kExitUsage;
}

bool option_number(const ParsedArgs& args, std::string_view option, std::uint64_t low,
                   std::uint64_t high, std::uint64_t& out) {
  if (!args.has(option)) return true;
  const std::string_view text = args.value(option);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size() && value >= low && value <= high) {
    out = value;
    return true;
  }
  usage_error(std::string(option) + " needs a number from " + std::to_string(low) + " to " +
              std::to_string(high) + ", not '" + std::string(text) + "'");
  return false;
}

Status read_file(const std::string& path, std::vector<std::uint8_t>& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return Status::error(std::strerror(errno));
  bytes.clear();
  std::uint8_t buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    bytes.insert(bytes.end(), buffer, buffer + n);
    if (bytes.size() > (std::size_t(1) << 30)) {
      std::fclose(file);
      return Status::error("file larger than 1 GiB");
    }
  }
  const bool read_error = std::ferror(file);
  std::fclose(file);
  return read_error ? Status::error("read error") : Status::ok();
}

Status write_file(const std::string& path, std::span<const std::uint8_t> bytes) {
  // Write to a temporary name and rename, so a failed write never leaves a partial output.
  const std::string temp = path + ".tmp";
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (!file) return Status::error(std::strerror(errno));
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const bool closed = std::fclose(file) == 0;
  if (!ok || !closed || std::rename(temp.c_str(), path.c_str()) != 0) {
    Status error = Status::error(std::strerror(errno));
    std::remove(temp.c_str());
    return error;
  }
  return Status::ok();
}

} // namespace kiln::cli
