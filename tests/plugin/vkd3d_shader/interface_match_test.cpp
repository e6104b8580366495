// A layer may get one stage of a pipeline from kiln's drop-in and the next from the system's
// vkd3d-shader (kiln forwards what it cannot honour exactly), and it builds its pipeline
// layout for vkd3d-shader's bindings, its defaults included. So for every shared DXBC shader
// kiln serves, kiln's module must show the pipeline what the system library's shows: every
// descriptor's set, binding, type and image shape and format (a storage image's view must have
// the format its module declares), and every stage-interface component's location,
// component, type, built-in, patch, interpolation and transform-feedback decorations (compared
// per component, not per variable: bench/execute/spirv_interface.h). Two requests per shader:
// an interface with an empty binding list (vkd3d-shader's fallback layout, which wined3d relies
// on) and a layer-style one built from the shader's scan, as libvkd3d and wined3d build theirs.

#include "bench/execute/spirv_interface.h"
#include "plugin/vkd3d_shader/compile_request.h"
#include "plugin/vkd3d_shader/real_library.h"
#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"

#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace kiln::test {
using namespace kiln::execute; // the module facts (bench/execute/spirv_interface.h)
namespace {

enum class Layout { EmptyBindingList, FromScan, NoInterface };

const char* layout_name(Layout layout) {
  switch (layout) {
  case Layout::EmptyBindingList:
    return "an empty binding list";
  case Layout::FromScan:
    return "a layer-style binding list";
  case Layout::NoInterface:
    return "no interface";
  }
  return "?";
}

// One vkd3d_shader_compile_info as a layer builds it, with what its pointers point at.
struct Request {
  // VKD3D_SHADER_API_VERSION_1_3, as wined3d sends on every compile.
  vkd3d_shader_compile_option option{vkd3d_shader_compile_option_name(vkd3d::kOptionApiVersion), 3};
  vkd3d_shader_spirv_target_info target{};
  vkd3d_shader_interface_info interface {};
  std::vector<vkd3d_shader_resource_binding> bindings;
  std::vector<vkd3d_shader_uav_counter_binding> counters;
  vkd3d_shader_compile_info info{};

  Request(const std::vector<std::uint8_t>& bytes, Layout layout,
          const vkd3d_shader_scan_descriptor_info& scan) {
    target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target.entry_point = "main";
    target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    if (layout == Layout::FromScan) bind_from_scan(scan);
    interface.bindings = bindings.data();
    interface.binding_count = unsigned(bindings.size());
    interface.uav_counters = counters.data();
    interface.uav_counter_count = unsigned(counters.size());
    if (layout != Layout::NoInterface) target.next = &interface;
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &target;
    info.source = {bytes.data(), bytes.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.options = &option;
    info.option_count = 1;
    info.log_level = VKD3D_SHADER_LOG_NONE;
  }

  // Every declared descriptor at its own binding of set 0, numbered per class from a base, and
  // a counter binding for each UAV that uses one: the shape of libvkd3d's root-signature
  // layouts and wined3d's per-stage tables.
  void bind_from_scan(const vkd3d_shader_scan_descriptor_info& scan) {
    std::uint32_t next[4] = {0, 100, 200, 300};
    for (unsigned i = 0; i < scan.descriptor_count; ++i) {
      const vkd3d_shader_descriptor_info& d = scan.descriptors[i];
      vkd3d_shader_resource_binding b{};
      b.type = d.type;
      b.register_space = d.register_space;
      b.register_index = d.register_index;
      b.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
      b.flags = d.resource_type == VKD3D_SHADER_RESOURCE_BUFFER ? VKD3D_SHADER_BINDING_FLAG_BUFFER
                                                                : VKD3D_SHADER_BINDING_FLAG_IMAGE;
      b.binding = {0, next[d.type % 4]++, 1};
      bindings.push_back(b);
      if (d.type == VKD3D_SHADER_DESCRIPTOR_TYPE_UAV &&
          (d.flags & VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_UAV_COUNTER)) {
        vkd3d_shader_uav_counter_binding c{};
        c.register_space = d.register_space;
        c.register_index = d.register_index;
        c.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
        c.binding = {0, 400 + d.register_index, 1};
        counters.push_back(c);
      }
    }
  }
};

struct Tally {
  std::size_t compared = 0, identical = 0, reference_failed = 0, reference_crashed = 0;
  std::size_t reference_invalid = 0; // modules of the system library that fail spirv-val
  std::map<std::string, std::size_t> forwarded;
  std::vector<std::string> reports;
  std::vector<std::string> untranslated; // forwarded because kiln could not translate them
};

std::vector<std::filesystem::path> shaders() {
  std::vector<std::filesystem::path> files;
  if (const auto corpus = corpus_dir(); !corpus.empty())
    files = files_with_extension(corpus / "dxbc", ".dxbc");
  if (const auto reproducers = corpus_dir().parent_path() / "reproducers";
      !corpus_dir().empty() && std::filesystem::exists(reproducers))
    for (const auto& path : files_with_extension(reproducers, ".dxbc")) files.push_back(path);
  return files;
}

enum class Isolated { Compiled, Failed, Crashed };

// The system library's compile in a child process: vkd3d-shader 1.2 asserts on some corpus
// shaders, which must not take the test down with it.
Isolated compile_isolated(const vkd3d::RealLibrary& real, const vkd3d_shader_compile_info& info,
                          std::vector<std::uint32_t>& words) {
  int fds[2];
  if (pipe(fds) != 0) return Isolated::Failed;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    vkd3d_shader_code code{};
    char* messages = nullptr;
    if (real.vkd3d_shader_compile(&info, &code, &messages) != VKD3D_OK) _exit(1);
    const auto* bytes = static_cast<const char*>(code.code);
    for (std::size_t done = 0; done < code.size;) {
      const ssize_t n = write(fds[1], bytes + done, code.size - done);
      if (n <= 0) _exit(2);
      done += std::size_t(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::vector<char> bytes;
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    bytes.insert(bytes.end(), buffer, buffer + n);
  close(fds[0]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return Isolated::Failed;
  if (WIFSIGNALED(status)) return Isolated::Crashed;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return Isolated::Failed;
  words.resize(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return Isolated::Compiled;
}

void compare_one(const vkd3d::RealLibrary& real, Translator& translator,
                 const std::filesystem::path& path, Layout layout, Tally& tally) {
  const std::vector<std::uint8_t> bytes = read_bytes(path);
  vkd3d_shader_scan_descriptor_info scan{};
  scan.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
  Request scan_request(bytes, Layout::EmptyBindingList, scan);
  scan_request.info.next = &scan;
  char* messages = nullptr;
  const int scanned = real.vkd3d_shader_scan(&scan_request.info, &messages);
  real.vkd3d_shader_free_messages(messages);
  if (scanned != VKD3D_OK) {
    ++tally.reference_failed;
    return;
  }
  Request request(bytes, layout, scan);
  std::vector<std::uint32_t> reference_words;
  const Isolated compiled = compile_isolated(real, request.info, reference_words);
  real.vkd3d_shader_free_scan_descriptor_info(&scan);
  if (compiled != Isolated::Compiled) {
    ++(compiled == Isolated::Crashed ? tally.reference_crashed : tally.reference_failed);
    return;
  }

  // A module the system library makes invalid is nothing a layer can rely on.
  if (!validate_spirv(reference_words, SpirvTarget::Vulkan10)) {
    ++tally.reference_invalid;
    return;
  }
  vkd3d::CompileRequest kiln_request;
  vkd3d::ForwardReason reason{};
  if (!vkd3d::read_compile_request(request.info, kiln_request, reason)) {
    ++tally.forwarded[std::string(vkd3d::forward_reason_name(reason))];
    return;
  }
  TranslateResult result;
  if (Status st = translator.translate(kiln_request.input, kiln_request.options, result); !st) {
    ++tally.forwarded["translation"];
    tally.untranslated.push_back(path.filename().string() + ": " + st.message());
    return;
  }
  ++tally.compared;
  ModuleInterface kiln_facts, reference_facts;
  std::string error;
  std::vector<std::string> differences;
  if (!read_module_interface(result.spirv, kiln_facts, error))
    differences.push_back("kiln's module: " + error);
  else if (!read_module_interface(reference_words, reference_facts, error))
    differences.push_back("vkd3d-shader's module: " + error);
  else
    differences = interface_differences(kiln_facts, reference_facts);
  if (differences.empty()) {
    ++tally.identical;
    return;
  }
  std::string report = path.filename().string() + " with " + layout_name(layout) + ":";
  for (std::size_t i = 0; i < differences.size() && i < 8; ++i) report += "\n    " + differences[i];
  if (differences.size() > 8)
    report += "\n    (" + std::to_string(differences.size() - 8) + " more)";
  tally.reports.push_back(report);
}

void compare_corpus(Layout layout) {
  KILN_REQUIRE_DIR(corpus_dir(), "../shared/corpus");
  vkd3d::RealLibrary real;
  ASSERT_TRUE(real.loaded()) << real.error();
  Translator translator;
  Tally tally;
  for (const auto& path : shaders()) compare_one(real, translator, path, layout, tally);
  std::string forwarded;
  for (const auto& [name, count] : tally.forwarded)
    forwarded += " " + name + " x" + std::to_string(count);
  std::printf("with %s: %zu shaders compared, %zu identical; the system library rejected %zu, "
              "crashed on %zu and made %zu invalid modules; kiln forwarded:%s\n",
              layout_name(layout), tally.compared, tally.identical, tally.reference_failed,
              tally.reference_crashed, tally.reference_invalid,
              forwarded.empty() ? " none" : forwarded.c_str());
  for (const std::string& line : tally.untranslated) std::printf("  forwarded: %s\n", line.c_str());
  for (std::size_t i = 0; i < tally.reports.size() && i < 40; ++i)
    std::printf("  %s\n", tally.reports[i].c_str());
  EXPECT_EQ(tally.identical, tally.compared) << tally.reports.size() << " shaders differ";
  EXPECT_GT(tally.compared, 1500u);
}

TEST(InterfaceMatch, EmptyBindingListGivesTheSystemLibrarysLayoutAndInterfaces) {
  compare_corpus(Layout::EmptyBindingList);
}

TEST(InterfaceMatch, LayerStyleBindingListGivesTheSystemLibrarysLayoutAndInterfaces) {
  compare_corpus(Layout::FromScan);
}

TEST(InterfaceMatch, NoInterfaceGivesTheSystemLibrarysLayoutAndInterfaces) {
  compare_corpus(Layout::NoInterface);
}

} // namespace
} // namespace kiln::test
