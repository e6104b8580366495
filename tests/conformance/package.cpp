#include "tests/conformance/package.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kiln::conformance {

namespace {
std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
} // namespace

std::vector<std::filesystem::path> list_test_folders(const std::filesystem::path& package) {
  std::vector<std::filesystem::path> folders;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(package / "tests", ec))
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "cases.json"))
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  return folders;
}

bool load_test_file(const std::filesystem::path& folder, TestFile& out, std::string& error) {
  out = TestFile{};
  out.folder = folder;
  out.name = folder.filename().string();
  nlohmann::json json = nlohmann::json::parse(read_text(folder / "cases.json"), nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    error = (folder / "cases.json").string() + ": not valid JSON";
    return false;
  }
  const std::string script_name = json.value("test_file", out.name + ".shader_test");
  const std::string script = read_text(folder / script_name);
  if (script.empty()) {
    error = (folder / script_name).string() + ": missing or empty";
    return false;
  }
  out.sections = split_sections(script);

  if (auto replay = json.find("replay"); replay != json.end() && replay->is_object()) {
    for (const auto& [model, entry] : replay->items()) {
      ModelReplay& r = out.replay[model];
      r.state_sections = entry.value("state_sections", std::vector<unsigned>{});
      r.run_test_sections = entry.value("run_test_sections", std::vector<unsigned>{});
    }
  }
  const auto cases = json.find("cases");
  if (cases == json.end() || !cases->is_array()) return true;
  for (const nlohmann::json& c : *cases) {
    CaseInfo info;
    info.id = c.value("id", "");
    info.model = c.value("model", "");
    info.test_section = c.value("test_section", 0u);
    info.included = c.value("included", false);
    info.verified = c.value("verified", false);
    info.capabilities = c.value("requires", std::vector<std::string>{});
    if (const auto blobs = c.find("blobs"); blobs != c.end() && blobs->is_object()) {
      for (auto it = blobs->begin(); it != blobs->end(); ++it)
        if (it->is_string()) info.blobs[it.key()] = folder / it->get<std::string>();
    }
    if (const auto commands = c.find("commands"); commands != c.end() && commands->is_array()) {
      for (const nlohmann::json& command : *commands)
        if (command.is_array() && command.size() == 2 && command[1].is_string())
          info.commands.emplace_back(command[0].get<unsigned>(), command[1].get<std::string>());
    }
    out.cases.push_back(std::move(info));
  }
  return true;
}

TestFile one_case_file(std::string name, std::filesystem::path folder, const std::string& model,
                       const std::string& state, std::map<std::string, std::filesystem::path> blobs,
                       const std::vector<std::string>& commands) {
  TestFile file;
  file.name = std::move(name);
  file.folder = std::move(folder);
  file.sections = split_sections(state + "[test]\n");
  ModelReplay& replay = file.replay[model];
  for (const Section& s : file.sections) {
    if (s.header == "test")
      replay.run_test_sections.push_back(s.index);
    else
      replay.state_sections.push_back(s.index);
  }
  CaseInfo info;
  info.id = file.name + "/" + model;
  info.model = model;
  info.test_section = replay.run_test_sections.back();
  info.blobs = std::move(blobs);
  unsigned line = 1;
  for (const std::string& c : commands) info.commands.emplace_back(line++, c);
  info.included = info.verified = true;
  file.cases.push_back(std::move(info));
  return file;
}

} // namespace kiln::conformance
