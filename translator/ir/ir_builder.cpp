#include "translator/ir/ir.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kiln::ir {

void detail::ir_check_failed(const char* what) {
  std::fprintf(stderr, "kiln: IR check failed: %s\n", what);
  std::abort();
}

// ---- strings -------------------------------------------------------------------------------

void pack_string(std::string_view s, Operand* out) {
  std::size_t n = string_literal_count(s);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits = 0;
    for (std::size_t j = 0; j < 8; ++j) {
      std::size_t k = i * 8 + j;
      if (k < s.size()) bits |= std::uint64_t(std::uint8_t(s[k])) << (8 * j);
    }
    out[i] = Operand::literal(bits);
  }
}

std::size_t unpack_string(std::span<const Operand> literals, char* out, std::size_t capacity) {
  std::size_t n = 0;
  for (Operand o : literals) {
    for (std::size_t j = 0; j < 8; ++j) {
      char c = char((o.bits() >> (8 * j)) & 0xff);
      if (c == '\0') return n;
      if (n < capacity) out[n] = c;
      ++n;
    }
  }
  return n;
}

// ---- Op ------------------------------------------------------------------------------------

Op Op::with_operands(OpCode code, Type type, PoolSpan<Operand> operands, std::uint32_t ref_count,
                     OpFlags flags) {
  Op op(code, type, flags);
  op.external_ = operands.data();
#if KILN_IR_CHECKS
  op.external_epoch_ = operands.epoch();
  op.external_taken_ = operands.taken();
#endif
  op.count_ = std::uint32_t(operands.size());
  op.ref_count_ = std::min<std::uint32_t>(ref_count, op.count_);
  op.literal_seen_ = op.ref_count_ < op.count_;
  return op;
}

Op& Op::push_operand_slow(Operand o, bool is_ref) {
  if (spill_.empty()) spill_.assign(data(), data() + count_);
  external_ = nullptr;
  spill_.push_back(o);
  ++count_;
  if (is_ref) {
    if (literal_seen_)
      refs_after_literal_ = true;
    else
      ref_count_ = count_;
  } else {
    literal_seen_ = true;
  }
  return *this;
}

Op& Op::string(std::string_view s) {
  std::size_t n = string_literal_count(s);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits = 0;
    for (std::size_t j = 0; j < 8 && i * 8 + j < s.size(); ++j)
      bits |= std::uint64_t(std::uint8_t(s[i * 8 + j])) << (8 * j);
    push_operand(Operand::literal(bits), false);
  }
  return *this;
}

Op& Op::set_operand(std::uint32_t i, Operand o) {
  KILN_IR_CHECK(i < count_, "Op::set_operand past the op's operands");
  if (external_) {
    // Copied out of the caller's storage: inline when it fits (no allocation), else spilled.
    const Operand* from = data();
    if (count_ <= kInlineOperands)
      std::copy(from, from + count_, inline_);
    else
      spill_.assign(from, from + count_);
    external_ = nullptr;
  }
  (spill_.empty() ? inline_ : spill_.data())[i] = o;
  return *this;
}

bool detail::null_reference_required(const Op& op, std::uint32_t index) {
  for (std::uint32_t i = index; i < op.ref_count(); ++i)
    if (!op.operand(i).def()) {
      char letter = operand_letter(op.code(), i, op.ref_count());
      if (letter != 'n' && letter != 'k') return true;
    }
  return false;
}

// ---- iteration -----------------------------------------------------------------------------

OpRange Builder::declarations() const {
  if (!decl_tail_) return range(SsaDef(), SsaDef(), OpCode::Count, OpIterator::Stop::AtEnd);
  return range(head_, ops_[decl_tail_.id()].next, OpCode::Count, OpIterator::Stop::AtEnd);
}

OpRange Builder::code() const {
  SsaDef from = decl_tail_ ? ops_[decl_tail_.id()].next : head_;
  return range(from, SsaDef(), OpCode::Count, OpIterator::Stop::AtEnd);
}

// ---- storage -------------------------------------------------------------------------------

void Builder::reset() {
  ops_.clear();
  *ops_.append(1) = OpRecord(); // the null id
  operands_.clear();
  types_.reset();
  head_ = tail_ = cursor_ = decl_tail_ = SsaDef();
  live_count_ = 0;
  constant_mask_ = 0;
  constant_used_ = 0;
  constant_ids_.clear();
  if (++generation_ == 0) { // wrapped: old stamps could match again
    for (RecentConstant& c : recent_constants_) c = RecentConstant();
    generation_ = 1;
  }
  std::fill(std::begin(added_), std::end(added_), 0);
  unknown_values_ = false;
  uses_valid_ = false;
  operands_changed();
  use_index_changed();
}

std::size_t Builder::bytes_reserved() const {
  return ops_.capacity() * sizeof(OpRecord) + operands_.capacity() * sizeof(Operand) +
         types_.bytes_reserved() + constant_table_.capacity() * sizeof(std::uint64_t) +
         constant_ids_.capacity() * sizeof(SsaDef) +
         use_offsets_.capacity() * sizeof(std::uint32_t) + use_list_.capacity() * sizeof(SsaDef);
}

SsaDef Builder::create_at(SsaDef id, const Op& op) {
  if (op.operand_count() > 0xffffu) return SsaDef();
  if (ops_.empty()) *ops_.append(1) = OpRecord();
  if (id.id() >= ops_.size()) ops_.resize(id.id() + 1);
  OpRecord& r = ops_[id.id()];
  r = OpRecord();
  fill_record(r, op);
  return id;
}

void Builder::unlink(SsaDef def) {
  OpRecord& r = ops_[def.id()];
  if (r.prev)
    ops_[r.prev.id()].next = r.next;
  else
    head_ = r.next;
  if (r.next)
    ops_[r.next.id()].prev = r.prev;
  else
    tail_ = r.prev;
  if (decl_tail_ == def) decl_tail_ = r.prev;
  if (cursor_ == def) cursor_ = r.prev;
}

// ---- adding --------------------------------------------------------------------------------

SsaDef Builder::add_declaration(const Op& op) {
  std::uint64_t hash = 0;
  if (dedupable(op)) {
    hash = hash_constant(op.code(), op.type(), op.operands());
    if (SsaDef found = find_constant(op, hash)) return found;
  }
  SsaDef def = create(op);
  if (!def) return def;
  link_after(def, decl_tail_);
  decl_tail_ = def;
  if (dedupable(op)) insert_constant(def, hash);
  return def;
}

SsaDef Builder::add_after(SsaDef ref, const Op& op) {
  SsaDef def = create(op);
  if (!def) return def;
  link_after(def, ref);
  if (ref && ref == decl_tail_ && is_declarative(op_info(op.code()).category)) decl_tail_ = def;
  return def;
}

SsaDef Builder::add_before(SsaDef ref, const Op& op) {
  SsaDef def = create(op);
  if (!def) return def;
  SsaDef after = ref ? record(ref).prev : tail_;
  link_after(def, after);
  if (is_declarative(op_info(op.code()).category) && after == decl_tail_) decl_tail_ = def;
  return def;
}

SsaDef Builder::add_with_id(SsaDef id, const Op& op) {
  if (!id || id.id() >= 0x7fffffffu) return SsaDef();
  if (id.id() < ops_.size() && ops_[id.id()].code != OpCode::Count) return SsaDef();
  if (!create_at(id, op)) return SsaDef();
  link_after(id, tail_);
  if (is_declarative(op_info(op.code()).category) && ops_[id.id()].prev == decl_tail_)
    decl_tail_ = id;
  if (dedupable(op)) {
    std::uint64_t hash = hash_constant(op.code(), op.type(), op.operands());
    if (!find_constant(op, hash)) insert_constant(id, hash);
  }
  return id;
}

// ---- changing ------------------------------------------------------------------------------

void Builder::rewrite_op(SsaDef def, const Op& op) {
  OpRecord& r = record(def);
  // `op` may point into this record's operands (OpView::to_op): copy through a spill first.
  if (op.external_ && op.external_ >= operands_.data() &&
      op.external_ < operands_.data() + operands_.size()) {
    Op copy = op;
    copy.spill_.assign(op.external_, op.external_ + op.count_);
    copy.external_ = nullptr;
    rewrite_op(def, copy);
    return;
  }
  r.code = op.code();
  r.flags = std::uint8_t(op.flags());
  r.type = op.type();
  note(r.code, r.type);
  store_operands(r, op);
  uses_valid_ = false;
}

void Builder::replace_uses(SsaDef old_def, SsaDef new_def) {
  auto patch = [&](SsaDef user) {
    OpRecord& r = ops_[user.id()];
    Operand* ops = operands_.data() + r.first_operand;
    for (std::uint32_t i = 0; i < r.ref_count; ++i)
      if (ops[i].def() == old_def) ops[i] = Operand(new_def);
  };
  if (uses_valid_) {
    for (SsaDef user : users(old_def)) patch(user);
  } else {
    for (SsaDef d = head_; d; d = ops_[d.id()].next) patch(d);
  }
  uses_valid_ = false;
}

void Builder::rewrite_def(SsaDef old_def, SsaDef new_def) {
  replace_uses(old_def, new_def);
  remove(old_def);
}

void Builder::replace_uses(std::span<const SsaDef> forward) {
  for (SsaDef d = head_; d; d = ops_[d.id()].next) forward_operands(d, forward);
}

void Builder::remove(SsaDef def) {
  if (!is_live(def)) return;
  unlink(def);
  ops_[def.id()].code = OpCode::Count;
  --live_count_;
  uses_valid_ = false;
}

// ---- constants -----------------------------------------------------------------------------

std::uint64_t Builder::hash_constant(OpCode code, Type type,
                                     std::span<const Operand> operands) const {
  std::uint64_t h = (std::uint64_t(code) << 32 | type.bits()) * 0x9e3779b97f4a7c15ull;
  for (Operand o : operands) h = (h ^ o.bits()) * 0x100000001b3ull + (h >> 29);
  return h ^ (h >> 31);
}

SsaDef Builder::find_constant(OpCode code, Type type, std::uint8_t flags,
                              std::span<const Operand> want, std::uint64_t hash) const {
  if (!constant_mask_) return SsaDef();
  std::size_t slot = hash & constant_mask_;
  std::uint64_t tag = hash & 0xffffffff00000000ull;
  while (std::uint64_t entry = constant_table_[slot]) {
    if ((entry & 0xffffffff00000000ull) == tag) {
      const OpRecord& r = ops_[std::uint32_t(entry)];
      if (r.code == code && r.type == type && r.operand_count == want.size() && r.flags == flags &&
          std::equal(want.begin(), want.end(), operands_.data() + r.first_operand))
        return SsaDef(std::uint32_t(entry));
    }
    slot = (slot + 1) & constant_mask_;
  }
  return SsaDef();
}

SsaDef Builder::find_constant(const Op& op, std::uint64_t hash) const {
  return find_constant(op.code(), op.type(), std::uint8_t(op.flags()), op.operands(), hash);
}

SsaDef Builder::constant_scalar_slow(Type type, std::uint64_t bits) {
  const Operand value = Operand::literal(bits);
  const std::span<const Operand> operands(&value, 1);
  const std::uint64_t hash = hash_constant(OpCode::Constant, type, operands);
  if (SsaDef found = find_constant(OpCode::Constant, type, 0, operands, hash)) return found;
  // Not there: made as add() would (hashing again is the rare case's cost).
  return add_declaration(Op::with_operands(OpCode::Constant, type, operands, 0));
}

void Builder::grow_constant_table() {
  // Sized by every constant ever inserted, not by the count the table kept: add_with_id (the
  // binary reader) may add identical constants, which the table held once but this re-inserts
  // each. A table no more than half full keeps every probe short and always ends. Removed ids
  // are skipped; the list, not the program, is walked.
  std::size_t size = constant_mask_ ? (constant_mask_ + 1) * 2 : 64;
  while (size < 2 * (constant_ids_.size() + 1)) size *= 2;
  constant_table_.assign(size, 0);
  constant_mask_ = size - 1;
  constant_used_ = 0;
  for (SsaDef d : constant_ids_) {
    const OpRecord& r = ops_[d.id()];
    if (r.code != OpCode::Constant && r.code != OpCode::Undef) continue;
    std::uint64_t h =
        hash_constant(r.code, r.type, {operands_.data() + r.first_operand, r.operand_count});
    std::size_t slot = h & constant_mask_;
    while (constant_table_[slot]) slot = (slot + 1) & constant_mask_;
    constant_table_[slot] = (h & 0xffffffff00000000ull) | d.id();
    ++constant_used_;
  }
}

void Builder::insert_constant(SsaDef def, std::uint64_t hash) {
  constant_ids_.push_back(def);
  if (!constant_mask_ || (constant_used_ + 1) * 2 > constant_mask_ + 1) {
    grow_constant_table(); // re-inserts every live constant, `def` included
    return;
  }
  std::size_t slot = hash & constant_mask_;
  while (constant_table_[slot]) slot = (slot + 1) & constant_mask_;
  constant_table_[slot] = (hash & 0xffffffff00000000ull) | def.id();
  ++constant_used_;
}

// ---- users ---------------------------------------------------------------------------------

void Builder::build_use_index() {
  std::size_t n = ops_.size();
  use_offsets_.assign(n + 1, 0);
  for (SsaDef d = head_; d; d = ops_[d.id()].next) {
    const OpRecord& r = ops_[d.id()];
    const Operand* ops = operands_.data() + r.first_operand;
    for (std::uint32_t i = 0; i < r.ref_count; ++i) {
      std::uint32_t target = ops[i].def().id();
      if (target && target < n) ++use_offsets_[target + 1];
    }
  }
  for (std::size_t i = 1; i <= n; ++i) use_offsets_[i] += use_offsets_[i - 1];
  use_list_.resize(use_offsets_[n]);
  // Fill using the offsets as cursors, then shift them back.
  for (SsaDef d = head_; d; d = ops_[d.id()].next) {
    const OpRecord& r = ops_[d.id()];
    const Operand* ops = operands_.data() + r.first_operand;
    for (std::uint32_t i = 0; i < r.ref_count; ++i) {
      std::uint32_t target = ops[i].def().id();
      if (target && target < n) use_list_[use_offsets_[target]++] = d;
    }
  }
  for (std::size_t i = n; i > 0; --i) use_offsets_[i] = use_offsets_[i - 1];
  use_offsets_[0] = 0;
  uses_valid_ = true;
  use_index_changed();
}

PoolSpan<SsaDef> Builder::users(SsaDef def) {
  if (!uses_valid_) build_use_index();
  if (def.id() + 1 >= use_offsets_.size()) return {};
  std::span<const SsaDef> view(use_list_.data() + use_offsets_[def.id()],
                               use_list_.data() + use_offsets_[def.id() + 1]);
#if KILN_IR_CHECKS
  return PoolSpan<SsaDef>(view, &use_epoch_);
#else
  return view;
#endif
}

} // namespace kiln::ir
