#include "tests/translator/ir/test_programs.h"

#include <sstream>
#include <unordered_map>
#include <vector>

namespace kiln::ir::test {

namespace {

Type default_type(ReturnClass rc) {
  switch (rc) {
  case ReturnClass::Any:
  case ReturnClass::Float:
    return kF32;
  case ReturnClass::Int:
  case ReturnClass::Scalar:
  case ReturnClass::VoidOrScalar:
    return kU32;
  case ReturnClass::Composite:
    return vec(ScalarType::F32, 4);
  default:
    return Op::default_type(rc);
  }
}

struct Picks {
  SsaDef entry, function, param, tmp, input, output, uav, cond, value, label, scoped;
};

SsaDef pick(const Picks& p, char letter) {
  switch (letter) {
  case 'e':
    return p.entry;
  case 'f':
    return p.function;
  case 'p':
    return p.param;
  case 'v':
    return p.tmp;
  case 'i':
    return p.input;
  case 'o':
    return p.output;
  case 'q':
    return p.uav;
  case 'b':
    return p.cond;
  case 'l':
    return p.label;
  case 'k':
    return p.scoped;
  default:
    return p.value;
  }
}

// An op of `code` with every operand chosen to fit its shape.
Op make_generic(Builder& b, OpCode code, const Picks& p) {
  const OpInfo& info = op_info(code);
  Type type = default_type(info.return_class);
  Op op(code, type);
  OpShape shape = op_shape(code);
  for (char c : shape.fixed_refs) op.ref(pick(p, c));
  for (char c : shape.ref_group) op.ref(pick(p, c));
  for (char c : shape.literals) {
    if (c == '#') {
      for (std::uint64_t i = 0; i < b.types().flattened_scalar_count(type); ++i)
        op.literal(0x3f800000u);
    } else if (c == '$') {
      op.string("a debug name");
    } else if (const EnumTable* t = enum_table_for_letter(c)) {
      op.literal(t->entries.back().value);
    } else {
      op.literal(3);
    }
  }
  return op;
}

bool is_structural(OpCode c) {
  OpCategory cat = op_info(c).category;
  return cat == OpCategory::Function || cat == OpCategory::FunctionEnd ||
         cat == OpCategory::Label || cat == OpCategory::Terminator || c == OpCode::Phi ||
         c == OpCode::EntryPoint;
}

} // namespace

void build_every_opcode(Builder& b) {
  b.reset();
  Picks p;
  p.param = b.add(Op::DclParam(kU32));
  p.function = b.add(Op::Function(kVoid, p.param));
  p.entry = b.add(Op::EntryPoint(p.function, ShaderStage::Pixel));
  p.tmp = b.add(Op::DclTmp(kF32, p.entry));
  p.input = b.add(Op::DclInput(kF32, p.entry, 0u, 0u, InterpolationModes::Centroid));
  p.output = b.add(Op::DclOutput(kF32, p.entry, 0u, 0u, 0u));
  p.uav = b.add(Op::DclUav(kF32, p.entry, 0u, 0u, 1u, ResourceKind::TypedBuffer, UavFlags(0)));
  p.cond = b.constant_bool(true);
  p.value = b.constant_f32(2.5f);

  SsaDef entry_label = b.add(Op::Label(Construct::None));
  b.set_cursor(entry_label);
  p.scoped = b.add(Op::ScopedLoop(SsaDef()));
  SsaDef end_loop = b.add(Op::ScopedEndLoop(p.scoped));
  b.rewrite_op(p.scoped, Op::ScopedLoop(end_loop));
  b.set_cursor(p.scoped);
  // Blocks after the entry block: created now so generic ops can reference a label.
  SsaDef tail = end_loop;
  SsaDef branch_placeholder = b.add_after(tail, Op::Unreachable());
  SsaDef b1 = b.add_after(branch_placeholder, Op::Label(Construct::None));
  p.label = b1;

  b.set_cursor(p.scoped);
  for (std::size_t i = 0; i < std::size_t(OpCode::Count); ++i) {
    auto code = OpCode(i);
    if (is_structural(code) || code == OpCode::DclParam) continue;
    b.add(make_generic(b, code, p));
  }
  b.rewrite_op(branch_placeholder, Op::Branch(b1));

  // b1: Phi, then a conditional branch; b2: switch; b3: return; b4: unreachable.
  b.set_cursor(b1);
  b.add(Op::Phi(kF32, entry_label, p.value));
  SsaDef br = b.add(Op::Unreachable());
  SsaDef b2 = b.add(Op::Label(b1, Construct::StructuredSelection));
  SsaDef sw = b.add(Op::Unreachable());
  SsaDef b3 = b.add(Op::Label(Construct::None));
  b.add(Op::Return(SsaDef()));
  SsaDef b4 = b.add(Op::Label(Construct::None));
  b.add(Op::Unreachable());
  b.add(Op::FunctionEnd());
  b.rewrite_op(br, Op::BranchConditional(p.cond, b2, b4));
  SsaDef one = b.constant_u32(1);
  b.rewrite_op(sw, Op::Switch(one, b3, one, b4));
  b.set_cursor(SsaDef());
}

void build_every_type(Builder& b) {
  b.reset();
  SsaDef param = b.add(Op::DclParam(kU32));
  (void)param;
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Compute));
  auto constant = [&](Type t) {
    std::vector<Operand> lits(b.types().flattened_scalar_count(t));
    for (std::size_t i = 0; i < lits.size(); ++i) {
      ScalarType s = b.types().flattened_scalar(t, i);
      if (s == ScalarType::F32)
        lits[i] = Operand::literal_f32(float(i) * 0.25f - 1.0f);
      else if (s == ScalarType::F64)
        lits[i] = Operand::literal_f64(double(i) / 3.0);
      else if (is_signed_int(s) && is_64bit(s))
        lits[i] = Operand::literal(std::uint64_t(-std::int64_t(i)));
      else if (is_signed_int(s))
        lits[i] = Operand::literal(std::uint32_t(-std::int32_t(i)));
      else if (s == ScalarType::Bool)
        lits[i] = Operand::literal(i & 1);
      else
        lits[i] = Operand::literal(i * 7);
    }
    b.add(Op::with_operands(OpCode::Constant, t, lits, 0));
  };
  for (std::size_t s = 0; s < std::size_t(ScalarType::Count); ++s)
    for (unsigned n = 1; n <= 4; ++n) constant(Type(ScalarType(s), n));
  Type members[] = {kU32, vec(ScalarType::F32, 4), vec(ScalarType::I16, 2), kBool};
  Type st = b.types().make_struct(members);
  constant(st);
  constant(b.types().make_array(kF32, 3));
  constant(b.types().make_array(b.types().make_array(vec(ScalarType::U32, 2), 2), 3));
  constant(b.types().make_array(b.types().make_array(b.types().make_array(kI32, 2), 2), 2));
  constant(b.types().make_array(st, 2));
  // Unbounded: u32[4][] as a structured SRV.
  Type structured = b.types().make_array(b.types().make_array(kU32, 4), 0);
  b.add(Op::DclSrv(structured, entry, 0u, 0u, 1u, ResourceKind::Structured));
  b.add(Op::DclSrv(b.types().make_array(kU32, 0), entry, 0u, 1u, 1u, ResourceKind::RawBuffer));
  b.add(Op::Label(Construct::None));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
}

void build_large(Builder& b, std::uint32_t ops) {
  b.reset();
  SsaDef fn = b.add(Op::Function(kVoid));
  SsaDef entry = b.add(Op::EntryPoint(fn, ShaderStage::Pixel));
  Type v4 = vec(ScalarType::F32, 4);
  SsaDef in = b.add(Op::DclInput(v4, entry, 0u, 0u, InterpolationModes(0)));
  SsaDef out = b.add(Op::DclOutput(v4, entry, 0u, 0u, 0u));
  SsaDef cbv = b.add(Op::DclCbv(b.types().make_array(v4, 64), entry, 0u, 0u, 1u));
  b.add(Op::Label(Construct::None));
  SsaDef zero = b.constant_u32(0);
  SsaDef desc = b.add(Op::DescriptorLoad(kF32, cbv, zero));
  SsaDef acc = b.add(Op::InputLoad(v4, in, SsaDef()));
  std::uint32_t i = 0;
  while (b.op_count() + 4 < ops) {
    SsaDef index = b.constant_u32(i % 64);
    SsaDef c = b.add(Op::BufferLoad(v4, desc, index, 16u));
    SsaDef k = b.constant_f32(float(i % 97) * 0.5f);
    SsaDef m = b.add(Op::FMul(v4, acc, c));
    SsaDef x = b.add(Op::CompositeExtract(kF32, m, b.constant_u32(i & 3)));
    SsaDef s = b.add(Op::FMad(kF32, x, k, x).set_flags(OpFlags::Precise));
    acc = b.add(Op::CompositeInsert(v4, acc, b.constant_u32((i + 1) & 3), s));
    ++i;
  }
  b.add(Op::OutputStore(kVoid, out, SsaDef(), acc));
  b.add(Op::Return(SsaDef()));
  b.add(Op::FunctionEnd());
}

std::string renumber(const std::string& text) {
  std::unordered_map<std::string, std::string> map;
  std::istringstream lines(text);
  std::string line;
  std::uint32_t next = 0;
  while (std::getline(lines, line)) {
    std::size_t p = line.find('%');
    std::size_t e = line.find(' ', p);
    map[line.substr(p, e - p)] = "%" + std::to_string(++next);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '%') {
      std::size_t e = i + 1;
      while (e < text.size() && text[e] >= '0' && text[e] <= '9') ++e;
      auto it = map.find(text.substr(i, e - i));
      out += it == map.end() ? text.substr(i, e - i) : it->second;
      i = e;
    } else {
      out += text[i++];
    }
  }
  return out;
}

} // namespace kiln::ir::test
