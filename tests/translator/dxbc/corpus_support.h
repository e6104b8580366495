#pragma once
// Corpus helpers for the DXBC tests: the manifest's per-file columns and listing normalization.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kiln::dxbc::test {

struct ManifestRow {
  std::string kind, group, model;
  long long instructions = -1; // -1 when the column is empty
  std::string checksum_ok;     // "True", "False" or ""
};

// manifest.tsv keyed by its `file` column ("dxbc/001e00fc9a11.dxbc").
std::map<std::string, ManifestRow> read_manifest(const std::filesystem::path& corpus);

// Instruction and declaration lines of an fxc listing, normalized for comparison: comments and
// the multi-line immediate constant buffer dropped, lower case, spaces after commas removed,
// runs of spaces collapsed.
std::vector<std::string> normalized_listing_lines(const std::string& text);

} // namespace kiln::dxbc::test
