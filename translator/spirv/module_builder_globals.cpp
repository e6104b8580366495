// ModuleBuilder: the Globals section (types, constants, spec constants, global variables),
// deduplicated through `globals_` and, for one-word constants and pointer types, the pair tables.
#include "translator/spirv/module_builder.h"

#include <algorithm>
#include <bit>

namespace kiln::spirv {

namespace {
// Dedup-table key tag for SpecId lookups; not a SPIR-V opcode (those fit in 16 bits).
constexpr std::uint32_t kSpecIdKey = 0x10000u;
} // namespace

Id ModuleBuilder::intern_global(spv::Op opcode, Id result_type,
                                std::span<const std::uint32_t> operands) {
  // Key: opcode, result type (0 when none), operands. Result ids are never 0.
  std::uint32_t key_storage[16];
  std::span<const std::uint32_t> key;
  const std::size_t key_size = 2 + operands.size();
  if (key_size <= std::size(key_storage)) {
    key_storage[0] = static_cast<std::uint32_t>(opcode);
    key_storage[1] = result_type;
    copy_words(key_storage + 2, operands);
    key = {key_storage, key_size};
  } else {
    scratch_.clear();
    scratch_.push_back(static_cast<std::uint32_t>(opcode));
    scratch_.push_back(result_type);
    scratch_.insert(scratch_.end(), operands.begin(), operands.end());
    key = scratch_;
  }
  const Id fresh = next_id_;
  const Id id = globals_.intern(key, fresh);
  if (id != fresh) return id;
  ++next_id_;
  const std::size_t words = 1 + (result_type != 0) + 1 + operands.size();
  std::uint32_t* w = buffer(Section::Globals).append(words);
  *w++ = header_word(opcode, words);
  if (result_type != 0) *w++ = result_type;
  *w++ = id;
  copy_words(w, operands);
  return id;
}

Id ModuleBuilder::type_void() {
  if (void_type_ == 0) void_type_ = intern_global(spv::OpTypeVoid, 0, {});
  return void_type_;
}
Id ModuleBuilder::type_bool() {
  if (bool_type_ == 0) bool_type_ = intern_global(spv::OpTypeBool, 0, {});
  return bool_type_;
}

Id ModuleBuilder::type_int(std::uint32_t width, bool is_signed) {
  if (width == 32) {
    Id& cached = is_signed ? i32_type_ : u32_type_;
    const std::uint32_t ops[] = {32, is_signed ? 1u : 0u};
    if (cached == 0) cached = intern_global(spv::OpTypeInt, 0, ops);
    return cached;
  }
  if (width == 8) require_capability(spv::CapabilityInt8);
  if (width == 16) require_capability(spv::CapabilityInt16);
  if (width == 64) require_capability(spv::CapabilityInt64);
  const std::uint32_t ops[] = {width, is_signed ? 1u : 0u};
  return intern_global(spv::OpTypeInt, 0, ops);
}

Id ModuleBuilder::type_float(std::uint32_t width) {
  if (width == 32) {
    if (f32_type_ == 0) f32_type_ = intern_global(spv::OpTypeFloat, 0, {&width, 1});
    return f32_type_;
  }
  if (width == 16) require_capability(spv::CapabilityFloat16);
  if (width == 64) require_capability(spv::CapabilityFloat64);
  return intern_global(spv::OpTypeFloat, 0, {&width, 1});
}

Id ModuleBuilder::type_vector(Id component, std::uint32_t count) {
  const std::uint32_t ops[] = {component, count};
  return intern_global(spv::OpTypeVector, 0, ops);
}

Id ModuleBuilder::type_matrix(Id column, std::uint32_t columns) {
  require_capability(spv::CapabilityMatrix);
  const std::uint32_t ops[] = {column, columns};
  return intern_global(spv::OpTypeMatrix, 0, ops);
}

Id ModuleBuilder::type_array(Id element, Id length_constant) {
  const std::uint32_t ops[] = {element, length_constant};
  return intern_global(spv::OpTypeArray, 0, ops);
}

Id ModuleBuilder::type_array_unique(Id element, Id length_constant) {
  const Id id = allocate_id();
  std::uint32_t* w = buffer(Section::Globals).append(4);
  w[0] = header_word(spv::OpTypeArray, 4);
  w[1] = id;
  w[2] = element;
  w[3] = length_constant;
  return id;
}

Id ModuleBuilder::type_runtime_array(Id element) {
  return intern_global(spv::OpTypeRuntimeArray, 0, {&element, 1});
}

Id ModuleBuilder::type_struct(std::span<const Id> members) {
  const Id id = allocate_id();
  auto& out = buffer(Section::Globals);
  out.push(header_word(spv::OpTypeStruct, 2 + members.size()));
  out.push(id);
  out.push(members);
  return id;
}

void ModuleBuilder::emit_type_pointer(std::uint32_t storage, Id pointee) {
  const Id id = allocate_id();
  std::uint32_t* w = buffer(Section::Globals).append(4);
  w[0] = header_word(spv::OpTypePointer, 4);
  w[1] = id;
  w[2] = storage;
  w[3] = pointee;
}

Id ModuleBuilder::type_function(Id return_type, std::span<const Id> parameters) {
  std::uint32_t ops[16];
  if (parameters.size() < std::size(ops)) {
    ops[0] = return_type;
    std::copy(parameters.begin(), parameters.end(), ops + 1);
    return intern_global(spv::OpTypeFunction, 0, {ops, parameters.size() + 1});
  }
  std::vector<std::uint32_t> many; // rare: more than 15 parameters
  many.push_back(return_type);
  many.insert(many.end(), parameters.begin(), parameters.end());
  return intern_global(spv::OpTypeFunction, 0, many);
}

Id ModuleBuilder::type_image(Id sampled_type, spv::Dim dim, std::uint32_t depth, bool arrayed,
                             bool ms, std::uint32_t sampled, spv::ImageFormat format) {
  const std::uint32_t ops[] = {
      sampled_type, static_cast<std::uint32_t>(dim),   depth, arrayed ? 1u : 0u, ms ? 1u : 0u,
      sampled,      static_cast<std::uint32_t>(format)};
  return intern_global(spv::OpTypeImage, 0, ops);
}

Id ModuleBuilder::type_sampler() {
  return intern_global(spv::OpTypeSampler, 0, {});
}

Id ModuleBuilder::type_sampled_image(Id image_type) {
  return intern_global(spv::OpTypeSampledImage, 0, {&image_type, 1});
}

Id ModuleBuilder::constant_bool(bool value) {
  return intern_global(value ? spv::OpConstantTrue : spv::OpConstantFalse, type_bool(), {});
}

void ModuleBuilder::emit_constant_word(Id type, std::uint32_t bits) {
  const Id id = allocate_id();
  std::uint32_t* w = buffer(Section::Globals).append(4);
  w[0] = header_word(spv::OpConstant, 4);
  w[1] = type;
  w[2] = id;
  w[3] = bits;
}

Id ModuleBuilder::constant_i32(std::int32_t value) {
  return constant_word(type_int(32, true), static_cast<std::uint32_t>(value));
}

Id ModuleBuilder::constant_f32(float value) {
  return constant_word(type_float(32), std::bit_cast<std::uint32_t>(value));
}

Id ModuleBuilder::constant(Id type, std::span<const std::uint32_t> words) {
  if (words.size() == 1) return constant_word(type, words[0]);
  return intern_global(spv::OpConstant, type, words);
}

Id ModuleBuilder::constant_composite(Id type, std::span<const Id> constituents) {
  return intern_global(spv::OpConstantComposite, type, constituents);
}

Id ModuleBuilder::constant_null(Id type) {
  return intern_global(spv::OpConstantNull, type, {});
}

Id ModuleBuilder::undef(Id type) {
  return intern_global(spv::OpUndef, type, {});
}

Id ModuleBuilder::spec_constant(Id type, std::span<const std::uint32_t> default_words) {
  const Id id = allocate_id();
  auto& out = buffer(Section::Globals);
  out.push(header_word(spv::OpSpecConstant, 3 + default_words.size()));
  out.push(type);
  out.push(id);
  out.push(default_words);
  return id;
}

Id ModuleBuilder::spec_constant_bool(bool default_value) {
  const Id type = type_bool();
  const Id id = allocate_id();
  const std::uint32_t ops[] = {type, id};
  emit(buffer(Section::Globals), default_value ? spv::OpSpecConstantTrue : spv::OpSpecConstantFalse,
       ops);
  return id;
}

// Composites and operations over spec constants are pure functions of their operands, so
// they are deduplicated like ordinary constants.
Id ModuleBuilder::spec_constant_composite(Id type, std::span<const Id> constituents) {
  return intern_global(spv::OpSpecConstantComposite, type, constituents);
}

Id ModuleBuilder::spec_constant_op(Id type, spv::Op opcode,
                                   std::span<const std::uint32_t> operands) {
  std::uint32_t ops[16];
  if (operands.size() < std::size(ops)) {
    ops[0] = static_cast<std::uint32_t>(opcode);
    std::copy(operands.begin(), operands.end(), ops + 1);
    return intern_global(spv::OpSpecConstantOp, type, {ops, operands.size() + 1});
  }
  std::vector<std::uint32_t> many{static_cast<std::uint32_t>(opcode)}; // rare: long operand list
  many.insert(many.end(), operands.begin(), operands.end());
  return intern_global(spv::OpSpecConstantOp, type, many);
}

Id ModuleBuilder::spec_constant_with_id(Id type, std::span<const std::uint32_t> default_words,
                                        std::uint32_t spec_id) {
  // One constant per SpecId: keyed by a pseudo-instruction that never reaches the module.
  const std::uint32_t key[] = {kSpecIdKey, spec_id};
  const Id existing = globals_.find(key);
  if (existing != InternTable::kNotFound) return existing;
  const Id id = spec_constant(type, default_words);
  globals_.intern(key, id);
  decorate(id, spv::DecorationSpecId, {spec_id});
  return id;
}

Id ModuleBuilder::global_variable(Id pointer_type, spv::StorageClass storage, Id initializer) {
  const Id id = allocate_id();
  auto& out = buffer(Section::Globals);
  out.push(header_word(spv::OpVariable, initializer ? 5 : 4));
  out.push(pointer_type);
  out.push(id);
  out.push(static_cast<std::uint32_t>(storage));
  if (initializer) out.push(initializer);
  return id;
}

} // namespace kiln::spirv
