#include "translator/common/shader_interface.h"

#include "translator/common/byte_reader.h"

#include <cstring>

namespace kiln {

namespace {

// Bumped when the encoding changes, so old cache records fail to decode instead of decoding
// into something else.
constexpr std::uint32_t kEncodingVersion = 4;      // 2: class linkage, 3: convention, 4: R32 reads
constexpr std::uint32_t kMaxListLength = 1u << 16; // a bound for decoding damaged bytes
constexpr std::uint32_t kMaxSemanticLength = 256;

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) {}
  void u32(std::uint32_t v) {
    const std::size_t at = out_.size();
    out_.resize(at + 4);
    std::memcpy(out_.data() + at, &v, 4);
  }
  void string(const std::string& s) {
    u32(std::uint32_t(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }

 private:
  std::vector<std::uint8_t>& out_;
};

// One field list per record, shared by encode and decode so the two cannot drift apart:
// `f(field)` is called for every 32-bit field in order.
template <typename F>
void fields(BindingRange& b, F&& f) {
  std::uint32_t cls = std::uint32_t(b.register_class), flags = b.flags,
                form = std::uint32_t(b.buffer_form);
  f(cls), f(flags), f(form), f(b.space), f(b.first_register), f(b.register_count), f(b.stages),
      f(b.set), f(b.binding);
  b.register_class = DescriptorClass(cls);
  b.flags = std::uint8_t(flags);
  b.buffer_form = BindingRange::BufferForm(form);
}
template <typename F>
void fields(PushConstantBuffer& p, F&& f) {
  f(p.space), f(p.register_index), f(p.stages), f(p.offset), f(p.size);
}
template <typename F>
void fields(CombinedSampler& c, F&& f) {
  std::uint32_t flags = c.flags;
  f(c.resource_space), f(c.resource_index), f(c.sampler_space), f(c.sampler_index), f(c.stages),
      f(flags), f(c.set), f(c.binding);
  c.flags = std::uint8_t(flags);
}
template <typename F>
void fields(UavCounterBinding& u, F&& f) {
  std::uint32_t form = std::uint32_t(u.form);
  f(u.space), f(u.register_index), f(u.stages), f(form), f(u.set), f(u.binding), f(u.offset);
  u.form = UavCounterBinding::Form(form);
}
template <typename F>
void fields(ShaderParameter& p, F&& f) {
  std::uint32_t name = std::uint32_t(p.name), type = std::uint32_t(p.type),
                data_type = std::uint32_t(p.data_type);
  // A specialization constant is keyed by its id alone (value[0]): the rest is not part of it.
  const bool spec = p.type == ShaderParameter::Type::SpecializationConstant;
  std::uint32_t unused[3] = {};
  f(name), f(type), f(data_type), f(p.value[0]), f(spec ? unused[0] : p.value[1]),
      f(spec ? unused[1] : p.value[2]), f(spec ? unused[2] : p.value[3]);
  p.name = ParameterName(name);
  p.type = ShaderParameter::Type(type);
  p.data_type = ParameterDataType(data_type);
}
template <typename F>
void fields(VaryingLocation& v, F&& f) {
  f(v.usage), f(v.usage_index), f(v.location);
}

template <typename F>
void fields(ClassInstance& c, F&& f) {
  f(c.function_table), f(c.this_data[0]), f(c.this_data[1]), f(c.this_data[2]), f(c.this_data[3]);
}

template <typename T>
void encode_list(Writer& w, const std::vector<T>& list) {
  w.u32(std::uint32_t(list.size()));
  for (T item : list) fields(item, [&](std::uint32_t& v) { w.u32(v); });
}

template <typename T>
bool decode_list(ByteReader& r, std::vector<T>& list) {
  const std::uint32_t count = r.u32();
  if (r.failed() || count > kMaxListLength || count > r.remaining() / 4) return false;
  list.resize(count);
  for (T& item : list) fields(item, [&](std::uint32_t& v) { v = r.u32(); });
  return !r.failed();
}

} // namespace

std::array<std::uint32_t, 4> parameter_default(ParameterName name) {
  constexpr std::uint32_t kOne = 0x3f800000u; // 1.0f
  switch (name) {
  case ParameterName::RASTERIZER_SAMPLE_COUNT:
    return {1, 0, 0, 0};
  case ParameterName::ALPHA_TEST_FUNC:
    return {KILN_COMPARE_ALWAYS, 0, 0, 0};
  case ParameterName::FOG_END:
  case ParameterName::FOG_DENSITY:
  case ParameterName::POINT_SIZE:
  case ParameterName::POINT_SIZE_MIN:
    return {kOne, 0, 0, 0};
  case ParameterName::POINT_SIZE_MAX:
    return {0x42800000u, 0, 0, 0}; // 64.0f
  default:
    return {}; // 0, 0.0f, (0, 0, 0, 0), NONE, FOG_OUTPUT, 2D
  }
}

ParameterValue parameter_value(const ShaderInterface* interface, ParameterName name,
                               unsigned component) {
  const ShaderParameter* p = interface ? interface->parameter(name) : nullptr;
  if (p && p->type == ShaderParameter::Type::SpecializationConstant)
    return {true, p->value[0] + (component & 3)};
  return {false, (p ? p->value : parameter_default(name))[component & 3]};
}

int ShaderInterface::varying_location(std::uint32_t usage, std::uint32_t usage_index) const {
  for (const VaryingLocation& v : varyings)
    if (v.usage == usage && v.usage_index == usage_index) return int(v.location);
  return -1;
}

const ShaderParameter* ShaderInterface::parameter(ParameterName name) const {
  for (const ShaderParameter& p : parameters) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void ShaderInterface::encode(std::vector<std::uint8_t>& out) const {
  out.clear();
  Writer w(out);
  w.u32(kEncodingVersion);
  encode_list(w, bindings);
  encode_list(w, push_constant_buffers);
  encode_list(w, combined_samplers);
  encode_list(w, uav_counters);
  w.u32(extensions);
  w.u32(dual_source_blending ? 1 : 0);
  w.u32(std::uint32_t(output_swizzles.size()));
  for (std::uint32_t s : output_swizzles) w.u32(s);
  encode_list(w, parameters);
  encode_list(w, varyings);
  w.u32(std::uint32_t(stream_output.elements.size()));
  for (const StreamOutputElement& e : stream_output.elements) {
    w.u32(e.stream);
    w.string(e.semantic);
    w.u32(e.semantic_index);
    w.u32(e.component_index | (e.component_count << 8) | (e.output_slot << 16));
  }
  for (std::uint32_t stride : stream_output.buffer_strides) w.u32(stride);
  w.u32(stream_output.rasterized_stream);
  w.u32(class_linkage.space);
  w.u32(class_linkage.register_index);
  encode_list(w, class_linkage.fixed_instances);
  w.u32(std::uint32_t(convention));
  w.u32(geometry_point_size ? 1 : 0);
  w.u32(typed_uav_read_r32 ? 1 : 0);
}

Status ShaderInterface::decode(std::span<const std::uint8_t> bytes, ShaderInterface& out) {
  out = {};
  ByteReader r(bytes);
  auto bad = [] { return Status::error("interface description: damaged encoding"); };
  if (r.u32() != kEncodingVersion) return bad();
  if (!decode_list(r, out.bindings) || !decode_list(r, out.push_constant_buffers) ||
      !decode_list(r, out.combined_samplers) || !decode_list(r, out.uav_counters))
    return bad();
  out.extensions = r.u32();
  out.dual_source_blending = r.u32() != 0;
  const std::uint32_t swizzles = r.u32();
  if (r.failed() || swizzles > 8) return bad();
  out.output_swizzles.resize(swizzles);
  for (std::uint32_t& s : out.output_swizzles) s = r.u32();
  if (!decode_list(r, out.parameters) || !decode_list(r, out.varyings)) return bad();
  const std::uint32_t elements = r.u32();
  if (r.failed() || elements > kMaxListLength) return bad();
  out.stream_output.elements.resize(elements);
  for (StreamOutputElement& e : out.stream_output.elements) {
    e.stream = r.u32();
    const std::uint32_t length = r.u32();
    if (r.failed() || length > kMaxSemanticLength) return bad();
    const std::span<const std::uint8_t> name = r.bytes(length);
    e.semantic.assign(name.begin(), name.end());
    e.semantic_index = r.u32();
    const std::uint32_t packed = r.u32();
    e.component_index = std::uint8_t(packed);
    e.component_count = std::uint8_t(packed >> 8);
    e.output_slot = std::uint8_t(packed >> 16);
  }
  for (std::uint32_t& stride : out.stream_output.buffer_strides) stride = r.u32();
  out.stream_output.rasterized_stream = r.u32();
  out.class_linkage.space = r.u32();
  out.class_linkage.register_index = r.u32();
  if (!decode_list(r, out.class_linkage.fixed_instances)) return bad();
  const std::uint32_t convention = r.u32();
  if (convention > std::uint32_t(InterfaceConvention::Vkd3dShader)) return bad();
  out.convention = InterfaceConvention(convention);
  out.geometry_point_size = r.u32() != 0;
  out.typed_uav_read_r32 = r.u32() != 0;
  if (r.failed() || r.remaining() != 0) return bad();
  return Status::ok();
}

bool parse_extension_list(std::string_view list, ExtensionMask& out) {
  out = 0;
  if (list == "none") return true;
  if (list == "all") {
    out = kAllExtensions;
    return true;
  }
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    bool known = false;
    for (Extension e : kAllExtensionValues) {
      if (extension_info(e).cli_name != name) continue;
      out |= extension_bit(e);
      known = true;
    }
    if (!known) return false;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return true;
}

} // namespace kiln
