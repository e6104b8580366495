// Every SM4/SM5 shader of ../shared/corpus/dxbc through the DXBC -> IR converter: each either
// converts to IR that the pass pipeline takes to valid final form (the validator runs after
// every pass; scoped form itself allows Return inside scopes, which the plain validator does
// not), or is rejected with a one-line message. Prints the rejection histogram (by reason,
// offsets stripped).
#include "support/shared_data.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_validate.h"
#include "translator/passes/pipeline.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace {

// "SHDR token 41 (sample): unsupported instruction sample" -> "(sample): unsupported ...".
std::string reason_of(const std::string& message) {
  std::string r = message;
  if (r.rfind("SHDR token ", 0) == 0) {
    std::size_t space = r.find(' ', 11);
    if (space != std::string::npos) r = r.substr(space + 1);
  }
  return r;
}

TEST(DxbcConvertCorpus, EveryShaderConvertsToValidIrOrIsRejectedByName) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  kiln::dxbc::Converter converter;
  kiln::ir::Builder builder;
  kiln::passes::Pipeline pipeline;
  std::map<std::string, int> rejected, invalid;
  std::map<std::string, std::string> example;
  int converted = 0;
  for (const auto& path : files) {
    auto bytes = kiln::test::read_bytes(path);
    builder.reset();
    kiln::Status s = converter.convert(bytes, {}, builder);
    if (!s) {
      EXPECT_FALSE(s.message().empty()) << path;
      EXPECT_EQ(s.message().find('\n'), std::string::npos) << path;
      std::string r = reason_of(s.message());
      if (!rejected[r]++) example[r] = path.filename().string();
      continue;
    }
    kiln::Status v = pipeline.run(builder, {.validate_each_pass = true});
    if (v) v = kiln::ir::validate(builder);
    if (!v) {
      std::string r = v.message().substr(0, 90);
      if (!invalid[r]++) example["invalid:" + r] = path.filename().string();
      ADD_FAILURE() << path << ": " << v.message();
      continue;
    }
    ++converted;
  }
  std::vector<std::pair<int, std::string>> hist;
  for (auto& [r, n] : rejected) hist.push_back({n, r});
  std::sort(hist.rbegin(), hist.rend());
  std::printf("converted %d of %zu (%.2f%%), rejected %zu\n", converted, files.size(),
              100.0 * converted / double(files.size()), files.size() - converted);
  for (auto& [n, r] : hist)
    std::printf("  %5d  %s   [e.g. %s]\n", n, r.c_str(), example[r].c_str());
  for (auto& [r, n] : invalid)
    std::printf("  INVALID %5d  %s   [e.g. %s]\n", n, r.c_str(), example["invalid:" + r].c_str());
  // Every file must at least be accounted for: converted, or rejected with a reason.
  EXPECT_EQ(
      std::size_t(converted) +
          [&] {
            std::size_t n = 0;
            for (auto& [r, c] : rejected) n += std::size_t(c);
            for (auto& [r, c] : invalid) n += std::size_t(c);
            return n;
          }(),
      files.size());
}

} // namespace
