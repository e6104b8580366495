// kiln's libvkd3d-shader.so.1, loaded by its path as a client would load it by SONAME: it
// exports the vkd3d-shader 1.2 functions under VKD3D_1_0, translates DXBC to valid SPIR-V 1.0
// under the client's interface, and forwards the rest to the system's library (whose own
// internal calls must reach itself, not kiln: real_library.h).

#include "bench/execute/spirv_interface.h"
#include "bench/synth/dxbc_writer.h"
#include "plugin/vkd3d_shader/library.h"
#include "plugin/vkd3d_shader/real_library.h"
#include "plugin/vkd3d_shader/scan.h"
#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vulkan/vulkan_core.h>

namespace kiln::test {
using namespace kiln::execute; // the module facts (bench/execute/spirv_interface.h)
namespace {

class Dropin : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("KILN_CACHE", "0", 1);
    handle_ = dlopen(KILN_DROPIN_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
#define KILN_X(name)                                                                               \
  name = reinterpret_cast<PFN_##name>(dlvsym(handle_, #name, "VKD3D_1_0"));                        \
  ASSERT_NE(name, nullptr) << #name " is not exported under VKD3D_1_0";
    KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
  }
  void TearDown() override {
    if (handle_) dlclose(handle_);
  }

  void* handle_ = nullptr;
#define KILN_X(name) PFN_##name name = nullptr;
  KILN_VKD3D_SHADER_FUNCTIONS(KILN_X)
#undef KILN_X
};

TEST_F(Dropin, ReportsTheApiItImplements) {
  unsigned major = 0, minor = 0;
  const char* version = vkd3d_shader_get_version(&major, &minor);
  EXPECT_EQ(major, 1u);
  EXPECT_EQ(minor, 2u);
  EXPECT_NE(std::string(version).find("kiln"), std::string::npos) << version;
}

TEST_F(Dropin, RootSignaturesRoundTripThroughTheSystemLibrary) {
  vkd3d_shader_root_parameter parameter{};
  parameter.parameter_type = VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
  parameter.u.constants = {2, 3, 4};
  parameter.shader_visibility = VKD3D_SHADER_VISIBILITY_PIXEL;
  vkd3d_shader_versioned_root_signature_desc desc{};
  desc.version = VKD3D_SHADER_ROOT_SIGNATURE_VERSION_1_0;
  desc.u.v_1_0.parameter_count = 1;
  desc.u.v_1_0.parameters = &parameter;
  vkd3d_shader_code dxbc{};
  char* messages = nullptr;
  ASSERT_EQ(vkd3d_shader_serialize_root_signature(&desc, &dxbc, &messages), VKD3D_OK);
  vkd3d_shader_free_messages(messages);

  vkd3d_shader_versioned_root_signature_desc parsed{};
  messages = nullptr;
  ASSERT_EQ(vkd3d_shader_parse_root_signature(&dxbc, &parsed, &messages), VKD3D_OK);
  vkd3d_shader_free_messages(messages);
  ASSERT_EQ(parsed.u.v_1_0.parameter_count, 1u);
  const vkd3d_shader_root_parameter& back = parsed.u.v_1_0.parameters[0];
  EXPECT_EQ(back.parameter_type, VKD3D_SHADER_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS);
  EXPECT_EQ(back.u.constants.shader_register, 2u);
  EXPECT_EQ(back.u.constants.register_space, 3u);
  EXPECT_EQ(back.u.constants.value_count, 4u);
  EXPECT_EQ(back.shader_visibility, VKD3D_SHADER_VISIBILITY_PIXEL);
  vkd3d_shader_free_root_signature(&parsed);
  vkd3d_shader_free_shader_code(&dxbc); // the system library's allocation, freed by it
}

// vkd3d_shader_scan answered from kiln's reflection (scan.h, called here in-process to tell
// kiln's answers from forwarded ones) gives the system library's descriptors, field by field,
// on every DXBC file of the shared corpus and conformance suite; and the drop-in's exported
// function, forwarding what kiln does not answer, agrees on every file.
bool same_descriptors(const vkd3d_shader_scan_descriptor_info& k,
                      const vkd3d_shader_scan_descriptor_info& e, const std::string& what) {
  EXPECT_EQ(k.descriptor_count, e.descriptor_count) << what;
  if (k.descriptor_count != e.descriptor_count) return false;
  bool same = true;
  for (unsigned i = 0; i < k.descriptor_count; ++i) {
    const vkd3d_shader_descriptor_info &a = k.descriptors[i], &b = e.descriptors[i];
    EXPECT_EQ(a.type, b.type) << what << " descriptor " << i;
    EXPECT_EQ(a.register_space, b.register_space) << what << " descriptor " << i;
    EXPECT_EQ(a.register_index, b.register_index) << what << " descriptor " << i;
    EXPECT_EQ(a.resource_type, b.resource_type) << what << " descriptor " << i;
    EXPECT_EQ(a.resource_data_type, b.resource_data_type) << what << " descriptor " << i;
    EXPECT_EQ(a.flags, b.flags) << what << " descriptor " << i;
    EXPECT_EQ(a.count, b.count) << what << " descriptor " << i;
    same = same && std::memcmp(&a, &b, sizeof a) == 0;
  }
  return same;
}

TEST_F(Dropin, ScansMatchTheSystemLibrarysOverTheSharedDxbc) {
  const auto corpus = corpus_dir();
  KILN_REQUIRE_DIR(corpus, "../shared/corpus");
  kiln::vkd3d::RealLibrary real;
  ASSERT_TRUE(real.loaded()) << real.error();
  kiln::vkd3d::Library& in_process = kiln::vkd3d::Library::instance();
  std::vector<std::filesystem::path> files = files_with_extension(corpus / "dxbc", ".dxbc");
  if (const auto conformance = conformance_dir(); !conformance.empty())
    for (const auto& path : files_with_extension(conformance / "tests", ".dxbc"))
      files.push_back(path);
  std::size_t scanned = 0, answered = 0, agree = 0, descriptors = 0, flagged = 0;
  std::map<std::string, std::size_t> forwarded;
  for (const auto& path : files) {
    const std::vector<std::uint8_t> bytes = read_bytes(path);
    vkd3d_shader_scan_descriptor_info expected{}, kiln_answer{}, dropin{};
    expected.type = kiln_answer.type = dropin.type =
        VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {bytes.data(), bytes.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_NONE;
    info.next = &expected;
    char* messages = nullptr;
    const int expected_result = real.vkd3d_shader_scan(&info, &messages);
    real.vkd3d_shader_free_messages(messages);
    if (expected_result != VKD3D_OK) continue; // not a shader vkd3d-shader reads
    ++scanned;
    const std::string what = path.filename().string();
    for (unsigned i = 0; i < expected.descriptor_count; ++i)
      flagged += expected.descriptors[i].flags != 0;
    descriptors += expected.descriptor_count;

    info.next = &kiln_answer;
    kiln::vkd3d::ForwardReason reason{};
    if (kiln::vkd3d::scan(in_process, info, reason)) {
      ++answered;
      agree += same_descriptors(kiln_answer, expected, what);
      in_process.release(kiln_answer.descriptors);
    } else {
      ++forwarded[std::string(kiln::vkd3d::forward_reason_name(reason))];
    }

    info.next = &dropin;
    messages = nullptr;
    EXPECT_EQ(vkd3d_shader_scan(&info, &messages), VKD3D_OK) << what;
    vkd3d_shader_free_messages(messages);
    same_descriptors(dropin, expected, what + " (drop-in)");
    vkd3d_shader_free_scan_descriptor_info(&dropin);
    real.vkd3d_shader_free_scan_descriptor_info(&expected);
  }
  std::string reasons;
  for (const auto& [name, count] : forwarded) reasons += " " + name + " x" + std::to_string(count);
  std::printf("%zu DXBC files scanned: kiln answered %zu, %zu of them as the system library "
              "(%zu descriptors, %zu with flags); forwarded:%s\n",
              scanned, answered, agree, descriptors, flagged, reasons.c_str());
  EXPECT_EQ(agree, answered);
  EXPECT_GT(answered, 1000u);
  EXPECT_GT(flagged, 100u);
}

// Buffer<double> t0 read by a compute shader: a typed resource whose data type the 1.2 API
// reports as FLOAT and API version 1.3 on as DOUBLE.
std::vector<std::uint8_t> double_buffer_shader() {
  namespace synth = kiln::synth::dxbc;
  synth::ProgramWriter w(ShaderStage::Compute, 5, 0);
  synth::Operand t0;
  t0.push(0x00107000); // t0, no components
  t0.push(0);
  w.emit(synth::Op::DclResource, {t0}, 1 /* buffer */, {0x7777 /* double x4 */});
  w.emit(synth::Op::DclThreadGroup, {}, 0, {1, 1, 1});
  w.emit(synth::Op::Ret, {});
  const std::vector<std::uint32_t> program = w.finish();
  synth::ContainerWriter c;
  c.add_chunk(synth::fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return c.finish();
}

TEST_F(Dropin, ScansFollowTheApiVersionTheClientNames) {
  const std::vector<std::uint8_t> bytes = double_buffer_shader();
  vkd3d_shader_compile_option option{vkd3d_shader_compile_option_name(vkd3d::kOptionApiVersion), 0};
  vkd3d_shader_compile_info info{};
  info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info.source = {bytes.data(), bytes.size()};
  info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  vkd3d::Library& library = vkd3d::Library::instance();
  struct Case {
    unsigned option_count, api_version;
    vkd3d_shader_resource_data_type expected; // 0: forwarded
  };
  for (const Case& c :
       {Case{0, 0, VKD3D_SHADER_RESOURCE_DATA_FLOAT}, Case{1, 2, VKD3D_SHADER_RESOURCE_DATA_FLOAT},
        Case{1, 3, vkd3d_shader_resource_data_type(7) /* DOUBLE */},
        Case{1, vkd3d::kNewestApiVersion + 1, vkd3d_shader_resource_data_type(0)}}) {
    option.value = c.api_version;
    info.options = &option;
    info.option_count = c.option_count;
    vkd3d_shader_scan_descriptor_info scan{};
    scan.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    info.next = &scan;
    vkd3d::ForwardReason reason{};
    const bool answered = vkd3d::scan(library, info, reason);
    ASSERT_EQ(answered, c.expected != 0) << "API 1." << c.api_version;
    if (!answered) {
      EXPECT_EQ(reason, vkd3d::ForwardReason::ApiVersion);
      continue;
    }
    ASSERT_EQ(scan.descriptor_count, 1u);
    EXPECT_EQ(scan.descriptors[0].resource_data_type, c.expected) << "API 1." << c.api_version;
    library.release(scan.descriptors);
  }
}

TEST_F(Dropin, InputSignaturesMatchTheSystemLibrarysOnEveryConformanceShader) {
  const auto dir = conformance_dir();
  KILN_REQUIRE_DIR(dir, "../shared/conformance");
  kiln::vkd3d::RealLibrary real;
  ASSERT_TRUE(real.loaded()) << real.error();
  std::size_t compared = 0;
  for (const auto& path : files_with_extension(dir / "tests", ".dxbc")) {
    const std::vector<std::uint8_t> bytes = read_bytes(path);
    const vkd3d_shader_code dxbc{bytes.data(), bytes.size()};
    vkd3d_shader_signature expected{}, kiln{};
    char* messages = nullptr;
    const int expected_result =
        real.vkd3d_shader_parse_input_signature(&dxbc, &expected, &messages);
    real.vkd3d_shader_free_messages(messages);
    messages = nullptr;
    const int kiln_result = vkd3d_shader_parse_input_signature(&dxbc, &kiln, &messages);
    vkd3d_shader_free_messages(messages);
    ASSERT_EQ(kiln_result, expected_result) << path;
    // vkd3d-shader 1.2 reads ISGN chunks only and reports an ISG1 (minimum-precision) input
    // signature as empty; kiln reads both, so only what vkd3d-shader sees is compared.
    if (kiln_result == VKD3D_OK && expected.element_count != 0) {
      ASSERT_EQ(kiln.element_count, expected.element_count) << path;
      for (unsigned i = 0; i < kiln.element_count; ++i) {
        const vkd3d_shader_signature_element &k = kiln.elements[i], &e = expected.elements[i];
        EXPECT_STREQ(k.semantic_name, e.semantic_name) << path << " element " << i;
        EXPECT_EQ(k.semantic_index, e.semantic_index) << path << " element " << i;
        EXPECT_EQ(k.stream_index, e.stream_index) << path << " element " << i;
        EXPECT_EQ(k.sysval_semantic, e.sysval_semantic) << path << " element " << i;
        EXPECT_EQ(k.component_type, e.component_type) << path << " element " << i;
        EXPECT_EQ(k.register_index, e.register_index) << path << " element " << i;
        EXPECT_EQ(k.mask, e.mask) << path << " element " << i;
        EXPECT_EQ(k.used_mask, e.used_mask) << path << " element " << i;
        EXPECT_EQ(k.min_precision, e.min_precision) << path << " element " << i;
        // Lookups agree, in either case spelling.
        std::string upper = e.semantic_name;
        for (char& c : upper) c = char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        EXPECT_EQ(vkd3d_shader_find_signature_element(&kiln, upper.c_str(), e.semantic_index,
                                                      e.stream_index) -
                      kiln.elements,
                  real.vkd3d_shader_find_signature_element(&expected, upper.c_str(),
                                                           e.semantic_index, e.stream_index) -
                      expected.elements);
      }
      ++compared;
    }
    if (kiln_result == VKD3D_OK) {
      vkd3d_shader_free_shader_signature(&kiln);
      EXPECT_EQ(kiln.elements, nullptr);
      real.vkd3d_shader_free_shader_signature(&expected);
    }
  }
  EXPECT_GT(compared, 100u);
}

class DropinCompile : public Dropin {
 protected:
  void SetUp() override {
    Dropin::SetUp();
    const auto dir = conformance_dir();
    KILN_REQUIRE_DIR(dir, "../shared/conformance");
    // RWBuffer<uint> u1 and a constant buffer b0 read by a compute shader.
    bytecode_ = read_bytes(dir / "tests/uav-atomics/2.cs.sm5.dxbc");
    ASSERT_FALSE(bytecode_.empty());
    bindings_[0] = {VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, 0,        1, VKD3D_SHADER_VISIBILITY_ALL,
                    VKD3D_SHADER_BINDING_FLAG_BUFFER, {2, 7, 1}};
    push_constants_ = {0, 0, VKD3D_SHADER_VISIBILITY_ALL, 0, 16};
    interface_.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    interface_.bindings = bindings_;
    interface_.binding_count = 1;
    interface_.push_constant_buffers = &push_constants_;
    interface_.push_constant_buffer_count = 1;
    target_.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target_.next = &interface_;
    target_.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    info_.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info_.next = &target_;
    info_.source = {bytecode_.data(), bytecode_.size()};
    info_.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info_.log_level = VKD3D_SHADER_LOG_ERROR;
  }

  // In a death test's child: compiles info_ once, with KILN_VKD3D_SHADER_STATS=1 so that the
  // library prints its stats line at exit, and exits with status 0.
  [[noreturn]] void compile_once_and_exit() {
    setenv("KILN_VKD3D_SHADER_STATS", "1", 1);
    vkd3d_shader_code code{};
    char* text = nullptr;
    if (vkd3d_shader_compile(&info_, &code, &text) == VKD3D_OK)
      vkd3d_shader_free_shader_code(&code);
    vkd3d_shader_free_messages(text);
    std::exit(0);
  }

  std::vector<std::uint8_t> bytecode_;
  vkd3d_shader_resource_binding bindings_[1]{};
  vkd3d_shader_push_constant_buffer push_constants_{};
  vkd3d_shader_interface_info interface_{};
  vkd3d_shader_spirv_target_info target_{};
  vkd3d_shader_compile_info info_{};
};

TEST_F(DropinCompile, DxbcBecomesValidSpirv10UnderTheClientsInterface) {
  vkd3d_shader_code spirv{};
  char* messages = nullptr;
  ASSERT_EQ(vkd3d_shader_compile(&info_, &spirv, &messages), VKD3D_OK);
  EXPECT_EQ(messages, nullptr); // kiln has nothing to say about a shader it translated
  ASSERT_GE(spirv.size, 20u);
  std::vector<std::uint32_t> words(spirv.size / 4);
  std::memcpy(words.data(), spirv.code, words.size() * 4);
  EXPECT_EQ(words[1], 0x00010000u) << "SPIR-V 1.0 for a Vulkan 1.0 environment";
  const Status valid = validate_spirv(words, SpirvTarget::Vulkan10);
  EXPECT_TRUE(valid) << valid.message();
  vkd3d_shader_free_shader_code(&spirv); // kiln's allocation, freed by kiln
}

TEST_F(DropinCompile, RequestsWithoutAnInterfaceGetTheFallbackLayoutFromKiln) {
  // Without an interface vkd3d-shader lays the descriptors out in set 0, numbered in the order
  // the shader declares them (b0, then u1): kiln serves the request with that layout.
  target_.next = nullptr;
  vkd3d_shader_code spirv{};
  char* messages = nullptr;
  ASSERT_EQ(vkd3d_shader_compile(&info_, &spirv, &messages), VKD3D_OK);
  EXPECT_EQ(messages, nullptr); // kiln's: the system library has warnings for this shader
  vkd3d_shader_free_messages(messages);
  std::vector<std::uint32_t> words(spirv.size / 4);
  std::memcpy(words.data(), spirv.code, words.size() * 4);
  vkd3d_shader_free_shader_code(&spirv);
  ASSERT_GE(words.size(), 5u);
  EXPECT_NE(words[2] >> 16, 18u) << "the module is Wine VKD3D's (generator 18), not kiln's";
  ModuleInterface facts;
  std::string error;
  ASSERT_TRUE(read_module_interface(words, facts, error)) << error;
  ASSERT_EQ(facts.descriptors.size(), 2u);
  EXPECT_EQ(facts.descriptors[0].set, 0u);
  EXPECT_EQ(facts.descriptors[0].binding, 0u);
  EXPECT_EQ(facts.descriptors[0].descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  EXPECT_EQ(facts.descriptors[1].set, 0u);
  EXPECT_EQ(facts.descriptors[1].binding, 1u);
  EXPECT_EQ(facts.descriptors[1].descriptor_type,
            std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER));
}

TEST_F(DropinCompile, TextTargetsAreForwarded) {
  // Debian's vkd3d-shader is built without SPIR-V text output: the answer must be its own.
  info_.target_type = VKD3D_SHADER_TARGET_SPIRV_TEXT;
  vkd3d_shader_code text{};
  char* messages = nullptr;
  const int kiln_result = vkd3d_shader_compile(&info_, &text, &messages);
  vkd3d_shader_free_messages(messages);
  if (kiln_result == VKD3D_OK) vkd3d_shader_free_shader_code(&text);
  kiln::vkd3d::RealLibrary real;
  ASSERT_TRUE(real.loaded()) << real.error();
  messages = nullptr;
  vkd3d_shader_code real_text{};
  EXPECT_EQ(kiln_result, real.vkd3d_shader_compile(&info_, &real_text, &messages));
  real.vkd3d_shader_free_messages(messages);
  if (real_text.code) real.vkd3d_shader_free_shader_code(&real_text);
}

TEST_F(DropinCompile, StagesNamedByTheForwardKnobGoToTheSystemLibrary) {
  // KILN_VKD3D_SHADER_FORWARD is read when the library starts: a child process (re-run from the
  // start of this test) sets it first, compiles the compute shader kiln would serve, and exits.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char* stages : {"cs", "vs,cs", "ps"}) {
    SCOPED_TRACE(stages);
    const std::string expected =
        std::string(stages) == "ps"
            ? "kiln vkd3d-shader: 1 compiles, 1 by kiln, 0 forwarded"
            : "kiln vkd3d-shader: 1 compiles, 0 by kiln, 1 forwarded \\(forced x1\\)";
    EXPECT_EXIT(
        {
          setenv("KILN_VKD3D_SHADER_FORWARD", stages, 1);
          compile_once_and_exit();
        },
        ::testing::ExitedWithCode(0), expected);
  }
}

// A structure type the 1.2 API does not have (a newer client's), chained first: kiln cannot know
// what it asks for, so the system library answers (it skips what it does not read).
class DropinUnknownStructure : public DropinCompile {
 protected:
  void SetUp() override {
    DropinCompile::SetUp();
    unknown_.next = &target_;
    info_.next = &unknown_;
  }
  struct {
    vkd3d_shader_structure_type type = static_cast<vkd3d_shader_structure_type>(0x7fff0001);
    const void* next = nullptr;
  } unknown_;
};

TEST_F(DropinUnknownStructure, IsAnsweredByTheSystemLibrary) {
  vkd3d_shader_code spirv{};
  char* messages = nullptr;
  ASSERT_EQ(vkd3d_shader_compile(&info_, &spirv, &messages), VKD3D_OK);
  vkd3d_shader_free_messages(messages);
  kiln::vkd3d::RealLibrary real;
  ASSERT_TRUE(real.loaded()) << real.error();
  vkd3d_shader_code expected{};
  messages = nullptr;
  ASSERT_EQ(real.vkd3d_shader_compile(&info_, &expected, &messages), VKD3D_OK);
  real.vkd3d_shader_free_messages(messages);
  // The system library's module to the byte (kiln's own differs: another generator).
  ASSERT_EQ(spirv.size, expected.size);
  EXPECT_EQ(std::memcmp(spirv.code, expected.code, spirv.size), 0);
  vkd3d_shader_free_shader_code(&spirv);
  real.vkd3d_shader_free_shader_code(&expected);
}

TEST_F(DropinUnknownStructure, IsCountedAsStructureInTheStatsLine) {
  // The line is printed at exit: a child process (re-run from the start of this test, so its
  // library has seen nothing else) makes the one compile and exits.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT({ compile_once_and_exit(); }, ::testing::ExitedWithCode(0),
              "kiln vkd3d-shader: 1 compiles, 0 by kiln, 1 forwarded \\(structure x1\\)");
}

} // namespace
} // namespace kiln::test
