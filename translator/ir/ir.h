#pragma once
// kiln's SSA IR (docs/ir.md): SSA ids, operands, ops and the Builder that
// owns a program. See docs/ir.md for the design.
//
//   ir::Builder b;                        // per worker; b.reset() between shaders
//   auto one = b.add(ir::Op::Constant(ir::kF32, 1.0f));
//   auto sum = b.add(ir::Op::FAdd(ir::kF32, x, one).set_flags(ir::OpFlags::Precise));
//   for (ir::OpView op : b.ops()) ... op.code(), op.type(), op.operands()
//   ir::ops::FAdd(b.op(sum)).a().def()    // operands by role: ir_op_views.h

#include "translator/ir/ir_builder_args.h"
#include "translator/ir/ir_enums.h"
#include "translator/ir/ir_opcodes.h"
#include "translator/ir/ir_operand.h"
#include "translator/ir/ir_type.h"
#include "translator/ir/pod_buffer.h"
#include "translator/ir/pool_span.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kiln::ir {

class Builder;

// An op to add: opcode, flags, type and operands (references first, then literals). Small ops
// keep their operands inline; bigger ones spill to a vector or point at caller storage
// (with_operands), so building a typical op touches no heap.
class Op {
 public:
  static constexpr unsigned kInlineOperands = 12;

  Op(OpCode code, Type type, OpFlags flags = OpFlags(0))
      : code_(code), flags_(flags), type_(type) {}
  // An op whose operands live in caller storage that outlives the op (parsers, big constants).
  // With KILN_IR_CHECKS, operands taken from a builder's pool (OpView::operands()) make the op
  // remember the pool's epoch: it trips when read after the pool changed (pool_span.h).
  static Op with_operands(OpCode code, Type type, PoolSpan<Operand> operands,
                          std::uint32_t ref_count, OpFlags flags = OpFlags(0));

  OpCode code() const { return code_; }
  Type type() const { return type_; }
  OpFlags flags() const { return flags_; }
  std::uint32_t operand_count() const { return count_; }
  std::uint32_t ref_count() const { return ref_count_; }
  Operand operand(std::uint32_t i) const { return data()[i]; }
  std::span<const Operand> operands() const { return {data(), count_}; }

  Op& set_type(Type t) {
    type_ = t;
    return *this;
  }
  Op& set_flags(OpFlags f) {
    flags_ = f;
    return *this;
  }
  Op& add_flags(OpFlags f) {
    flags_ = flags_ | f;
    return *this;
  }
  Op& set_operand(std::uint32_t i, Operand o);

  // Appending operands: references must come before literals (a reference after a literal
  // marks the op malformed; the validator reports it).
  Op& ref(SsaDef def) { return push_operand(Operand(def), true); }
  Op& literal(std::uint64_t bits) { return push_operand(Operand::literal(bits), false); }
  Op& literal_f32(float v) { return push_operand(Operand::literal_f32(v), false); }
  Op& literal_f64(double v) { return push_operand(Operand::literal_f64(v), false); }
  Op& string(std::string_view s);

  // Generated from the table: Op::FAdd(type, a, b), Op::Label(Construct::None),
  // Op::DebugName(def, "name"), Op::CompositeConstruct(type, std::span<const SsaDef>(parts, n)).
  // The arguments must fit the op's shape (ir_builder_args.h): one per operand, an SsaDef for
  // each reference, an integer or the letter's enum for each literal, a variadic list or one
  // span for a `[..]` group or a `#` tail, a string for a `$` tail; any other call does not
  // compile. Floats become literal bits, strings string literals. Without a leading Type the op
  // gets the type its return class fixes (void where it is not fixed).
  //
  // The one untyped way is the constructor, Op(code, type), followed by ref() and literal():
  // for an opcode chosen at run time (a front end's table row), and for tests that build
  // malformed ops on purpose.
#define KILN_X(name, ...)                                                                          \
  template <typename... A>                                                                         \
  requires detail::OperandsFitShape<OpCode::name, A...>                                            \
  static Op name(Type type, A... args) {                                                           \
    Op op(OpCode::name, type);                                                                     \
    (op.push(args), ...);                                                                          \
    return op;                                                                                     \
  }                                                                                                \
  template <typename... A>                                                                         \
  requires detail::OperandsFitShape<OpCode::name, A...>                                            \
  static Op name(A... args) {                                                                      \
    return name(default_type(op_info(OpCode::name).return_class), args...);                        \
  }
  KILN_IR_OPCODES(KILN_X)
#undef KILN_X

  static constexpr Type default_type(ReturnClass c) {
    switch (c) {
    case ReturnClass::Bool:
      return kBool;
    case ReturnClass::U32:
      return kU32;
    case ReturnClass::F32:
      return kF32;
    case ReturnClass::Vec2F32:
      return vec(ScalarType::F32, 2);
    case ReturnClass::Vec2U32:
      return vec(ScalarType::U32, 2);
    case ReturnClass::Vec2I32:
      return vec(ScalarType::I32, 2);
    default:
      return kVoid;
    }
  }

 private:
  friend class Builder;
  const Operand* data() const {
#if KILN_IR_CHECKS
    KILN_IR_CHECK(!external_ || !external_epoch_ || *external_epoch_ == external_taken_,
                  "an Op made from OpView::to_op() or OpView::operands() was used after the "
                  "builder changed its operand pool; pass such an op to the builder at once");
#endif
    return external_ ? external_ : (spill_.empty() ? inline_ : spill_.data());
  }
  Op& push_operand(Operand o, bool is_ref) {
    if (!external_ && count_ < kInlineOperands) [[likely]] {
      inline_[count_++] = o;
      if (!is_ref)
        literal_seen_ = true;
      else if (literal_seen_)
        refs_after_literal_ = true;
      else
        ref_count_ = count_;
      return *this;
    }
    return push_operand_slow(o, is_ref);
  }
  Op& push_operand_slow(Operand o, bool is_ref);
  Op& push(SsaDef d) {
    return ref(d);
  }
  Op& push(float v) {
    return literal_f32(v);
  }
  Op& push(double v) {
    return literal_f64(v);
  }
  Op& push(std::string_view s) {
    return string(s);
  }
  Op& push(const char* s) {
    return string(s);
  }
  // A `[..]` group or a `#` tail handed over as one span.
  template <typename T, std::size_t N>
  Op& push(std::span<T, N> values) {
    for (const T& v : values) push(v);
    return *this;
  }
  template <typename T>
  Op& push(T v) requires(std::is_integral_v<T> || std::is_enum_v<T>) {
    if constexpr (std::is_enum_v<T>)
      return literal(std::uint64_t(std::underlying_type_t<T>(v)));
    else if constexpr (std::is_signed_v<T> && sizeof(T) <= 4)
      // Literals of types up to 32 bits hold their 32-bit pattern: -1 and 0xffffffffu are
      // the same constant.
      return literal(std::uint64_t(std::uint32_t(v)));
    else if constexpr (std::is_signed_v<T>)
      return literal(std::uint64_t(std::int64_t(v)));
    else
      return literal(std::uint64_t(v));
  }

  OpCode code_;
  OpFlags flags_;
  bool literal_seen_ = false;
  bool refs_after_literal_ = false;
  Type type_;
  std::uint32_t count_ = 0;
  std::uint32_t ref_count_ = 0;
  const Operand* external_ = nullptr;
#if KILN_IR_CHECKS
  const detail::PoolEpoch* external_epoch_ = nullptr;
  detail::PoolEpoch external_taken_ = 0;
#endif
  Operand inline_[kInlineOperands];
  std::vector<Operand> spill_;
};

// Whether a reference the op's shape requires is null: front ends check this as they emit, so a
// source that could not be read (damaged bytecode) stops the translation instead of leaving a
// hole in the IR. Optional operands ('n' in the shape) may be null, and so may Scoped* markers
// ('k'), which are patched once their construct ends.
namespace detail {
// Whether the null reference `index` of `op` (and any after it) is one its shape requires.
bool null_reference_required(const Op& op, std::uint32_t index);
} // namespace detail
// Inline: the front ends ask for every op they emit, and nearly every op has all its values.
inline bool has_missing_reference(const Op& op) {
  const std::span<const Operand> ops = op.operands();
  for (std::uint32_t i = 0; i < op.ref_count(); ++i)
    if (!ops[i].def()) [[unlikely]]
      return detail::null_reference_required(op, i);
  return false;
}

// Internal record of an op: 24 bytes, indexed by SsaDef id. Operands live in the Builder's
// operand pool; program order is an intrusive doubly-linked list of ids.
struct OpRecord {
  OpCode code = OpCode::Count; // Count = removed / unused id
  std::uint8_t flags = 0;      // OpFlags
  Type type;
  std::uint32_t first_operand = 0;
  std::uint16_t operand_count = 0;
  std::uint16_t ref_count = 0;
  SsaDef prev;
  SsaDef next;
};
static_assert(sizeof(OpRecord) == 24);

// A read-only view of an op stored in a Builder. It holds the builder and the id, not
// pointers into the builder's pools, and looks the op up on every access: a view stays safe
// across calls that grow the pools (add, rewrite_op), and reads what the op holds at the time
// of the access. Spans it returns (operands(), literals()) point into the operand pool and, like
// iterators into a vector, are valid only until the next call that adds or rewrites an op;
// builds with KILN_IR_CHECKS stop at the first use of one kept longer (pool_span.h).
class OpView {
 public:
  OpView() = default;
  OpView(const Builder* builder, SsaDef def) : builder_(builder), def_(def) {}

  explicit operator bool() const { return builder_ != nullptr; }
  SsaDef def() const { return def_; }
  OpCode code() const { return record().code; }
  OpFlags flags() const { return OpFlags(record().flags); }
  Type type() const { return record().type; }
  std::uint32_t operand_count() const { return record().operand_count; }
  std::uint32_t ref_count() const { return record().ref_count; }
  bool is_ref(std::uint32_t i) const { return i < record().ref_count; }
  inline Operand operand(std::uint32_t i) const;
  inline PoolSpan<Operand> operands() const;
  PoolSpan<Operand> literals() const { return operands().subspan(record().ref_count); }
  const OpInfo& info() const { return op_info(record().code); }
  // The op as a value, e.g. to modify and pass to Builder::rewrite_op. It points into the
  // operand pool: pass it to the builder at once (the builder copes with its own pool).
  Op to_op() const { return Op::with_operands(code(), type(), operands(), ref_count(), flags()); }

 private:
  inline const OpRecord& record() const;
  const Builder* builder_ = nullptr;
  SsaDef def_;
};

// Iterates a stretch of the program order. Removing the op an iterator points at is allowed.
class OpIterator {
 public:
  enum class Stop : std::uint8_t { AtEnd, AfterTerminator, AfterFunctionEnd };
  OpIterator() = default;
  OpIterator(const Builder* b, SsaDef cur, SsaDef end, OpCode filter, Stop stop)
      : builder_(b), cur_(cur), end_(end), filter_(filter), stop_(stop),
        every_op_(filter == OpCode::Count && stop == Stop::AtEnd) {
    skip_filtered();
  }
  OpView operator*() const;
  OpIterator& operator++();
  bool operator==(const OpIterator& o) const { return cur_ == o.cur_; }

 private:
  void skip_filtered() {
    if (filter_ != OpCode::Count) skip_filtered_slow();
  }
  void skip_filtered_slow();
  const Builder* builder_ = nullptr;
  SsaDef cur_;
  SsaDef end_;
  OpCode filter_ = OpCode::Count; // Count = every op
  Stop stop_ = Stop::AtEnd;
  // filter_ == Count && stop_ == AtEnd, decided once: tested as one byte, the loop's ++ is not
  // a wide load of the two fields that a by-member copy of the iterator has just stored apart
  // (a store-forwarding stall on every op of every walk).
  bool every_op_ = true;
};

struct OpRange {
  OpIterator first;
  OpIterator last;
  OpIterator begin() const { return first; }
  OpIterator end() const { return last; }
};

// Owns one program: ops, operands, types, the constant table and the use index, all in
// vectors whose capacity survives reset(). One per worker; reset() between shaders.
class Builder {
 public:
  Builder() = default;
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // Forgets the program, keeps the memory.
  void reset();

  // Adds an op. Declarations (EntryPoint, Constant*, Set*, Dcl*, Debug*, Semantic) go to the
  // end of the declaration block; Constant and Undef are deduplicated (the existing id is
  // returned). Every other op goes after the cursor (which then moves to it), or at the end of
  // the program when no cursor is set. Returns null only when the op has more than 65535
  // operands.
  SsaDef add(const Op& op);
  SsaDef add_after(SsaDef ref, const Op& op);
  SsaDef add_before(SsaDef ref, const Op& op);
  // Adds `op` at the end of the program with the given id (parsers, deserializer). Returns
  // null when the id is taken or too large.
  SsaDef add_with_id(SsaDef id, const Op& op);

  // Insertion point for add(): new code goes after `def`. Null = the end of the program.
  void set_cursor(SsaDef def) { cursor_ = def; }
  SsaDef cursor() const { return cursor_; }

  // Replaces the op behind `def` (same id, new contents).
  void rewrite_op(SsaDef def, const Op& op);
  // In-place edits that keep the operand slice: the type, or one operand (a reference stays a
  // reference). Cheaper than rewrite_op for passes that retype or patch many ops.
  void set_type(SsaDef def, Type type) {
    OpRecord& r = record(def);
    r.type = type;
    note(r.code, type);
  }
  void set_operand(SsaDef def, std::uint32_t index, Operand operand) {
    KILN_IR_CHECK(index < record(def).operand_count, "Builder::set_operand past the op's operands");
    operands_[record(def).first_operand + index] = operand;
    uses_valid_ = false;
  }
  // Replaces every use of `old_def` by `new_def`, then removes `old_def`.
  void rewrite_def(SsaDef old_def, SsaDef new_def);
  // Replaces every use of `old_def` by `new_def` and keeps `old_def`. With a current use index
  // (users() called since the last change) this touches only the users; otherwise it scans
  // the program once.
  void replace_uses(SsaDef old_def, SsaDef new_def);
  // Many replacements in one linear pass: every reference to an id `i` with `forward[i]`
  // non-null becomes `forward[i]` (chains are followed). For passes that retire many values
  // (SSA construction): collect, then call this once.
  void replace_uses(std::span<const SsaDef> forward);
  // The same for the references of one op: for passes that walk the program in order and patch
  // each op as they reach it, instead of a walk of their own at the end.
  inline void forward_operands(SsaDef def, std::span<const SsaDef> forward);
  // Unlinks the op; its id is never reused until reset().
  void remove(SsaDef def);

  // O(1) lookups by id.
  bool is_live(SsaDef def) const {
    return def.id() < ops_.size() && ops_[def.id()].code != OpCode::Count && def;
  }
  OpView op(SsaDef def) const { return OpView(this, def); }
  SsaDef first() const { return head_; }
  SsaDef last() const { return tail_; }
  SsaDef next(SsaDef def) const { return record(def).next; }
  SsaDef prev(SsaDef def) const { return record(def).prev; }
  // Number of live ops, and one past the largest id ever handed out.
  std::uint32_t op_count() const { return live_count_; }
  std::uint32_t id_limit() const { return std::uint32_t(ops_.size()); }

  // Iteration.
  OpRange ops() const { return range(head_, SsaDef(), OpCode::Count, OpIterator::Stop::AtEnd); }
  OpRange ops_from(SsaDef def) const {
    return range(def, SsaDef(), OpCode::Count, OpIterator::Stop::AtEnd);
  }
  // The leading declarations, then everything after them.
  OpRange declarations() const;
  OpRange code() const;
  // Every Function op.
  OpRange functions() const {
    return range(head_, SsaDef(), OpCode::Function, OpIterator::Stop::AtEnd);
  }
  // The Labels of a function.
  OpRange blocks(SsaDef function) const {
    return range(function, SsaDef(), OpCode::Label, OpIterator::Stop::AfterFunctionEnd);
  }
  // A block: its Label through its terminator.
  OpRange block(SsaDef label) const {
    return range(label, SsaDef(), OpCode::Count, OpIterator::Stop::AfterTerminator);
  }

  // The ops referencing `def` (one entry per referencing operand), from a use index built on
  // demand in one linear pass and rebuilt after the program changes. The span is valid until
  // the next users() call after a change (the rebuild may move the index).
  PoolSpan<SsaDef> users(SsaDef def);

  TypeTable& types() { return types_; }
  const TypeTable& types() const { return types_; }

  // What the program has held since reset(), removed ops included: whether an op of `code` was
  // added (or rewritten to), and whether a value of Unknown type was (outside declarations).
  // Passes skip themselves when the ops they work on never existed.
  bool ever_added(OpCode code) const {
    const auto i = std::size_t(code);
    return (added_[i / 64] >> (i % 64)) & 1u;
  }
  bool ever_unknown_value() const { return unknown_values_; }
  // Whether an op with trait `T` (the opcode table's Traits column) was added since reset().
  template <OpTraits T>
  bool ever_added_with() const {
    static constexpr auto kMask = opcodes_with<T>();
    std::uint64_t any = 0;
    for (std::size_t i = 0; i < std::size(kMask); ++i) any |= added_[i] & kMask[i];
    return any != 0;
  }

  // Shorthands for constants (deduplicated).
  // A scalar constant of `type` whose literal is `bits` (a 32-bit pattern for types up to 32
  // bits, as Op::Constant stores it): the same id add(Op::Constant(type, ...)) gives, found
  // without building an Op.
  inline SsaDef constant_scalar(Type type, std::uint64_t bits);
  SsaDef constant_u32(std::uint32_t v) { return constant_scalar(kU32, v); }
  SsaDef constant_i32(std::int32_t v) { return constant_scalar(kI32, std::uint32_t(v)); }
  SsaDef constant_f32(float v) { return constant_scalar(kF32, Operand::literal_f32(v).bits()); }
  SsaDef constant_bool(bool v) { return constant_scalar(kBool, std::uint32_t(v)); }

  // Bytes held by every storage of this builder (capacity, not size).
  std::size_t bytes_reserved() const;

 private:
  friend class OpIterator;
  friend class OpView;
  // The record of `def`; KILN_IR_CHECKS builds check the id (an id past every op is a bug in
  // the pass or reader that made it, not something to read past the pool for).
  OpRecord& record(SsaDef def) {
    KILN_IR_CHECK(def.id() < ops_.size(), "IR id past the builder's ops");
    return ops_[def.id()];
  }
  const OpRecord& record(SsaDef def) const {
    KILN_IR_CHECK(def.id() < ops_.size(), "IR id past the builder's ops");
    return ops_[def.id()];
  }
  // Called whenever the operand pool or the use index changes (pool_span.h).
  void operands_changed() {
#if KILN_IR_CHECKS
    ++operand_epoch_;
#endif
  }
  void use_index_changed() {
#if KILN_IR_CHECKS
    ++use_epoch_;
#endif
  }
  OpRange range(SsaDef from, SsaDef to, OpCode filter, OpIterator::Stop stop) const {
    return {OpIterator(this, from, to, filter, stop), OpIterator(this, to, to, filter, stop)};
  }
  SsaDef create(const Op& op); // record + operands, not linked
  SsaDef add_declaration(const Op& op);
  SsaDef create_at(SsaDef id, const Op& op);
  void store_operands(OpRecord& r, const Op& op);
  // Fills a fresh record (operand_count 0, unlinked) with the op; counts it live.
  void fill_record(OpRecord& r, const Op& op);
  void link_after(SsaDef def, SsaDef after); // after null = at the head
  void unlink(SsaDef def);
  bool dedupable(const Op& op) const {
    return op.code() == OpCode::Constant || op.code() == OpCode::Undef;
  }
  std::uint64_t hash_constant(OpCode code, Type type, std::span<const Operand> ops) const;
  SsaDef find_constant(const Op& op, std::uint64_t hash) const;
  SsaDef find_constant(OpCode code, Type type, std::uint8_t flags, std::span<const Operand> want,
                       std::uint64_t hash) const;
  void insert_constant(SsaDef def, std::uint64_t hash);
  void grow_constant_table();
  void build_use_index();
  static constexpr std::size_t kOpcodeWords = (std::size_t(OpCode::Count) + 63) / 64;
  template <OpTraits T>
  static constexpr std::array<std::uint64_t, kOpcodeWords> opcodes_with() {
    std::array<std::uint64_t, kOpcodeWords> mask{};
    for (const OpInfo& info : kOpInfo)
      if (has_trait(info.traits, T))
        mask[std::size_t(info.code) / 64] |= std::uint64_t(1) << (std::size_t(info.code) % 64);
    return mask;
  }
  void note(OpCode code, Type type) {
    const auto i = std::size_t(code);
    added_[i / 64] |= std::uint64_t(1) << (i % 64);
    if (type.is_basic() && type.scalar_type() == ScalarType::Unknown) [[unlikely]]
      unknown_values_ = unknown_values_ || op_info(code).category != OpCategory::Declaration;
  }

  detail::PodBuffer<OpRecord> ops_; // by id; [0] is the null id
  detail::PodBuffer<Operand> operands_;
  TypeTable types_;
  SsaDef head_, tail_, cursor_;
  SsaDef decl_tail_; // last op of the leading declaration block
  std::uint32_t live_count_ = 0;

  // hash high bits << 32 | id, 0 = empty; active size constant_mask_ + 1
  std::vector<std::uint64_t> constant_table_;
  std::size_t constant_mask_ = 0;
  std::size_t constant_used_ = 0;
  std::vector<SsaDef> constant_ids_; // every id inserted since reset(), for grow_constant_table
  // constant_scalar's direct-mapped cache of recent 32-bit constants in front of the table (a
  // front end asks for the same few constants all the time). Entries are stamped with the
  // builder's generation, bumped by reset(), so nothing is cleared per shader.
  struct RecentConstant {
    std::uint64_t key = 0; // type bits << 32 | value bits
    std::uint32_t id = 0;
    std::uint32_t generation = 0;
  };
  static constexpr unsigned kRecentConstantBits = 8;
  RecentConstant recent_constants_[1u << kRecentConstantBits];
  std::uint32_t generation_ = 1;
  SsaDef constant_scalar_slow(Type type, std::uint64_t bits);

  std::uint64_t added_[kOpcodeWords] = {};
  bool unknown_values_ = false;

  bool uses_valid_ = false;
  std::vector<std::uint32_t> use_offsets_; // CSR: users of id i are use_list_[off[i]..off[i+1])
  std::vector<SsaDef> use_list_;
#if KILN_IR_CHECKS
  detail::PoolEpoch operand_epoch_ = 0;
  detail::PoolEpoch use_epoch_ = 0;
#endif
};

inline const OpRecord& OpView::record() const {
  return builder_->record(def_);
}
inline Operand OpView::operand(std::uint32_t i) const {
  KILN_IR_CHECK(i < record().operand_count, "OpView::operand past the op's operands");
  return builder_->operands_[record().first_operand + i];
}
inline PoolSpan<Operand> OpView::operands() const {
  const OpRecord& r = record();
  std::span<const Operand> view(builder_->operands_.data() + r.first_operand, r.operand_count);
#if KILN_IR_CHECKS
  return PoolSpan<Operand>(view, &builder_->operand_epoch_);
#else
  return view;
#endif
}

inline OpView OpIterator::operator*() const {
  return builder_->op(cur_);
}

inline void OpIterator::skip_filtered_slow() {
  while (cur_ != end_ && builder_->ops_[cur_.id()].code != filter_) {
    OpCode code = builder_->ops_[cur_.id()].code;
    if (stop_ == Stop::AfterFunctionEnd && code == OpCode::FunctionEnd) {
      cur_ = end_;
      return;
    }
    cur_ = builder_->ops_[cur_.id()].next;
  }
}

inline OpIterator& OpIterator::operator++() {
  const OpRecord& r = builder_->ops_[cur_.id()];
  if (every_op_) [[likely]] {
    cur_ = r.next;
    return *this;
  }
  bool stop =
      (stop_ == Stop::AfterTerminator && op_info(r.code).category == OpCategory::Terminator) ||
      (stop_ == Stop::AfterFunctionEnd && r.code == OpCode::FunctionEnd);
  cur_ = stop ? end_ : r.next;
  skip_filtered();
  return *this;
}

// ---- inline hot path ---------------------------------------------------------------------

inline void Builder::store_operands(OpRecord& r, const Op& op) {
  auto src = op.operands();
  if (src.size() <= r.operand_count && r.operand_count) {
    // Reuse the op's old slice when the new operands fit.
    std::copy(src.begin(), src.end(), operands_.data() + r.first_operand);
  } else if (operands_.size() + src.size() <= operands_.capacity()) [[likely]] {
    // The pool does not grow, so `src` stays where it is even if it lives in the pool; the new
    // slice starts past every existing one, so the two never overlap.
    r.first_operand = std::uint32_t(operands_.size());
    Operand* dst = operands_.append(src.size());
    if (src.size() <= 4) [[likely]] { // most ops: a call to memcpy would cost more than the copy
      for (std::size_t i = 0; i < src.size(); ++i) dst[i] = src[i];
    } else {
      std::memcpy(static_cast<void*>(dst), src.data(), src.size() * sizeof(Operand));
    }
  } else {
    // `src` may live in this pool (an OpView's operands re-added): find it again after the
    // pool grows.
    const Operand* from = src.data();
    bool inside = from >= operands_.data() && from < operands_.data() + operands_.size();
    std::size_t inside_at = inside ? std::size_t(from - operands_.data()) : 0;
    r.first_operand = std::uint32_t(operands_.size());
    Operand* dst = operands_.append(src.size());
    if (inside) from = operands_.data() + inside_at;
    for (std::size_t i = 0; i < src.size(); ++i) dst[i] = from[i];
  }
  r.operand_count = std::uint16_t(src.size());
  operands_changed();
  // A reference pushed after a literal is stored as a literal: the split no longer matches
  // the shape and the validator reports it ("literals last").
  r.ref_count = std::uint16_t(op.ref_count_);
}

inline SsaDef Builder::create(const Op& op) {
  if (op.operand_count() > 0xffffu) return SsaDef();
  if (ops_.empty()) *ops_.append(1) = OpRecord();
  SsaDef id(std::uint32_t(ops_.size()));
  OpRecord& r = *ops_.append(1);
  r.operand_count = 0;
  r.prev = r.next = SsaDef();
  fill_record(r, op);
  return id;
}

inline void Builder::fill_record(OpRecord& r, const Op& op) {
  r.code = op.code();
  r.flags = std::uint8_t(op.flags());
  r.type = op.type();
  note(r.code, r.type);
  store_operands(r, op);
  ++live_count_;
  uses_valid_ = false;
}

inline void Builder::link_after(SsaDef def, SsaDef after) {
  OpRecord& r = ops_[def.id()];
  r.prev = after;
  r.next = after ? record(after).next : head_;
  if (r.next)
    ops_[r.next.id()].prev = def;
  else
    tail_ = def;
  if (after)
    ops_[after.id()].next = def;
  else
    head_ = def;
}

inline void Builder::forward_operands(SsaDef def, std::span<const SsaDef> forward) {
  const OpRecord& r = ops_[def.id()];
  Operand* ops = operands_.data() + r.first_operand;
  const std::size_t n = forward.size();
  for (std::uint32_t i = 0; i < r.ref_count; ++i) {
    SsaDef target = ops[i].def();
    if (target.id() >= n || !forward[target.id()]) continue;
    // Follow chains (a -> b -> c); the bound stops a cycle from hanging.
    for (std::size_t hops = 0; hops < n && target.id() < n && forward[target.id()]; ++hops)
      target = forward[target.id()];
    ops[i] = Operand(target);
  }
  uses_valid_ = false;
}

inline SsaDef Builder::constant_scalar(Type type, std::uint64_t bits) {
  if (bits > 0xffffffffu) return constant_scalar_slow(type, bits);
  const std::uint64_t key = std::uint64_t(type.bits()) << 32 | bits;
  RecentConstant& recent =
      recent_constants_[(key * 0x9e3779b97f4a7c15ull) >> (64 - kRecentConstantBits)];
  if (recent.key == key && recent.generation == generation_) {
    // Still that constant (the id may have been removed since, or reused by add_with_id).
    const OpRecord& r = ops_[recent.id];
    if (r.code == OpCode::Constant && r.type == type && r.operand_count == 1 &&
        operands_[r.first_operand].bits() == bits)
      return SsaDef(recent.id);
  }
  const SsaDef def = constant_scalar_slow(type, bits);
  recent = {key, def.id(), generation_};
  return def;
}

inline SsaDef Builder::add(const Op& op) {
  if (is_declarative(op_info(op.code()).category)) return add_declaration(op);
  SsaDef def = create(op);
  if (!def) return def;
  link_after(def, cursor_ ? cursor_ : tail_);
  if (cursor_) cursor_ = def;
  return def;
}

} // namespace kiln::ir
