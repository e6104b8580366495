// kiln translate INPUT [-o OUT.spv] [--target ENV] [--interface FILE] [--extensions LIST]
// [--validate] [--debug-names]

#include "cli/commands.h"
#include "plugin/abi/interface_json.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <cstdio>
#include <memory>
#include <string>

namespace kiln::cli {

namespace {
constexpr OptionSpec kOptions[] = {
    {"-o", "OUT.spv", "write SPIR-V here (default: INPUT with .spv appended)"},
    {"--target", "ENV", "vulkan1.0 | vulkan1.1 | vulkan1.2 | vulkan1.3 (default vulkan1.3)"},
    {"--interface", "FILE", "the layer's interface description as JSON (docs/abi.md)"},
    {"--extensions", "LIST",
     "enable only these optional extensions (replacing the interface's list; without "
     "--interface, under an otherwise empty interface): 'none', 'all' or a comma list of "
     "demote-to-helper, stencil-export, viewport-index-layer, fragment-shader-interlock, "
     "fragment-fully-covered, descriptor-indexing, transform-feedback, shader-draw-parameters "
     "(default: no interface, everything)"},
    {"--validate", "", "validate the SPIR-V with SPIRV-Tools; exit 1 when invalid"},
    {"--debug-names", "",
     "name SPIR-V ids (OpName) after the bytecode's reflection: RDEF/CTAB constant buffers and "
     "resources, signature semantics"},
};
} // namespace

const CommandSpec k_translate_spec = {
    .name = "translate",
    .usage = "INPUT [-o OUT.spv] [--target vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3] "
             "[--interface FILE] [--extensions LIST] [--validate] [--debug-names]",
    .summary = "translate one shader (DXBC or D3D9 bytecode, detected from its bytes) to SPIR-V",
    .details = "Exit 0 on success; 1 when the input is rejected or invalid, with one line on\n"
               "stderr 'kiln: INPUT: reason'; 2 on a usage error.",
    .options = kOptions,
    .min_positional = 1,
    .max_positional = 1,
};

int run_translate(const ParsedArgs& args) {
  const std::string input(args.positional()[0]);
  TranslateOptions options;
  options.debug_names = args.has("--debug-names");
  if (args.has("--target") && !parse_spirv_target(args.value("--target"), options.target))
    return usage_error("unknown --target '" + std::string(args.value("--target")) +
                       "' (vulkan1.0, vulkan1.1, vulkan1.2 or vulkan1.3)");
  std::vector<std::uint8_t> bytes;
  std::shared_ptr<ShaderInterface> interface;
  if (args.has("--interface")) {
    const std::string path(args.value("--interface"));
    if (Status read = read_file(path, bytes); !read) return fail(path, read.message());
    interface = std::make_shared<ShaderInterface>();
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (Status status = abi::interface_from_json(text, *interface); !status)
      return fail(path, status.message());
  }
  if (args.has("--extensions")) {
    if (!interface) interface = std::make_shared<ShaderInterface>();
    if (!parse_extension_list(args.value("--extensions"), interface->extensions))
      return usage_error("unknown extension in --extensions '" +
                         std::string(args.value("--extensions")) + "'");
  }
  options.interface = std::move(interface);
  if (Status read = read_file(input, bytes); !read) return fail(input, read.message());

  Translator translator;
  TranslateResult result;
  if (Status status = translator.translate(bytes, options, result); !status)
    return fail(input, status.message());
  for (const std::string& warning : result.diagnostics)
    std::fprintf(stderr, "kiln: %s: warning: %s\n", input.c_str(), warning.c_str());

  if (args.has("--validate")) {
    if (Status status = validate_spirv(result.spirv, options.target); !status)
      return fail(input, "invalid SPIR-V: " + status.message());
  }

  const std::string output = args.has("-o") ? std::string(args.value("-o")) : input + ".spv";
  const auto* data = reinterpret_cast<const std::uint8_t*>(result.spirv.data());
  if (Status written = write_file(output, {data, result.spirv.size() * 4}); !written)
    return fail(output, written.message());
  return kExitOk;
}

} // namespace kiln::cli
