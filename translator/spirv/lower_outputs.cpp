// SPIR-V backend: how user outputs meet the layer's pipeline (docs/abi.md): dual-source
// blending (o0/o1 -> Location 0, Index 0/1), per-render-target output swizzles, and stream
// output as Vulkan transform feedback (Xfb execution mode, XfbBuffer/XfbStride/Offset).
//
// A swizzled render target is written through a Private shadow of its output; the entry
// function copies the shadow, swizzled, to the real output before each of its returns.
#include "translator/spirv/lower_state.h"

#include <algorithm>
#include <string>

namespace kiln::spirv {

namespace {
constexpr std::uint32_t kIdentitySwizzle = 0x03020100u;

// The Output variable through which stream output element `element` captures `count`
// components of a built-in from its component `first` (a part of SV_Position, or one
// SV_ClipDistance element beside others): the built-in is decorated whole, so the part is copied
// into this variable before each emit or return, and check_stream_output gives it a Location.
Lowering::State::OutputPiece capture_piece(Lowering::State& s, const DeclInfo& d,
                                           std::size_t element, std::uint32_t first,
                                           std::uint32_t count, ir::ScalarType scalar) {
  Lowering::State::OutputPiece piece;
  piece.first = std::uint8_t(first);
  piece.count = std::uint8_t(count);
  piece.type = s.basic(scalar, count);
  piece.var = s.mb.global_variable(s.mb.type_pointer(spv::StorageClassOutput, piece.type),
                                   spv::StorageClassOutput);
  if (d.stream) s.mb.decorate(piece.var, spv::DecorationStream, {d.stream});
  s.add_interface(piece.var, spv::StorageClassOutput);
  s.decorate_xfb(piece.var, element);
  s.xfb_mirrors.push_back(piece.var);
  return piece;
}

} // namespace

bool Lowering::State::declare_user_io(ir::SsaDef def, DeclInfo& d, ir::Type element, bool arrayed) {
  const ShaderInterface* si = options.interface;
  bool split = false;
  if (!split_for_stream_output(def, d, element, arrayed, split)) return false;
  if (split) return true;
  const bool pixel_output = stage == ShaderStage::Pixel && d.kind == DeclInfo::Kind::Output;
  std::uint32_t location = d.location;
  std::uint32_t swizzle = kIdentitySwizzle;
  bool dual_source = false;
  if (pixel_output && si) {
    if (si->dual_source_blending) {
      if (d.location > 1)
        return fail(at(def), "dual-source blending: a pixel shader output other than o0 and o1 (o" +
                                 std::to_string(d.location) + ")");
      dual_source = true;
      location = 0;
    }
    if (d.location < si->output_swizzles.size()) swizzle = si->output_swizzles[d.location];
    for (unsigned c = 0; c < 4; ++c)
      if (((swizzle >> (8 * c)) & 0xff) > 3)
        return fail(at(def), "output swizzle of render target " + std::to_string(d.location) +
                                 " names a component other than 0-3");
    if (swizzle != kIdentitySwizzle && (d.component != 0 || arrayed))
      return fail(at(def), "output swizzle of render target " + std::to_string(d.location) +
                               ": the target's output is declared in parts");
  }
  const Id real = mb.global_variable(mb.type_pointer(d.storage, d.var_type), d.storage);
  mb.decorate(real, spv::DecorationLocation, {location});
  if (d.component) mb.decorate(real, spv::DecorationComponent, {d.component});
  if (dual_source) mb.decorate(real, spv::DecorationIndex, {d.location});
  if (pixel_output) {
    // Two declarations of one render target cannot both be its swizzled whole.
    const std::uint32_t bit = d.location < 32 ? 1u << d.location : 0;
    if (bit & swizzled_targets || (swizzle != kIdentitySwizzle && (bit & declared_targets)))
      return fail(at(def), "output swizzle of render target " + std::to_string(d.location) +
                               ": the target's output is declared in parts");
    declared_targets |= bit;
    if (swizzle != kIdentitySwizzle) swizzled_targets |= bit;
  }
  if (swizzle == kIdentitySwizzle) {
    d.var = real;
    return true;
  }
  add_interface(real, d.storage);
  d.storage = spv::StorageClassPrivate;
  d.var = mb.global_variable(mb.type_pointer(d.storage, d.var_type), d.storage,
                             mb.constant_null(d.var_type));
  swizzled_outputs.push_back({real, d.var, d.var_type, basic(element.scalar_type(), 1),
                              std::uint8_t(element.vector_size()), swizzle});
  return true;
}

void Lowering::State::emit_output_epilogue() {
  for (const SwizzledOutput& s : swizzled_outputs) {
    const Id value = mb.op(spv::OpLoad, s.type, {s.shadow});
    if (s.components == 1) {
      // A scalar target: its one component comes from x, or is zero.
      mb.op_void(spv::OpStore,
                 {s.real, (s.swizzle & 0xff) == 0 ? value : mb.constant_null(s.scalar)});
      continue;
    }
    Id parts[4];
    for (unsigned c = 0; c < s.components; ++c) {
      const std::uint32_t from = (s.swizzle >> (8 * c)) & 0xff;
      parts[c] = from < s.components ? mb.op(spv::OpCompositeExtract, s.scalar, {value, from})
                                     : mb.constant_null(s.scalar);
    }
    const Id swizzled = mb.op(spv::OpCompositeConstruct, s.type,
                              std::span<const std::uint32_t>(parts, s.components));
    mb.op_void(spv::OpStore, {s.real, swizzled});
  }
}

bool Lowering::State::stream_output_applies() const {
  const ShaderInterface* si = options.interface;
  return si && si->stream_output.enabled() &&
         (stage == ShaderStage::Vertex || stage == ShaderStage::Domain ||
          stage == ShaderStage::Geometry);
}

void Lowering::State::collect_output_semantics() {
  const ShaderInterface* si = options.interface;
  if (!si || !si->stream_output.enabled()) return;
  for (ir::OpView o : ir->ops()) {
    if (o.code() != ir::OpCode::Semantic) continue;
    const ir::ops::Semantic semantic(o);
    if (!semantic.declaration().def()) continue;
    char name[256] = {}; // unpack_string does not terminate: keep the last byte zero
    ir::unpack_string(semantic.name(), name, sizeof(name) - 1);
    output_semantics.push_back(
        {semantic.declaration().def().id(), name, semantic.index().literal_u32()});
  }
}

bool Lowering::State::captures(const StreamOutputElement& e, const DeclInfo& d,
                               std::string_view semantic, std::uint32_t semantic_index) const {
  return !e.semantic.empty() && e.stream == d.stream && e.semantic_index == semantic_index &&
         same_semantic_name(e.semantic, semantic);
}

std::uint32_t Lowering::State::stream_output_offset(std::size_t element) const {
  const auto& elements = options.interface->stream_output.elements;
  std::uint32_t offset = 0;
  for (std::size_t i = 0; i < element; ++i)
    if (elements[i].output_slot == elements[element].output_slot)
      offset += 4u * elements[i].component_count;
  return offset;
}

void Lowering::State::decorate_xfb(Id var, std::size_t i) {
  const StreamOutputElement& e = options.interface->stream_output.elements[i];
  mb.require_capability(spv::CapabilityTransformFeedback);
  if (!xfb) mb.add_execution_mode(entry_function, spv::ExecutionModeXfb);
  xfb = true;
  std::uint32_t stride = options.interface->stream_output.buffer_strides[e.output_slot];
  if (stride == 0) stride = stream_output_size(e.output_slot);
  mb.decorate(var, spv::DecorationXfbBuffer, {e.output_slot});
  mb.decorate(var, spv::DecorationXfbStride, {stride});
  mb.decorate(var, spv::DecorationOffset, {stream_output_offset(i)});
  xfb_captured.push_back(std::uint32_t(i));
}

bool Lowering::State::check_stream_slots(ir::SsaDef def) {
  for (const StreamOutputElement& e : options.interface->stream_output.elements)
    if (e.output_slot >= 4 || e.component_count == 0 || e.component_index + e.component_count > 4)
      return fail(at(def), "stream output element out of range");
  return true;
}

bool Lowering::State::split_for_stream_output(ir::SsaDef def, DeclInfo& d, ir::Type element,
                                              bool arrayed, bool& split) {
  split = false;
  if (!stream_output_applies() || d.kind != DeclInfo::Kind::Output) return true;
  // Every semantic of the declaration: a variable over several signature elements of its
  // register (vkd3d-shader's widened register) has one Semantic per element, and a stream
  // output element naming any of them captures its components (register components, the
  // request's) where they sit in this variable.
  bool named = false;
  for (const OutputSemantic& s : output_semantics) named |= s.decl == def.id();
  if (!named) return true;
  const auto captured_here = [&](const StreamOutputElement& e) {
    for (const OutputSemantic& s : output_semantics)
      if (s.decl == def.id() && captures(e, d, s.name, s.index)) return true;
    return false;
  };
  if (!check_stream_slots(def)) return false;
  const auto& elements = options.interface->stream_output.elements;
  const std::uint32_t first = d.component, end = d.component + element.vector_size();
  std::uint32_t cuts = 1u << first | 1u << end; // component boundaries of the pieces
  bool partial = false;
  for (const StreamOutputElement& e : elements) {
    if (!captured_here(e)) continue;
    if (e.component_index < first || e.component_index + e.component_count > end)
      return fail(at(def), "stream output element " + e.semantic +
                               std::to_string(e.semantic_index) +
                               " captures components the output does not have");
    partial |= e.component_index != first || e.component_index + e.component_count != end;
    cuts |= 1u << e.component_index | 1u << (e.component_index + e.component_count);
  }
  if (!partial) return true; // whole outputs: decorated when their Semantic is lowered
  if (arrayed) return fail(at(def), "stream output of part of an arrayed output");
  if (!extension_enabled(Extension::TransformFeedback))
    return missing_extension(def, "stream output", Extension::TransformFeedback);
  SplitOutput out;
  out.type = d.var_type;
  out.scalar = basic(element.scalar_type(), 1);
  out.components = std::uint8_t(element.vector_size());
  for (std::uint32_t a = first; a < end;) {
    std::uint32_t b = a + 1;
    while (!(cuts & (1u << b))) ++b;
    OutputPiece piece;
    piece.first = std::uint8_t(a - first);
    piece.count = std::uint8_t(b - a);
    piece.type = basic(element.scalar_type(), b - a);
    piece.var = mb.global_variable(mb.type_pointer(spv::StorageClassOutput, piece.type),
                                   spv::StorageClassOutput);
    mb.decorate(piece.var, spv::DecorationLocation, {d.location});
    if (a) mb.decorate(piece.var, spv::DecorationComponent, {a});
    if (d.stream) mb.decorate(piece.var, spv::DecorationStream, {d.stream});
    add_interface(piece.var, spv::StorageClassOutput);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const StreamOutputElement& e = elements[i];
      if (!captured_here(e)) continue;
      if (e.component_index == a && e.component_index + e.component_count == b)
        decorate_xfb(piece.var, i);
      else if (e.component_index < b && e.component_index + e.component_count > a)
        return fail(at(def), "stream output elements capturing overlapping parts of " + e.semantic +
                                 std::to_string(e.semantic_index));
    }
    out.pieces.push_back(piece);
    a = b;
  }
  d.storage = spv::StorageClassPrivate;
  d.var = mb.global_variable(mb.type_pointer(d.storage, d.var_type), d.storage,
                             mb.constant_null(d.var_type));
  d.xfb_split = true;
  out.shadow = d.var;
  split_outputs.push_back(std::move(out));
  split = true;
  return true;
}

void Lowering::State::emit_split_outputs() {
  for (const SplitOutput& s : split_outputs) {
    const Id value = mb.op(spv::OpLoad, s.type, {s.shadow});
    for (const OutputPiece& p : s.pieces) {
      Id part;
      if (p.count == 1) {
        part = mb.op(spv::OpCompositeExtract, s.scalar, {value, p.first});
      } else if (s.array) {
        Id parts[4];
        for (unsigned k = 0; k < p.count; ++k)
          parts[k] = mb.op(spv::OpCompositeExtract, s.scalar, {value, p.first + k});
        part = mb.op(spv::OpCompositeConstruct, p.type,
                     std::span<const std::uint32_t>(parts, p.count));
      } else {
        std::uint32_t words[6] = {value, value};
        for (unsigned k = 0; k < p.count; ++k) words[2 + k] = p.first + k;
        part =
            mb.op(spv::OpVectorShuffle, p.type, std::span<const std::uint32_t>(words, 2 + p.count));
      }
      mb.op_void(spv::OpStore, {p.var, part});
    }
  }
}

bool Lowering::State::apply_stream_output(ir::SsaDef def, DeclInfo& d, std::string_view semantic,
                                          std::uint32_t semantic_index) {
  if (!stream_output_applies() || d.kind != DeclInfo::Kind::Output || d.xfb_split) return true;
  if (!check_stream_slots(def)) return false;
  if (options.source_outputs &&
      (d.builtin == spv::BuiltInClipDistance || d.builtin == spv::BuiltInCullDistance))
    return capture_distances(def, d);
  const StreamOutput& so = options.interface->stream_output;
  const ir::TypeView view = ir->types().view(d.ir_type);
  const std::uint32_t width = view.member_count() == 1 ? view.member(0).vector_size() : 0;
  const std::uint32_t first = register_component(d, semantic, semantic_index);
  for (std::size_t i = 0; i < so.elements.size(); ++i) {
    const StreamOutputElement& e = so.elements[i];
    if (!captures(e, d, semantic, semantic_index)) continue;
    if (e.component_index != first || e.component_count != width) {
      if (!mirror_builtin_part(def, d, i, first)) return false;
      continue;
    }
    if (d.xfb_element >= 0)
      return fail(at(def), "stream output captures " + e.semantic +
                               std::to_string(e.semantic_index) + " twice");
    if (!extension_enabled(Extension::TransformFeedback))
      return missing_extension(def, "stream output", Extension::TransformFeedback);
    d.xfb_element = std::int32_t(i);
    decorate_xfb(d.var, i);
  }
  return true;
}

std::uint32_t Lowering::State::register_component(const DeclInfo& d, std::string_view semantic,
                                                  std::uint32_t semantic_index) const {
  if (!d.is_builtin || !options.source_outputs) return d.component;
  for (const SignatureElement& s : *options.source_outputs)
    if (s.mask && s.stream == d.stream && s.semantic_index == semantic_index &&
        same_semantic_name(semantic, s.semantic))
      return std::uint32_t(__builtin_ctz(s.mask));
  return d.component;
}

bool Lowering::State::mirror_builtin_part(ir::SsaDef def, DeclInfo& d, std::size_t i,
                                          std::uint32_t first) {
  const StreamOutputElement& e = options.interface->stream_output.elements[i];
  const ir::TypeView view = ir->types().view(d.ir_type);
  const ir::Type element = view.member_count() == 1 ? view.member(0) : ir::Type();
  if (view.dim_count != 0 || view.member_count() != 1 || !element.is_basic() || d.insert_index ||
      e.component_index < first ||
      e.component_index + e.component_count > first + element.vector_size())
    return fail(at(def), "stream output element " + std::to_string(i) + " (" + e.semantic +
                             std::to_string(e.semantic_index) +
                             ") captures components the built-in output does not have");
  if (!extension_enabled(Extension::TransformFeedback))
    return missing_extension(def, "stream output", Extension::TransformFeedback);
  SplitOutput out;
  out.shadow = d.var; // the built-in itself, read back before each emit or return
  out.type = basic(element);
  out.scalar = basic(element.scalar_type(), 1);
  out.components = std::uint8_t(element.vector_size());
  out.pieces.push_back(capture_piece(*this, d, i, e.component_index - first, e.component_count,
                                     element.scalar_type()));
  split_outputs.push_back(std::move(out));
  return true;
}

// Stream output of SV_ClipDistance/SV_CullDistance elements. The front end makes one array of
// all the signature's elements of that system value, their components in register order
// (convert_io_declare.cpp, distance_index), so a request's register components are found in
// it through the bytecode's signature: the element the request names, then the array index of
// each component. The whole array is captured from the built-in itself; a part (an element
// beside others, `o1.w` after `o1.xyz`) through an Output variable of its own, as a part of
// any built-in (mirror_builtin_part).
bool Lowering::State::capture_distances(ir::SsaDef def, DeclInfo& d) {
  const std::uint32_t system_value = d.builtin == spv::BuiltInClipDistance ? 2 : 3; // D3D_NAME
  const std::vector<SignatureElement>& signature = *options.source_outputs;
  const ir::TypeView view = ir->types().view(d.ir_type);
  if (!d.insert_index && view.dim_count != 1)
    return fail(at(def), "stream output of a clip or cull distance array of another shape");
  const std::uint32_t length = d.insert_index ? 1 : view.dims[0];
  const auto& elements = options.interface->stream_output.elements;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const StreamOutputElement& e = elements[i];
    if (e.semantic.empty() || e.stream != d.stream) continue;
    const SignatureElement* element = nullptr;
    for (const SignatureElement& s : signature)
      if (s.system_value == system_value && s.stream == e.stream &&
          s.semantic_index == e.semantic_index && same_semantic_name(e.semantic, s.semantic))
        element = &s;
    if (!element) continue;
    const std::uint32_t wanted = ((1u << e.component_count) - 1) << e.component_index;
    std::uint32_t first = 0;
    for (const SignatureElement& s : signature) {
      if (s.system_value != system_value) continue;
      if (s.register_index < element->register_index)
        first += std::uint32_t(__builtin_popcount(s.mask));
      else if (s.register_index == element->register_index)
        first += std::uint32_t(__builtin_popcount(s.mask & ((1u << e.component_index) - 1)));
    }
    if ((element->mask & wanted) != wanted || first + e.component_count > length)
      return fail(at(def), "stream output element " + std::to_string(i) + " (" + e.semantic +
                               std::to_string(e.semantic_index) +
                               ") captures components the built-in output does not have");
    if (!extension_enabled(Extension::TransformFeedback))
      return missing_extension(def, "stream output", Extension::TransformFeedback);
    if (first == 0 && e.component_count == length) {
      if (d.xfb_element >= 0)
        return fail(at(def), "stream output captures " + e.semantic +
                                 std::to_string(e.semantic_index) + " twice");
      d.xfb_element = std::int32_t(i);
      decorate_xfb(d.var, i);
      continue;
    }
    SplitOutput out;
    out.shadow = d.var; // the built-in itself, read back before each emit or return
    out.type = d.var_type;
    out.scalar = basic(ir::ScalarType::F32, 1);
    out.components = std::uint8_t(length);
    out.array = true;
    out.pieces.push_back(capture_piece(*this, d, i, first, e.component_count, ir::ScalarType::F32));
    split_outputs.push_back(std::move(out));
  }
  return true;
}

std::uint32_t Lowering::State::stream_output_size(std::uint32_t slot) const {
  std::uint32_t size = 0;
  for (const StreamOutputElement& e : options.interface->stream_output.elements)
    if (e.output_slot == slot) size += 4u * e.component_count;
  return size;
}

bool Lowering::State::check_stream_output() {
  const ShaderInterface* si = options.interface;
  if (!si || !si->stream_output.enabled()) return true;
  if (stage != ShaderStage::Vertex && stage != ShaderStage::Domain &&
      stage != ShaderStage::Geometry)
    return fail(at(ir_entry), "stream output for a shader that is not a vertex, domain or geometry "
                              "shader");
  // Mirrors of built-in parts sit past every location the shader's outputs use, where the
  // next stage reads nothing.
  std::uint32_t next_location = 0;
  for (const DeclInfo& o : decls) {
    if (o.kind != DeclInfo::Kind::Output || o.location == ~0u) continue;
    const ir::TypeView view = ir->types().view(o.ir_type);
    std::uint32_t locations = 1;
    for (unsigned k = 0; k < view.dim_count; ++k) locations *= std::max(view.dims[k], 1u);
    next_location = std::max(next_location, o.location + locations);
  }
  for (const Id mirror : xfb_mirrors)
    mb.decorate(mirror, spv::DecorationLocation, {next_location++});
  const auto& elements = si->stream_output.elements;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].semantic.empty()) continue;
    if (std::find(xfb_captured.begin(), xfb_captured.end(), std::uint32_t(i)) != xfb_captured.end())
      continue;
    return fail(at(ir_entry),
                "stream output element " + std::to_string(i) + " (" + elements[i].semantic +
                    std::to_string(elements[i].semantic_index) + ", stream " +
                    std::to_string(elements[i].stream) + ") matches no output of the shader");
  }
  return true;
}

} // namespace kiln::spirv
