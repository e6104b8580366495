// kCodegenVersion keys the shader cache (translator/version.h): a translator change that alters
// the SPIR-V made for the same input and options without bumping it makes every cache made
// before serve the old SPIR-V, unnoticed. This test fingerprints the SPIR-V of the whole shared
// corpus and holds one fingerprint per codegen version in codegen_fingerprint.txt: the SPIR-V
// changed under the same version fails it. After a bump, record the new fingerprint:
//   KILN_RECORD_CODEGEN_FINGERPRINT=1 build/rel/tests/translator/codegen_version_tests

#include "tests/support/shared_data.h"
#include "translator/translate.h"
#include "translator/version.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <xxhash.h>

namespace kiln {
namespace {

// XXH3-64 over every corpus file's name, its translation's status and its SPIR-V, in order.
std::uint64_t corpus_fingerprint(const std::filesystem::path& corpus) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  Translator translator;
  TranslateResult result;
  for (const char* kind : {"dxbc", "d3d9"}) {
    for (const auto& path : test::files_with_extension(corpus / kind, std::string(".") + kind)) {
      const std::vector<std::uint8_t> bytes = test::read_bytes(path);
      const std::string name = path.filename().string();
      const bool translated = bool(translator.translate(bytes, TranslateOptions{}, result));
      XXH3_64bits_update(state, name.data(), name.size() + 1);
      XXH3_64bits_update(state, &translated, sizeof translated);
      if (translated)
        XXH3_64bits_update(state, result.spirv.data(), result.spirv.size() * sizeof(std::uint32_t));
    }
  }
  const std::uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return hash;
}

TEST(CodegenVersion, SpirvChangesOnlyWithAVersionBump) {
  const std::filesystem::path corpus = test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "../shared/corpus");
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, corpus_fingerprint(corpus));
  const std::string line = std::to_string(kCodegenVersion) + " " + hex;
  if (const char* record = std::getenv("KILN_RECORD_CODEGEN_FINGERPRINT"); record && *record) {
    std::ofstream(KILN_CODEGEN_FINGERPRINT_FILE) << line << "\n";
    GTEST_SKIP() << "recorded " << line << " in " << KILN_CODEGEN_FINGERPRINT_FILE;
  }
  std::ifstream file(KILN_CODEGEN_FINGERPRINT_FILE);
  std::string recorded;
  std::getline(file, recorded);
  const std::string version = std::to_string(kCodegenVersion) + " ";
  ASSERT_EQ(recorded.rfind(version, 0), 0u)
      << "codegen_fingerprint.txt holds '" << recorded << "', not a fingerprint of version "
      << kCodegenVersion << ": record it (see this file's header)";
  EXPECT_EQ(recorded, line) << "the corpus's SPIR-V changed under codegen version "
                            << kCodegenVersion
                            << ": bump kCodegenVersion (translator/version.h), so that caches "
                               "made before rebuild, and record the new fingerprint";
}

} // namespace
} // namespace kiln
