#pragma once
// Per-op views generated from the roles table (ir_operand_roles.h): an op's operands by name.
//
//   ir::ops::ImageSample s(b.op(def));
//   ir::SsaDef lod = s.lod_index().def();     // rather than op.operand(5)
//   for (ir::Operand block : ir::ops::Phi(phi).block()) ...
//
// Each role's position is a constant of the view type, so an accessor compiles to the same
// load as OpView::operand(N). A fixed reference or literal returns its Operand; a role of a
// `[..]` group returns the operands it takes in every repetition (RepeatedOperand); a `#` or
// `$` tail returns its literals. Literal indexes into an op's operands belong here and nowhere
// else (tests/translator/ir/operand_index_test.cpp holds the source tree to it).
//
// A view may also read a role of an op of another code whose roles up to that one are the
// view's, at the same places (ImageComputeLod's descriptor and sampler are ImageSample's and
// ImageGather's): a handler shared by such ops reads them through one view. Builds with
// KILN_IR_CHECKS stop at an accessor that reads an op without that role at that place.

#include "translator/ir/ir.h"
#include "translator/ir/ir_operand_roles.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kiln::ir {
namespace detail {

enum class RoleKind : std::uint8_t {
  Reference,   // a fixed reference: operand `index`
  Repeated,    // a member of the `[..]` group: operands index, index + stride, ... (refs only)
  Literal,     // a fixed literal: literal `index` (after every reference)
  LiteralTail, // a `#` or `$` tail: literals from `index` on
};

struct RolePlace {
  RoleKind kind;
  std::uint32_t index;
  std::uint32_t stride; // Repeated: the group's size
  std::uint32_t refs;   // the fixed reference count: where literals start without a group
  bool literals_move;   // the op has a group: literals start at the op's ref_count()
};

// Where role `position` (its place in the role list) of `code` sits among the operands.
constexpr RolePlace role_place(OpCode code, std::size_t position) {
  const OpShape s = op_shape(code);
  const auto fixed = std::uint32_t(s.fixed_refs.size());
  const auto group = std::uint32_t(s.ref_group.size());
  const bool moves = group != 0;
  if (position < fixed) return {RoleKind::Reference, std::uint32_t(position), 0, fixed, moves};
  if (position < fixed + group)
    return {RoleKind::Repeated, std::uint32_t(position), group, fixed, moves};
  const auto j = std::uint32_t(position - fixed - group);
  const char letter = s.literals[j];
  const RoleKind kind = letter == '#' || letter == '$' ? RoleKind::LiteralTail : RoleKind::Literal;
  return {kind, j, 0, fixed, moves};
}

// The place of `role` in the role list of `code`; the role count when it has no such role (a
// compile error where a view asks for it).
constexpr std::size_t role_position(OpCode code, std::string_view role) {
  const std::string_view roles = operand_roles(code);
  const std::size_t n = role_count(roles);
  for (std::size_t i = 0; i < n; ++i)
    if (role_name(roles, i) == role) return i;
  return n;
}

// Whether two places name the same operand: a fixed reference by its index alone; the others
// by where the group or the literals start too.
constexpr bool same_operand(const RolePlace& a, const RolePlace& b) {
  if (a.kind != b.kind || a.index != b.index) return false;
  return a.kind == RoleKind::Reference ||
         (a.stride == b.stride && a.refs == b.refs && a.literals_move == b.literals_move);
}

// Whether role `position` of a view made for `view` reads `actual` right: the same op, or one
// with the same roles up to this one and this one at the same place.
constexpr bool role_fits(OpCode view, std::size_t position, OpCode actual) {
  if (view == actual) return true;
  const std::string_view vr = operand_roles(view), ar = operand_roles(actual);
  if (role_count(ar) <= position) return false;
  for (std::size_t i = 0; i <= position; ++i)
    if (role_name(vr, i) != role_name(ar, i)) return false;
  return same_operand(role_place(view, position), role_place(actual, position));
}

} // namespace detail

// The operands a role of a `[..]` group takes, one per repetition (Phi's blocks, a Switch's case
// values). Valid, like OpView::operands(), until the builder next adds or rewrites an op.
class RepeatedOperand {
 public:
  // `refs`: the op's references; the group starts at `group` and this role is member `member`.
  RepeatedOperand(PoolSpan<Operand> refs, std::uint32_t group, std::uint32_t member,
                  std::uint32_t stride)
      : refs_(refs), first_(group + member), stride_(stride),
        size_(refs.size() > group ? (refs.size() - group) / stride : 0) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size() == 0; }
  Operand operator[](std::size_t i) const { return refs_[first_ + i * stride_]; }

  class iterator {
   public:
    iterator(const RepeatedOperand* r, std::size_t i) : r_(r), i_(i) {}
    Operand operator*() const { return (*r_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const RepeatedOperand* r_;
    std::size_t i_;
  };
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, size()); }

 private:
  PoolSpan<Operand> refs_;
  std::uint32_t first_;
  std::uint32_t stride_;
  std::size_t size_;
};

namespace detail {

// Called only where index_of asks for a role without a fixed index, which makes the call not a
// constant expression: the error names this function.
std::uint32_t role_without_fixed_index();

// What every generated view is: an OpView and the accessor by role place.
template <OpCode Code>
class OpViewOf {
 public:
  static constexpr OpCode kCode = Code;

  explicit OpViewOf(OpView op) : op_(op) {}
  OpView op() const { return op_; }

  // The operand index of a fixed role, for the few places that edit an op in place
  // (Builder::set_operand, Op::set_operand). Not a constant expression for other roles.
  static consteval std::uint32_t index_of(std::string_view role) {
    const RolePlace p = role_place(Code, role_position(Code, role));
    if (p.kind == RoleKind::Reference) return p.index;
    if (p.kind == RoleKind::Literal && !p.literals_move) return p.refs + p.index;
    return role_without_fixed_index(); // not constexpr: a compile error here
  }

 protected:
  template <std::size_t Position>
  auto role_at() const {
    static_assert(Position < role_count(operand_roles(Code)));
    constexpr RolePlace p = role_place(Code, Position);
    KILN_IR_CHECK(role_fits(Code, Position, op_.code()),
                  "an ir::ops view read a role the op does not have at that place");
    if constexpr (p.kind == RoleKind::Reference) {
      return op_.operand(p.index);
    } else if constexpr (p.kind == RoleKind::Repeated) {
      return RepeatedOperand(op_.operands().subspan(0, op_.ref_count()), p.refs, p.index - p.refs,
                             p.stride);
    } else if constexpr (p.kind == RoleKind::Literal) {
      if constexpr (p.literals_move)
        return op_.operand(op_.ref_count() + p.index);
      else
        return op_.operand(p.refs + p.index);
    } else {
      return op_.literals().subspan(p.index);
    }
  }

 private:
  OpView op_;
};

} // namespace detail

// KILN_IR_FOR_EACH(m, a, b, c) expands to m(a) m(b) m(c) (up to 27 arguments).
#define KILN_IR_PARENS ()
#define KILN_IR_EXPAND(...) KILN_IR_EXPAND3(KILN_IR_EXPAND3(KILN_IR_EXPAND3(__VA_ARGS__)))
#define KILN_IR_EXPAND3(...) KILN_IR_EXPAND2(KILN_IR_EXPAND2(KILN_IR_EXPAND2(__VA_ARGS__)))
#define KILN_IR_EXPAND2(...) KILN_IR_EXPAND1(KILN_IR_EXPAND1(KILN_IR_EXPAND1(__VA_ARGS__)))
#define KILN_IR_EXPAND1(...) __VA_ARGS__
#define KILN_IR_FOR_EACH(m, ...) __VA_OPT__(KILN_IR_EXPAND(KILN_IR_FOR_EACH_STEP(m, __VA_ARGS__)))
#define KILN_IR_FOR_EACH_STEP(m, first, ...)                                                       \
  m(first) __VA_OPT__(KILN_IR_FOR_EACH_AGAIN KILN_IR_PARENS(m, __VA_ARGS__))
#define KILN_IR_FOR_EACH_AGAIN() KILN_IR_FOR_EACH_STEP

// One view per op: ir::ops::<Name>, with one accessor per role.
namespace ops {
#define KILN_IR_ROLE_ACCESSOR(role)                                                                \
  auto role() const {                                                                              \
    return this->template role_at<::kiln::ir::detail::role_position(kCode, #role)>();              \
  }
#define KILN_X(name, ...)                                                                          \
  class name : public ::kiln::ir::detail::OpViewOf<OpCode::name> {                                 \
   public:                                                                                         \
    using OpViewOf::OpViewOf;                                                                      \
    KILN_IR_FOR_EACH(KILN_IR_ROLE_ACCESSOR, __VA_ARGS__)                                           \
  };
KILN_IR_OPERAND_ROLES(KILN_X)
#undef KILN_X
#undef KILN_IR_ROLE_ACCESSOR
} // namespace ops

} // namespace kiln::ir
