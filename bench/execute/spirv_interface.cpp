#include "bench/execute/spirv_interface.h"

#include "bench/execute/spirv_words.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vulkan/vulkan_core.h>

namespace kiln::execute {

namespace {

struct TypeInfo {
  spv::Op op = spv::OpNop;
  std::uint32_t a = 0, b = 0, c = 0; // per op: see read_module_interface
  std::vector<std::uint32_t> image;  // OpTypeImage operands after the sampled type
  std::vector<std::uint32_t> members;
};

struct Decorations {
  bool has_set = false, has_binding = false, has_location = false, has_builtin = false;
  std::uint32_t set = 0, binding = 0, location = 0, component = 0, builtin = 0;
  bool patch = false, flat = false, noperspective = false, centroid = false, sample = false;
  bool block = false, buffer_block = false;
  std::uint32_t index = 0, stream = 0;
  std::int64_t xfb_buffer = -1;
  std::uint32_t xfb_stride = 0, offset = 0;
};

struct Module {
  std::unordered_map<std::uint32_t, TypeInfo> types;
  std::unordered_map<std::uint32_t, std::uint32_t> constants;
  std::unordered_map<std::uint32_t, Decorations> decorations;
  // Member decorations of structs: (struct id, member) -> decorations.
  std::unordered_map<std::uint64_t, Decorations> member_decorations;
  struct Variable {
    std::uint32_t id, pointer_type, storage;
  };
  std::vector<Variable> variables;
};

void decorate(Decorations& d, std::span<const std::uint32_t> operands) {
  if (operands.empty()) return;
  const std::uint32_t value = operands.size() > 1 ? operands[1] : 0;
  switch (spv::Decoration(operands[0])) {
  case spv::DecorationDescriptorSet:
    d.has_set = true, d.set = value;
    break;
  case spv::DecorationBinding:
    d.has_binding = true, d.binding = value;
    break;
  case spv::DecorationLocation:
    d.has_location = true, d.location = value;
    break;
  case spv::DecorationComponent:
    d.component = value;
    break;
  case spv::DecorationBuiltIn:
    d.has_builtin = true, d.builtin = value;
    break;
  case spv::DecorationPatch:
    d.patch = true;
    break;
  case spv::DecorationFlat:
    d.flat = true;
    break;
  case spv::DecorationNoPerspective:
    d.noperspective = true;
    break;
  case spv::DecorationCentroid:
    d.centroid = true;
    break;
  case spv::DecorationSample:
    d.sample = true;
    break;
  case spv::DecorationBlock:
    d.block = true;
    break;
  case spv::DecorationBufferBlock:
    d.buffer_block = true;
    break;
  case spv::DecorationIndex:
    d.index = value;
    break;
  case spv::DecorationStream:
    d.stream = value;
    break;
  case spv::DecorationXfbBuffer:
    d.xfb_buffer = value;
    break;
  case spv::DecorationXfbStride:
    d.xfb_stride = value;
    break;
  case spv::DecorationOffset:
    d.offset = value;
    break;
  default:
    break;
  }
}

// Whether the outermost array of a `storage` variable is the per-vertex dimension.
bool per_vertex(std::uint32_t model, std::uint32_t storage, bool patch) {
  if (patch) return false;
  switch (spv::ExecutionModel(model)) {
  case spv::ExecutionModelTessellationControl:
    return true;
  case spv::ExecutionModelTessellationEvaluation:
  case spv::ExecutionModelGeometry:
    return storage == spv::StorageClassInput;
  default:
    return false;
  }
}

class Reader {
 public:
  Reader(const Module& m, ModuleInterface& out) : m_(m), out_(out) {}

  const TypeInfo* type(std::uint32_t id) const {
    auto it = m_.types.find(id);
    return it == m_.types.end() ? nullptr : &it->second;
  }
  const Decorations& decorations(std::uint32_t id) const {
    static const Decorations none;
    auto it = m_.decorations.find(id);
    return it == m_.decorations.end() ? none : it->second;
  }
  std::uint32_t array_length(const TypeInfo& t) const {
    if (t.op == spv::OpTypeRuntimeArray) return 0;
    auto it = m_.constants.find(t.b);
    return it == m_.constants.end() ? 0 : it->second;
  }

  bool descriptor(const Module::Variable& v, std::string& error) {
    const TypeInfo* pointer = type(v.pointer_type);
    std::uint32_t type_id = pointer ? pointer->b : 0;
    const TypeInfo* t = type(type_id);
    DescriptorFact f;
    const Decorations& d = decorations(v.id);
    f.set = d.set;
    f.binding = d.binding;
    if (t && (t->op == spv::OpTypeArray || t->op == spv::OpTypeRuntimeArray)) {
      f.array_size = array_length(*t);
      type_id = t->a;
      t = type(type_id);
    }
    if (!t) {
      error = "descriptor " + std::to_string(v.id) + " of an unknown type";
      return false;
    }
    switch (t->op) {
    case spv::OpTypeSampler:
      f.descriptor_type = VK_DESCRIPTOR_TYPE_SAMPLER;
      break;
    case spv::OpTypeSampledImage:
      f.descriptor_type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      t = type(t->a);
      if (t && t->op == spv::OpTypeImage) image_shape(*t, f);
      break;
    case spv::OpTypeImage: {
      const bool storage = t->image.size() > 4 && t->image[4] == 2;
      image_shape(*t, f);
      if (f.dim == spv::DimBuffer)
        f.descriptor_type = storage ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                    : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
      else
        f.descriptor_type =
            storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
      break;
    }
    case spv::OpTypeStruct: {
      const bool storage_buffer =
          v.storage == spv::StorageClassStorageBuffer || decorations(type_id).buffer_block;
      f.descriptor_type =
          storage_buffer ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      break;
    }
    default:
      error = "descriptor " + std::to_string(v.id) + " of type op " + std::to_string(t->op);
      return false;
    }
    out_.descriptors.push_back(f);
    return true;
  }

  void io(const Module::Variable& v) {
    const TypeInfo* pointer = type(v.pointer_type);
    if (!pointer) return;
    const Decorations& d = decorations(v.id);
    std::uint32_t t = pointer->b;
    if (per_vertex(out_.execution_model, v.storage, d.patch)) {
      const TypeInfo* array = type(t);
      if (array && (array->op == spv::OpTypeArray || array->op == spv::OpTypeRuntimeArray)) {
        t = array->a;
        if (v.storage == spv::StorageClassInput)
          out_.input_vertices = std::max(out_.input_vertices, array_length(*array));
      }
    }
    if (d.has_builtin) {
      builtin(v.storage, d, t);
      return;
    }
    const TypeInfo* ti = type(t);
    if (ti && ti->op == spv::OpTypeStruct) { // a block of built-ins (gl_PerVertex)
      for (std::uint32_t i = 0; i < ti->members.size(); ++i) {
        auto it = m_.member_decorations.find((std::uint64_t(t) << 32) | i);
        if (it != m_.member_decorations.end() && it->second.has_builtin) {
          Decorations md = it->second;
          md.patch = md.patch || d.patch;
          builtin(v.storage, md, ti->members[i]);
        }
      }
      return;
    }
    if (!d.has_location) return;
    // Locations: arrays take one location per element; vectors one component per element.
    std::uint32_t locations = 1;
    if (ti && ti->op == spv::OpTypeArray) {
      locations = array_length(*ti);
      ti = type(ti->a);
    }
    std::uint32_t components = 1;
    if (ti && ti->op == spv::OpTypeVector) {
      components = ti->b;
      ti = type(ti->a);
    }
    ComponentFact f;
    f.storage = v.storage;
    f.patch = d.patch;
    if (ti) {
      f.scalar = ti->op == spv::OpTypeFloat  ? 'f'
                 : ti->op == spv::OpTypeBool ? 'b'
                 : ti->b                     ? 'i'
                                             : 'u';
      f.width = ti->op == spv::OpTypeBool ? 1 : ti->a;
    }
    const bool fragment_input =
        out_.execution_model == spv::ExecutionModelFragment && v.storage == spv::StorageClassInput;
    if (fragment_input) {
      f.flat = d.flat;
      f.noperspective = d.noperspective;
      f.centroid = d.centroid;
      f.sample = d.sample;
    }
    f.index = d.index;
    f.stream = d.stream;
    f.xfb_buffer = d.xfb_buffer;
    f.xfb_stride = d.xfb_buffer >= 0 ? d.xfb_stride : 0;
    const std::uint32_t slots = f.width == 64 ? 2 : 1;
    for (std::uint32_t l = 0; l < locations; ++l) {
      for (std::uint32_t c = 0; c < components * slots; ++c) {
        f.location = d.location + l;
        f.component = d.component + c;
        f.xfb_offset = d.xfb_buffer >= 0 ? d.offset + (l * components * slots + c) * 4 : 0;
        out_.components.push_back(f);
      }
    }
  }

 private:
  void image_shape(const TypeInfo& t, DescriptorFact& f) const {
    if (t.image.size() < 4) return;
    f.dim = t.image[0];
    f.arrayed = t.image[2] != 0;
    f.multisampled = t.image[3] != 0;
    if (t.image.size() > 5) f.format = t.image[5];
  }

  void builtin(std::uint32_t storage, const Decorations& d, std::uint32_t type_id) {
    BuiltInFact f;
    f.storage = storage;
    f.builtin = d.builtin;
    f.patch = d.patch;
    if (const TypeInfo* t = type(type_id); t && t->op == spv::OpTypeArray)
      f.array_size = array_length(*t);
    f.xfb_buffer = d.xfb_buffer;
    f.xfb_offset = d.xfb_buffer >= 0 ? d.offset : 0;
    out_.builtins.push_back(f);
  }

  const Module& m_;
  ModuleInterface& out_;
};

} // namespace

bool read_module_interface(std::span<const std::uint32_t> words, ModuleInterface& out,
                           std::string& error) {
  out = {};
  if (words.size() < 5 || words[0] != spv::MagicNumber) {
    error = "not a SPIR-V module";
    return false;
  }
  Module m;
  const std::size_t unreadable = walk_instructions(words, [&](const auto& instruction) {
    const auto op = instruction.op;
    const std::span<const std::uint32_t> w = instruction.words.subspan(1);
    switch (op) {
    case spv::OpEntryPoint:
      if (out.execution_model == ~0u && !w.empty()) out.execution_model = w[0];
      break;
    case spv::OpExecutionMode:
      if (w.size() >= 2) out.execution_modes.emplace_back(w.begin() + 1, w.end());
      break;
    case spv::OpDecorate:
      if (!w.empty()) decorate(m.decorations[w[0]], w.subspan(1));
      break;
    case spv::OpMemberDecorate:
      if (w.size() >= 2)
        decorate(m.member_decorations[(std::uint64_t(w[0]) << 32) | w[1]], w.subspan(2));
      break;
    case spv::OpTypeBool:
    case spv::OpTypeSampler:
      if (!w.empty()) m.types[w[0]] = {op, 0, 0, 0, {}, {}};
      break;
    case spv::OpTypeInt: // a = width, b = signedness
    case spv::OpTypeFloat:
    case spv::OpTypeVector: // a = component type, b = count
    case spv::OpTypeArray:  // a = element type, b = length id
    case spv::OpTypeRuntimeArray:
    case spv::OpTypeSampledImage:
      if (!w.empty())
        m.types[w[0]] = {op, w.size() > 1 ? w[1] : 0, w.size() > 2 ? w[2] : 0, 0, {}, {}};
      break;
    case spv::OpTypePointer: // a = storage class, b = pointee
      if (w.size() >= 3) m.types[w[0]] = {op, w[1], w[2], 0, {}, {}};
      break;
    case spv::OpTypeImage: // a = sampled type; image = dim, depth, arrayed, ms, sampled, format
      if (w.size() >= 8) m.types[w[0]] = {op, w[1], 0, 0, {w.begin() + 2, w.end()}, {}};
      break;
    case spv::OpTypeStruct:
      if (!w.empty()) m.types[w[0]] = {op, 0, 0, 0, {}, {w.begin() + 1, w.end()}};
      break;
    case spv::OpConstant:
      if (w.size() >= 3) m.constants[w[1]] = w[2];
      break;
    case spv::OpVariable:
      if (w.size() >= 3) m.variables.push_back({w[1], w[0], w[2]});
      break;
    default:
      break;
    }
  });
  if (unreadable) {
    error = "truncated instruction at word " + std::to_string(unreadable);
    return false;
  }
  Reader reader(m, out);
  for (const Module::Variable& v : m.variables) {
    const Decorations& d = reader.decorations(v.id);
    if (v.storage == spv::StorageClassInput || v.storage == spv::StorageClassOutput) {
      reader.io(v);
    } else if (d.has_set || d.has_binding) {
      if (!reader.descriptor(v, error)) return false;
    } else if (v.storage == spv::StorageClassPushConstant) {
      DescriptorFact f;
      f.descriptor_type = ~0u;
      out.descriptors.push_back(f);
    }
  }
  std::sort(out.descriptors.begin(), out.descriptors.end());
  std::sort(out.components.begin(), out.components.end());
  std::sort(out.builtins.begin(), out.builtins.end());
  return true;
}

const std::vector<std::uint32_t>* find_execution_mode(const ModuleInterface& interface,
                                                      std::uint32_t mode) {
  for (const std::vector<std::uint32_t>& m : interface.execution_modes)
    if (m[0] == mode) return &m;
  return nullptr;
}

namespace {

const char* storage_name(std::uint32_t storage) {
  return storage == spv::StorageClassInput ? "in" : "out";
}

} // namespace

std::string describe(const DescriptorFact& f) {
  if (f.descriptor_type == ~0u) return "push constants";
  std::string s = "set " + std::to_string(f.set) + " binding " + std::to_string(f.binding) +
                  " type " + std::to_string(f.descriptor_type);
  if (f.array_size != 1) s += "[" + std::to_string(f.array_size) + "]";
  if (f.dim || f.arrayed || f.multisampled)
    s += " dim " + std::to_string(f.dim) + (f.arrayed ? " arrayed" : "") +
         (f.multisampled ? " ms" : "");
  if (f.format) s += " format " + std::to_string(f.format);
  return s;
}

std::string describe(const ComponentFact& f) {
  std::string s = std::string(storage_name(f.storage)) + (f.patch ? " patch" : "") + " location " +
                  std::to_string(f.location) + "." + std::to_string(f.component) + " " + f.scalar +
                  std::to_string(f.width);
  if (f.flat) s += " flat";
  if (f.noperspective) s += " noperspective";
  if (f.centroid) s += " centroid";
  if (f.sample) s += " sample";
  if (f.index) s += " index " + std::to_string(f.index);
  if (f.stream) s += " stream " + std::to_string(f.stream);
  if (f.xfb_buffer >= 0)
    s += " xfb " + std::to_string(f.xfb_buffer) + " stride " + std::to_string(f.xfb_stride) +
         " offset " + std::to_string(f.xfb_offset);
  return s;
}

std::string describe(const BuiltInFact& f) {
  std::string s = std::string(storage_name(f.storage)) + (f.patch ? " patch" : "") + " builtin " +
                  std::to_string(f.builtin);
  if (f.array_size) s += "[" + std::to_string(f.array_size) + "]";
  if (f.xfb_buffer >= 0)
    s += " xfb " + std::to_string(f.xfb_buffer) + " offset " + std::to_string(f.xfb_offset);
  return s;
}

namespace {

// Where a fact sits: a component by storage class, patch, location and component; a built-in
// by storage class and built-in.
std::uint64_t slot_of(const ComponentFact& f) {
  return (std::uint64_t(f.storage) << 48) | (std::uint64_t(f.patch) << 47) |
         (std::uint64_t(f.location) << 8) | f.component;
}
std::uint64_t slot_of(const BuiltInFact& f) {
  return (std::uint64_t(f.storage) << 48) | f.builtin;
}
std::uint64_t slot_of(const DescriptorFact& f) {
  return (std::uint64_t(f.set) << 32) | f.binding;
}
bool is_output(const ComponentFact& f) {
  return f.storage == spv::StorageClassOutput;
}
bool is_output(const BuiltInFact& f) {
  return f.storage == spv::StorageClassOutput;
}
bool is_output(const DescriptorFact&) {
  return false;
}

// vkd3d-shader 1.2 gives the two interpolation modes it does not handle, linear noperspective
// centroid and linear noperspective sample, no decoration at all (perspective-correct centre
// interpolation). Interpolation is the fragment shader's alone, so no other stage can see the
// difference, and kiln's is the mode D3D asks for: the one difference accepted.
bool same(const ComponentFact& kiln, const ComponentFact& reference) {
  if (kiln == reference) return true;
  ComponentFact mended = reference;
  const bool undecorated =
      !reference.flat && !reference.noperspective && !reference.centroid && !reference.sample;
  if (undecorated && kiln.noperspective && (kiln.centroid || kiln.sample)) {
    mended.noperspective = true;
    mended.centroid = kiln.centroid;
    mended.sample = kiln.sample;
  }
  return kiln == mended;
}
template <typename Fact>
bool same(const Fact& kiln, const Fact& reference) {
  return kiln == reference;
}

// Facts at the same slot must be equal. A slot only one side declares is a difference unless
// Vulkan's interface matching cannot see it (`directional`): kiln may declare an output the
// system library does not (nothing reads it, or the next stage reads what it would have read
// from no output at all), and may leave out an input (what it does not declare it does not
// read); but an input only kiln declares would read what a system-library producer never
// writes, and an output only the system library declares may be read by a system-library
// consumer.
template <typename Fact>
void differ(const char* what, const std::vector<Fact>& kiln, const std::vector<Fact>& reference,
            bool directional, std::vector<std::string>& out) {
  std::unordered_map<std::uint64_t, const Fact*> by_slot;
  for (const Fact& f : reference) by_slot.emplace(slot_of(f), &f);
  std::unordered_map<std::uint64_t, bool> seen;
  for (const Fact& f : kiln) {
    auto it = by_slot.find(slot_of(f));
    seen[slot_of(f)] = true;
    if (it == by_slot.end()) {
      if (!(directional && is_output(f)))
        out.push_back(std::string(what) + " only kiln: " + describe(f));
    } else if (!same(f, *it->second)) {
      out.push_back(std::string(what) + ": kiln " + describe(f) + ", vkd3d-shader " +
                    describe(*it->second));
    }
  }
  for (const Fact& f : reference)
    if (!seen.count(slot_of(f)) && !(directional && !is_output(f)))
      out.push_back(std::string(what) + " only vkd3d-shader: " + describe(f));
}

} // namespace

std::vector<std::string> interface_differences(const ModuleInterface& kiln,
                                               const ModuleInterface& reference) {
  std::vector<std::string> out;
  if (kiln.execution_model != reference.execution_model)
    out.push_back("execution model: kiln " + std::to_string(kiln.execution_model) +
                  ", vkd3d-shader " + std::to_string(reference.execution_model));
  differ("descriptor", kiln.descriptors, reference.descriptors, false, out);
  differ("component", kiln.components, reference.components, true, out);
  differ("built-in", kiln.builtins, reference.builtins, true, out);
  return out;
}

} // namespace kiln::execute
