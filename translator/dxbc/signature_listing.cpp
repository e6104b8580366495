#include "translator/dxbc/signature_listing.h"

#include "translator/dxbc/signature.h"

#include <cstdio>
#include <string_view>
#include <utility>

namespace kiln::dxbc {
namespace {

const char* system_value_short_name(std::uint32_t sv) {
  static constexpr const char* kNames[] = {
      "NONE",    "POS",     "CLIPDST", "CULLDST",  "RTINDEX",  "VPINDEX",  "VERTID",   "PRIMID",
      "INSTID",  "FFACE",   "SAMPLE",  "QUADEDGE", "QUADEDGE", "QUADEDGE", "QUADEDGE", "QUADINT",
      "QUADINT", "TRIEDGE", "TRIEDGE", "TRIEDGE",  "TRIINT",   "LINEDET",  "LINEDEN"};
  static constexpr const char* kOutputs[] = {"TARGET",  "DEPTH",      "COVERAGE", "DEPTHGE",
                                             "DEPTHLE", "STENCILREF", "INNERCOV"};
  if (sv < sizeof kNames / sizeof kNames[0]) return kNames[sv];
  if (sv >= 64 && sv < 64 + sizeof kOutputs / sizeof kOutputs[0]) return kOutputs[sv - 64];
  return "UNKNOWN";
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

// Pixel-shader outputs keep system value 0 in the chunk; fxc names them by semantic.
const char* listed_system_value(const SignatureElement& e) {
  if (e.system_value == 0) {
    static constexpr std::pair<std::string_view, const char*> kByName[] = {
        {"SV_Target", "TARGET"},          {"SV_Depth", "DEPTH"},
        {"SV_Coverage", "COVERAGE"},      {"SV_DepthGreaterEqual", "DEPTHGE"},
        {"SV_DepthLessEqual", "DEPTHLE"}, {"SV_StencilRef", "STENCILREF"}};
    for (const auto& [name, listed] : kByName)
      if (same_name(e.semantic_name, name)) return listed;
  }
  return system_value_short_name(e.system_value);
}

const char* component_type_name(std::uint32_t type) {
  switch (type) {
  case 1:
    return "uint";
  case 2:
    return "int";
  case 3:
    return "float";
  default:
    return "unknown";
  }
}

// fxc writes masks by position ("xy  ", "  zw").
void positional_mask(std::uint8_t mask, char out[5]) {
  for (unsigned i = 0; i < 4; ++i) out[i] = (mask & (1u << i)) ? "xyzw"[i] : ' ';
  out[4] = 0;
}

void signature_table(const char* title, const SignatureChunk& chunk, bool is_output,
                     std::string& out) {
  if (!chunk.present()) return;
  PodArray<SignatureElement> elements;
  out.append("//\n// ").append(title).append(":\n//\n");
  if (Status s = parse_signature(chunk, elements); !s) {
    out.append("// (").append(s.message()).append(")\n");
    return;
  }
  out.append("// Name                 Index   Mask Register SysValue  Format   Used\n"
             "// -------------------- ----- ------ -------- -------- ------- ------\n");
  for (const SignatureElement& e : elements) {
    char mask[5], used[5], line[256];
    positional_mask(e.mask, mask);
    // Outputs store the components never written; fxc shows the ones that are.
    positional_mask(is_output ? std::uint8_t(e.mask & ~e.read_write_mask & 0xf) : e.read_write_mask,
                    used);
    std::snprintf(line, sizeof line, "// %-20.*s %5u   %s %8u %8s %7s   %s\n",
                  int(e.semantic_name.size()), e.semantic_name.data(), e.semantic_index, mask,
                  e.register_index, listed_system_value(e), component_type_name(e.component_type),
                  used);
    out.append(line);
  }
}

void bindings_table(const Container& container, std::string& out) {
  if (container.rdef.empty()) return;
  ReflectionView rdef;
  if (Status s = rdef.open(container.rdef); !s) {
    out.append("// (").append(s.message()).append(")\n");
    return;
  }
  if (rdef.binding_count() == 0) return;
  out.append("//\n// Resource Bindings:\n//\n"
             "// Name                                 Type Slot Elements\n"
             "// ------------------------------ ---------- ---- --------\n");
  static constexpr const char* kTypes[] = {"cbuffer", "tbuffer", "texture", "sampler", "UAV",
                                           "UAV",     "UAV",     "UAV",     "UAV",     "UAV",
                                           "UAV",     "UAV",     "texture"};
  for (std::uint32_t i = 0; i < rdef.binding_count(); ++i) {
    RdefBinding b;
    if (Status s = rdef.binding(i, b); !s) {
      out.append("// (").append(s.message()).append(")\n");
      return;
    }
    char line[256];
    std::snprintf(line, sizeof line, "// %-30.*s %10s %4u %8u\n", int(b.name.size()), b.name.data(),
                  b.type < sizeof kTypes / sizeof kTypes[0] ? kTypes[b.type] : "unknown",
                  b.bind_point, b.bind_count);
    out.append(line);
  }
}

} // namespace

void append_listing_header(const Container& container, std::string& out) {
  const std::size_t start = out.size();
  bindings_table(container, out);
  signature_table("Input signature", container.input, false, out);
  signature_table("Patch Constant signature", container.patch_constant, true, out);
  signature_table("Output signature", container.output, true, out);
  if (out.size() != start) out.append("//\n");
}

} // namespace kiln::dxbc
