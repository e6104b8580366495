#include "tests/conformance/resources.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace kiln::conformance {

namespace {

constexpr FormatInfo kFormats[] = {
#define KILN_X(id, name, components, kind) {name, components, ValueKind::kind},
    KILN_CONFORMANCE_FORMATS(KILN_X)
#undef KILN_X
};

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == ',' || c == '(' || c == ')') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// FORMAT.md 3.3: a number containing '.' is a float, anything else strtoul(..., 0).
bool data_word(const std::string& text, std::uint32_t& out) {
  char* end = nullptr;
  if (text.find('.') != std::string::npos || text.find("inf") != std::string::npos ||
      text.find("nan") != std::string::npos) {
    const float f = std::strtof(text.c_str(), &end);
    std::memcpy(&out, &f, 4);
  } else {
    const bool negative = text[0] == '-';
    const unsigned long long v = std::strtoull(text.c_str() + (negative ? 1 : 0), &end, 0);
    out = std::uint32_t(negative ? 0ull - v : v);
  }
  return end && *end == '\0';
}

bool to_uint(const std::string& text, unsigned& out) {
  char* end = nullptr;
  out = unsigned(std::strtoul(text.c_str(), &end, 0));
  return end && *end == '\0' && !text.empty();
}

} // namespace

const FormatInfo& format_info(Format format) {
  return kFormats[int(format)];
}

bool parse_format(const std::string& name, Format& out) {
  for (std::size_t i = 0; i < std::size(kFormats); ++i) {
    if (name == kFormats[i].name) {
      out = Format(i);
      return true;
    }
  }
  return false;
}

bool parse_resource(const Section& section, ResourceDesc& out, std::string& error) {
  out = ResourceDesc{};
  switch (section.kind) {
  case SectionKind::Srv:
    out.kind = ResourceKind::Srv;
    break;
  case SectionKind::Uav:
    out.kind = ResourceKind::Uav;
    break;
  case SectionKind::Rtv:
    out.kind = ResourceKind::Rtv;
    break;
  case SectionKind::Dsv:
    out.kind = ResourceKind::Dsv, out.format = Format::D32Float;
    break;
  case SectionKind::Vb:
    out.kind = ResourceKind::Vb, out.dim = ResourceDim::Buffer;
    break;
  default:
    error = "not a resource section";
    return false;
  }
  out.slot = section.slot < 0 ? 0 : unsigned(section.slot);
  for (const ScriptLine& line : section.lines) {
    const auto w = words_of(line.text);
    if (w.empty()) continue;
    const auto fail = [&](const std::string& what) {
      error = "line " + std::to_string(line.number) + ": " + what;
      return false;
    };
    if (w[0] == "format") {
      if (w.size() != 2 || !parse_format(w[1], out.format)) return fail("unknown format");
    } else if (w[0] == "stride") {
      if (w.size() != 2 || !to_uint(w[1], out.stride)) return fail("bad stride");
      out.dim = ResourceDim::StructuredBuffer;
      out.format = Format::R32Uint;
    } else if (w[0] == "levels") {
      if (w.size() != 2 || !to_uint(w[1], out.levels)) return fail("bad levels");
    } else if (w[0] == "size") {
      if (w.size() < 3) return fail("bad size");
      unsigned v[4] = {1, 1, 1, 1};
      for (std::size_t i = 2; i < w.size() && i < 6; ++i)
        if (!to_uint(w[i], v[i - 2])) return fail("bad size value");
      const std::string& dim = w[1];
      if (dim == "buffer") {
        if (out.dim != ResourceDim::StructuredBuffer) out.dim = ResourceDim::Buffer;
        out.width = v[0];
      } else if (dim == "raw_buffer") {
        out.dim = ResourceDim::RawBuffer, out.width = v[0], out.format = Format::R32Uint;
      } else if (dim == "2d") {
        out.dim = ResourceDim::Tex2D, out.width = v[0], out.height = v[1];
      } else if (dim == "3d") {
        out.dim = ResourceDim::Tex3D, out.width = v[0], out.height = v[1],
        out.depth_or_layers = v[2];
      } else if (dim == "cube") {
        out.dim = ResourceDim::Cube, out.width = out.height = v[0], out.depth_or_layers = 6;
      } else if (dim == "2darray") {
        out.dim = ResourceDim::Tex2DArray, out.width = v[0], out.height = v[1],
        out.depth_or_layers = v[2];
      } else if (dim == "2dms") {
        out.dim = ResourceDim::Tex2DMS, out.samples = v[0], out.width = v[1], out.height = v[2];
      } else {
        return fail("unknown size kind '" + dim + "'");
      }
    } else {
      for (const std::string& word : w) {
        std::uint32_t value;
        if (!data_word(word, value)) return fail("bad data value '" + word + "'");
        out.data.push_back(value);
      }
      out.has_data = true;
    }
  }
  return true;
}

bool parse_sampler(const Section& section, SamplerDesc& out, std::string& error) {
  out = SamplerDesc{};
  out.slot = section.slot < 0 ? 0 : unsigned(section.slot);
  for (const ScriptLine& line : section.lines) {
    const auto w = words_of(line.text);
    const auto fail = [&](const std::string& what) {
      error = "line " + std::to_string(line.number) + ": " + what;
      return false;
    };
    if (w.empty()) continue;
    if (w[0] == "filter" && w.size() == 4) {
      Filter* targets[] = {&out.min, &out.mag, &out.mip};
      for (int i = 0; i < 3; ++i) {
        if (w[i + 1] != "point" && w[i + 1] != "linear") return fail("bad filter");
        *targets[i] = w[i + 1] == "linear" ? Filter::Linear : Filter::Point;
      }
    } else if (w[0] == "address" && w.size() == 4) {
      static constexpr const char* kModes[] = {"clamp", "wrap", "mirror", "mirror_once", "border"};
      for (int i = 0; i < 3; ++i) {
        bool found = false;
        for (int m = 0; m < 5; ++m)
          if (w[i + 1] == kModes[m]) out.address[i] = AddressMode(m), found = true;
        if (!found) return fail("bad address mode '" + w[i + 1] + "'");
      }
    } else if (w[0] == "comparison" && w.size() >= 2) {
      std::string func = w[1];
      for (std::size_t i = 2; i < w.size(); ++i) func += " " + w[i];
      if (!parse_compare_func(func, out.func)) return fail("bad comparison function");
      out.comparison = true;
    } else {
      return fail("unknown sampler directive '" + line.text + "'");
    }
  }
  return true;
}

bool parse_input_layout(const Section& section, std::vector<InputElement>& out,
                        std::string& error) {
  out.clear();
  for (const ScriptLine& line : section.lines) {
    const auto w = words_of(line.text);
    InputElement element;
    if (w.size() < 3 || w.size() > 4 || !to_uint(w[0], element.slot) ||
        !parse_format(w[1], element.format) ||
        (w.size() == 4 && !to_uint(w[3], element.semantic_index))) {
      error = "line " + std::to_string(line.number) + ": bad input element";
      return false;
    }
    element.semantic = w[2];
    out.push_back(std::move(element));
  }
  return true;
}

} // namespace kiln::conformance
