// kiln-demo-layer: plays a D3D-on-Vulkan layer's part against kiln's pipeline records and
// replay on lavapipe (docs/cache.md, "Pipeline records"). A "game" creates N vertex/pixel shader
// pairs at load time; the layer gives kiln its pipeline-compile callback, so kiln replays the
// pipelines recorded by earlier runs while the loading screen lasts (until kiln reports the
// replay done, or --load-ms); then the first frame draws with every pipeline. A pipeline the
// replay did not build makes its draw wait: kiln_wait_pipeline (which builds a queued replay on
// this thread) or, when kiln has none, the layer builds it itself. Every pipeline used is
// recorded for the next run.
//
// usage: kiln-demo-layer --cache DIR --pipelines N [--load-ms L] [--threads T] [--driver-cache]
// (--driver-cache: kiln keeps a VkPipelineCache for the device, KILN_REPLAY_DRIVER_CACHE)
// Last line: pipelines N, ready before first draw R, draws that waited W, load L ms,
//            first frame T ms
// Exit status: 0, 1 on a Vulkan or kiln failure, 2 on bad arguments, 77 without a Vulkan
// device (unless CI=true, then 1).

#include "kiln/kiln.h"
#include "tests/pipeline_demo/demo_shaders.h"
#include "bench/execute/vulkan_graphics.h"
#include "bench/execute/vulkan_harness.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Which layer (high 32 bits) and the version of its state format (low 32 bits).
constexpr std::uint64_t kFormatTag = (std::uint64_t(0x44454d4f) << 32) | 1; // "DEMO", v1
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr std::uint32_t kTargetSize = 64;

// The layer's pipeline key: what its pipelines differ by besides the shaders (opaque to kiln).
struct PipelineState {
  std::uint32_t version = 1;
  std::uint32_t topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::uint32_t cull_mode = VK_CULL_MODE_NONE;
  std::uint32_t blend = 0;
  std::uint32_t color_format = kColorFormat;
  std::uint32_t position_location = 0;
};

struct KeyHash {
  std::size_t operator()(const kiln_pipeline_key& key) const { return std::size_t(key.low); }
};
struct KeyEqual {
  bool operator()(const kiln_pipeline_key& a, const kiln_pipeline_key& b) const {
    return a.low == b.low && a.high == b.high;
  }
};

class Layer {
 public:
  Layer(kiln::vulkan::Context& vulkan) : vulkan_(vulkan) {
    auto info = VkPipelineLayoutCreateInfo{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    vulkan_.vk().vkCreatePipelineLayout(vulkan_.device(), &info, nullptr, &layout_);
  }
  ~Layer() {
    for (const auto& [key, pipeline] : pipelines_)
      vulkan_.vk().vkDestroyPipeline(vulkan_.device(), pipeline, nullptr);
    vulkan_.vk().vkDestroyPipelineLayout(vulkan_.device(), layout_, nullptr);
  }

  // kiln's replay callback: build the pipeline from its modules and state, and keep it.
  static kiln_result compile(void* user_data, const kiln_replay_pipeline* pipeline) {
    auto& layer = *static_cast<Layer*>(user_data);
    PipelineState state;
    if (pipeline->state_size != sizeof state || pipeline->stage_count != 2)
      return KILN_ERROR_UNSUPPORTED; // not a state this layer version writes
    std::memcpy(&state, pipeline->state, sizeof state);
    const VkShaderModule modules[2] = {VkShaderModule(pipeline->stages[0].shader_module),
                                       VkShaderModule(pipeline->stages[1].shader_module)};
    VkPipeline built = VK_NULL_HANDLE;
    if (!layer.create(modules, state, VkPipelineCache(pipeline->pipeline_cache), built))
      return KILN_ERROR_VULKAN;
    layer.keep(pipeline->key, built);
    return KILN_SUCCESS;
  }

  bool create(const VkShaderModule (&modules)[2], const PipelineState& state, VkPipelineCache cache,
              VkPipeline& out) {
    VkPipelineShaderStageCreateInfo stages[2] = {};
    for (int i = 0; i < 2; ++i) {
      stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
      stages[i].module = modules[i];
      stages[i].pName = "main";
    }
    const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attribute{state.position_location, 0,
                                                      VK_FORMAT_R32G32B32A32_SFLOAT, 0};
    VkPipelineVertexInputStateCreateInfo vertex_input{};
    vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &binding;
    vertex_input.vertexAttributeDescriptionCount = 1;
    vertex_input.pVertexAttributeDescriptions = &attribute;
    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = VkPrimitiveTopology(state.topology);
    VkPipelineViewportStateCreateInfo viewport{};
    viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewport.viewportCount = viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = state.cull_mode;
    raster.frontFace = VK_FRONT_FACE_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.blendEnable = state.blend;
    attachment.srcColorBlendFactor = attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    attachment.dstColorBlendFactor = attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    attachment.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo blend{};
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend.attachmentCount = 1;
    blend.pAttachments = &attachment;
    const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{};
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;
    const VkFormat color_format = VkFormat(state.color_format);
    VkPipelineRenderingCreateInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &color_format;
    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.pNext = &rendering;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout_;
    return vulkan_.vk().vkCreateGraphicsPipelines(vulkan_.device(), cache, 1, &info, nullptr,
                                                  &out) == VK_SUCCESS;
  }

  void keep(const kiln_pipeline_key& key, VkPipeline pipeline) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = pipelines_.emplace(key, pipeline);
    if (!inserted) vulkan_.vk().vkDestroyPipeline(vulkan_.device(), pipeline, nullptr);
  }
  VkPipeline find(const kiln_pipeline_key& key) {
    std::lock_guard lock(mutex_);
    const auto it = pipelines_.find(key);
    return it == pipelines_.end() ? VK_NULL_HANDLE : it->second;
  }
  std::size_t ready() {
    std::lock_guard lock(mutex_);
    return pipelines_.size();
  }

 private:
  kiln::vulkan::Context& vulkan_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::unordered_map<kiln_pipeline_key, VkPipeline, KeyHash, KeyEqual> pipelines_;
};

struct Arguments {
  std::string cache;
  std::uint32_t pipelines = 0;
  std::uint32_t load_ms = 10000;
  std::uint32_t threads = 0;
  bool driver_cache = false;
};

bool parse(int argc, char** argv, Arguments& out) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--driver-cache") {
      out.driver_cache = true;
      continue;
    }
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!value) return false;
    ++i;
    char* end = nullptr;
    const unsigned long number = std::strtoul(value, &end, 10);
    const bool numeric = *value && *end == '\0' && number <= 1000000;
    if (arg == "--cache")
      out.cache = value;
    else if (arg == "--pipelines" && numeric && number > 0)
      out.pipelines = std::uint32_t(number);
    else if (arg == "--load-ms" && numeric)
      out.load_ms = std::uint32_t(number);
    else if (arg == "--threads" && numeric)
      out.threads = std::uint32_t(number);
    else
      return false;
  }
  return !out.cache.empty() && out.pipelines > 0;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int fail(const std::string& message) {
  std::fprintf(stderr, "kiln-demo-layer: %s\n", message.c_str());
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  Arguments args;
  if (!parse(argc, argv, args)) {
    std::fprintf(stderr, "usage: kiln-demo-layer --cache DIR --pipelines N [--load-ms L] "
                         "[--threads T] [--driver-cache]\n");
    return 2;
  }
  std::string why_not;
  auto vulkan = kiln::vulkan::Context::create(why_not);
  if (!vulkan) {
    std::fprintf(stderr, "kiln-demo-layer: no Vulkan device: %s\n", why_not.c_str());
    const char* ci = std::getenv("CI");
    return ci && std::string(ci) == "true" ? 1 : 77;
  }
  Layer layer(*vulkan);

  kiln_vulkan_device_info device{};
  device.type = KILN_STRUCTURE_TYPE_VULKAN_DEVICE_INFO;
  device.instance = vulkan->instance();
  device.device = vulkan->device();
  device.get_instance_proc_addr =
      reinterpret_cast<kiln_vk_get_instance_proc_addr>(vkGetInstanceProcAddr);
  kiln_pipeline_replay_info replay{};
  replay.type = KILN_STRUCTURE_TYPE_PIPELINE_REPLAY_INFO;
  replay.next = &device;
  replay.format_tag = kFormatTag;
  replay.compile = &Layer::compile;
  replay.user_data = &layer;
  if (args.driver_cache) {
    replay.flags = KILN_REPLAY_DRIVER_CACHE;
    replay.physical_device = vulkan->physical_device();
  }
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.next = &replay;
  info.thread_count = args.threads;
  info.cache_path = args.cache.c_str();
  info.target =
      vulkan->api_version() >= VK_API_VERSION_1_3 ? KILN_TARGET_VULKAN_1_3 : KILN_TARGET_VULKAN_1_2;
  kiln_context* context = nullptr;
  if (kiln_result r = kiln_context_create(&info, &context); r != KILN_SUCCESS)
    return fail(std::string("kiln_context_create: ") + kiln_result_string(r));

  // Load: the game creates its shaders (kiln translates them in the background) while the
  // loading screen waits for kiln's replay.
  const auto load_start = Clock::now();
  struct GamePipeline {
    kiln_shader* shaders[2] = {};
    PipelineState state;
    kiln_pipeline_record_info record{};
  };
  std::vector<GamePipeline> game(args.pipelines);
  for (std::uint32_t i = 0; i < args.pipelines; ++i) {
    GamePipeline& p = game[i];
    const std::vector<std::uint8_t> code[2] = {kiln::demo::vertex_shader(i),
                                               kiln::demo::pixel_shader(i)};
    for (int s = 0; s < 2; ++s) {
      kiln_submit_info submit{};
      submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
      submit.code = code[s].data();
      submit.code_size = code[s].size();
      submit.expected_stage = s == 0 ? KILN_STAGE_VERTEX : KILN_STAGE_PIXEL;
      submit.priority = KILN_PRIORITY_NORMAL;
      if (kiln_result r = kiln_submit(context, &submit, &p.shaders[s]); r != KILN_SUCCESS)
        return fail(std::string("kiln_submit: ") + kiln_result_string(r));
    }
    p.state.blend = i % 3 == 0;
    p.state.cull_mode = i % 2 ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT;
    p.record = {KILN_STRUCTURE_TYPE_PIPELINE_RECORD_INFO,
                nullptr,
                kFormatTag,
                2,
                p.shaders,
                &p.state,
                sizeof p.state};
  }
  kiln_replay_status status{};
  status.type = KILN_STRUCTURE_TYPE_REPLAY_STATUS;
  while (kiln_get_replay_status(context, &status) == KILN_SUCCESS && !status.done &&
         ms_since(load_start) < args.load_ms)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double load_ms = ms_since(load_start);

  // The first frame: every pipeline, each draw waiting for what is not built yet.
  kiln::vulkan::Image target;
  kiln::vulkan::ImageDesc target_desc;
  target_desc.format = kColorFormat;
  target_desc.width = target_desc.height = kTargetSize;
  target_desc.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  kiln::vulkan::Buffer vertices;
  if (kiln::Status s = kiln::vulkan::Image::create(*vulkan, target_desc, target); !s)
    return fail(s.message());
  if (kiln::Status s = kiln::vulkan::Buffer::create(*vulkan, 3 * 16,
                                                    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vertices);
      !s)
    return fail(s.message());
  const float triangle[12] = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
  std::memcpy(vertices.mapped(), triangle, sizeof triangle);

  const std::size_t ready_before = layer.ready();
  std::uint64_t waited = 0;
  std::vector<double> record_us;
  std::vector<VkPipeline> frame;
  const auto frame_start = Clock::now();
  for (GamePipeline& p : game) {
    kiln_pipeline_key key{};
    const auto record_start = Clock::now();
    if (kiln_result r = kiln_record_pipeline(context, &p.record, &key); r != KILN_SUCCESS)
      return fail(std::string("kiln_record_pipeline: ") + kiln_result_string(r));
    record_us.push_back(ms_since(record_start) * 1000.0);
    VkPipeline pipeline = layer.find(key);
    if (!pipeline) {
      ++waited;
      const kiln_result r = kiln_wait_pipeline(context, &p.record, UINT64_MAX);
      pipeline = layer.find(key);
      if (!pipeline) {
        if (r != KILN_NOT_REPLAYED && r != KILN_SUCCESS)
          std::fprintf(stderr, "kiln-demo-layer: replay of a pipeline failed (%s); building it\n",
                       kiln_result_string(r));
        // No replay of it: the layer builds it now, as without kiln's records.
        VkShaderModule modules[2] = {};
        for (int s = 0; s < 2; ++s) {
          std::uint64_t module = 0;
          if (kiln_result w = kiln_wait(p.shaders[s], UINT64_MAX); w != KILN_SUCCESS)
            return fail(std::string("shader: ") + kiln_result_string(w) + ": " +
                        (kiln_shader_error(p.shaders[s]) ? kiln_shader_error(p.shaders[s]) : ""));
          if (kiln_result m = kiln_get_shader_module(p.shaders[s], &module); m != KILN_SUCCESS)
            return fail(std::string("kiln_get_shader_module: ") + kiln_result_string(m));
          modules[s] = VkShaderModule(module);
        }
        std::uint64_t driver_cache = 0; // KILN_ERROR_UNSUPPORTED leaves it 0: no cache
        kiln_get_pipeline_cache(context, &driver_cache);
        if (!layer.create(modules, p.state, VkPipelineCache(driver_cache), pipeline))
          return fail("vkCreateGraphicsPipelines failed");
        layer.keep(key, pipeline);
        pipeline = layer.find(key);
      }
    }
    frame.push_back(pipeline);
  }
  kiln::Status drawn = vulkan->submit([&](VkCommandBuffer cmd) {
    const VolkDeviceTable& vk = vulkan->vk();
    VkRenderingAttachmentInfo color{};
    color.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color.imageView = target.attachment_view();
    color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
    rendering.renderArea = {{0, 0}, {kTargetSize, kTargetSize}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    vk.vkCmdBeginRendering(cmd, &rendering);
    const VkViewport viewport{0, 0, float(kTargetSize), float(kTargetSize), 0, 1};
    vk.vkCmdSetViewport(cmd, 0, 1, &viewport);
    vk.vkCmdSetScissor(cmd, 0, 1, &rendering.renderArea);
    const VkBuffer buffer = vertices.handle();
    const VkDeviceSize offset = 0;
    vk.vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &offset);
    for (VkPipeline pipeline : frame) {
      vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      vk.vkCmdDraw(cmd, 3, 1, 0, 0);
    }
    vk.vkCmdEndRendering(cmd);
  });
  const double frame_ms = ms_since(frame_start);
  if (!drawn) return fail(drawn.message());

  std::sort(record_us.begin(), record_us.end());
  kiln_get_replay_status(context, &status);
  std::printf("replay: records %llu, built %llu, built on a waiting thread %llu, failed %llu, "
              "retired %llu; driver cache loaded %llu bytes; kiln_record_pipeline p50 %.2f us\n",
              static_cast<unsigned long long>(status.total),
              static_cast<unsigned long long>(status.built),
              static_cast<unsigned long long>(status.run_by_waiter),
              static_cast<unsigned long long>(status.failed),
              static_cast<unsigned long long>(status.retired),
              static_cast<unsigned long long>(status.driver_cache_loaded_bytes),
              record_us[record_us.size() / 2]);
  for (GamePipeline& p : game) {
    kiln_shader_release(p.shaders[0]);
    kiln_shader_release(p.shaders[1]);
  }
  kiln_context_destroy(context); // writes the records still queued
  std::printf("pipelines %u, ready before first draw %zu, draws that waited %llu, load %.0f ms, "
              "first frame %.0f ms\n",
              args.pipelines, ready_before, static_cast<unsigned long long>(waited), load_ms,
              frame_ms);
  return 0;
}
