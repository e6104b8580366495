#pragma once
// The `kiln` subcommands. Each lives in its own file; main.cpp lists them once.

#include "cli/args.h"

#include <span>

namespace kiln::cli {

struct Command {
  const CommandSpec* spec;
  int (*run)(const ParsedArgs& args);
};

#define KILN_CLI_COMMANDS(X)                                                                       \
  X(translate)                                                                                     \
  X(disasm)                                                                                        \
  X(bench)                                                                                         \
  X(execute)                                                                                       \
  X(cache)

#define KILN_X(name)                                                                               \
  extern const CommandSpec k_##name##_spec;                                                        \
  int run_##name(const ParsedArgs& args);
KILN_CLI_COMMANDS(KILN_X)
#undef KILN_X

} // namespace kiln::cli
