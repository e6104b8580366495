// kiln disasm INPUT [--source | --ir | --ir-scoped | --spirv]

#include "cli/commands.h"
#include "translator/common/input_kind.h"
#include "translator/d3d9/disassembler.h"
#include "translator/dxbc/disassembler.h"
#include "translator/ir/ir_text.h"
#include "translator/spirv/disassembler.h"
#include "translator/translate.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"--source", "", "print the input as D3D assembly (the default)"},
    {"--ir", "", "print kiln's IR in final form (after the passes; what the SPIR-V backend takes)"},
    {"--ir-scoped", "", "print kiln's IR as the front end emits it (before the passes)"},
    {"--spirv", "", "print the translated SPIR-V as assembly (spirv-dis syntax)"},
};
} // namespace

const CommandSpec k_disasm_spec = {
    .name = "disasm",
    .usage = "INPUT [--source | --ir | --ir-scoped | --spirv]",
    .summary = "print a shader as D3D assembly, kiln IR or SPIR-V assembly",
    .details = "",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = 1,
};

int run_disasm(const ParsedArgs& args) {
  const int views = int(args.has("--source")) + int(args.has("--ir")) +
                    int(args.has("--ir-scoped")) + int(args.has("--spirv"));
  if (views > 1) return usage_error("choose one of --source, --ir, --ir-scoped, --spirv");
  const std::string input(args.positional()[0]);
  std::vector<std::uint8_t> bytes;
  if (Status read = read_file(input, bytes); !read) return fail(input, read.message());
  const ShaderInput read = read_shader_input(bytes); // the one read: handed to the translator
  const InputInfo& info = read.info;
  std::string text;
  Status status;
  if (info.kind == InputKind::Spirv) {
    // A SPIR-V file disassembles as itself, whichever view was asked for.
    if (bytes.size() % 4 != 0) return fail(input, "SPIR-V module of odd length");
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    status = spirv::disassemble(words, text);
  } else if (info.kind != InputKind::Dxbc && info.kind != InputKind::D3D9) {
    return fail(input, info.description);
  } else if (args.has("--ir") || args.has("--ir-scoped")) {
    Translator translator;
    ir::Builder builder;
    status = translator.convert_to_ir(read, TranslateOptions{}, builder, args.has("--ir"));
    ir::print(builder, text);
  } else if (args.has("--spirv")) {
    Translator translator;
    TranslateResult result;
    status = translator.translate(read, TranslateOptions{}, result);
    if (status) status = spirv::disassemble(result.spirv, text);
  } else if (info.kind == InputKind::Dxbc) {
    status = dxbc::disassemble(bytes, text);
  } else {
    status = d3d9::disassemble(bytes, text);
  }
  // On failure the IR views still print what the failing stage left behind: that is the point
  // of looking at the IR.
  const bool ir_view = args.has("--ir") || args.has("--ir-scoped");
  if (status || ir_view) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!status) return fail(input, status.message());
  return kExitOk;
}

} // namespace kiln::cli
