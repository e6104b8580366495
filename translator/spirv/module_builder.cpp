#include "translator/spirv/module_builder.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <type_traits>

namespace kiln::spirv {

namespace {
constexpr std::uint32_t kMagic = 0x07230203u;
constexpr std::uint32_t kHeaderWords = 5;

std::uint32_t string_words(std::string_view text) {
  return static_cast<std::uint32_t>(text.size() / 4 + 1); // always NUL-terminated
}

template <typename Buffer>
void append_string(Buffer& out, std::string_view text) {
  const std::size_t start = out.size();
  const std::uint32_t words = string_words(text);
  if constexpr (std::is_same_v<Buffer, WordBuffer>) {
    std::uint32_t* w = out.append(words);
    w[words - 1] = 0; // NUL padding
  } else {
    out.resize(start + words);
    out[start + words - 1] = 0;
  }
  std::memcpy(out.data() + start, text.data(), text.size());
}
} // namespace

ModuleBuilder::ModuleBuilder() {
  for (auto& s : sections_) s.reserve(64);
  body().reserve(4096);
  buffer(Section::Globals).reserve(1024);
  locals_.reserve(64);
  scratch_.reserve(32);
}

void ModuleBuilder::reset(SpirvTarget target, std::size_t expected_globals) {
  target_ = target;
  next_id_ = 1;
  for (auto& s : sections_) s.clear();
  std::fill(capability_bits_.begin(), capability_bits_.end(), 0u);
  extension_names_.clear();
  globals_.clear(expected_globals);
  decoration_links_.clear();
  if (++decoration_generation_ == 0) {
    // Wrapped after 2^32 modules: forget every stale head for real once.
    for (DecorationHead& head : decoration_heads_) head.generation = 0;
    decoration_generation_ = 1;
  }
  void_type_ = bool_type_ = u32_type_ = i32_type_ = f32_type_ = 0;
  scalar_constants_.clear(expected_globals);
  pointer_types_.clear(expected_globals);
  in_function_ = false;
  function_has_label_ = false;
  locals_.clear();
  splices_.clear();
  raw_target_ = nullptr;
}

void ModuleBuilder::emit(WordBuffer& out, spv::Op opcode, std::span<const std::uint32_t> ops) {
  std::uint32_t* w = out.append(1 + ops.size());
  w[0] = header_word(opcode, 1 + ops.size());
  copy_words(w + 1, ops);
}

void ModuleBuilder::emit_with_string(WordBuffer& out, spv::Op opcode, std::uint32_t before,
                                     std::string_view text) {
  const std::size_t start = out.size();
  out.push(0);
  if (before != 0) out.push(before);
  append_string(out, text);
  out[start] = header_word(opcode, out.size() - start);
}

// ---- Module-level ---------------------------------------------------------------------------

bool ModuleBuilder::has_capability(spv::Capability capability) const {
  const auto value = static_cast<std::uint32_t>(capability);
  return value / 64 < capability_bits_.size() && (capability_bits_[value / 64] >> (value % 64) & 1);
}

void ModuleBuilder::require_capability(spv::Capability capability) {
  const auto value = static_cast<std::uint32_t>(capability);
  if (value / 64 >= capability_bits_.size()) capability_bits_.resize(value / 64 + 1, 0u);
  std::uint64_t& bits = capability_bits_[value / 64];
  const std::uint64_t bit = std::uint64_t{1} << (value % 64);
  if (bits & bit) return;
  bits |= bit;
  const std::uint32_t operand = value;
  emit(buffer(Section::Capabilities), spv::OpCapability, {&operand, 1});
}

void ModuleBuilder::require_extension(std::string_view name) {
  // A module needs a handful of extensions at most: a linear scan beats hashing.
  for (std::size_t at = 0; at < extension_names_.size();) {
    std::string_view known(extension_names_.data() + at);
    if (known == name) return;
    at += known.size() + 1;
  }
  extension_names_.insert(extension_names_.end(), name.begin(), name.end());
  extension_names_.push_back('\0');
  emit_with_string(buffer(Section::Extensions), spv::OpExtension, 0, name);
}

Id ModuleBuilder::import_ext_inst(std::string_view name) {
  scratch_.clear();
  scratch_.push_back(spv::OpExtInstImport);
  append_string(scratch_, name);
  const Id fresh = next_id_;
  const Id id = globals_.intern(scratch_, fresh);
  if (id != fresh) return id;
  ++next_id_;
  emit_with_string(buffer(Section::ExtInstImports), spv::OpExtInstImport, id, name);
  return id;
}

void ModuleBuilder::set_memory_model(spv::AddressingModel addressing, spv::MemoryModel memory) {
  auto& out = buffer(Section::MemoryModel);
  out.clear();
  const std::uint32_t ops[] = {static_cast<std::uint32_t>(addressing),
                               static_cast<std::uint32_t>(memory)};
  emit(out, spv::OpMemoryModel, ops);
  if (memory == spv::MemoryModelVulkan) require_capability(spv::CapabilityVulkanMemoryModel);
}

void ModuleBuilder::add_entry_point(spv::ExecutionModel model, Id function, std::string_view name,
                                    std::span<const Id> interface) {
  auto& out = buffer(Section::EntryPoints);
  const std::size_t start = out.size();
  out.push(0);
  out.push(static_cast<std::uint32_t>(model));
  out.push(function);
  append_string(out, name);
  out.push(interface);
  out[start] = header_word(spv::OpEntryPoint, out.size() - start);
}

void ModuleBuilder::add_execution_mode(Id function, spv::ExecutionMode mode,
                                       std::initializer_list<std::uint32_t> literals) {
  auto& out = buffer(Section::ExecutionModes);
  out.push(header_word(spv::OpExecutionMode, 3 + literals.size()));
  out.push(function);
  out.push(static_cast<std::uint32_t>(mode));
  out.push({literals.begin(), literals.size()});
}

void ModuleBuilder::add_execution_mode_id(Id function, spv::ExecutionMode mode,
                                          std::initializer_list<Id> ids) {
  auto& out = buffer(Section::ExecutionModes);
  out.push(header_word(spv::OpExecutionModeId, 3 + ids.size()));
  out.push(function);
  out.push(static_cast<std::uint32_t>(mode));
  out.push({ids.begin(), ids.size()});
}

// ---- Debug ----------------------------------------------------------------------------------

void ModuleBuilder::set_source(spv::SourceLanguage language, std::uint32_t version) {
  const std::uint32_t ops[] = {static_cast<std::uint32_t>(language), version};
  emit(buffer(Section::DebugStrings), spv::OpSource, ops);
}

Id ModuleBuilder::add_string(std::string_view text) {
  const Id id = allocate_id();
  emit_with_string(buffer(Section::DebugStrings), spv::OpString, id, text);
  return id;
}

void ModuleBuilder::add_name(Id target, std::string_view name) {
  emit_with_string(buffer(Section::DebugNames), spv::OpName, target, name);
}

void ModuleBuilder::add_member_name(Id struct_type, std::uint32_t member, std::string_view name) {
  auto& out = buffer(Section::DebugNames);
  const std::size_t start = out.size();
  out.push(0);
  out.push(struct_type);
  out.push(member);
  append_string(out, name);
  out[start] = header_word(spv::OpMemberName, out.size() - start);
}

// ---- Annotations ----------------------------------------------------------------------------

void ModuleBuilder::decorate_words(std::span<const std::uint32_t> key) {
  // key = opcode, target (OpDecorate, OpDecorateId: the id; OpMemberDecorate: the struct),
  // operands...; present once per module.
  const Id target = key[1];
  if (target >= decoration_heads_.size())
    decoration_heads_.resize(std::max<std::size_t>(target + 1, 2 * decoration_heads_.size()));
  DecorationHead& head = decoration_heads_[target];
  if (head.generation != decoration_generation_) head = {decoration_generation_, 0};
  WordBuffer& out = buffer(Section::Annotations);
  const std::uint32_t first_word = header_word(static_cast<spv::Op>(key[0]), key.size());
  for (std::uint32_t link = head.first; link != 0; link = decoration_links_[link - 1].next) {
    const std::uint32_t* existing = out.data() + decoration_links_[link - 1].offset;
    if (existing[0] == first_word && std::equal(key.begin() + 1, key.end(), existing + 1)) return;
  }
  decoration_links_.push_back({static_cast<std::uint32_t>(out.size()), head.first});
  head.first = static_cast<std::uint32_t>(decoration_links_.size());
  emit(out, static_cast<spv::Op>(key[0]), key.subspan(1));
}

void ModuleBuilder::decorate(Id target, spv::Decoration decoration,
                             std::initializer_list<std::uint32_t> literals) {
  decorate_key({spv::OpDecorate, target, static_cast<std::uint32_t>(decoration)}, literals);
}

void ModuleBuilder::decorate_id(Id target, spv::Decoration decoration,
                                std::initializer_list<Id> ids) {
  decorate_key({spv::OpDecorateId, target, static_cast<std::uint32_t>(decoration)}, ids);
}

void ModuleBuilder::decorate_member(Id struct_type, std::uint32_t member,
                                    spv::Decoration decoration,
                                    std::initializer_list<std::uint32_t> literals) {
  decorate_key({spv::OpMemberDecorate, struct_type, member, static_cast<std::uint32_t>(decoration)},
               literals);
}

void ModuleBuilder::decorate_key(std::initializer_list<std::uint32_t> head,
                                 std::initializer_list<std::uint32_t> tail) {
  // Decorations carry a literal or two: the key fits a local array (a long tail: scratch_).
  std::uint32_t storage[12];
  std::span<const std::uint32_t> key;
  if (head.size() + tail.size() <= std::size(storage)) {
    std::copy(head.begin(), head.end(), storage);
    std::copy(tail.begin(), tail.end(), storage + head.size());
    key = {storage, head.size() + tail.size()};
  } else {
    scratch_.assign(head.begin(), head.end());
    scratch_.insert(scratch_.end(), tail.begin(), tail.end());
    key = scratch_;
  }
  decorate_words(key);
}

// ---- Functions ------------------------------------------------------------------------------

Id ModuleBuilder::begin_function(Id return_type, spv::FunctionControlMask control, Id function_type,
                                 Id id) {
  if (in_function_) end_function();
  in_function_ = true;
  function_has_label_ = false;
  function_locals_begin_ = static_cast<std::uint32_t>(locals_.size());
  if (id == 0) id = allocate_id();
  const std::uint32_t ops[] = {return_type, id, static_cast<std::uint32_t>(control), function_type};
  emit(body(), spv::OpFunction, ops);
  return id;
}

Id ModuleBuilder::function_parameter(Id type) {
  const Id id = allocate_id();
  const std::uint32_t ops[] = {type, id};
  emit(body(), spv::OpFunctionParameter, ops);
  return id;
}

Id ModuleBuilder::local_variable(Id pointer_type, Id initializer) {
  const Id id = allocate_id();
  std::uint32_t* w = locals_.append(initializer ? 5 : 4);
  w[0] = header_word(spv::OpVariable, initializer ? 5 : 4);
  w[1] = pointer_type;
  w[2] = id;
  w[3] = spv::StorageClassFunction;
  if (initializer) w[4] = initializer;
  return id;
}

Id ModuleBuilder::label(Id id) {
  if (id == 0) id = allocate_id();
  std::uint32_t* w = body().append(2);
  w[0] = header_word(spv::OpLabel, 2);
  w[1] = id;
  if (in_function_ && !function_has_label_) {
    // The entry block: hoisted locals go right here.
    function_has_label_ = true;
    function_splice_at_ = static_cast<std::uint32_t>(body().size());
  }
  return id;
}

void ModuleBuilder::end_function() {
  if (!in_function_) return;
  body().push(header_word(spv::OpFunctionEnd, 1));
  const auto locals_end = static_cast<std::uint32_t>(locals_.size());
  if (locals_end != function_locals_begin_ && function_has_label_)
    splices_.push_back({function_splice_at_, function_locals_begin_, locals_end});
  in_function_ = false;
  function_has_label_ = false;
}

Id ModuleBuilder::ext_inst(Id result_type, Id set, std::uint32_t instruction,
                           std::initializer_list<Id> operands) {
  const Id result = allocate_id();
  std::uint32_t* w = body().append(5 + operands.size());
  w[0] = header_word(spv::OpExtInst, 5 + operands.size());
  w[1] = result_type;
  w[2] = result;
  w[3] = set;
  w[4] = instruction;
  copy_words(w + 5, {operands.begin(), operands.size()});
  return result;
}

// ---- Raw emission ---------------------------------------------------------------------------

void ModuleBuilder::begin(Section section, spv::Op opcode) {
  assert(raw_target_ == nullptr && "begin() without end()");
  raw_target_ = &buffer(section);
  raw_start_ = raw_target_->size();
  raw_target_->push(static_cast<std::uint32_t>(opcode));
}

void ModuleBuilder::word(std::uint32_t value) {
  raw_target_->push(value);
}

void ModuleBuilder::words(std::span<const std::uint32_t> values) {
  raw_target_->push(values);
}

void ModuleBuilder::string(std::string_view text) {
  append_string(*raw_target_, text);
}

void ModuleBuilder::end() {
  auto& out = *raw_target_;
  out[raw_start_] |= static_cast<std::uint32_t>(out.size() - raw_start_) << spv::WordCountShift;
  raw_target_ = nullptr;
}

// ---- Output ---------------------------------------------------------------------------------

void ModuleBuilder::finish(std::vector<std::uint32_t>& out) {
  if (in_function_) end_function();
  std::size_t total = kHeaderWords + locals_.size();
  for (const auto& s : sections_) total += s.size();
  // Appended, not resized and overwritten: the words are written once.
  out.clear();
  out.reserve(total);
  out.insert(out.end(), {kMagic, spirv_version_word(target_), kGeneratorWord, next_id_, 0u});
  auto copy = [&out](const std::uint32_t* from, std::size_t count) {
    out.insert(out.end(), from, from + count);
  };
  for (std::size_t i = 0; i < index(Section::Functions); ++i)
    copy(sections_[i].data(), sections_[i].size());
  // Functions, with each function's locals spliced in after its entry label.
  const WordBuffer& functions = buffer(Section::Functions);
  std::size_t done = 0;
  for (const LocalsSplice& splice : splices_) {
    copy(functions.data() + done, splice.at - done);
    copy(locals_.data() + splice.begin, splice.end - splice.begin);
    done = splice.at;
  }
  copy(functions.data() + done, functions.size() - done);
}

} // namespace kiln::spirv
