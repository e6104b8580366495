#include "tests/conformance/commands.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace kiln::conformance {

namespace {

// Words and the punctuation '(' and ')'; commas, blanks and ';' separate (a few scripts end
// lines with ';', which vkd3d's sscanf-based reader never sees).
std::vector<std::string_view> tokenize(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == ',' || c == ';') {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.push_back(text.substr(i, 1));
      ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && !std::strchr(" \t,;()", text[j])) ++j;
      tokens.push_back(text.substr(i, j - i));
      i = j;
    }
  }
  return tokens;
}

class Cursor {
 public:
  explicit Cursor(std::vector<std::string_view> tokens) : tokens_(std::move(tokens)) {}
  bool done() const { return pos_ >= tokens_.size(); }
  std::string_view peek() const { return done() ? std::string_view() : tokens_[pos_]; }
  std::string_view next() { return done() ? std::string_view() : tokens_[pos_++]; }
  bool accept(std::string_view word) {
    if (peek() != word) return false;
    ++pos_;
    return true;
  }
  std::size_t remaining() const { return tokens_.size() - pos_; }

 private:
  std::vector<std::string_view> tokens_;
  std::size_t pos_ = 0;
};

bool to_float(std::string_view token, float& out) {
  if (token.empty()) return false;
  const std::string s(token);
  char* end = nullptr;
  errno = 0;
  out = std::strtof(s.c_str(), &end);
  return end && *end == '\0';
}

// C strtoul(..., 0) rules; a leading '-' wraps to two's complement.
bool to_u32(std::string_view token, std::uint32_t& out) {
  if (token.empty()) return false;
  const std::string s(token);
  char* end = nullptr;
  const bool negative = s[0] == '-';
  const unsigned long long magnitude = std::strtoull(s.c_str() + (negative ? 1 : 0), &end, 0);
  if (!end || *end != '\0') return false;
  out = std::uint32_t(negative ? 0ull - magnitude : magnitude);
  return true;
}

bool to_unsigned(std::string_view token, unsigned& out) {
  std::uint32_t value;
  if (!to_u32(token, value)) return false;
  out = value;
  return true;
}

std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

// "( a b ... )" -> up to `max` tokens.
bool parenthesised(Cursor& c, std::vector<std::string_view>& out, std::size_t max) {
  if (!c.accept("(")) return false;
  out.clear();
  while (!c.done() && c.peek() != ")") {
    if (out.size() == max) return false;
    out.push_back(c.next());
  }
  return c.accept(")");
}

bool parse_probe(Cursor& c, ProbeCommand& p, std::string& error) {
  if (c.accept("rtv")) {
    p.target = ProbeTarget::RenderTarget;
    if (!to_unsigned(c.next(), p.slot)) return (error = "probe rtv: bad slot", false);
  } else if (c.accept("uav")) {
    p.target = ProbeTarget::Uav;
    if (!to_unsigned(c.next(), p.slot)) return (error = "probe uav: bad slot", false);
  } else if (c.accept("dsv")) {
    p.target = ProbeTarget::Dsv;
  }
  std::vector<std::string_view> coords;
  if (!parenthesised(c, coords, 4) || coords.empty())
    return (error = "probe: bad coordinates", false);
  unsigned v[4] = {};
  for (std::size_t i = 0; i < coords.size(); ++i)
    if (!to_unsigned(coords[i], v[i])) return (error = "probe: bad coordinate", false);
  switch (coords.size()) {
  case 1:
    p.left = v[0], p.top = 0, p.right = v[0] + 1, p.bottom = 1;
    break;
  case 2:
    p.left = v[0], p.top = v[1], p.right = v[0] + 1, p.bottom = v[1] + 1;
    break;
  case 3:
    p.left = v[0], p.top = v[1], p.right = v[0] + 1, p.bottom = v[1] + 1, p.layer = v[2];
    break;
  default:
    p.left = v[0], p.top = v[1], p.right = v[2], p.bottom = v[3];
    break;
  }
  std::string_view kind = c.next();
  if (kind.ends_with("x4")) kind.remove_suffix(2); // "u32x4": four values, same rules
  if (kind == "rgba" || kind == "f32")
    p.kind = ValueKind::Float;
  else if (kind == "u32")
    p.kind = ValueKind::Uint;
  else if (kind == "i32")
    p.kind = ValueKind::Int;
  else
    return (error = "probe: unsupported value kind '" + std::string(kind) + "'", false);
  std::vector<std::string_view> values;
  if (!parenthesised(c, values, 4) || values.empty() || values.size() == 3)
    return (error = "probe: bad value list", false);
  p.value_count = unsigned(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (p.kind == ValueKind::Float) {
      float f;
      if (!to_float(values[i], f)) return (error = "probe: bad float value", false);
      p.values[i] = float_bits(f);
    } else if (!to_u32(values[i], p.values[i])) {
      return (error = "probe: bad integer value", false);
    }
  }
  if (!c.done() && !to_unsigned(c.next(), p.ulps)) return (error = "probe: bad ulp count", false);
  return c.done() || (error = "probe: trailing tokens", false);
}

bool parse_uniform(Cursor& c, UniformCommand& u, std::string& error) {
  if (!to_unsigned(c.next(), u.offset_words)) return (error = "uniform: bad offset", false);
  const std::string_view type = c.next();
  const bool is_float = type.starts_with("float");
  const bool is_int = type.starts_with("int") || type.starts_with("uint");
  if (!(is_float || is_int) || type.find("64") != std::string_view::npos)
    return (error = "uniform: unsupported type '" + std::string(type) + "'", false);
  const unsigned count = type.ends_with("4") ? 4 : 1;
  for (unsigned i = 0; i < count; ++i) {
    std::uint32_t word;
    float f;
    if (is_float) {
      if (!to_float(c.next(), f)) return (error = "uniform: bad float", false);
      word = float_bits(f);
    } else if (!to_u32(c.next(), word)) {
      return (error = "uniform: bad integer", false);
    }
    u.words.push_back(word);
  }
  // Extra values after the last component are ignored, as vkd3d's reader does.
  return true;
}

bool parse_draw(Cursor& c, DrawCommand& d, std::string& error) {
  if (c.accept("quad")) {
    d.quad = true;
    return c.done() || (error = "draw quad: trailing tokens", false);
  }
  if (c.accept("triangle")) {
    if (c.accept("list"))
      d.topology = Topology::TriangleList;
    else if (c.accept("strip"))
      d.topology = Topology::TriangleStrip;
    else
      return (error = "draw: unknown triangle topology", false);
  } else if (c.accept("point")) {
    if (!c.accept("list")) return (error = "draw: unknown point topology", false);
    d.topology = Topology::PointList;
  } else if (to_unsigned(c.peek(), d.patch_size)) {
    c.next();
    if (!(c.accept("control") && c.accept("point") && c.accept("patch") && c.accept("list")))
      return (error = "draw: bad patch list", false);
    d.topology = Topology::PatchList;
  } else {
    return (error = "draw: unknown topology", false);
  }
  if (!to_unsigned(c.next(), d.vertex_count)) return (error = "draw: bad vertex count", false);
  if (!c.done() && !to_unsigned(c.next(), d.instance_count))
    return (error = "draw: bad instance count", false);
  return c.done() || (error = "draw: trailing tokens", false);
}

bool floats(Cursor& c, std::array<float, 4>& out, unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    if (!to_float(c.next(), out[i])) return false;
  return c.done();
}

} // namespace

bool parse_compare_func(std::string_view text, CompareFunc& out) {
  struct Name {
    std::string_view name;
    CompareFunc func;
  };
  static constexpr Name kNames[] = {
      {"never", CompareFunc::Never},
      {"less", CompareFunc::Less},
      {"equal", CompareFunc::Equal},
      {"less equal", CompareFunc::LessEqual},
      {"greater", CompareFunc::Greater},
      {"not equal", CompareFunc::NotEqual},
      {"greater equal", CompareFunc::GreaterEqual},
      {"always", CompareFunc::Always},
  };
  for (const Name& n : kNames) {
    if (n.name == text) {
      out = n.func;
      return true;
    }
  }
  return false;
}

bool parse_command(std::string_view text, unsigned line, Command& out, std::string& error) {
  out = Command{};
  out.line = line;
  Cursor c(tokenize(text));
  const std::string_view head = c.next();
  using K = Command::Kind;
  if (head == "draw") {
    out.kind = K::Draw;
    return parse_draw(c, out.draw, error);
  }
  if (head == "probe") {
    out.kind = K::Probe;
    return parse_probe(c, out.probe, error);
  }
  if (head == "uniform") {
    out.kind = K::Uniform;
    return parse_uniform(c, out.uniform, error);
  }
  if (head == "dispatch") {
    out.kind = K::Dispatch;
    for (auto& g : out.groups)
      if (!to_u32(c.next(), g)) return (error = "dispatch: bad group count", false);
    return c.done() || (error = "dispatch: trailing tokens", false);
  }
  if (head == "clear") {
    if (c.accept("rtv")) {
      out.kind = K::ClearRtv;
      if (!to_unsigned(c.next(), out.slot)) return (error = "clear rtv: bad slot", false);
      return floats(c, out.floats, 4) || (error = "clear rtv: bad colour", false);
    }
    if (c.accept("dsv")) {
      out.kind = K::ClearDsv;
      return floats(c, out.floats, 1) || (error = "clear dsv: bad depth", false);
    }
    return (error = "clear: unknown target", false);
  }
  if (head == "alpha") {
    out.kind = K::AlphaTest;
    if (!c.accept("test")) return (error = "alpha: expected 'test'", false);
    // The function may be two words; the reference, when present, is the last token.
    std::string func(c.next());
    float ref = 0;
    while (!c.done()) {
      if (c.remaining() == 1 && to_float(c.peek(), ref)) {
        c.next();
        break;
      }
      func += " " + std::string(c.next());
    }
    out.floats[0] = ref;
    return parse_compare_func(func, out.func) || (error = "alpha test: unknown function", false);
  }
  if (head == "depth") {
    out.kind = K::Depth;
    std::string func(c.next());
    while (!c.done()) func += " " + std::string(c.next());
    return parse_compare_func(func, out.func) || (error = "depth: unknown function", false);
  }
  if (head == "depth-bounds") {
    out.kind = K::DepthBounds;
    return floats(c, out.floats, 2) || (error = "depth-bounds: bad range", false);
  }
  if (head == "shade") {
    out.kind = K::ShadeMode;
    if (!c.accept("mode")) return (error = "shade: expected 'mode'", false);
    const std::string_view mode = c.next();
    out.flag = mode == "flat";
    return (mode == "flat" || mode == "linear") || (error = "shade mode: unknown mode", false);
  }
  if (head == "point-size") {
    out.kind = K::PointSize;
    return floats(c, out.floats, 3) || (error = "point-size: bad values", false);
  }
  if (head == "point-sprite") {
    out.kind = K::PointSprite;
    const std::string_view v = c.next();
    out.flag = v == "on";
    return (v == "on" || v == "off") || (error = "point-sprite: expected on|off", false);
  }
  if (head == "fog") {
    out.kind = K::Fog;
    const std::string_view mode = c.next();
    FogCommand& f = out.fog;
    // `ortho` / `non-ortho` follow the mode where vkd3d's runner reads them
    // (`fog linear ortho 0 1`); FORMAT.md 4.5 writes them after the constants instead, which
    // is accepted too.
    const auto source = [&] {
      if (c.accept("ortho"))
        f.source = FogCommand::Source::Ortho;
      else if (c.accept("non-ortho"))
        f.source = FogCommand::Source::NonOrtho;
    };
    source();
    if (mode == "disable") {
      f.mode = FogCommand::Mode::Disable;
    } else if (mode == "none") {
      f.mode = FogCommand::Mode::None;
    } else if (mode == "linear") {
      f.mode = FogCommand::Mode::Linear;
      if (!to_float(c.next(), f.start) || !to_float(c.next(), f.end))
        return (error = "fog linear: bad range", false);
    } else if (mode == "exp" || mode == "exp2") {
      f.mode = mode == "exp" ? FogCommand::Mode::Exp : FogCommand::Mode::Exp2;
      if (!to_float(c.next(), f.density)) return (error = "fog: bad density", false);
    } else {
      return (error = "fog: unknown mode", false);
    }
    if (f.source == FogCommand::Source::Default) source();
    return c.done() || (error = "fog: trailing tokens", false);
  }
  if (head == "fog-colour") {
    out.kind = K::FogColour;
    return floats(c, out.floats, 4) || (error = "fog-colour: bad colour", false);
  }
  if (head == "clip-plane") {
    out.kind = K::ClipPlane;
    if (!to_unsigned(c.next(), out.slot) || out.slot > 7)
      return (error = "clip-plane: bad index", false);
    if (c.accept("disable")) return c.done();
    out.flag = true;
    return floats(c, out.floats, 4) || (error = "clip-plane: bad plane", false);
  }
  if (head == "viewport") {
    out.kind = K::Viewport;
    std::vector<std::string_view> rect;
    if (!to_unsigned(c.next(), out.slot) || !parenthesised(c, rect, 4) || rect.size() != 4)
      return (error = "viewport: bad rectangle", false);
    for (int i = 0; i < 4; ++i)
      if (!to_float(rect[i], out.floats[i])) return (error = "viewport: bad number", false);
    return c.done();
  }
  if (head == "sample") {
    out.kind = K::SampleMask;
    return (c.accept("mask") && to_u32(c.next(), out.mask) && c.done()) ||
           (error = "sample mask: bad mask", false);
  }
  if (head == "copy") {
    out.kind = K::Copy;
    auto resource = [&](std::string& name) {
      name = std::string(c.next());
      if (name != "dsv") name += " " + std::string(c.next());
    };
    resource(out.copy_source);
    resource(out.copy_destination);
    return c.done() || (error = "copy: trailing tokens", false);
  }
  return (error = "unknown command '" + std::string(head) + "'", false);
}

bool floats_match(std::uint32_t expected_bits, std::uint32_t actual_bits, unsigned ulps) {
  const auto is_nan = [](std::uint32_t b) {
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu);
  };
  if (is_nan(expected_bits) || is_nan(actual_bits))
    return is_nan(expected_bits) && is_nan(actual_bits) &&
           (expected_bits >> 31) == (actual_bits >> 31);
  // Map sign-magnitude to a monotonic integer order; +0 and -0 both map to 0.
  const auto ordered = [](std::uint32_t b) -> std::int64_t {
    return (b >> 31) ? -std::int64_t(b & 0x7fffffffu) : std::int64_t(b);
  };
  const std::int64_t diff = ordered(expected_bits) - ordered(actual_bits);
  return std::uint64_t(diff < 0 ? -diff : diff) <= ulps;
}

} // namespace kiln::conformance
