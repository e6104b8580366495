// kiln_reflection_details (kiln.h 0.3) through the loaded library, against the disassembly that
// fxc wrote beside each corpus shader (the .asm.txt sidecar): every typed, raw and structured
// resource's dimension, return type and stride and every sampler's mode from its dcl_* line,
// and every signature entry's register, mask and format from the signature tables.

#include "kiln/kiln.h"
#include "tests/support/shared_data.h"

#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace kiln::test {
namespace {

struct Sidecar {
  struct Descriptor {
    std::uint32_t dimension = 0, data_type = 0, flags = 0, stride = 0;
  };
  // "t3", "u0", "s1" -> what its dcl_* line says.
  std::map<std::string, Descriptor> descriptors;
  struct Element {
    std::string name;
    std::uint32_t index = 0, mask = 0, register_index = 0, component_type = 0;
  };
  std::vector<Element> inputs, outputs;
};

std::uint32_t mask_of(const std::string& letters) {
  std::uint32_t mask = 0;
  for (char c : letters) {
    const char* at = std::strchr("xyzw", c);
    if (at && c) mask |= 1u << (at - "xyzw");
  }
  return mask;
}

std::uint32_t dimension_of(const std::string& name) {
  static const std::map<std::string, std::uint32_t> kNames = {
      {"buffer", KILN_RESOURCE_DIMENSION_BUFFER},
      {"texture1d", KILN_RESOURCE_DIMENSION_TEXTURE_1D},
      {"texture2d", KILN_RESOURCE_DIMENSION_TEXTURE_2D},
      {"texture2dms", KILN_RESOURCE_DIMENSION_TEXTURE_2DMS},
      {"texture3d", KILN_RESOURCE_DIMENSION_TEXTURE_3D},
      {"texturecube", KILN_RESOURCE_DIMENSION_TEXTURE_CUBE},
      {"texture1darray", KILN_RESOURCE_DIMENSION_TEXTURE_1DARRAY},
      {"texture2darray", KILN_RESOURCE_DIMENSION_TEXTURE_2DARRAY},
      {"texture2dmsarray", KILN_RESOURCE_DIMENSION_TEXTURE_2DMSARRAY},
      {"texturecubearray", KILN_RESOURCE_DIMENSION_TEXTURE_CUBEARRAY}};
  const auto it = kNames.find(name);
  return it == kNames.end() ? ~0u : it->second;
}

std::uint32_t data_type_of(const std::string& name) {
  static const std::map<std::string, std::uint32_t> kNames = {
      {"unorm", KILN_RESOURCE_DATA_UNORM},  {"snorm", KILN_RESOURCE_DATA_SNORM},
      {"sint", KILN_RESOURCE_DATA_SINT},    {"uint", KILN_RESOURCE_DATA_UINT},
      {"float", KILN_RESOURCE_DATA_FLOAT},  {"mixed", KILN_RESOURCE_DATA_MIXED},
      {"double", KILN_RESOURCE_DATA_DOUBLE}};
  const auto it = kNames.find(name);
  return it == kNames.end() ? ~0u : it->second;
}

// Reads the parts of an fxc listing this test compares; false for SM5.1 listings (their
// registers are range ids).
bool read_sidecar(const std::filesystem::path& path, Sidecar& out) {
  std::ifstream in(path);
  std::string line;
  std::vector<Sidecar::Element>* table = nullptr;
  while (std::getline(in, line)) {
    if (line.find("space=") != std::string::npos) return false;
    if (line.rfind("// Input signature:", 0) == 0) table = &out.inputs;
    if (line.rfind("// Output signature:", 0) == 0) table = &out.outputs;
    if (line.rfind("// Patch Constant signature:", 0) == 0) table = nullptr;
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "//" && table) {
      Sidecar::Element e;
      std::string index, mask, reg, sysvalue, format;
      if (!(words >> e.name >> index >> mask >> reg >> sysvalue >> format)) continue;
      if (index.find_first_not_of("0123456789") != std::string::npos ||
          reg.find_first_not_of("0123456789") != std::string::npos)
        continue;
      e.index = std::uint32_t(std::stoul(index));
      e.register_index = std::uint32_t(std::stoul(reg));
      e.mask = mask_of(mask);
      e.component_type = format == "float" ? 3 : format == "uint" ? 1 : format == "int" ? 2 : 0;
      table->push_back(e);
      continue;
    }
    if (first.rfind("dcl_", 0) != 0) continue;
    Sidecar::Descriptor d;
    std::string reg;
    if (first == "dcl_sampler") {
      std::string mode;
      words >> reg >> mode;
      if (!reg.empty() && reg.back() == ',') reg.pop_back();
      if (mode == "mode_comparison") d.flags = KILN_DESCRIPTOR_COMPARISON_SAMPLER;
    } else if (first == "dcl_resource_raw" || first == "dcl_uav_raw") {
      words >> reg;
      d.dimension = KILN_RESOURCE_DIMENSION_BUFFER;
      d.data_type = KILN_RESOURCE_DATA_UINT;
      d.flags = KILN_DESCRIPTOR_RAW_BUFFER;
    } else if (first == "dcl_resource_structured" || first == "dcl_uav_structured") {
      words >> reg >> d.stride;
      if (!reg.empty() && reg.back() == ',') reg.pop_back();
      d.dimension = KILN_RESOURCE_DIMENSION_BUFFER;
      d.data_type = KILN_RESOURCE_DATA_UINT;
      d.flags = KILN_DESCRIPTOR_STRUCTURED_BUFFER;
    } else if (first.rfind("dcl_resource_", 0) == 0 || first.rfind("dcl_uav_typed_", 0) == 0) {
      std::string dim = first.substr(first.rfind('_') + 1);
      dim = dim.substr(0, dim.find('(')); // texture2dms(4)
      std::string types;
      words >> types;
      if (types.size() < 3 || types[0] != '(') continue;
      d.dimension = dimension_of(dim);
      d.data_type = data_type_of(types.substr(1, types.find_first_of(",)") - 1));
      words >> reg;
    } else {
      continue;
    }
    out.descriptors[reg] = d;
  }
  return true;
}

bool same_name(const char* a, const std::string& b) {
  return std::strlen(a) == b.size() && strncasecmp(a, b.c_str(), b.size()) == 0;
}

TEST(AbiReflectionDetails, AgreeWithTheCorpusListings) {
  const auto dir = corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  void* handle = dlopen(KILN_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  const auto get = reinterpret_cast<PFN_kiln_get_proc_addr>(dlsym(handle, "kiln_get_proc_addr"));
  ASSERT_NE(get, nullptr);
#define FN(name) reinterpret_cast<PFN_##name>(get(#name))
  kiln_context_create_info info{};
  info.type = KILN_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
  info.flags = KILN_CONTEXT_DISABLE_CACHE;
  info.thread_count = 1;
  info.log_callback = [](void*, kiln_log_level, const char*) {};
  kiln_context* context = nullptr;
  ASSERT_EQ(FN(kiln_context_create)(&info, &context), KILN_SUCCESS);

  int shaders = 0, descriptors = 0, elements = 0;
  for (const auto& path : files_with_extension(dir / "dxbc", ".dxbc")) {
    if (shaders >= 300) break;
    Sidecar sidecar;
    auto listing = path;
    listing.replace_extension(".asm.txt");
    if (!std::filesystem::exists(listing) || !read_sidecar(listing, sidecar)) continue;
    const auto bytes = read_bytes(path);
    kiln_submit_info submit{};
    submit.type = KILN_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.code = bytes.data();
    submit.code_size = bytes.size();
    kiln_shader* shader = nullptr;
    ASSERT_EQ(FN(kiln_submit)(context, &submit, &shader), KILN_SUCCESS);
    kiln_reflection_details details{};
    details.type = KILN_STRUCTURE_TYPE_REFLECTION_DETAILS;
    kiln_reflection reflection{};
    reflection.type = KILN_STRUCTURE_TYPE_REFLECTION;
    reflection.next = &details;
    if (FN(kiln_wait)(shader, UINT64_MAX) != KILN_SUCCESS ||
        FN(kiln_get_reflection)(shader, &reflection) != KILN_SUCCESS) {
      FN(kiln_shader_release)(shader);
      continue;
    }
    ++shaders;
    SCOPED_TRACE(path.filename().string());
    ASSERT_TRUE(reflection.resource_count == 0 || details.resources);
    for (std::uint32_t i = 0; i < reflection.resource_count; ++i) {
      const kiln_resource_binding& r = reflection.resources[i];
      const char* prefix = r.register_class == 1 ? "t" : r.register_class == 2 ? "u" : "s";
      if (r.register_class < 1 || r.register_class > 3) continue;
      const auto it = sidecar.descriptors.find(prefix + std::to_string(r.register_index));
      ASSERT_NE(it, sidecar.descriptors.end()) << prefix << r.register_index;
      const kiln_descriptor_details& d = details.resources[i];
      EXPECT_EQ(std::uint32_t(d.dimension), it->second.dimension) << it->first;
      if (r.register_class != 3) {
        EXPECT_EQ(std::uint32_t(d.data_type), it->second.data_type) << it->first;
      }
      EXPECT_EQ(d.flags & (KILN_DESCRIPTOR_RAW_BUFFER | KILN_DESCRIPTOR_STRUCTURED_BUFFER |
                           KILN_DESCRIPTOR_COMPARISON_SAMPLER),
                it->second.flags)
          << it->first;
      EXPECT_EQ(d.structure_stride, it->second.stride) << it->first;
      ++descriptors;
    }
    const auto compare = [&](const kiln_signature_element* list,
                             const kiln_signature_element_details* facts, std::uint32_t count,
                             const std::vector<Sidecar::Element>& table) {
      ASSERT_TRUE(count == 0 || facts);
      for (std::uint32_t i = 0; i < count; ++i) {
        for (const Sidecar::Element& e : table) {
          if (e.index != list[i].semantic_index || !same_name(list[i].semantic, e.name)) continue;
          EXPECT_EQ(facts[i].register_index, e.register_index) << e.name << e.index;
          EXPECT_EQ(facts[i].mask, e.mask) << e.name << e.index;
          EXPECT_EQ(facts[i].component_type, e.component_type) << e.name << e.index;
          ++elements;
          break;
        }
      }
    };
    compare(reflection.inputs, details.inputs, reflection.input_count, sidecar.inputs);
    compare(reflection.outputs, details.outputs, reflection.output_count, sidecar.outputs);
    FN(kiln_shader_release)(shader);
  }
  FN(kiln_context_destroy)(context);
#undef FN
  std::printf("%d shaders: %d descriptors and %d signature entries agree with their listing\n",
              shaders, descriptors, elements);
  EXPECT_GT(shaders, 200);
  EXPECT_GT(descriptors, 300);
  EXPECT_GT(elements, 500);
}

} // namespace
} // namespace kiln::test
