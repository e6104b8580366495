// kiln: translate, disassemble, benchmark and cache D3D shader bytecode.

#include "cli/commands.h"
#include "translator/version.h"

#include <cstdio>
#include <cstring>
#include <string_view>

namespace kiln::cli {
namespace {

constexpr Command kCommands[] = {
#define KILN_X(name) {&k_##name##_spec, &run_##name},
    KILN_CLI_COMMANDS(KILN_X)
#undef KILN_X
};

void print_main_help() {
  std::printf("usage: kiln COMMAND [ARGS...]\n\n"
              "kiln translates Direct3D shader bytecode (DXBC SM4.0-5.1, D3D9 SM1.x-3.0) to "
              "SPIR-V for Vulkan.\n\ncommands:\n");
  for (const Command& command : kCommands)
    std::printf("  %-10.*s %.*s\n", int(command.spec->name.size()), command.spec->name.data(),
                int(command.spec->summary.size()), command.spec->summary.data());
  std::printf("\n'kiln COMMAND --help' describes a command. 'kiln --version' prints the version.\n"
              "Exit codes: 0 success, 1 input rejected or a check failed, 2 usage error.\n");
}

} // namespace
} // namespace kiln::cli

int main(int argc, char** argv) {
  using namespace kiln::cli;
  if (argc < 2) {
    print_main_help();
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_main_help();
    return kExitOk;
  }
  if (name == "--version") {
    std::printf("kiln %s (codegen %u)\n", kiln::kVersionString, kiln::kCodegenVersion);
    return kExitOk;
  }
  for (const Command& command : kCommands) {
    if (command.spec->name != name) continue;
    ParsedArgs args;
    switch (parse_args(*command.spec, std::span<char*>(argv + 2, argc - 2), args)) {
    case ParseOutcome::Help:
      return kExitOk;
    case ParseOutcome::UsageError:
      return kExitUsage;
    case ParseOutcome::Ok:
      return command.run(args);
    }
  }
  return usage_error("unknown command '" + std::string(name) + "' (see 'kiln --help')");
}
