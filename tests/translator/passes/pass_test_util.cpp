#include "tests/translator/passes/pass_test_util.h"

#include "translator/ir/ir_text.h"
#include "translator/passes/pass_util.h"

namespace kiln::passes::test {

std::string pixel_shader(std::string_view body, bool add_return) {
  std::string text = R"(%1 = EntryPoint void %2 Pixel
%3 = DclInput f32 %1 0 0 NoPerspective
%4 = DclOutput f32 %1 0 0 0
%5 = DclOutput u32 %1 1 0 0
%6 = DclTmp unknown %1
%7 = DclTmp unknown %1
%8 = DclTmp unknown %1
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant f32 1
%13 = Constant f32 2
%14 = Constant bool 1
%2 = Function void
%20 = Label void None
)";
  text += body;
  if (add_return) text += "\n%998 = Return void null";
  text += "\n%999 = FunctionEnd void\n";
  return text;
}

std::vector<ir::SsaDef> find_ops(const ir::Builder& b, ir::OpCode code) {
  std::vector<ir::SsaDef> out;
  for (ir::OpView op : b.ops())
    if (op.code() == code) out.push_back(op.def());
  return out;
}

std::size_t count_ops(const ir::Builder& b, ir::OpCode code) {
  return find_ops(b, code).size();
}

std::string check_dominance(const ir::Builder& b) {
  for (ir::SsaDef fn = b.first(); fn; fn = b.next(fn)) {
    if (b.op(fn).code() != ir::OpCode::Function) continue;
    BlockTable blocks;
    if (!blocks.build(b, fn)) return "malformed blocks";
    std::uint32_t n = blocks.size();
    // Reachability from the entry, then iterative dominator sets over reachable blocks
    // (small programs only). Unreachable blocks are not checked.
    std::vector<bool> reachable(n, false);
    reachable[0] = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t i = 1; i < n; ++i)
        for (std::uint32_t p : blocks.preds(i))
          if (reachable[p] && !reachable[i]) reachable[i] = changed = true;
    }
    std::vector<std::vector<bool>> dom(n, std::vector<bool>(n, true));
    dom[0].assign(n, false);
    dom[0][0] = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t i = 1; i < n; ++i) {
        if (!reachable[i]) continue;
        std::vector<bool> d(n, true);
        for (std::uint32_t p : blocks.preds(i))
          if (reachable[p])
            for (std::uint32_t k = 0; k < n; ++k) d[k] = d[k] && dom[p][k];
        d[i] = true;
        if (d != dom[i]) {
          dom[i] = d;
          changed = true;
        }
      }
    }
    std::vector<std::uint32_t> block_of(b.id_limit(), ~0u), position(b.id_limit(), 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t pos = 0;
      for (ir::SsaDef d = blocks.label(i);; d = b.next(d)) {
        block_of[d.id()] = i;
        position[d.id()] = pos++;
        if (d == blocks.terminator(i)) break;
      }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!reachable[i]) continue;
      for (ir::SsaDef d = blocks.label(i);; d = b.next(d)) {
        ir::OpView op = b.op(d);
        for (std::uint32_t r = 0; r < op.ref_count(); ++r) {
          ir::SsaDef v = op.operand(r).def();
          if (!v || block_of[v.id()] == ~0u || b.op(v).code() == ir::OpCode::Label) continue;
          std::uint32_t def_block = block_of[v.id()];
          std::string where = "%" + std::to_string(d.id()) + " uses %" + std::to_string(v.id());
          if (op.code() == ir::OpCode::Phi) {
            std::uint32_t pred = blocks.index_of(op.operand(r - 1).def());
            if (reachable[pred] && !dom[pred][def_block])
              return where + " not dominating its predecessor";
          } else if (def_block == i) {
            if (position[v.id()] >= position[d.id()]) return where + " defined later";
          } else if (!dom[i][def_block]) {
            return where + " not dominated";
          }
        }
        if (d == blocks.terminator(i)) break;
      }
    }
  }
  return {};
}

std::string check_final_form(const ir::Builder& b) {
  for (ir::OpView op : b.ops()) {
    if (ir::has_trait(op.code(), ir::OpTraits::NotFinal))
      return "left: " + ir::print_op(b, op.def());
    if (is_unknown(op.type())) return "unknown type: " + ir::print_op(b, op.def());
  }
  return {};
}

} // namespace kiln::passes::test
