// TranslateOptions::debug_names on DXBC: constant buffers and resources get the names the
// compiler wrote to RDEF, inputs and outputs their signature semantics, as OpName in the
// SPIR-V; without the option no such name appears.
#include "support/shared_data.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/signature.h"
#include "translator/translate.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <set>
#include <string>

namespace {

// The strings of every OpName in a SPIR-V module.
std::set<std::string> op_names(const std::vector<std::uint32_t>& words) {
  std::set<std::string> names;
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
    if (count == 0 || i + count > words.size()) break;
    if (opcode == 5 /* OpName */ && count > 2) {
      std::string s;
      for (std::size_t w = i + 2; w < i + count; ++w)
        for (unsigned b = 0; b < 4; ++b) {
          const char c = char((words[w] >> (8 * b)) & 0xffu);
          if (c == 0) break;
          s += c;
        }
      names.insert(s);
    }
    i += count;
  }
  return names;
}

TEST(DxbcDebugNames, RdefAndSemanticNamesBecomeOpNamesOnlyWhenAsked) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  std::sort(files.begin(), files.end());
  kiln::Translator translator;
  kiln::TranslateOptions with_names;
  with_names.debug_names = true;
  int shaders = 0, cbuffers = 0, cbuffers_named = 0, semantics = 0, semantics_named = 0;
  for (const auto& path : files) {
    if (shaders == 150) break;
    const auto bytes = kiln::test::read_bytes(path);
    kiln::dxbc::Container container;
    if (!kiln::dxbc::parse_container(bytes, container, {.verify_checksum = false}) ||
        !container.has_program())
      continue;
    kiln::TranslateResult plain, named;
    if (!translator.translate(bytes, {}, plain)) continue;
    ASSERT_TRUE(translator.translate(bytes, with_names, named)) << path;
    ++shaders;
    const std::set<std::string> with = op_names(named.spirv), without = op_names(plain.spirv);

    // Constant buffers: every cbuffer RDEF binds is a DclCbv of the shader (fxc declares
    // what it binds), so its name must appear.
    kiln::dxbc::ReflectionView rdef;
    if (!container.rdef.empty() && rdef.open(container.rdef)) {
      for (std::uint32_t i = 0; i < rdef.binding_count(); ++i) {
        kiln::dxbc::RdefBinding b;
        if (!rdef.binding(i, b) || b.type != 0 /* CBUFFER */ || b.name.empty()) continue;
        ++cbuffers;
        if (with.count(std::string(b.name))) ++cbuffers_named;
        EXPECT_EQ(without.count(std::string(b.name)), 0u) << path << ": " << b.name;
      }
    }
    // Inputs the shader reads (fxc declares those): the semantic of each element that is not
    // a system value.
    kiln::dxbc::PodArray<kiln::dxbc::SignatureElement> isgn;
    if (container.input.present() && kiln::dxbc::parse_signature(container.input, isgn)) {
      for (const auto& e : isgn) {
        if (e.system_value != 0 || e.semantic_name.empty() || e.semantic_index != 0 ||
            e.read_write_mask == 0)
          continue;
        ++semantics;
        if (with.count(std::string(e.semantic_name))) ++semantics_named;
        EXPECT_EQ(without.count(std::string(e.semantic_name)), 0u) << path;
      }
    }
  }
  std::printf("[ %d shaders: %d of %d constant buffers, %d of %d read inputs named\n", shaders,
              cbuffers_named, cbuffers, semantics_named, semantics);
  ASSERT_GT(shaders, 50);
  ASSERT_GT(cbuffers, 20);
  ASSERT_GT(semantics, 20);
  // A constant buffer is named wherever declared; an input read only by code the passes
  // remove may go with its name.
  EXPECT_EQ(cbuffers_named, cbuffers);
  EXPECT_GE(semantics_named * 20, semantics * 19) << semantics_named << " of " << semantics;
}

} // namespace
