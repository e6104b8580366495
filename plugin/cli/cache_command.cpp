// kiln cache stats|verify|compact|clear|warm [--path DIR] [PATH...]

#include <string>

#include "plugin/cli/commands.h"

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--path", "DIR", "cache directory (default: $KILN_CACHE_PATH, $XDG_CACHE_HOME/kiln, "
                      "~/.cache/kiln)"},
    {"--rebuild", "", "with warm: re-translate entries written by another codegen version"},
};
constexpr std::string_view kActions[] = {"stats", "verify", "compact", "clear", "warm"};
} // namespace

const CommandSpec k_cache_spec = {
    .name = "cache",
    .usage = "stats|verify|compact|clear|warm [--path DIR] [PATH...]",
    .summary = "inspect, check, compact, clear or pre-fill the on-disk shader cache",
    .details = "stats    entries, bytes and codegen versions present (key: value lines)\n"
               "verify   check every record; exit 1 on corruption\n"
               "compact  rewrite the cache without dead records\n"
               "clear    remove every entry\n"
               "warm     translate every shader under PATH... into the cache",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = SIZE_MAX,
};

int run_cache(const ParsedArgs& args) {
  const std::string_view action = args.positional()[0];
  bool known = false;
  for (std::string_view candidate : kActions) known |= candidate == action;
  if (!known)
    return usage_error("unknown cache action '" + std::string(action) +
                       "' (stats, verify, compact, clear, warm)");
  return fail("cache", "not implemented yet");
}

} // namespace kiln::cli
