#pragma once
// ModuleBuilder: writes a SPIR-V module section by section, in whatever order the backend
// produces things, and lays the sections out in the logical order of SPIR-V spec 2.4 at
// finish(). Types, constants and ext-inst imports are deduplicated through flat hash tables
// (one-word constants and pointer types, the most asked for, through tables keyed by one 64-bit
// word), decorations through a per-target list; capabilities and extensions are recorded once,
// when first required. The calls the backend makes per instruction (op, access_chain,
// constant_word, type_pointer) are inline. The Globals section's builders live in
// module_builder_globals.cpp.
//
// Allocation: every section is a WordBuffer whose capacity survives reset(), and the dedup
// tables reuse their storage too, so a builder kept per worker thread stops allocating after
// the first few shaders.
//
// Ids are handed out densely from 1, so the header's bound is exactly next id (compact).

#include "translator/common/spirv_target.h"
#include "translator/spirv/intern_table.h"
#include "translator/spirv/word_buffer.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <spirv/unified1/spirv.hpp>
#include <string_view>
#include <vector>

namespace kiln::spirv {

using Id = std::uint32_t;

// The module's sections, in logical layout order (SPIR-V spec 2.4).
enum class Section : std::uint8_t {
  Capabilities,
  Extensions,
  ExtInstImports,
  MemoryModel,
  EntryPoints,
  ExecutionModes,
  DebugStrings,   // OpString, OpSource*, OpSourceExtension
  DebugNames,     // OpName, OpMemberName
  DebugProcessed, // OpModuleProcessed
  Annotations,
  Globals, // types, constants, global variables, OpUndef
  Functions,
  Count,
};

class ModuleBuilder {
 public:
  // Registered generator id would go in the upper 16 bits; kiln is not registered, so 0
  // (reserved) with kiln's tool version in the lower bits.
  static constexpr std::uint32_t kGeneratorWord = 0x00000001u;

  ModuleBuilder();

  // Forget the module, keep every buffer's capacity. `expected_globals`: about how many types,
  // constants and decorations the module will hold (sizes the interning tables' active part).
  void reset(SpirvTarget target = SpirvTarget::Vulkan13, std::size_t expected_globals = 0);
  SpirvTarget target() const { return target_; }
  // SPIR-V 1.4+ (Vulkan 1.2+) entry points list every global variable they use; 1.0-1.3 list
  // only Input and Output variables.
  bool interface_lists_all_globals() const { return spirv_at_least(target_, 4); }

  Id allocate_id() { return next_id_++; }

  // ---- Module-level declarations ----------------------------------------------------------
  void require_capability(spv::Capability capability);
  void require_extension(std::string_view name);
  bool has_capability(spv::Capability capability) const;
  Id import_ext_inst(std::string_view name); // deduplicated
  Id glsl_std_450() { return import_ext_inst("GLSL.std.450"); }
  void set_memory_model(spv::AddressingModel addressing, spv::MemoryModel memory);
  void add_entry_point(spv::ExecutionModel model, Id function, std::string_view name,
                       std::span<const Id> interface);
  void add_execution_mode(Id function, spv::ExecutionMode mode,
                          std::initializer_list<std::uint32_t> literals = {});
  void add_execution_mode_id(Id function, spv::ExecutionMode mode, std::initializer_list<Id> ids);

  // ---- Debug ------------------------------------------------------------------------------
  void set_source(spv::SourceLanguage language, std::uint32_t version);
  Id add_string(std::string_view text);
  void add_name(Id target, std::string_view name);
  void add_member_name(Id struct_type, std::uint32_t member, std::string_view name);

  // ---- Annotations (deduplicated) ---------------------------------------------------------
  void decorate(Id target, spv::Decoration decoration,
                std::initializer_list<std::uint32_t> literals = {});
  void decorate_id(Id target, spv::Decoration decoration, std::initializer_list<Id> ids);
  void decorate_member(Id struct_type, std::uint32_t member, spv::Decoration decoration,
                       std::initializer_list<std::uint32_t> literals = {});

  // ---- Types (deduplicated unless noted) --------------------------------------------------
  Id type_void();
  Id type_bool();
  Id type_int(std::uint32_t width, bool is_signed); // requires Int8/Int16/Int64 as needed
  Id type_float(std::uint32_t width);               // requires Float16/Float64 as needed
  Id type_vector(Id component, std::uint32_t count);
  Id type_matrix(Id column, std::uint32_t columns);
  Id type_array(Id element, Id length_constant);
  // Not deduplicated: for arrays that get their own ArrayStride (explicitly laid out blocks)
  // while the same element/length may also be used unlaid-out elsewhere.
  Id type_array_unique(Id element, Id length_constant);
  Id type_runtime_array(Id element);
  // Never deduplicated: structs carry their own member decorations (Block, Offset, ...).
  Id type_struct(std::span<const Id> members);
  Id type_pointer(spv::StorageClass storage, Id pointee) {
    const Id fresh = next_id_;
    const auto storage_word = static_cast<std::uint32_t>(storage);
    const Id id = pointer_types_.intern(storage_word, pointee, fresh);
    if (id == fresh) emit_type_pointer(storage_word, pointee);
    return id;
  }
  Id type_function(Id return_type, std::span<const Id> parameters);
  Id type_image(Id sampled_type, spv::Dim dim, std::uint32_t depth, bool arrayed, bool ms,
                std::uint32_t sampled, spv::ImageFormat format);
  Id type_sampler();
  Id type_sampled_image(Id image_type);

  // ---- Constants (deduplicated; plain spec_constant() is not) -------------------------------
  Id constant_bool(bool value);
  // A scalar constant whose literal is one word (`type` of up to 32 bits).
  Id constant_word(Id type, std::uint32_t bits) {
    const Id fresh = next_id_;
    const Id id = scalar_constants_.intern(type, bits, fresh);
    if (id == fresh) emit_constant_word(type, bits);
    return id;
  }
  Id constant_u32(std::uint32_t value) {
    return constant_word(u32_type_ != 0 ? u32_type_ : type_int(32, false), value);
  }
  Id constant_i32(std::int32_t value);
  Id constant_f32(float value);
  // Any scalar numeric type: `words` is the literal, low-order word first.
  Id constant(Id type, std::span<const std::uint32_t> words);
  Id constant_composite(Id type, std::span<const Id> constituents);
  Id constant_null(Id type);
  // A fresh spec constant every call; decorate it with SpecId yourself.
  Id spec_constant(Id type, std::span<const std::uint32_t> default_words);
  // The spec constant with this SpecId (created and decorated on first use).
  Id spec_constant_with_id(Id type, std::span<const std::uint32_t> default_words,
                           std::uint32_t spec_id);
  Id spec_constant_bool(bool default_value);
  Id spec_constant_composite(Id type, std::span<const Id> constituents);
  // OpSpecConstantOp: `opcode` applied to `operands` at specialisation time.
  Id spec_constant_op(Id type, spv::Op opcode, std::span<const std::uint32_t> operands);
  Id undef(Id type); // deduplicated

  // ---- Global variables -------------------------------------------------------------------
  Id global_variable(Id pointer_type, spv::StorageClass storage, Id initializer = 0);

  // ---- Functions --------------------------------------------------------------------------
  Id begin_function(Id return_type, spv::FunctionControlMask control, Id function_type, Id id = 0);
  Id function_parameter(Id type);
  // Function-scope OpVariables: collected apart and placed right after the first block's
  // label at end_function(), as SPIR-V requires, whenever the body asks for them.
  Id local_variable(Id pointer_type, Id initializer = 0);
  // Starts a block; pass a pre-allocated id for forward branches.
  Id label(Id id = 0);
  void end_function();

  // Instruction with a result type and a result id (a fresh one when `result` is 0). Inline:
  // most of the backend's instructions come through here, and with the operand count known at
  // the call site the copy is a few stores.
  Id op(spv::Op opcode, Id result_type, std::span<const std::uint32_t> operands, Id result = 0) {
    if (result == 0) result = allocate_id();
    const std::size_t count = 3 + operands.size();
    std::uint32_t* w = body().append(count);
    w[0] = header_word(opcode, count);
    w[1] = result_type;
    w[2] = result;
    for (std::size_t i = 0; i < operands.size(); ++i) w[3 + i] = operands[i];
    return result;
  }
  Id op(spv::Op opcode, Id result_type, std::initializer_list<std::uint32_t> operands,
        Id result = 0) {
    return op(opcode, result_type,
              std::span<const std::uint32_t>(operands.begin(), operands.size()), result);
  }
  // OpAccessChain of `base` by `indices` (ids), written straight into the body.
  Id access_chain(Id pointer_type, Id base, std::span<const Id> indices) {
    const Id result = allocate_id();
    const std::size_t count = 4 + indices.size();
    std::uint32_t* w = body().append(count);
    w[0] = header_word(spv::OpAccessChain, count);
    w[1] = pointer_type;
    w[2] = result;
    w[3] = base;
    for (std::size_t i = 0; i < indices.size(); ++i) w[4 + i] = indices[i];
    return result;
  }
  // Instruction without result.
  void op_void(spv::Op opcode, std::span<const std::uint32_t> operands) {
    const std::size_t count = 1 + operands.size();
    std::uint32_t* w = body().append(count);
    w[0] = header_word(opcode, count);
    for (std::size_t i = 0; i < operands.size(); ++i) w[1 + i] = operands[i];
  }
  void op_void(spv::Op opcode, std::initializer_list<std::uint32_t> operands) {
    op_void(opcode, std::span<const std::uint32_t>(operands.begin(), operands.size()));
  }
  // OpExtInst into an imported set.
  Id ext_inst(Id result_type, Id set, std::uint32_t instruction,
              std::initializer_list<Id> operands);

  // Raw emission for shapes the helpers do not cover (e.g. string operands mid-instruction):
  // begin() writes a placeholder header, the word/string calls append, end() patches it.
  void begin(Section section, spv::Op opcode);
  void word(std::uint32_t value);
  void words(std::span<const std::uint32_t> values);
  void string(std::string_view text);
  void end();

  // The module: header + sections in logical order. Ends an unfinished function first.
  void finish(std::vector<std::uint32_t>& out);

  // A section's words so far. Functions: without the hoisted local variables.
  std::span<const std::uint32_t> section(Section s) const { return sections_[index(s)]; }

 private:
  static constexpr std::size_t index(Section s) { return static_cast<std::size_t>(s); }
  static constexpr std::uint32_t header_word(spv::Op opcode, std::size_t word_count) {
    return static_cast<std::uint32_t>(word_count) << spv::WordCountShift |
           static_cast<std::uint32_t>(opcode);
  }
  WordBuffer& buffer(Section s) { return sections_[index(s)]; }
  WordBuffer& body() { return sections_[index(Section::Functions)]; }

  // Operand lists are mostly 1-4 words: copy those inline instead of calling memcpy.
  static void copy_words(std::uint32_t* to, std::span<const std::uint32_t> from) {
    switch (from.size()) {
    case 4:
      to[3] = from[3];
      [[fallthrough]];
    case 3:
      to[2] = from[2];
      [[fallthrough]];
    case 2:
      to[1] = from[1];
      [[fallthrough]];
    case 1:
      to[0] = from[0];
      [[fallthrough]];
    case 0:
      return;
    default:
      std::memcpy(to, from.data(), from.size_bytes());
    }
  }
  static void emit(WordBuffer& out, spv::Op opcode, std::span<const std::uint32_t> ops);
  static void emit_with_string(WordBuffer& out, spv::Op opcode, std::uint32_t before,
                               std::string_view text);
  // Dedup an instruction in the Globals section keyed by (opcode, operands): returns the
  // existing result id or emits `opcode [result_type] id operands` and returns the new id.
  Id intern_global(spv::Op opcode, Id result_type, std::span<const std::uint32_t> operands);
  // The new instructions of constant_word and type_pointer (each takes the next id).
  void emit_constant_word(Id type, std::uint32_t bits);
  void emit_type_pointer(std::uint32_t storage, Id pointee);
  void decorate_words(std::span<const std::uint32_t> key);
  // decorate_words of the key `head` followed by `tail`.
  void decorate_key(std::initializer_list<std::uint32_t> head,
                    std::initializer_list<std::uint32_t> tail);

  SpirvTarget target_ = SpirvTarget::Vulkan13;
  Id next_id_ = 1;
  WordBuffer sections_[static_cast<std::size_t>(Section::Count)];
  std::vector<std::uint64_t> capability_bits_; // one bit per capability value, grown on demand
  std::vector<char> extension_names_;          // NUL-separated, for dedup
  InternTable globals_;                        // types, constants, undefs, imports
  // Decorations, deduplicated per target: a target's decorations so far form a chain through
  // decoration_links_ (their offsets in the Annotations section), so a repeat is found by
  // comparing that target's few decorations, without hashing. Heads carry the generation of
  // the module that set them, so reset() leaves them alone.
  struct DecorationHead {
    std::uint32_t generation = 0;
    std::uint32_t first = 0; // index + 1 into decoration_links_; 0 = none
  };
  struct DecorationLink {
    std::uint32_t offset; // of the instruction in the Annotations section
    std::uint32_t next;   // index + 1 of the target's previous decoration; 0 = none
  };
  std::vector<DecorationHead> decoration_heads_; // by target id
  std::vector<DecorationLink> decoration_links_;
  std::uint32_t decoration_generation_ = 1;
  std::vector<std::uint32_t> scratch_;

  // The most used types, cached so constants skip a table lookup for their type.
  Id void_type_ = 0, bool_type_ = 0, u32_type_ = 0, i32_type_ = 0, f32_type_ = 0;
  // One-word scalar constants (type, bits) and pointer types (storage class, pointee): the keys
  // the backend looks up most, in tables of their own (only constant_word and type_pointer make
  // these instructions, so they are never in `globals_`).
  PairInternTable scalar_constants_;
  PairInternTable pointer_types_;

  // Function bodies go straight into the Functions section; function-scope OpVariables go
  // to locals_, and finish() splices each function's run of locals in after its first label.
  struct LocalsSplice {
    std::uint32_t at;         // offset in the Functions section
    std::uint32_t begin, end; // range in locals_
  };
  bool in_function_ = false;
  bool function_has_label_ = false;
  std::uint32_t function_splice_at_ = 0;
  std::uint32_t function_locals_begin_ = 0;
  WordBuffer locals_;
  std::vector<LocalsSplice> splices_;

  // Raw emission state.
  WordBuffer* raw_target_ = nullptr;
  std::size_t raw_start_ = 0;
};

} // namespace kiln::spirv
