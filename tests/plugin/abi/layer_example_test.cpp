// The worked example: a miniature D3D11-on-Vulkan layer. It dlopen()s libkiln.so as a layer
// would, creates a Vulkan device on lavapipe with volk, and hands kiln that device. At "load
// time" it calls the d3d11 hooks for a few hundred corpus shaders, as a game creates its
// shaders; at "draw time" it waits on each handle and takes the VkShaderModule. Finally it
// creates a compute shader, builds a pipeline over kiln's module and checks what a dispatch
// writes.

#include "bench/synth/dxbc_writer.h"
#include "kiln/kiln.h"
#include "kiln/kiln_hooks.h"
#include "tests/plugin/abi/module_compute.h"
#include "tests/support/shared_data.h"
#include "translator/dxbc/disassembler.h"

#include <dlfcn.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>

namespace kiln::test {
namespace {

constexpr std::size_t kShaders = 300;
constexpr std::uint64_t kDrawTimeoutNs = 120ull * 1000 * 1000 * 1000;

// The layer's view of kiln: function pointers from kiln_get_proc_addr.
struct Kiln {
  void* library = nullptr;
  PFN_kiln_get_proc_addr get_proc_addr = nullptr;
  bool load() {
    library = dlopen(KILN_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!library) return false;
    get_proc_addr = reinterpret_cast<PFN_kiln_get_proc_addr>(dlsym(library, "kiln_get_proc_addr"));
    return get_proc_addr != nullptr;
  }
  template <typename Pfn>
  Pfn get(const char* name) const {
    return reinterpret_cast<Pfn>(get_proc_addr(name));
  }
};

struct CorpusShader {
  std::filesystem::path path;
  std::string stage; // "vs", "ps", ...
};

// Valid DXBC shaders of the corpus manifest, spread evenly over it.
std::vector<CorpusShader> corpus_shaders(const std::filesystem::path& corpus, std::size_t count) {
  std::ifstream manifest(corpus / "manifest.tsv");
  std::vector<CorpusShader> all;
  std::string line;
  std::getline(manifest, line); // header
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string file, kind, group, stage;
    std::getline(fields, file, '\t');
    std::getline(fields, kind, '\t');
    std::getline(fields, group, '\t');
    std::getline(fields, stage, '\t');
    if (kind == "dxbc" && group == "valid") all.push_back({corpus / file, stage});
  }
  std::vector<CorpusShader> picked;
  for (std::size_t i = 0; i < count && !all.empty(); ++i)
    picked.push_back(all[i * all.size() / count]);
  return picked;
}

// cs_5_0, 64 threads: u0 is a raw buffer; out[i] = 3 * i + 7.
std::vector<std::uint8_t> compute_shader_bytecode() {
  using namespace kiln::synth::dxbc;
  namespace opd = operand;
  ProgramWriter w(ShaderStage::Compute, 5, 0);
  Operand uav;
  uav.push(0x0011e000); // u#, no components
  uav.push(0);
  w.emit(Op::DclUavRaw, {uav});
  Operand thread_id;
  thread_id.push(0x00020012); // vThreadID.x
  w.emit(Op::DclInput, {thread_id});
  w.emit(Op::DclTemps, {}, 0, {1});
  w.emit(Op::DclThreadGroup, {}, 0, {64, 1, 1});
  const std::uint32_t x = swizzle(0, 0, 0, 0);
  w.emit(Op::IShl, {opd::temp_dst(0, 0x1), opd::thread_id(x), opd::imm1_bits(2)});
  w.emit(Op::IMad,
         {opd::temp_dst(0, 0x2), opd::thread_id(x), opd::imm1_bits(3), opd::imm1_bits(7)});
  w.emit(Op::StoreRaw, {opd::uav(0, 0x1, true), opd::temp_scalar(0, 0), opd::temp_scalar(0, 1)});
  w.emit(Op::Ret, {});
  const std::vector<std::uint32_t> program = w.finish();
  ContainerWriter container;
  container.add_chunk(fourcc('I', 'S', 'G', 'N'), signature_chunk({}));
  container.add_chunk(fourcc('O', 'S', 'G', 'N'), signature_chunk({}));
  container.add_chunk(fourcc('S', 'H', 'E', 'X'), std::span<const std::uint32_t>(program));
  return container.finish();
}

class LayerExample : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kiln_.load()) << "dlopen(" KILN_LIBRARY_PATH "): " << dlerror();
    std::string why_not;
    vulkan_ = vulkan::Context::create(why_not); // volkInitialize + instance + lavapipe device
    if (!vulkan_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
    kiln_vulkan_device_info device{};
    device.type = KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO;
    device.instance = vulkan_->instance();
    device.device = vulkan_->device();
    device.get_instance_proc_addr =
        reinterpret_cast<kiln_vk_get_instance_proc_addr>(vkGetInstanceProcAddr);
    kiln_context_create_info info{};
    info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    info.next = &device;
    info.flags = KILN_CONTEXT_DISABLE_CACHE; // every shader really goes through translation
    info.target = vulkan_->api_version() >= VK_API_VERSION_1_3   ? KILN_TARGET_VULKAN_1_3
                  : vulkan_->api_version() >= VK_API_VERSION_1_2 ? KILN_TARGET_VULKAN_1_2
                                                                 : KILN_TARGET_VULKAN_1_1;
    info.log_callback = [](void*, kiln_log_level, const char*) {}; // failures counted below
    ASSERT_EQ(kiln_.get<PFN_kiln_context_create>("kiln_context_create")(&info, &context_),
              KILN_SUCCESS);
  }
  void TearDown() override {
    if (context_) kiln_.get<PFN_kiln_context_destroy>("kiln_context_destroy")(context_);
  }

  Kiln kiln_;
  std::unique_ptr<vulkan::Context> vulkan_;
  kiln_context* context_ = nullptr;
};

TEST_F(LayerExample, LoadTimeCreatesThenDrawTimeWaitsAndTakesModules) {
  const auto corpus = corpus_dir();
  KILN_REQUIRE_DIR(corpus, "corpus");
  const std::map<std::string, PFN_kiln_d3d11_create_shader> create_by_stage = {
      {"vs", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_vertex_shader")},
      {"hs", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_hull_shader")},
      {"ds", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_domain_shader")},
      {"gs", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_geometry_shader")},
      {"ps", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_pixel_shader")},
      {"cs", kiln_.get<PFN_kiln_d3d11_create_shader>("kiln_d3d11_create_compute_shader")},
  };
  const auto wait = kiln_.get<PFN_kiln_wait>("kiln_wait");
  const auto get_module = kiln_.get<PFN_kiln_get_shader_module>("kiln_get_shader_module");
  const auto error = kiln_.get<PFN_kiln_shader_error>("kiln_shader_error");
  const auto release = kiln_.get<PFN_kiln_shader_release>("kiln_shader_release");

  // Load time: the game creates its shaders; the layer forwards each and keeps the handle.
  const auto shaders = corpus_shaders(corpus, kShaders);
  ASSERT_EQ(shaders.size(), kShaders);
  std::vector<kiln_shader*> handles;
  for (const CorpusShader& shader : shaders) {
    const auto bytes = read_bytes(shader.path);
    kiln_shader* handle = nullptr;
    ASSERT_TRUE(create_by_stage.count(shader.stage)) << shader.stage;
    EXPECT_EQ(create_by_stage.at(shader.stage)(context_, bytes.data(), bytes.size(), &handle),
              KILN_S_OK)
        << shader.path;
    handles.push_back(handle);
  }
  // Draw time: each draw waits for its shader and binds its module.
  std::size_t with_module = 0, rejected = 0;
  std::map<std::string, std::size_t> reasons;
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (!handles[i]) continue;
    const kiln_result result = wait(handles[i], kDrawTimeoutNs);
    if (result == KILN_SUCCESS) {
      std::uint64_t module = 0;
      EXPECT_EQ(get_module(handles[i], &module), KILN_SUCCESS) << shaders[i].path;
      EXPECT_NE(module, 0u);
      with_module += module != 0;
    } else {
      EXPECT_EQ(result, KILN_ERROR_TRANSLATION_FAILED) << shaders[i].path;
      const char* why = error(handles[i]);
      ASSERT_NE(why, nullptr);
      ++rejected;
      ++reasons[std::string(why).substr(0, 60)];
    }
    release(handles[i]);
  }
  std::printf("layer example: %zu shaders, %zu with a VkShaderModule, %zu rejected\n",
              handles.size(), with_module, rejected);
  for (const auto& [reason, count] : reasons) std::printf("  %4zu x %s\n", count, reason.c_str());
  EXPECT_EQ(with_module + rejected, kShaders);
}

TEST_F(LayerExample, ComputeShaderDispatchWritesTheExpectedValues) {
  const auto bytes = compute_shader_bytecode();
  // The bytecode itself is sound: kiln's DXBC reader decodes and lists it.
  std::string listing;
  const Status decoded = dxbc::disassemble(bytes, listing);
  ASSERT_TRUE(decoded) << decoded.message();
  EXPECT_NE(listing.find("store_raw u0.x, r0.x, r0.y"), std::string::npos) << listing;
  kiln_shader* shader = nullptr;
  ASSERT_EQ(kiln_.get<PFN_kiln_d3d11_create_compute_shader>("kiln_d3d11_create_compute_shader")(
                context_, bytes.data(), bytes.size(), &shader),
            KILN_S_OK);
  // Created as the wrong stage, the same bytes are refused at once.
  kiln_shader* wrong = nullptr;
  EXPECT_EQ(kiln_.get<PFN_kiln_d3d11_create_pixel_shader>("kiln_d3d11_create_pixel_shader")(
                context_, bytes.data(), bytes.size(), &wrong),
            KILN_E_INVALIDARG);
  EXPECT_EQ(wrong, nullptr);

  const auto release = kiln_.get<PFN_kiln_shader_release>("kiln_shader_release");
  const kiln_result result = kiln_.get<PFN_kiln_wait>("kiln_wait")(shader, kDrawTimeoutNs);
  if (result != KILN_SUCCESS) {
    const std::string why = kiln_.get<PFN_kiln_shader_error>("kiln_shader_error")(shader);
    release(shader);
    FAIL() << "the layer's cs_5_0 store_raw shader did not translate: " << why;
  }
  kiln_reflection reflection{};
  reflection.type = KILN_STRUCTURE_TYPE_REFLECTION;
  ASSERT_EQ(kiln_.get<PFN_kiln_get_reflection>("kiln_get_reflection")(shader, &reflection),
            KILN_SUCCESS);
  EXPECT_EQ(reflection.stage, KILN_STAGE_COMPUTE);
  // The layer builds its descriptor set layout from the reflection: u0 as a storage buffer.
  const kiln_resource_binding* u0 = nullptr;
  for (std::uint32_t i = 0; i < reflection.resource_count; ++i)
    if (reflection.resources[i].register_class == 2 && reflection.resources[i].register_index == 0)
      u0 = &reflection.resources[i];
  ASSERT_NE(u0, nullptr) << "reflection lists no u0";
  EXPECT_EQ(u0->set, 0u);
  EXPECT_EQ(u0->descriptor_type, std::uint32_t(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));

  std::uint64_t module = 0;
  ASSERT_EQ(kiln_.get<PFN_kiln_get_shader_module>("kiln_get_shader_module")(shader, &module),
            KILN_SUCCESS);
  vulkan::Buffer output;
  ASSERT_TRUE(vulkan::Buffer::create(*vulkan_, 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, output));
  const vulkan::BufferBinding bindings[] = {
      {u0->binding, VkDescriptorType(u0->descriptor_type), &output}};
  const Status status = run_compute_module(*vulkan_, VkShaderModule(module), bindings, 1);
  ASSERT_TRUE(status) << status.message();
  const auto values = output.read<std::uint32_t>();
  for (std::uint32_t i = 0; i < 64; ++i) EXPECT_EQ(values[i], 3 * i + 7) << "element " << i;
  release(shader);
}

} // namespace
} // namespace kiln::test
