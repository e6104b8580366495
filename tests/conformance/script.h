#pragma once
// A vkd3d `.shader_test` file split into numbered sections (FORMAT.md section 1). Section
// numbers are the ones cases.json refers to (`test_section`, `state_sections`).

#include <string>
#include <string_view>
#include <vector>

namespace kiln::conformance {

enum class SectionKind {
  Require,
  Shader, // any [... shader ...] section; bodies are never read (blobs are shipped)
  Test,
  Srv,
  Uav,
  Rtv,
  Dsv,
  Vb,
  Sampler,
  InputLayout,
  Other, // [effect] and anything unknown: ignored
};

struct ScriptLine {
  unsigned number = 0; // 1-based line number in the file
  std::string text;    // without comment, trimmed
};

struct Section {
  unsigned index = 0;
  SectionKind kind = SectionKind::Other;
  std::string header; // the text between the brackets
  int slot = -1;      // n of [srv n], [uav n], [rtv n], [vb n], [sampler n]
  unsigned first_line = 0;
  std::vector<ScriptLine> lines; // non-empty, non-comment body lines
};

// Splits `text` into sections. Lines before the first section are ignored, `%` starts a
// comment line. Never fails on well-formed UTF-8 text; a malformed header becomes Other.
std::vector<Section> split_sections(std::string_view text);

} // namespace kiln::conformance
