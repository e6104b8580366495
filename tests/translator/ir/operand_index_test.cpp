// Operands are read by role (ir_op_views.h), never by a literal position: the source tree holds
// no `operand(3)`, `operands()[1]` or `literals()[0]` outside the generated views. A position
// written out by hand goes stale when a shape changes; a role does not compile once it is gone.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The one file allowed to index operands by number: the views themselves.
bool exempt(const fs::path& p) {
  return p.filename() == "ir_op_views.h";
}

std::vector<std::string> literal_index_reads(const fs::path& root) {
  static const std::regex read(R"((\boperand|\boperands\(\)|\bliterals\(\))\s*[\(\[]\s*[0-9])");
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    const fs::path& p = e.path();
    if (!e.is_regular_file() || exempt(p)) continue;
    const std::string ext = p.extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    std::ifstream in(p);
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n)
      if (std::regex_search(line, read))
        found.push_back(p.string() + ":" + std::to_string(n) + ": " + line);
  }
  return found;
}

TEST(OperandIndex, NoLiteralOperandIndexOutsideTheViews) {
  const fs::path root = fs::path(KILN_SOURCE_DIR) / "translator";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  std::ostringstream report;
  for (const std::string& f : literal_index_reads(root)) report << f << "\n";
  EXPECT_EQ(report.str(), "") << "read these operands by role (translator/ir/ir_op_views.h)";
}

// The pattern finds what it is meant to find (a test that cannot fail proves nothing).
TEST(OperandIndex, ThePatternCatchesLiteralIndexes) {
  const fs::path dir = fs::temp_directory_path() / "kiln_operand_index_test";
  fs::create_directories(dir);
  std::ofstream(dir / "bad.cpp") << "auto a = op.operand(3).def();\n"
                                 << "auto b = op.operands()[1];\n"
                                 << "auto c = op.literals()[0];\n"
                                 << "auto d = op.operand(i).def();\n"
                                 << "auto e = ir::ops::Phi(op).block()[0];\n";
  EXPECT_EQ(literal_index_reads(dir).size(), 3u);
  fs::remove_all(dir);
}

} // namespace
