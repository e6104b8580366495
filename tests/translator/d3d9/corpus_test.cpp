// The D3D9 reader and disassembler over ../shared/corpus: every valid shader decodes with the
// manifest's instruction count, malformed ones are rejected, truncated and bit-flipped variants
// never crash, and the disassembly agrees with the .asm.txt listings.

#include "tests/translator/d3d9/listing.h"
#include "tests/support/shared_data.h"
#include "translator/d3d9/constant_table.h"
#include "translator/d3d9/disassembler.h"
#include "translator/d3d9/reader.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace kiln::d3d9 {
namespace {

namespace fs = std::filesystem;

struct ManifestRow {
  std::string group;
  std::string model;
  long instructions = -1; // -1: not given
};

// manifest.tsv rows for kind d3d9, keyed by file name.
std::map<std::string, ManifestRow> read_manifest(const fs::path& corpus) {
  std::map<std::string, ManifestRow> rows;
  std::ifstream in(corpus / "manifest.tsv");
  std::string line;
  std::vector<std::string> header;
  auto split = [](const std::string& s) {
    std::vector<std::string> fields;
    std::stringstream stream(s);
    std::string field;
    while (std::getline(stream, field, '\t')) fields.push_back(field);
    if (!s.empty() && s.back() == '\t') fields.emplace_back();
    return fields;
  };
  if (!std::getline(in, line)) return rows;
  header = split(line);
  auto column = [&](const char* name) {
    return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t file = column("file"), kind = column("kind"), group = column("group"),
                    model = column("model"), instructions = column("instructions");
  while (std::getline(in, line)) {
    const auto fields = split(line);
    if (fields.size() <= instructions || fields[kind] != "d3d9") continue;
    ManifestRow row{fields[group], fields[model], -1};
    if (!fields[instructions].empty()) row.instructions = std::stol(fields[instructions]);
    rows[fs::path(fields[file]).filename().string()] = row;
  }
  return rows;
}

TEST(D3D9Corpus, EveryValidShaderDecodes) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  const auto manifest = read_manifest(corpus);
  const auto files = kiln::test::files_with_extension(corpus / "d3d9", ".d3d9");
  ASSERT_FALSE(files.empty());
  Program program;
  std::size_t counted = 0, tables_read = 0, tables_broken = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const auto bytes = kiln::test::read_bytes(path);
    Status status = decode(bytes, program);
    ASSERT_TRUE(status) << status.message();
    EXPECT_EQ(program.token_count * 4, bytes.size());
    const auto row = manifest.find(path.filename().string());
    ASSERT_NE(row, manifest.end()) << "not in manifest.tsv";
    EXPECT_EQ(std::string(version_name(program.version).text), row->second.model);
    if (row->second.instructions >= 0) {
      EXPECT_EQ(long(program.instructions.size()), row->second.instructions);
      ++counted;
    }
    // The bounded scan finds the same length, and fails when the bound cuts the end token off.
    std::size_t measured = 0;
    ASSERT_TRUE(measure(bytes, measured));
    EXPECT_EQ(measured, bytes.size());
    EXPECT_FALSE(measure(std::span(bytes).first(bytes.size() - 4), measured));
    // Constant tables, where present, are read (the corpus has a deliberately broken one, which
    // must not reject the shader).
    if (const Comment* ctab = program.constant_table()) {
      ConstantTable table;
      if (read_constant_table(bytes, *ctab, table))
        ++tables_read;
      else
        ++tables_broken;
    }
  }
  std::printf("[d3d9] %zu shaders decoded, %zu instruction counts compared with the manifest, "
              "%zu constant tables read, %zu broken\n",
              files.size(), counted, tables_read, tables_broken);
  EXPECT_GT(tables_read, 10 * tables_broken);
  EXPECT_GT(counted, files.size() / 2);
}

TEST(D3D9Corpus, MalformedShadersAreRejected) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  const auto files = kiln::test::files_with_extension(corpus / "malformed", ".d3d9");
  ASSERT_FALSE(files.empty());
  Program program;
  for (const fs::path& path : files) {
    const auto bytes = kiln::test::read_bytes(path);
    Status status = decode(bytes, program);
    EXPECT_FALSE(status) << path.filename();
    EXPECT_NE(status.message().find("token"), std::string::npos) << status.message();
    std::string text;
    EXPECT_FALSE(disassemble(bytes, text));
  }
}

// Every strict prefix of a valid shader is rejected (its end token is its last token), and
// bit flips give an error or a consistent program, never a crash (run this under ASan/UBSan).
TEST(D3D9Corpus, TruncatedAndBitFlippedNeverCrash) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  const auto files = kiln::test::files_with_extension(corpus / "d3d9", ".d3d9");
  Program program;
  std::string text;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::size_t flipped_ok = 0, flipped_rejected = 0;
  for (const fs::path& path : files) {
    const auto bytes = kiln::test::read_bytes(path);
    for (std::size_t size = 0; size < bytes.size(); ++size) {
      const auto prefix = std::span(bytes).first(size);
      EXPECT_FALSE(decode(prefix, program)) << path.filename() << " cut at " << size;
      std::size_t measured = 0;
      EXPECT_FALSE(measure(prefix, measured));
    }
    std::vector<std::uint8_t> mutated;
    for (int trial = 0; trial < 32; ++trial) {
      mutated = bytes;
      const int flips = 1 + int(next() % 3);
      for (int f = 0; f < flips; ++f) {
        const std::uint64_t bit = next() % (mutated.size() * 8);
        mutated[bit / 8] ^= std::uint8_t(1u << (bit % 8));
      }
      if (decode(mutated, program)) {
        ++flipped_ok;
        EXPECT_EQ(program.token_count * 4, mutated.size());
        // The length scan walks what the decoder walks.
        std::size_t measured = 0;
        EXPECT_TRUE(measure(mutated, measured));
        EXPECT_EQ(measured, mutated.size());
        for (const Instruction& ins : program.instructions) {
          EXPECT_LT(ins.offset, program.token_count);
          EXPECT_LT(std::size_t(ins.opcode), std::size_t(Opcode::Count));
        }
        if (const Comment* ctab = program.constant_table()) {
          ConstantTable table;
          (void)read_constant_table(mutated, *ctab, table);
        }
      } else {
        ++flipped_rejected;
      }
      text.clear();
      (void)disassemble(mutated, text);
      std::size_t measured = 0;
      (void)measure(mutated, measured);
    }
  }
  std::printf("[d3d9] bit flips: %zu decoded, %zu rejected\n", flipped_ok, flipped_rejected);
  EXPECT_GT(flipped_rejected, 0u);
}

// Longest common subsequence of two line lists.
std::size_t common_lines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::size_t> row(b.size() + 1, 0), prev(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j)
      row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
    std::swap(row, prev);
  }
  return prev[b.size()];
}

// The .asm.txt sidecars that are listings (a version line, then instructions; per-token
// annotations without instruction lines are not) against kiln's disassembly, after normalizing
// notation on both sides.
TEST(D3D9Corpus, DisassemblyMatchesListings) {
  const fs::path corpus = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(corpus, "shared corpus");
  std::size_t listings = 0, identical = 0, sidecar_lines = 0, matched_lines = 0;
  std::vector<std::string> mismatches;
  for (const fs::path& path : kiln::test::files_with_extension(corpus / "d3d9", ".d3d9")) {
    fs::path sidecar = path;
    sidecar.replace_extension(".asm.txt");
    if (!fs::exists(sidecar)) continue;
    const auto listing_bytes = kiln::test::read_bytes(sidecar);
    const auto expected = test::normalized_listing(std::string_view(
        reinterpret_cast<const char*>(listing_bytes.data()), listing_bytes.size()));
    if (expected.size() < 2 ||
        (expected[0].rfind("vs_", 0) != 0 && expected[0].rfind("ps_", 0) != 0))
      continue;
    std::string text;
    Status status = disassemble(kiln::test::read_bytes(path), text);
    ASSERT_TRUE(status) << path.filename() << ": " << status.message();
    const auto actual = test::normalized_listing(text);
    ++listings;
    sidecar_lines += expected.size();
    matched_lines += common_lines(expected, actual);
    if (expected == actual) {
      ++identical;
    } else {
      std::string report = path.filename().string() + ":";
      for (std::size_t k = 0; k < std::max(expected.size(), actual.size()); ++k) {
        const std::string e = k < expected.size() ? expected[k] : "",
                          a = k < actual.size() ? actual[k] : "";
        if (e != a) report += "\n    listing: " + e + "\n    kiln:    " + a;
      }
      mismatches.push_back(report);
    }
  }
  ASSERT_GT(listings, 0u);
  std::printf("[d3d9] listings: %zu, identical after normalization: %zu (%.1f%%), lines: %zu/%zu "
              "(%.1f%%)\n",
              listings, identical, 100.0 * double(identical) / double(listings), matched_lines,
              sidecar_lines, 100.0 * double(matched_lines) / double(sidecar_lines));
  for (std::size_t k = 0; k < mismatches.size() && k < 12; ++k)
    std::printf("  %s\n", mismatches[k].c_str());
  // Hand-written listings contain typos and instructions the files lack; most must agree.
  EXPECT_GE(double(matched_lines), 0.9 * double(sidecar_lines));
}

} // namespace
} // namespace kiln::d3d9
