#include "tests/conformance/script.h"

#include <cctype>
#include <cstdlib>

namespace kiln::conformance {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_word(std::string_view header, std::string_view word) {
  return header.substr(0, word.size()) == word &&
         (header.size() == word.size() || header[word.size()] == ' ');
}

void classify(Section& section) {
  std::string_view h = section.header;
  struct Slotted {
    std::string_view word;
    SectionKind kind;
  };
  static constexpr Slotted kSlotted[] = {{"srv", SectionKind::Srv},
                                         {"uav", SectionKind::Uav},
                                         {"rtv", SectionKind::Rtv},
                                         {"vb", SectionKind::Vb},
                                         {"sampler", SectionKind::Sampler}};
  for (const Slotted& s : kSlotted) {
    if (starts_with_word(h, s.word)) {
      section.kind = s.kind;
      section.slot = std::atoi(std::string(trim(h.substr(s.word.size()))).c_str());
      return;
    }
  }
  if (h == "dsv")
    section.kind = SectionKind::Dsv;
  else if (h == "require")
    section.kind = SectionKind::Require;
  else if (h == "test")
    section.kind = SectionKind::Test;
  else if (h == "input layout")
    section.kind = SectionKind::InputLayout;
  else if (h.find("shader") != std::string_view::npos)
    section.kind = SectionKind::Shader;
  else
    section.kind = SectionKind::Other;
}

} // namespace

std::vector<Section> split_sections(std::string_view text) {
  std::vector<Section> sections;
  unsigned number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() == '[') {
      Section section;
      section.index = unsigned(sections.size());
      section.first_line = number;
      const std::size_t close = line.find(']');
      section.header = std::string(trim(
          line.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1)));
      classify(section);
      sections.push_back(std::move(section));
      continue;
    }
    line = trim(line);
    if (line.empty() || line.front() == '%' || sections.empty()) continue;
    sections.back().lines.push_back({number, std::string(line)});
  }
  return sections;
}

} // namespace kiln::conformance
