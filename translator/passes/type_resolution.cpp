#include "translator/passes/type_resolution.h"

#include "translator/passes/pass_util.h"

#include <numeric>

namespace kiln::passes {

namespace {

constexpr auto kNoVote = std::uint8_t(ScalarType::Unknown);
constexpr auto kMixed = std::uint8_t(ScalarType::Count);

void vote(std::uint8_t& slot, ScalarType t) {
  if (t == ScalarType::Bool || t == ScalarType::Unknown) t = ScalarType::U32;
  if (slot == kNoVote)
    slot = std::uint8_t(t);
  else if (slot != std::uint8_t(t))
    slot = kMixed;
}

ScalarType unsigned_of_width(unsigned bits) {
  switch (bits) {
  case 8:
    return ScalarType::U8;
  case 16:
    return ScalarType::U16;
  case 64:
    return ScalarType::U64;
  default:
    return ScalarType::U32;
  }
}

// A constant of `type` with every scalar set to `bits`.
SsaDef splat(ir::Builder& b, Type type, std::uint64_t bits) {
  ir::Operand ops[4];
  unsigned n = type.is_basic() ? type.vector_size() : 1;
  for (unsigned i = 0; i < n; ++i) ops[i] = ir::Operand::literal(bits);
  return b.add(Op::with_operands(OpCode::Constant, type, std::span<const ir::Operand>(ops, n), 0));
}

} // namespace

SsaDef TypeResolution::convert(ir::Builder& b, SsaDef value, Type to, SsaDef before) {
  ir::OpView v = b.op(value);
  Type from = v.type();
  if (from == to) return value;
  if (!from.is_basic() || !to.is_basic() || from.vector_size() != to.vector_size())
    return b.add_before(before, Op::Cast(to, value));
  ScalarType fs = from.scalar_type(), ts = to.scalar_type();
  if (v.code() == OpCode::Undef) return b.add(Op::Undef(to));
  bool same_width = scalar_bits(fs) == scalar_bits(ts);
  if (fs == ScalarType::Bool) {
    std::uint64_t ones = scalar_bits(ts) == 64 ? ~0ull : 0xffffffffull;
    return b.add_before(before, Op::Select(to, value, splat(b, to, ones), splat(b, to, 0)));
  }
  if (ts == ScalarType::Bool) {
    SsaDef bits = value;
    Type int_type = from.with_scalar_type(unsigned_of_width(scalar_bits(fs)));
    if (!ir::is_integer(fs))
      bits = b.add_before(before, Op::Cast(int_type, value));
    else
      int_type = from;
    return b.add_before(before, Op::INe(bits, splat(b, int_type, 0)));
  }
  if (same_width && v.code() == OpCode::Constant) {
    // Reinterpreting a constant is a new constant with the same bits.
    return b.add(Op::with_operands(OpCode::Constant, to, v.literals(), 0));
  }
  if (same_width) return b.add_before(before, Op::Cast(to, value));
  bool fi = ir::is_integer(fs), ti = ir::is_integer(ts);
  if (fi && ti) return b.add_before(before, Op::ConvertItoI(to, value));
  if (!fi && !ti) return b.add_before(before, Op::ConvertFtoF(to, value));
  if (fi) {
    SsaDef wide = b.add_before(
        before, Op::ConvertItoI(to.with_scalar_type(unsigned_of_width(scalar_bits(ts))), value));
    return b.add_before(before, Op::Cast(to, wide));
  }
  SsaDef bits = b.add_before(
      before, Op::Cast(from.with_scalar_type(unsigned_of_width(scalar_bits(fs))), value));
  return b.add_before(before, Op::ConvertItoI(to, bits));
}

std::uint32_t TypeResolution::find(std::uint32_t id) {
  while (parent_[id] != id) {
    parent_[id] = parent_[parent_[id]];
    id = parent_[id];
  }
  return id;
}

void TypeResolution::unite(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a != b) parent_[a] = b;
}

Status TypeResolution::run(ir::Builder& b) {
  // Nothing to type: no value of Unknown type, no ConsumeAs and no phi was ever made.
  if (!b.ever_unknown_value() && !b.ever_added(OpCode::ConsumeAs) && !b.ever_added(OpCode::Phi))
    return Status::ok();
  std::uint32_t limit = b.id_limit();
  unknown_.clear();
  phis_.clear();
  consumes_.clear();
  terminator_of_.resize(limit);
  bool unknown_undef = false;
  SsaDef label;
  for (ir::OpView op : b.ops()) {
    ir::OpCategory cat = op.info().category;
    if (cat == ir::OpCategory::Label)
      label = op.def();
    else if (cat == ir::OpCategory::Terminator && label)
      terminator_of_[label.id()] = op.def();
    if (op.code() == OpCode::Phi)
      phis_.push_back(op.def());
    else if (op.code() == OpCode::ConsumeAs)
      consumes_.push_back(op.def());
    if (is_unknown(op.type()) && cat != ir::OpCategory::Declaration) {
      unknown_.push_back(op.def());
      if (op.code() == OpCode::Undef) unknown_undef = true;
    }
  }
  if (unknown_.empty() && phis_.empty() && consumes_.empty()) return Status::ok();

  parent_.resize(limit);
  std::iota(parent_.begin(), parent_.end(), 0u);
  consumer_vote_.assign(limit, kNoVote);
  operand_vote_.assign(limit, kNoVote);
  auto unknown_value = [&](SsaDef d) { return d && is_unknown(b.op(d).type()); };
  auto is_undef = [&](SsaDef d) { return d && b.op(d).code() == OpCode::Undef; };

  // Webs of unknown values joined by phis. Undef takes no part: each use gets its own.
  for (SsaDef phi : phis_) {
    ir::OpView op = b.op(phi);
    if (!is_unknown(op.type())) continue;
    for (ir::Operand value : ir::ops::Phi(op).value()) {
      SsaDef v = value.def();
      if (unknown_value(v) && !is_undef(v)) unite(phi.id(), v.id());
    }
  }
  for (SsaDef c : consumes_) {
    SsaDef v = ir::ops::ConsumeAs(b.op(c)).value().def();
    if (unknown_value(v) && !is_undef(v))
      vote(consumer_vote_[find(v.id())], b.op(c).type().scalar_type());
  }
  for (SsaDef phi : phis_) {
    ir::OpView op = b.op(phi);
    if (!is_unknown(op.type())) continue;
    for (ir::Operand value : ir::ops::Phi(op).value()) {
      SsaDef v = value.def();
      if (v && !unknown_value(v) && b.op(v).type().is_basic())
        vote(operand_vote_[find(phi.id())], b.op(v).type().scalar_type());
    }
  }
  // Retype every unknown value but Undef.
  for (SsaDef u : unknown_) {
    ir::OpView op = b.op(u);
    if (op.code() == OpCode::Undef) continue;
    std::uint32_t root = find(u.id());
    std::uint8_t pick = consumer_vote_[root];
    if (pick == kNoVote || pick == kMixed) pick = operand_vote_[root];
    if (pick == kNoVote || pick == kMixed) pick = std::uint8_t(ScalarType::U32);
    b.set_type(u, op.type().with_scalar_type(ScalarType(pick)));
  }
  // Phi operands of another type are converted at the end of their predecessor.
  for (SsaDef phi : phis_) {
    Type type = b.op(phi).type();
    std::uint32_t refs = b.op(phi).ref_count();
    for (std::uint32_t i = 1; i < refs; i += 2) {
      SsaDef v = b.op(phi).operand(i).def();
      if (!v || b.op(v).type() == type) continue;
      SsaDef pred = b.op(phi).operand(i - 1).def();
      SsaDef term = pred.id() < limit ? terminator_of_[pred.id()] : SsaDef();
      if (!term)
        return Status::error("types: phi %" + std::to_string(phi.id()) +
                             " names a block without terminator");
      b.set_operand(phi, i, ir::Operand(convert(b, v, type, term)));
    }
  }
  // ConsumeAs: the value as the consumer wants it.
  forward_.assign(b.id_limit(), SsaDef());
  removed_.clear();
  for (SsaDef c : consumes_) {
    ir::OpView op = b.op(c);
    SsaDef v = ir::ops::ConsumeAs(op).value().def();
    Type want = op.type();
    if (!v) {
      forward_[c.id()] = b.add(Op::Undef(want));
    } else if (is_undef(v)) {
      forward_[c.id()] = b.add(Op::Undef(want));
    } else {
      forward_[c.id()] = convert(b, v, want, c);
    }
    removed_.push_back(c);
  }
  if (unknown_undef) {
    for (SsaDef u : unknown_) {
      ir::OpView op = b.op(u);
      if (op.code() != OpCode::Undef) continue;
      if (forward_.size() < b.id_limit()) forward_.resize(b.id_limit());
      forward_[u.id()] = b.add(Op::Undef(op.type().with_scalar_type(ScalarType::U32)));
      removed_.push_back(u);
    }
  }
  if (forward_.size() < b.id_limit()) forward_.resize(b.id_limit());
  if (!removed_.empty()) b.replace_uses(forward_);
  for (SsaDef d : removed_) b.remove(d);
  return Status::ok();
}

} // namespace kiln::passes
