// kiln_ir_docs FILE: rewrites the op rows of docs/ir-ops.md from the opcode table
// (ir_ops_doc.h). Usage from the source root: build/<dir>/translator/ir/kiln_ir_docs docs/ir-ops.md
#include "translator/ir/ir_ops_doc.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kiln_ir_docs docs/ir-ops.md\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "kiln_ir_docs: cannot read %s\n", argv[1]);
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  in.close();
  const std::string regenerated = kiln::ir::regenerate_ir_ops_doc(text.str());
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << regenerated;
  if (!out) {
    std::fprintf(stderr, "kiln_ir_docs: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
