// D3D9 behaviour the runner supplies around kiln's modules (FORMAT.md 4.5 and 5): stage
// linkage by semantic, `shade mode flat`, and the alpha test.

#include "tests/conformance/replay.h"

#include <algorithm>
#include <cstring>
#include <strings.h>

namespace kiln::conformance {

CommandResult Executor::Replay::link_by_semantic(const StageProgram& vs, const StageProgram& ps,
                                                 std::vector<std::uint32_t>& linked) {
  linked.clear();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> map;
  std::uint32_t next_free = 0;
  for (const SignatureElement& out : vs.outputs)
    if (out.builtin == ~0u) next_free = std::max(next_free, out.location + 1);
  bool changes = false;
  for (const SignatureElement& in : ps.inputs) {
    if (in.builtin != ~0u) continue;
    std::uint32_t location = ~0u;
    for (const SignatureElement& out : vs.outputs)
      if (out.builtin == ~0u && out.semantic_index == in.semantic_index &&
          strcasecmp(out.semantic.c_str(), in.semantic.c_str()) == 0)
        location = out.location;
    if (location == ~0u) location = next_free++; // nothing feeds it: keep it out of the way
    if (!d3d9) location = in.location;           // DXBC links by register already
    map.emplace_back(in.location, location);
    changes = changes || location != in.location;
  }
  if (changes) {
    linked = ps.spirv;
    if (!remap_input_locations(linked, map))
      return CommandResult::fail("malformed pixel shader SPIR-V while linking by semantic");
  }
  if (fixed_function && flat_shading) {
    // `shade mode flat`: COLOR inputs take the provoking vertex's value (FORMAT.md 4.5).
    std::vector<std::uint32_t> colour_locations;
    for (std::size_t i = 0, m = 0; i < ps.inputs.size(); ++i) {
      const SignatureElement& in = ps.inputs[i];
      if (in.builtin != ~0u) continue;
      const std::uint32_t location = map[m++].second;
      if (strncasecmp(in.semantic.c_str(), "color", 5) == 0) colour_locations.push_back(location);
    }
    if (linked.empty()) linked = ps.spirv;
    if (!make_inputs_flat(linked, colour_locations))
      return CommandResult::fail("malformed pixel shader SPIR-V while making COLOR flat");
  }
  return CommandResult::ok();
}

CommandResult Executor::Replay::snapshot_attachments(std::vector<AttachmentSnapshot>& out) {
  out.clear();
  GpuResource* rt0 = find(ResourceKind::Rtv, 0);
  if (rt0 == nullptr || rt0->desc.format != Format::Rgba32Float)
    return CommandResult::skipped("fixed-function alpha test without an rgba float target 0");
  for (auto& r : resources) {
    if (r->desc.kind != ResourceKind::Rtv && r->desc.kind != ResourceKind::Dsv) continue;
    if (r->desc.levels > 1 || r->desc.samples > 1 || r->desc.depth_or_layers > 1)
      return CommandResult::skipped("fixed-function alpha test on mipmapped/array/MS targets");
    AttachmentSnapshot snapshot{&r->image, {}};
    if (Status s = r->image.read(0, 0, snapshot.bytes); !s) return CommandResult::fail(s.message());
    // Render target 0 first: its new alpha decides.
    if (r.get() == rt0)
      out.insert(out.begin(), std::move(snapshot));
    else
      out.push_back(std::move(snapshot));
  }
  return CommandResult::ok();
}

CommandResult Executor::Replay::emulate_alpha_test(std::vector<AttachmentSnapshot>& before) {
  std::vector<std::vector<std::uint8_t>> after(before.size());
  for (std::size_t i = 0; i < before.size(); ++i)
    if (Status s = before[i].image->read(0, 0, after[i]); !s)
      return CommandResult::fail(s.message());
  const auto passes = [&](float alpha) {
    switch (alpha_func) {
    case CompareFunc::Never:
      return false;
    case CompareFunc::Less:
      return alpha < alpha_ref;
    case CompareFunc::Equal:
      return alpha == alpha_ref;
    case CompareFunc::LessEqual:
      return alpha <= alpha_ref;
    case CompareFunc::Greater:
      return alpha > alpha_ref;
    case CompareFunc::NotEqual:
      return alpha != alpha_ref;
    case CompareFunc::GreaterEqual:
      return alpha >= alpha_ref;
    case CompareFunc::Always:
      break;
    }
    return true;
  };
  const vulkan::ImageDesc& rt0 = before[0].image->desc();
  const std::size_t pixels = std::size_t(rt0.width) * rt0.height;
  for (std::size_t p = 0; p < pixels; ++p) {
    float alpha;
    std::memcpy(&alpha, after[0].data() + p * 16 + 12, 4);
    if (passes(alpha)) continue;
    for (std::size_t i = 0; i < before.size(); ++i) {
      const vulkan::ImageDesc& d = before[i].image->desc();
      const std::size_t texel = vulkan::format_texel_size(d.format);
      const std::size_t x = p % rt0.width, y = p / rt0.width;
      if (x >= d.width || y >= d.height) continue;
      const std::size_t offset = (y * d.width + x) * texel;
      std::memcpy(after[i].data() + offset, before[i].bytes.data() + offset, texel);
    }
  }
  for (std::size_t i = 0; i < before.size(); ++i)
    if (Status s = before[i].image->upload(after[i]); !s) return CommandResult::fail(s.message());
  return CommandResult::ok();
}

} // namespace kiln::conformance
