#include "tests/translator/spirv/spirv_tools_text.h"

#include <spirv-tools/libspirv.h>

namespace kiln::test {

std::vector<std::uint32_t> assemble_spirv(std::string_view text, std::string* error,
                                          bool preserve_ids) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  const std::uint32_t options = preserve_ids ? SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS
                                             : SPV_TEXT_TO_BINARY_OPTION_NONE;
  std::vector<std::uint32_t> words;
  if (spvTextToBinaryWithOptions(context, text.data(), text.size(), options, &binary,
                                 &diagnostic) == SPV_SUCCESS) {
    words.assign(binary->code, binary->code + binary->wordCount);
  } else if (error != nullptr) {
    *error = diagnostic != nullptr ? diagnostic->error : "assembly failed";
    if (diagnostic != nullptr)
      *error += " (line " + std::to_string(diagnostic->position.line + 1) + ")";
  }
  spvDiagnosticDestroy(diagnostic);
  spvBinaryDestroy(binary);
  spvContextDestroy(context);
  return words;
}

std::string reference_disassembly(std::span<const std::uint32_t> words) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  std::string result;
  if (spvBinaryToText(context, words.data(), words.size(), SPV_BINARY_TO_TEXT_OPTION_NONE, &text,
                      &diagnostic) == SPV_SUCCESS)
    result.assign(text->str, text->length);
  spvDiagnosticDestroy(diagnostic);
  spvTextDestroy(text);
  spvContextDestroy(context);
  return result;
}

std::string normalize_whitespace(std::string_view text) {
  std::string out;
  bool pending_space = false;
  bool line_empty = true;
  for (char c : text) {
    if (c == '\n') {
      if (!line_empty) out += '\n';
      line_empty = true;
      pending_space = false;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      pending_space = !line_empty;
    } else {
      if (pending_space) out += ' ';
      pending_space = false;
      line_empty = false;
      out += c;
    }
  }
  if (!line_empty) out += '\n';
  return out;
}

} // namespace kiln::test
