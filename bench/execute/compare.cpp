#include "bench/execute/compare.h"

#include "bench/execute/spirv_words.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

namespace kiln::execute {

namespace {

struct Tolerance {
  const char* name;
  std::uint32_t ulps;
  double absolute;
};

constexpr Tolerance kToleranceTable[] = {
#define KILN_X(id, name, ulps, absolute) {name, ulps, absolute},
    KILN_EXECUTE_OP_CLASSES(KILN_X)
#undef KILN_X
};

float as_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

bool is_nan(std::uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
}

// D3D flushes denormals to sign-preserved zero on the input and output of float arithmetic, and
// treats +0 and -0 alike in comparisons; either translation may or may not flush.
std::uint32_t flushed(std::uint32_t bits) {
  return (bits & 0x7f800000u) == 0 ? 0u : bits;
}

// Distance in units in the last place between two finite floats, across zero.
std::uint64_t ulp_distance(std::uint32_t a, std::uint32_t b) {
  auto ordered = [](std::uint32_t bits) -> std::int64_t {
    return (bits & 0x80000000u) ? -std::int64_t(bits & 0x7fffffffu) : std::int64_t(bits);
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return std::uint64_t(d < 0 ? -d : d);
}

OpClass max_class(OpClass a, OpClass b) {
  return a > b ? a : b;
}

std::string describe_word(std::uint32_t bits, char kind) {
  char text[64];
  if (kind == 'f' || kind == 'x')
    std::snprintf(text, sizeof text, "0x%08x (%.9g)", bits, double(as_float(bits)));
  else
    std::snprintf(text, sizeof text, "0x%08x (%u)", bits, bits);
  return text;
}

} // namespace

const char* op_class_name(OpClass c) {
  return kToleranceTable[std::size_t(c)].name;
}

bool floats_match(std::uint32_t a, std::uint32_t b, OpClass op_class) {
  if (a == b) return true;
  if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b); // any payload
  a = flushed(a), b = flushed(b);
  if ((a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0) return true; // +0, -0, flushed
  const Tolerance& t = kToleranceTable[std::size_t(op_class)];
  if (ulp_distance(a, b) <= t.ulps) return true;
  const double fa = as_float(a), fb = as_float(b);
  return std::isfinite(fa) && std::isfinite(fb) && std::fabs(fa - fb) <= t.absolute;
}

OpClass loosest_op_class(std::span<const std::uint32_t> spirv) {
  OpClass out = OpClass::Exact;
  walk_instructions(spirv, [&](const auto& instruction) {
    switch (instruction.op) {
    case spv::OpFDiv:
    case spv::OpFRem:
    case spv::OpFMod:
      out = max_class(out, OpClass::Divide);
      break;
    case spv::OpDPdx:
    case spv::OpDPdy:
    case spv::OpFwidth:
    case spv::OpDPdxFine:
    case spv::OpDPdyFine:
    case spv::OpDPdxCoarse:
    case spv::OpDPdyCoarse:
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageQueryLod:
      out = max_class(out, OpClass::Derivative);
      break;
    case spv::OpExtInst:
      if (instruction.count() >= 5) {
        switch (instruction.words[4]) {
        case GLSLstd450Fma:
          out = max_class(out, OpClass::Fused);
          break;
        case GLSLstd450Sqrt:
        case GLSLstd450InverseSqrt:
          out = max_class(out, OpClass::Root);
          break;
        case GLSLstd450Exp2:
        case GLSLstd450Log2:
        case GLSLstd450Exp:
        case GLSLstd450Log:
        case GLSLstd450Pow:
          out = max_class(out, OpClass::Exponential);
          break;
        case GLSLstd450Sin:
        case GLSLstd450Cos:
          out = max_class(out, OpClass::Trigonometric);
          break;
        default:
          break;
        }
      }
      break;
    default:
      break;
    }
  });
  return out;
}

Comparison compare_outputs(const std::vector<Output>& kiln, const std::vector<Output>& vkd3d,
                           OpClass op_class) {
  Comparison out;
  auto differ = [&](const std::string& text) {
    out.same = false;
    if (out.first_difference.empty()) out.first_difference = text;
  };
  if (kiln.size() != vkd3d.size()) {
    differ("different outputs: kiln " + std::to_string(kiln.size()) + ", vkd3d " +
           std::to_string(vkd3d.size()));
    return out;
  }
  for (std::size_t i = 0; i < kiln.size(); ++i) {
    const Output& k = kiln[i];
    const Output& v = vkd3d[i];
    if (k.words.size() != v.words.size()) {
      differ(k.name + ": sizes differ");
      continue;
    }
    for (std::size_t w = 0; w < k.words.size(); ++w) {
      if (!(k.compare_mask >> (w % k.components) & 1)) continue;
      ++out.words_compared;
      const std::uint32_t a = k.words[w], b = v.words[w];
      bool same = a == b;
      if (!same && k.kind == 'f') same = floats_match(a, b, op_class);
      // Raw words hold floats or integers: words that read as normal floats of moderate size
      // on both sides are compared as floats, anything else (small integers) bit for bit.
      if (!same && k.kind == 'x') {
        const auto moderate = [](std::uint32_t bits) {
          const std::uint32_t exponent = (bits >> 23) & 0xff;
          return exponent >= 127 - 40 && exponent <= 127 + 40;
        };
        same = moderate(a) && moderate(b) && floats_match(a, b, op_class);
      }
      if (!same) {
        ++out.words_different;
        differ(k.name + " word " + std::to_string(w) + ": kiln " + describe_word(a, k.kind) +
               ", vkd3d " + describe_word(b, k.kind));
      }
    }
  }
  return out;
}

} // namespace kiln::execute
