// Signatures and RDEF bindings read from the containers agree with the tables fxc printed in
// the listing sidecars ("// Input signature:", "// Resource Bindings:").

#include "tests/support/shared_data.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/disassembler.h"
#include "translator/dxbc/signature.h"

#include <cctype>
#include <cstdio>
#include <gtest/gtest.h>
#include <sstream>

namespace kiln::dxbc {
namespace {

namespace fs = std::filesystem;

struct Table {
  std::vector<std::vector<std::string>> rows; // whitespace-separated fields after "//"
};

// The rows of the table that follows the line containing `title`, empty if none.
bool read_table(const std::string& listing, const std::string& title, Table& out) {
  std::istringstream in(listing);
  std::string line;
  bool found = false, in_rows = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!found) {
      found = line.find(title) != std::string::npos;
      continue;
    }
    if (!in_rows) {
      in_rows = line.rfind("// ---", 0) == 0;
      continue;
    }
    if (line.size() <= 3 || line.rfind("// ", 0) != 0) break;
    if (line.rfind("// no ", 0) == 0) break; // "// no Input": an empty table
    std::istringstream fields(line.substr(3));
    std::vector<std::string> row;
    for (std::string f; fields >> f;) row.push_back(f);
    out.rows.push_back(row);
  }
  return found && in_rows;
}

std::string mask_letters(std::uint8_t mask) {
  std::string s;
  for (unsigned i = 0; i < 4; ++i)
    if (mask & (1u << i)) s.push_back("xyzw"[i]);
  return s;
}

TEST(DxbcReflection, SignaturesAndBindingsMatchListingTables) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  std::size_t signature_rows = 0, binding_rows = 0, header_rows = 0, header_matches = 0,
              variables = 0;
  PodArray<SignatureElement> elements;
  for (const auto& file : kiln::test::files_with_extension(corpus / "dxbc", ".dxbc")) {
    fs::path sidecar = file;
    sidecar.replace_extension(".asm.txt");
    if (!fs::exists(sidecar)) continue;
    const auto listing_bytes = kiln::test::read_bytes(sidecar);
    const std::string listing(listing_bytes.begin(), listing_bytes.end());
    const auto bytes = kiln::test::read_bytes(file);
    Container container;
    ASSERT_TRUE(parse_container(bytes, container)) << file;

    const std::pair<const char*, const SignatureChunk*> signatures[] = {
        {"// Input signature:", &container.input}, {"// Output signature:", &container.output}};
    for (const auto& [title, chunk] : signatures) {
      Table table;
      if (!read_table(listing, title, table)) continue;
      ASSERT_TRUE(parse_signature(*chunk, elements)) << file;
      ASSERT_EQ(table.rows.size(), elements.size()) << file << " " << title;
      for (std::uint32_t i = 0; i < elements.size(); ++i) {
        const auto& row = table.rows[i];
        if (row.size() < 6 || row.size() > 7) continue; // masks with gaps split into more fields
        EXPECT_EQ(row[0], elements[i].semantic_name) << file;
        EXPECT_EQ(row[1], std::to_string(elements[i].semantic_index)) << file;
        // System registers (oDepth, oMask, ...) show N/A for the mask and a name for the register.
        if (row[2] != "N/A") {
          EXPECT_EQ(row[2], mask_letters(elements[i].mask)) << file;
        }
        if (std::isdigit(static_cast<unsigned char>(row[3][0]))) {
          EXPECT_EQ(row[3], std::to_string(elements[i].register_index)) << file;
        }
        ++signature_rows;
      }
    }

    // The listing header kiln prints carries the same signature rows (name, index, mask,
    // register, system value, format) as fxc's.
    std::string text;
    ASSERT_TRUE(disassemble(bytes, text)) << file;
    for (const char* title : {"// Input signature:", "// Output signature:"}) {
      Table theirs, ours;
      if (!read_table(listing, title, theirs) || !read_table(text, title, ours)) continue;
      ASSERT_EQ(theirs.rows.size(), ours.rows.size()) << file << " " << title;
      for (std::size_t i = 0; i < ours.rows.size(); ++i) {
        auto& a = theirs.rows[i];
        auto& b = ours.rows[i];
        if (a.size() < 6 || b.size() < 6 || a[2] == "N/A") continue;
        ++header_rows;
        bool same = true;
        for (std::size_t f = 0; f < 6; ++f) same = same && a[f] == b[f];
        if (same) ++header_matches;
      }
    }

    // Constant buffer and variable names from RDEF all appear in fxc's buffer definitions.
    {
      ReflectionView rdef;
      ASSERT_TRUE(rdef.open(container.rdef)) << file;
      for (std::uint32_t b = 0; b < rdef.constant_buffer_count(); ++b) {
        ConstantBufferInfo cb;
        ASSERT_TRUE(rdef.constant_buffer(b, cb)) << file;
        EXPECT_NE(listing.find(cb.name), std::string::npos) << file << ": " << cb.name;
        for (std::uint32_t v = 0; v < cb.variable_count; ++v) {
          VariableInfo var;
          ASSERT_TRUE(rdef.variable(cb, v, var)) << file;
          const std::string name(var.name);
          EXPECT_TRUE(listing.find(name + ";") != std::string::npos ||
                      listing.find(name + "[") != std::string::npos)
              << file << ": " << var.name;
          EXPECT_LE(var.start_offset + var.size, cb.size) << file << ": " << var.name;
          ++variables;
        }
      }
    }

    Table bindings;
    if (read_table(listing, "// Resource Bindings:", bindings)) {
      ReflectionView rdef;
      ASSERT_TRUE(rdef.open(container.rdef)) << file;
      ASSERT_EQ(bindings.rows.size(), rdef.binding_count()) << file;
      for (std::uint32_t i = 0; i < rdef.binding_count(); ++i) {
        RdefBinding binding;
        ASSERT_TRUE(rdef.binding(i, binding)) << file;
        ASSERT_FALSE(bindings.rows[i].empty());
        EXPECT_EQ(bindings.rows[i][0], binding.name) << file;
        ++binding_rows;
      }
    }
  }
  std::printf("compared %zu signature rows and %zu binding rows; listing header rows: %zu of %zu "
              "match\n",
              signature_rows, binding_rows, header_matches, header_rows);
  EXPECT_GE(double(header_matches), 0.98 * double(header_rows));
  std::printf("%zu constant buffer variables found in the listings\n", variables);
  EXPECT_GT(variables, 100u);
  EXPECT_GT(signature_rows, 100u);
  EXPECT_GT(binding_rows, 100u);
}

} // namespace
} // namespace kiln::dxbc
