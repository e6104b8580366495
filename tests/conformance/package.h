#pragma once
// A conformance package laid out like ../shared/conformance: tests/<name>/ with the
// .shader_test script, cases.json and the bytecode blobs (README.md of the package).

#include "tests/conformance/commands.h"
#include "tests/conformance/script.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kiln::conformance {

struct CaseInfo {
  std::string id; // "<name>/<model>/<test section>"
  std::string model;
  unsigned test_section = 0;
  std::map<std::string, std::filesystem::path> blobs;     // stage ("vs", "ps", ...) -> file
  std::vector<std::pair<unsigned, std::string>> commands; // (line, text), if() applied
  std::vector<std::string> capabilities;                  // the case's `requires`
  bool included = false;
  bool verified = false;
};

struct ModelReplay {
  std::vector<unsigned> state_sections;
  std::vector<unsigned> run_test_sections;
};

struct TestFile {
  std::string name;
  std::filesystem::path folder;
  std::vector<Section> sections;
  std::map<std::string, ModelReplay> replay; // model -> sections to apply / run
  std::vector<CaseInfo> cases;
};

// Loads tests/<name>/cases.json and its script. Returns false with `error` set on failure.
bool load_test_file(const std::filesystem::path& folder, TestFile& out, std::string& error);

// A test file of one case made in code (the execution tests of kiln's own features): `state`
// is the script's resource sections (a [test] section is appended), replayed for `model`,
// with `blobs` (stage -> bytecode file) and `commands` (numbered from line 1).
TestFile one_case_file(std::string name, std::filesystem::path folder, const std::string& model,
                       const std::string& state, std::map<std::string, std::filesystem::path> blobs,
                       const std::vector<std::string>& commands);

// Folders under PACKAGE/tests that have a cases.json, sorted by name.
std::vector<std::filesystem::path> list_test_folders(const std::filesystem::path& package);

} // namespace kiln::conformance
