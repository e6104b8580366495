#include "tests/translator/dxbc/corpus_support.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kiln::dxbc::test {
namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) fields.push_back(field);
  if (!line.empty() && line.back() == sep) fields.emplace_back();
  return fields;
}

} // namespace

std::map<std::string, ManifestRow> read_manifest(const std::filesystem::path& corpus) {
  std::map<std::string, ManifestRow> rows;
  std::ifstream in(corpus / "manifest.tsv");
  std::string line;
  if (!std::getline(in, line)) return rows;
  const auto header = split(line, '\t');
  auto column = [&](const char* name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return int(i);
    return -1;
  };
  const int file = column("file"), kind = column("kind"), group = column("group"),
            model = column("model"), instructions = column("instructions"),
            checksum = column("checksum_ok");
  while (std::getline(in, line)) {
    const auto f = split(line, '\t');
    auto get = [&](int i) { return i >= 0 && std::size_t(i) < f.size() ? f[i] : std::string(); };
    ManifestRow row;
    row.kind = get(kind);
    row.group = get(group);
    row.model = get(model);
    const std::string count = get(instructions);
    if (!count.empty()) row.instructions = std::stoll(count);
    row.checksum_ok = get(checksum);
    rows[get(file)] = row;
  }
  return rows;
}

std::vector<std::string> normalized_listing_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  bool in_icb = false;
  while (std::getline(in, line)) {
    if (in_icb) {
      if (line.find('}') != std::string::npos && line.find("} }") != std::string::npos)
        in_icb = false;
      continue;
    }
    std::size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos) continue;
    if (line.compare(start, 2, "//") == 0) continue;
    if (line.compare(start, 27, "dcl_immediateConstantBuffer") == 0) {
      in_icb = line.find("} }") == std::string::npos;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(line[start]))) continue;
    // Feature-level-9 listings hold the D3D9 program first; the SM4 one starts at its header.
    if (line.size() >= start + 4 && std::strchr("vpgdhc", line[start]) && line[start + 1] == 's' &&
        line[start + 2] == '_' && (line[start + 3] == '4' || line[start + 3] == '5'))
      lines.clear();
    std::string out;
    bool space = false;
    for (std::size_t i = start; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '\r') continue;
      if (c == ' ' || c == '\t') {
        space = true;
        continue;
      }
      if (space && !out.empty() && out.back() != ',') out.push_back(' ');
      space = false;
      out.push_back(char(std::tolower(static_cast<unsigned char>(c))));
    }
    lines.push_back(out);
  }
  return lines;
}

} // namespace kiln::dxbc::test
