// Every D3D9 shader of ../shared/corpus through the front end and the pass pipeline with the
// validator after each pass, the dominance check and the final-form check. Front-end rejections
// are counted, not failed (they are the front end's to explain); every failure of a pass is.
#include "tests/translator/passes/pass_test_util.h"
#include "tests/support/shared_data.h"
#include "translator/d3d9/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/passes/pipeline.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>

namespace kiln::passes::test {
namespace {

TEST(PassesCorpus, D3d9ShadersReachFinalForm) {
  auto corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  auto files = kiln::test::files_with_extension(corpus / "d3d9", ".d3d9");
  ASSERT_FALSE(files.empty());
  d3d9::Converter converter;
  Pipeline pipeline;
  ir::Builder b;
  PipelineOptions options;
  options.validate_each_pass = true;
  std::size_t converted = 0, passed = 0;
  std::map<std::string, std::size_t> failures;
  for (const auto& path : files) {
    auto bytes = kiln::test::read_bytes(path);
    b.reset();
    if (!converter.convert(bytes, {}, b)) continue;
    ++converted;
    // KILN_PASSES_DUMP=<file name>: print that shader's IR before and after the passes.
    const char* dump = std::getenv("KILN_PASSES_DUMP");
    bool dumping = dump && path.filename().string() == dump;
    if (dumping) std::printf("---- scoped\n%s", ir::print(b).c_str());
    Status s = pipeline.run(b, options);
    if (dumping) std::printf("---- final (%s)\n%s", s.message().c_str(), ir::print(b).c_str());
    std::string problem = s ? check_final_form(b) : s.message();
    if (problem.empty()) problem = check_dominance(b);
    if (problem.empty()) {
      ++passed;
      continue;
    }
    if (failures.size() < 8 && !failures.count(problem))
      ADD_FAILURE() << path.filename().string() << ": " << problem;
    ++failures[problem];
  }
  std::printf("d3d9: %zu files, %zu converted, %zu through the passes\n", files.size(), converted,
              passed);
  EXPECT_EQ(passed, converted);
}

} // namespace
} // namespace kiln::passes::test
