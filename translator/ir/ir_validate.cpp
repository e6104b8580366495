#include "translator/ir/ir_validate.h"

#include "translator/ir/ir_text.h"

#include <string>
#include <vector>

namespace kiln::ir {

namespace {

bool is_dcl(OpCode c) {
  return op_name(c).starts_with("Dcl");
}

bool return_type_ok(const TypeTable& types, ReturnClass rc, Type t) {
  auto all_members = [&](auto pred) {
    if (!t.is_basic()) return false;
    return pred(t.scalar_type()) || t.scalar_type() == ScalarType::Unknown;
  };
  switch (rc) {
  case ReturnClass::Any:
    return true;
  case ReturnClass::Void:
    return t.is_void();
  case ReturnClass::Bool:
    return t == kBool;
  case ReturnClass::Float:
    return all_members([](ScalarType s) { return is_float(s); });
  case ReturnClass::Int:
    return all_members([](ScalarType s) { return is_integer(s); });
  case ReturnClass::Scalar:
    return t.is_scalar();
  case ReturnClass::U32:
    return t == kU32;
  case ReturnClass::F32:
    return t.is_basic() && t.scalar_type() == ScalarType::F32;
  case ReturnClass::Vec2F32:
    return t == vec(ScalarType::F32, 2);
  case ReturnClass::Vec2U32:
    return t == vec(ScalarType::U32, 2);
  case ReturnClass::Vec2I32:
    return t == vec(ScalarType::I32, 2);
  case ReturnClass::VoidOrScalar:
    return t.is_void() || t.is_scalar();
  case ReturnClass::Composite:
    return t.is_vector() || (t.is_aggregate() && types.view(t).member_count() > 0);
  }
  return false;
}

const char* return_class_text(ReturnClass rc) {
  switch (rc) {
  case ReturnClass::Any:
    return "any type";
  case ReturnClass::Void:
    return "void";
  case ReturnClass::Bool:
    return "bool";
  case ReturnClass::Float:
    return "a float scalar or vector";
  case ReturnClass::Int:
    return "an integer scalar or vector";
  case ReturnClass::Scalar:
    return "a scalar";
  case ReturnClass::U32:
    return "u32";
  case ReturnClass::F32:
    return "f32 or an f32 vector";
  case ReturnClass::Vec2F32:
    return "vec2<f32>";
  case ReturnClass::Vec2U32:
    return "vec2<u32>";
  case ReturnClass::Vec2I32:
    return "vec2<i32>";
  case ReturnClass::VoidOrScalar:
    return "void or a scalar";
  case ReturnClass::Composite:
    return "a composite";
  }
  return "?";
}

// What a reference letter requires of the referenced op; null when it fits.
const char* ref_kind_error(char letter, const Builder& b, OpView target) {
  OpCode c = target.code();
  OpCategory cat = target.info().category;
  switch (letter) {
  case 'x':
    return nullptr;
  case 'e':
    return c == OpCode::EntryPoint ? nullptr : "an EntryPoint";
  case 'f':
    return c == OpCode::Function ? nullptr : "a Function";
  case 'l':
    return c == OpCode::Label ? nullptr : "a Label";
  case 'p':
    return c == OpCode::DclParam ? nullptr : "a DclParam";
  case 'v':
    return is_dcl(c) ? nullptr : "a Dcl* declaration";
  case 'i':
    return c == OpCode::DclInput || c == OpCode::DclInputBuiltIn ? nullptr : "a DclInput*";
  case 'o':
    return c == OpCode::DclOutput || c == OpCode::DclOutputBuiltIn ? nullptr : "a DclOutput*";
  case 'q':
    return c == OpCode::DclUav ? nullptr : "a DclUav";
  case 'k':
    return has_trait(c, OpTraits::Scoped) ? nullptr : "a Scoped* op";
  case 'b':
  case 'd':
  case 'n': {
    // A sampler descriptor is void-typed (DclSampler returns void) yet is a value.
    bool value =
        (!target.type().is_void() || c == OpCode::DescriptorLoad) &&
        (cat == OpCategory::Constant || cat == OpCategory::Anywhere || cat == OpCategory::Code);
    if (!value) return "a value (not a declaration or a void op)";
    if (letter == 'b' && target.type() != kBool) return "a bool value";
    (void)b;
    return nullptr;
  }
  default:
    return nullptr;
  }
}

class Validator {
 public:
  explicit Validator(const Builder& b) : b_(b) {}

  // The stage boundary: the first report of check() is the Status.
  Status run() { return errors_.outcome(check()); }

 private:
  bool check() {
    position_.assign(b_.id_limit(), 0);
    std::uint32_t n = 0;
    for (OpView op : b_.ops()) position_[op.def().id()] = ++n;

    bool in_code = false, in_function = false, in_block = false, block_has_non_phi = false;
    std::uint32_t entry_points = 0;
    for (OpView op : b_.ops()) {
      OpCategory cat = op.info().category;
      switch (cat) {
      case OpCategory::Declaration:
      case OpCategory::Constant:
      case OpCategory::Debug:
        if (in_code) return fail(at(op), "declaration after code: declarations must come first");
        if (op.code() == OpCode::EntryPoint && ++entry_points > 1)
          return fail(at(op), "more than one EntryPoint");
        break;
      case OpCategory::Anywhere:
        if (in_code && !in_block) return fail(at(op), "op outside a block");
        break;
      case OpCategory::Function:
        in_code = true;
        if (in_function) return fail(at(op), "Function inside a function (missing FunctionEnd)");
        in_function = true;
        break;
      case OpCategory::FunctionEnd:
        if (!in_function) return fail(at(op), "FunctionEnd outside a function");
        if (in_block) return fail(at(op), "FunctionEnd inside a block (missing terminator)");
        in_function = false;
        break;
      case OpCategory::Label:
        in_code = true;
        if (!in_function) return fail(at(op), "Label outside a function");
        if (in_block)
          return fail(at(op), "Label inside a block (the previous block has no terminator)");
        in_block = true;
        block_has_non_phi = false;
        break;
      case OpCategory::Terminator:
      case OpCategory::Code:
        in_code = true;
        if (!in_block) return fail(at(op), "op outside a block (blocks start with Label)");
        if (op.code() == OpCode::Phi) {
          if (block_has_non_phi) return fail(at(op), "Phi after a non-Phi op in its block");
        } else {
          block_has_non_phi = true;
        }
        if (cat == OpCategory::Terminator) in_block = false;
        break;
      }
      if (!check_operands(op)) return false;
    }
    if (in_block) return fail(Where(), "the last block has no terminator");
    if (in_function) return fail(Where(), "the last function has no FunctionEnd");
    if (entry_points == 0) return fail(Where(), "no EntryPoint");
    return true;
  }

  // The validator's one way to report: "ir: what: <the op, printed>", or "ir: what" for the
  // module as a whole.
  static std::string spell_error(const Where& where, std::string_view what) {
    std::string message = "ir: " + std::string(what);
    if (where.known()) message.append(": ").append(where.name);
    return message;
  }
  bool fail(const Where& where, std::string_view what) { return errors_.fail(where, what); }
  // Where a report about `op` points: the op printed (only on the way to a report).
  Where at(OpView op) {
    printed_op_ = print_op(b_, op.def());
    return Where(op.def().id(), printed_op_);
  }

  bool check_operands(OpView op) {
    OpCode code = op.code();
    const OpInfo& info = op.info();
    if (!enum_value_valid(kOpFlagsTable, std::uint32_t(op.flags())))
      return fail(at(op), "unknown op flags");
    if (!return_type_ok(b_.types(), info.return_class, op.type()))
      return fail(at(op),
                  std::string(info.name) + " must return " + return_class_text(info.return_class));

    std::uint32_t count = op.operand_count();
    int expected = expected_ref_count(code, count);
    if (expected < 0)
      return fail(at(op), std::to_string(count) + " operands do not fit the shape of " +
                              std::string(info.name));
    if (std::uint32_t(expected) != op.ref_count()) {
      std::uint32_t i = std::min<std::uint32_t>(std::uint32_t(expected), op.ref_count());
      return fail(at(op), "literals must be last: operand " + std::to_string(i) + " must be a " +
                              (op.ref_count() < std::uint32_t(expected) ? "reference" : "literal"));
    }

    bool any_forward = info.category == OpCategory::Debug || code == OpCode::Phi;
    std::uint32_t self_pos = position_[op.def().id()];
    for (std::uint32_t i = 0; i < op.ref_count(); ++i) {
      char letter = operand_letter(code, i, op.ref_count());
      SsaDef target = op.operand(i).def();
      std::string which = "operand " + std::to_string(i);
      if (!target) {
        if (letter == 'n') continue;
        return fail(at(op), which + " must not be null");
      }
      if (!b_.is_live(target))
        return fail(at(op), which + " references %" + std::to_string(target.id()) +
                                ", which does not exist");
      bool forward_ok = any_forward || letter == 'l' || letter == 'f' || letter == 'k';
      if (position_[target.id()] >= self_pos && !forward_ok)
        return fail(at(op), which + " is a forward reference to %" + std::to_string(target.id()));
      if (const char* need = ref_kind_error(letter, b_, b_.op(target)))
        return fail(at(op), which + " must reference " + need);
    }

    OpShape shape = op_shape(code);
    std::size_t fixed_lits = shape.fixed_literal_count();
    for (std::uint32_t i = op.ref_count(); i < count; ++i) {
      char letter = operand_letter(code, i, op.ref_count());
      std::uint64_t v = op.operand(i).bits();
      if (const EnumTable* table = enum_table_for_letter(letter)) {
        if (!enum_value_valid(*table, v))
          return fail(at(op), "operand " + std::to_string(i) + " is not a valid " +
                                  std::string(table->type_name));
      }
    }
    if (shape.variadic_literals()) {
      std::size_t tail = count - op.ref_count() - fixed_lits;
      if (shape.literals.back() == '#') {
        std::uint64_t want = b_.types().flattened_scalar_count(op.type());
        if (want == 0) return fail(at(op), "constant of a type with no fixed size");
        if (tail != want)
          return fail(at(op), "constant needs " + std::to_string(want) + " literals, has " +
                                  std::to_string(tail));
      } else {
        auto lits = op.operands().subspan(count - tail);
        bool terminated = false;
        for (Operand o : lits)
          for (int j = 0; j < 8; ++j) terminated |= ((o.bits() >> (8 * j)) & 0xff) == 0;
        if (!terminated) return fail(at(op), "string literal without terminator");
      }
    }
    return true;
  }

  const Builder& b_;
  std::vector<std::uint32_t> position_;
  ErrorSink errors_{&spell_error};
  std::string printed_op_; // the op a report points at (at())
};

} // namespace

Status validate(const Builder& builder) {
  return Validator(builder).run();
}

} // namespace kiln::ir
