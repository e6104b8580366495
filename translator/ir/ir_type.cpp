#include "translator/ir/ir_type.h"

namespace kiln::ir {

namespace {
constexpr std::uint32_t kAggregateBit = 0x80000000u;
constexpr std::size_t kFirstTableSize = 16;
} // namespace

std::uint32_t TypeTable::hash_words(std::span<const std::uint32_t> words) const {
  std::uint32_t h = 2166136261u;
  for (std::uint32_t w : words) h = (h ^ w) * 16777619u;
  return h ^ (h >> 15);
}

bool TypeTable::equal_words(std::uint32_t offset, std::span<const std::uint32_t> words) const {
  if (offset + words.size() > words_.size()) return false;
  for (std::size_t i = 0; i < words.size(); ++i)
    if (words_[offset + i] != words[i]) return false;
  return true;
}

void TypeTable::grow_table() {
  std::size_t size = table_mask_ ? (table_mask_ + 1) * 2 : kFirstTableSize;
  table_.assign(size, 0);
  table_mask_ = size - 1;
  // Re-insert every aggregate by walking the word storage.
  std::size_t offset = 0;
  while (offset < words_.size()) {
    std::uint32_t header = words_[offset];
    std::size_t len = 1 + (header & 3u) + (header >> 2);
    std::size_t slot = hash_words({words_.data() + offset, len}) & table_mask_;
    while (table_[slot]) slot = (slot + 1) & table_mask_;
    table_[slot] = std::uint32_t(offset + 1);
    offset += len;
  }
}

Type TypeTable::make(std::span<const std::uint32_t> dims, std::span<const Type> members, bool* ok) {
  if (ok) *ok = true;
  auto invalid = [&] { // not a type: *ok says so
    if (ok) *ok = false;
    return Type();
  };
  if (dims.size() > TypeView::kMaxDims || members.size() > TypeView::kMaxMembers) return invalid();
  for (Type m : members)
    if (!m.is_basic()) return invalid();
  if (members.empty()) return dims.empty() ? Type() : invalid();
  if (dims.empty() && members.size() == 1) return members[0];
  // Only the outermost (last) dimension may be unbounded.
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    if (dims[i] == 0) return invalid();

  scratch_.clear();
  scratch_.push_back(std::uint32_t(dims.size()) | std::uint32_t(members.size()) << 2);
  for (std::uint32_t d : dims) scratch_.push_back(d);
  for (Type m : members) scratch_.push_back(m.member_field());

  if (table_used_ * 2 >= table_mask_ + 1 || !table_mask_) grow_table();
  std::size_t slot = hash_words(scratch_) & table_mask_;
  while (std::uint32_t entry = table_[slot]) {
    if (equal_words(entry - 1, scratch_)) return Type::from_bits(kAggregateBit | (entry - 1));
    slot = (slot + 1) & table_mask_;
  }
  std::uint32_t offset = std::uint32_t(words_.size());
  words_.insert(words_.end(), scratch_.begin(), scratch_.end());
  table_[slot] = offset + 1;
  ++table_used_;
  return Type::from_bits(kAggregateBit | offset);
}

Type TypeTable::make_array(Type element, std::uint32_t size, bool* ok) {
  TypeView v = view(element);
  if (v.dim_count >= TypeView::kMaxDims || v.member_count() == 0 || v.is_unbounded()) {
    if (ok) *ok = false;
    return Type();
  }
  std::uint32_t dims[TypeView::kMaxDims];
  for (unsigned i = 0; i < v.dim_count; ++i) dims[i] = v.dims[i];
  dims[v.dim_count] = size;
  Type members[TypeView::kMaxMembers];
  for (unsigned i = 0; i < v.member_count(); ++i) members[i] = v.member(i);
  return make({dims, v.dim_count + 1u}, {members, v.member_count()}, ok);
}

Type TypeTable::element_type(Type array) {
  TypeView v = view(array);
  if (v.dim_count == 0) return Type();
  Type members[TypeView::kMaxMembers];
  for (unsigned i = 0; i < v.member_count(); ++i) members[i] = v.member(i);
  return make({v.dims, v.dim_count - 1u}, {members, v.member_count()});
}

TypeView TypeTable::view(Type type) const {
  TypeView v;
  if (type.is_void()) return v;
  if (type.is_basic()) {
    v.single_member = type;
    // member_fields must point at stable storage: the handle's low bits are the field.
    static constexpr std::uint32_t kFields[128] = {
#define KILN_F4(b) b, b + 1, b + 2, b + 3
#define KILN_F16(b) KILN_F4(b), KILN_F4(b + 4), KILN_F4(b + 8), KILN_F4(b + 12)
        KILN_F16(0),  KILN_F16(16), KILN_F16(32), KILN_F16(48), KILN_F16(64),
        KILN_F16(80), KILN_F16(96), KILN_F16(112)
#undef KILN_F16
#undef KILN_F4
    };
    v.member_fields = {&kFields[type.member_field()], 1};
    return v;
  }
  std::uint32_t offset = type.aggregate_offset();
  if (offset >= words_.size()) return v;
  std::uint32_t header = words_[offset];
  // A handle from another table can point anywhere: never read past the words.
  if (std::size_t(offset) + 1 + (header & 3u) + (header >> 2) > words_.size()) return v;
  v.dim_count = header & 3u;
  for (unsigned i = 0; i < v.dim_count; ++i) v.dims[i] = words_[offset + 1 + i];
  v.member_fields = {words_.data() + offset + 1 + v.dim_count, header >> 2};
  return v;
}

std::uint64_t TypeTable::flattened_scalar_count(Type type) const {
  TypeView v = view(type);
  std::uint64_t per_element = 0;
  for (unsigned i = 0; i < v.member_count(); ++i) per_element += v.member(i).vector_size();
  std::uint64_t n = per_element;
  for (unsigned i = 0; i < v.dim_count; ++i) {
    n *= v.dims[i];
    if (n > (std::uint64_t(1) << 40)) return std::uint64_t(1) << 40;
  }
  return n;
}

ScalarType TypeTable::flattened_scalar(Type type, std::uint64_t index) const {
  TypeView v = view(type);
  std::uint64_t per_element = 0;
  for (unsigned i = 0; i < v.member_count(); ++i) per_element += v.member(i).vector_size();
  if (per_element == 0) return ScalarType::Unknown;
  std::uint64_t j = index % per_element;
  for (unsigned i = 0; i < v.member_count(); ++i) {
    unsigned n = v.member(i).vector_size();
    if (j < n) return v.member(i).scalar_type();
    j -= n;
  }
  return ScalarType::Unknown;
}

void TypeTable::reset() {
  words_.clear();
  table_used_ = 0;
  table_mask_ = 0;
}

std::size_t TypeTable::bytes_reserved() const {
  return (words_.capacity() + table_.capacity() + scratch_.capacity()) * sizeof(std::uint32_t);
}

} // namespace kiln::ir
