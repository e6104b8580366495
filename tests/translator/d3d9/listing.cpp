#include "tests/translator/d3d9/listing.h"

#include "translator/d3d9/program.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace kiln::d3d9::test {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

constexpr std::string_view kSampleVariantNames[] = {
#define KILN_X(name, value, text) text,
    KILN_D3D9_SAMPLE_VARIANTS(KILN_X)
#undef KILN_X
};

bool is_mnemonic(std::string_view word) {
  for (std::string_view variant : kSampleVariantNames) // texldp, texldb
    if (variant == word) return true;
  for (const OpcodeInfo& info : kOpcodeInfo)
    if (info.mnemonic == word) return true;
  return false;
}

bool is_version(std::string_view word) {
  return word.size() >= 6 && (word.substr(0, 3) == "vs_" || word.substr(0, 3) == "ps_") &&
         std::isdigit(static_cast<unsigned char>(word[3])) && word[4] == '_';
}

// A number written any way ("1.0", "1", "-0.50") in one spelling.
bool normalize_number(const std::string& operand, std::string& out) {
  if (operand.empty()) return false;
  const char c = operand[0];
  if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' ||
        operand == "nan" || operand == "inf" || operand == "-inf"))
    return false;
  char* end = nullptr;
  const float value = std::strtof(operand.c_str(), &end);
  if (end == operand.c_str()) return false;
  std::string_view rest(end);
  if (!(rest.empty() || rest == "f")) return false;
  // Six significant digits: hand-written listings round (3.14159 for pi).
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", double(value));
  out = text;
  return true;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string normalize_operand(std::string operand) {
  std::string number;
  if (normalize_number(operand, number)) return number;
  // c[a0.x + 3] / c[3 + a0.x] -> c3[a0.x]
  const std::size_t open = operand.find('['), close = operand.find(']');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    std::string inside = operand.substr(open + 1, close - open - 1);
    std::string offset;
    if (const std::size_t plus = inside.find('+'); plus != std::string::npos) {
      std::string a = inside.substr(0, plus), b = inside.substr(plus + 1);
      if (all_digits(a)) std::swap(a, b);
      if (all_digits(b)) {
        offset = b;
        inside = a;
      }
    }
    std::string base = operand.substr(0, open);
    if (base.empty() || !std::isdigit(static_cast<unsigned char>(base.back()))) base += '0';
    if (!offset.empty()) {
      // c[...] + 3 with no number after the name, or c2[...] + 3 adding up.
      std::size_t digits = base.size();
      while (digits > 0 && std::isdigit(static_cast<unsigned char>(base[digits - 1]))) --digits;
      const unsigned sum = unsigned(std::atoi(offset.c_str())) +
                           (digits < base.size() ? unsigned(std::atoi(base.c_str() + digits)) : 0);
      base = base.substr(0, digits) + std::to_string(sum);
    }
    operand = base + "[" + inside + "]" + operand.substr(close + 1);
  }
  // Swizzles and masks: rgba -> xyzw, short forms repeat their last component, .xyzw is
  // the default.
  const std::size_t dot = operand.rfind('.');
  const std::size_t bracket = operand.rfind(']');
  if (dot != std::string::npos && (bracket == std::string::npos || dot > bracket)) {
    std::string swizzle = operand.substr(dot + 1);
    bool ok = !swizzle.empty() && swizzle.size() <= 4;
    for (char& c : swizzle) {
      switch (c) {
      case 'r':
        c = 'x';
        break;
      case 'g':
        c = 'y';
        break;
      case 'b':
        c = 'z';
        break;
      case 'a':
        c = 'w';
        break;
      case 'x':
      case 'y':
      case 'z':
      case 'w':
        break;
      default:
        ok = false;
      }
    }
    if (ok) {
      while (swizzle.size() < 4) swizzle += swizzle.back();
      operand = operand.substr(0, dot) + (swizzle == "xyzw" ? "" : "." + swizzle);
    }
  }
  return operand;
}

} // namespace

std::vector<std::string> normalized_listing(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view raw = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (const std::size_t c = raw.find("//"); c != std::string_view::npos) raw = raw.substr(0, c);
    if (const std::size_t c = raw.find(';'); c != std::string_view::npos) raw = raw.substr(0, c);
    std::string line = lower(trim(raw));
    if (line.empty()) continue;

    std::string prefix;
    if (line[0] == '+') {
      prefix = "+";
      line = std::string(trim(line.substr(1)));
    }
    if (!line.empty() && line[0] == '(') {
      const std::size_t close = line.find(')');
      if (close == std::string::npos) continue;
      for (char c : line.substr(0, close + 1))
        if (!std::isspace(static_cast<unsigned char>(c))) prefix += c;
      prefix += ' ';
      line = std::string(trim(line.substr(close + 1)));
    }
    const std::size_t space = line.find_first_of(" \t,");
    std::string word = line.substr(0, space);
    for (char& c : word)
      if (c == '.') c = '_'; // ps.1.1
    if (is_version(word)) {
      lines.push_back(word);
      continue;
    }
    const std::string base = word.substr(0, word.find('_'));
    if (!is_mnemonic(base)) continue;
    // dcl_texcoord0 -> dcl_texcoord: index 0 is the default.
    if (base == "dcl" && word.size() > 4 && word.back() == '0' &&
        std::isalpha(static_cast<unsigned char>(word[word.size() - 2])))
      word.pop_back();

    std::string out = prefix + word;
    std::string_view rest = space == std::string::npos ? "" : std::string_view(line).substr(space);
    bool first = true, prose = false;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      // Spaces only inside brackets (c[a0.x + 3]); anything else is prose, not an operand.
      const std::string_view raw_operand = trim(rest.substr(0, comma));
      std::string operand;
      int depth = 0;
      for (char c : raw_operand) {
        depth += c == '[' ? 1 : c == ']' ? -1 : 0;
        if (!std::isspace(static_cast<unsigned char>(c)))
          operand += c;
        else if (depth == 0)
          prose = true;
      }
      rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
      if (operand.empty()) continue;
      out += first ? " " : ", ";
      first = false;
      out += normalize_operand(operand);
    }
    if (!prose) lines.push_back(out);
  }
  return lines;
}

} // namespace kiln::d3d9::test
