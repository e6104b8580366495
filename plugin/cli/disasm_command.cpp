// kiln disasm INPUT [--source | --ir | --spirv]

#include <cstdio>
#include <string>

#include "plugin/cli/commands.h"
#include "translator/common/input_kind.h"

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--source", "", "print the input as D3D assembly (the default)"},
    {"--ir", "", "print kiln's IR after translation"},
    {"--spirv", "", "print the translated SPIR-V as assembly (spirv-dis syntax)"},
};
} // namespace

const CommandSpec k_disasm_spec = {
    .name = "disasm",
    .usage = "INPUT [--source | --ir | --spirv]",
    .summary = "print a shader as D3D assembly, kiln IR or SPIR-V assembly",
    .details = "",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = 1,
};

int run_disasm(const ParsedArgs& args) {
  const int views = int(args.has("--source")) + int(args.has("--ir")) + int(args.has("--spirv"));
  if (views > 1) return usage_error("choose one of --source, --ir, --spirv");
  const std::string input(args.positional()[0]);
  std::vector<std::uint8_t> bytes;
  std::string error;
  if (!read_file(input, bytes, error)) return fail(input, error);
  const InputInfo info = detect_input_kind(bytes);
  if (info.kind != InputKind::Dxbc && info.kind != InputKind::D3D9)
    return fail(input, info.description);
  return fail(input, "disassembly: not implemented yet");
}

} // namespace kiln::cli
