// Render-state parameters and the D3D9 varying map as the translator sees them: what reaches
// the module (folded immediates, SpecId-decorated specialization constants), what reaches the
// translation key, the errors, and the cost of a specialization-constant module against the
// immediate form (printed; docs/abi.md quotes it). Execution on lavapipe is
// tests/conformance/render_state_*_test.cpp.

#include "tests/translator/d3d9/token_builder.h"
#include "tests/support/shared_data.h"
#include "translator/spirv/validate.h"
#include "translator/translate.h"
#include "translator/translation_key.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>

namespace kiln {
namespace {

using namespace kiln::d3d9::test;

// ps_2_0: dcl t0; dcl v0; oC0 = t0 * v0.
const std::vector<std::uint32_t> kPixelShader = {
    ps_version(2, 0), op(31, 2), 0x80000000u,       dst(kAddr, 0), op(31, 2),      0x80000000u,
    dst(kInput, 0),   op(5, 3),  dst(kColorOut, 0), src(kAddr, 0), src(kInput, 0), kEnd};
// vs_2_0: dcl_position v0; oPos = v0; oT0 = v0.
const std::vector<std::uint32_t> kVertexShader = {
    vs_version(2, 0), op(31, 2), 0x80000000u,     dst(kInput, 0), op(1, 2), dst(kRastOut, 0),
    src(kInput, 0),   op(1, 2),  dst(kOutput, 0), src(kInput, 0), kEnd};

ShaderParameter parameter(ParameterName name, std::array<std::uint32_t, 4> value,
                          bool spec = false) {
  ShaderParameter p;
  p.name = name;
  p.data_type = parameter_data_type(name);
  p.type = spec ? ShaderParameter::Type::SpecializationConstant : ShaderParameter::Type::Immediate;
  p.value = value;
  return p;
}

std::uint32_t f32(float f) {
  return float_bits(f);
}

// Every render-state parameter with a non-default value (ids from 10 when `spec`).
std::shared_ptr<ShaderInterface> full_state(bool spec) {
  auto in = std::make_shared<ShaderInterface>();
  using P = ParameterName;
  std::uint32_t id = 10;
  const auto add = [&](P name, std::array<std::uint32_t, 4> value) {
    in->parameters.push_back(
        parameter(name, spec ? std::array<std::uint32_t, 4>{id} : value, spec));
    id += parameter_data_type(name) == ParameterDataType::F32_VEC4 ? 4 : 1;
  };
  add(P::ALPHA_TEST_FUNC, {KILN_COMPARE_GREATER});
  add(P::ALPHA_TEST_REF, {f32(0.5f)});
  add(P::FOG_FRAGMENT_MODE, {KILN_FOG_EXP2});
  add(P::FOG_SOURCE, {KILN_FOG_SOURCE_W});
  add(P::FOG_COLOUR, {f32(0.5f), f32(0.5f), f32(0.5f), f32(1.0f)});
  add(P::FOG_START, {0});
  add(P::FOG_END, {f32(10.0f)});
  add(P::FOG_DENSITY, {f32(0.25f)});
  add(P::CLIP_PLANE_MASK, {0x3});
  add(P::CLIP_PLANE_0, {f32(1.0f), 0, 0, 0});
  add(P::CLIP_PLANE_1, {0, f32(1.0f), 0, 0});
  add(P::POINT_SIZE, {f32(4.0f)});
  add(P::POINT_SIZE_MIN, {f32(1.0f)});
  add(P::POINT_SIZE_MAX, {f32(64.0f)});
  add(P::POINT_SPRITE, {1});
  return in;
}

struct Module {
  Status status = Status::ok();
  std::vector<std::uint32_t> spirv;
  Reflection reflection;
};

Module translate(const std::vector<std::uint32_t>& tokens, std::shared_ptr<ShaderInterface> in) {
  Translator translator;
  TranslateOptions options;
  options.interface = std::move(in);
  TranslateResult result;
  Module m;
  m.status = translator.translate(to_bytes(tokens), options, result);
  m.spirv = std::move(result.spirv);
  m.reflection = std::move(result.reflection);
  return m;
}

struct Counts {
  std::size_t instructions = 0, spec_ids = 0, demotes = 0, flat = 0, spec_constants = 0;
};
Counts count(const std::vector<std::uint32_t>& words) {
  Counts c;
  for (std::size_t i = 5; i < words.size();) {
    const std::uint32_t n = words[i] >> 16, opcode = words[i] & 0xffff;
    if (n == 0) break;
    ++c.instructions;
    if (opcode == spv::OpDecorate && words[i + 2] == spv::DecorationSpecId) ++c.spec_ids;
    if (opcode == spv::OpDecorate && words[i + 2] == spv::DecorationFlat) ++c.flat;
    if (opcode == spv::OpDemoteToHelperInvocation) ++c.demotes;
    if (opcode == spv::OpSpecConstant || opcode == spv::OpSpecConstantComposite) ++c.spec_constants;
    i += n;
  }
  return c;
}

TEST(RenderState, DefaultParametersChangeNothing) {
  auto in = std::make_shared<ShaderInterface>();
  in->parameters.push_back(parameter(ParameterName::ALPHA_TEST_FUNC, {KILN_COMPARE_ALWAYS}));
  in->parameters.push_back(parameter(ParameterName::FOG_FRAGMENT_MODE, {KILN_FOG_NONE}));
  in->parameters.push_back(parameter(ParameterName::POINT_SPRITE, {0}));
  const Module plain = translate(kPixelShader, nullptr), with = translate(kPixelShader, in);
  ASSERT_TRUE(plain.status) << plain.status.message();
  ASSERT_TRUE(with.status) << with.status.message();
  EXPECT_EQ(plain.spirv, with.spirv);
}

TEST(RenderState, ImmediateStateIsFoldedAndValid) {
  for (const auto* shader : {&kPixelShader, &kVertexShader}) {
    const Module m = translate(*shader, full_state(false));
    ASSERT_TRUE(m.status) << m.status.message();
    const Status valid = validate_spirv(m.spirv, SpirvTarget::Vulkan13);
    EXPECT_TRUE(valid) << valid.message();
    const Counts c = count(m.spirv);
    EXPECT_EQ(c.spec_ids, 0u);
    if (shader == &kPixelShader) {
      EXPECT_EQ(c.demotes, 1u);
    }
  }
}

TEST(RenderState, SpecializationConstantsCarryTheLayersIds) {
  for (const auto* shader : {&kPixelShader, &kVertexShader}) {
    const Module m = translate(*shader, full_state(true));
    ASSERT_TRUE(m.status) << m.status.message();
    const Status valid = validate_spirv(m.spirv, SpirvTarget::Vulkan13);
    EXPECT_TRUE(valid) << valid.message();
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 5; i < m.spirv.size(); i += m.spirv[i] >> 16)
      if ((m.spirv[i] & 0xffff) == spv::OpDecorate && m.spirv[i + 2] == spv::DecorationSpecId)
        ids.push_back(m.spirv[i + 3]);
    EXPECT_FALSE(ids.empty());
    for (std::uint32_t id : ids) EXPECT_GE(id, 10u);
    if (shader == &kPixelShader) {
      // alpha func 10, ref 11, fog mode 12, colour 14..17, end 19, density 20, sprite 33.
      for (std::uint32_t want : {10u, 11u, 12u, 14u, 17u, 19u, 20u, 33u})
        EXPECT_NE(std::find(ids.begin(), ids.end(), want), ids.end()) << want;
    } else {
      // fog source 13, clip mask 21, planes 22..29 (0 and 1), point size 30..32.
      for (std::uint32_t want : {13u, 21u, 22u, 25u, 26u, 30u, 32u})
        EXPECT_NE(std::find(ids.begin(), ids.end(), want), ids.end()) << want;
    }
  }
}

TEST(RenderState, FlatShadingDecoratesColourInputsAndIsImmediateOnly) {
  auto in = std::make_shared<ShaderInterface>();
  in->parameters.push_back(parameter(ParameterName::FLAT_INTERPOLATION, {1}));
  const Module m = translate(kPixelShader, in);
  ASSERT_TRUE(m.status) << m.status.message();
  EXPECT_EQ(count(m.spirv).flat, 1u); // v0 (COLOR0), not t0
  in->parameters[0] = parameter(ParameterName::FLAT_INTERPOLATION, {5}, true);
  const Module spec = translate(kPixelShader, in);
  EXPECT_FALSE(spec.status);
  EXPECT_NE(spec.status.message().find("only be immediate"), std::string::npos);
}

TEST(RenderState, WrongDataTypeIsRefused) {
  auto in = std::make_shared<ShaderInterface>();
  ShaderParameter p = parameter(ParameterName::ALPHA_TEST_REF, {f32(0.5f)});
  p.data_type = ParameterDataType::U32;
  in->parameters.push_back(p);
  const Module m = translate(kPixelShader, in);
  EXPECT_FALSE(m.status);
  EXPECT_NE(m.status.message().find("data type"), std::string::npos) << m.status.message();
}

TEST(RenderState, ImmediatesKeyByValueSpecializationConstantsByIdOnly) {
  const auto bytes = to_bytes(kPixelShader);
  const auto key = [&](std::shared_ptr<ShaderInterface> in) {
    TranslateOptions o;
    o.interface = std::move(in);
    return translation_key(bytes, o, 1);
  };
  auto ref_a = std::make_shared<ShaderInterface>(), ref_b = std::make_shared<ShaderInterface>();
  ref_a->parameters.push_back(parameter(ParameterName::ALPHA_TEST_REF, {f32(0.25f)}));
  ref_b->parameters.push_back(parameter(ParameterName::ALPHA_TEST_REF, {f32(0.75f)}));
  EXPECT_FALSE(key(ref_a) == key(ref_b));
  // Specialization constants: the id is the identity; stray value words are not.
  auto spec_a = std::make_shared<ShaderInterface>(), spec_b = std::make_shared<ShaderInterface>(),
       spec_c = std::make_shared<ShaderInterface>();
  spec_a->parameters.push_back(parameter(ParameterName::FOG_COLOUR, {7, 1, 2, 3}, true));
  spec_b->parameters.push_back(parameter(ParameterName::FOG_COLOUR, {7, 9, 9, 9}, true));
  spec_c->parameters.push_back(parameter(ParameterName::FOG_COLOUR, {8, 1, 2, 3}, true));
  EXPECT_TRUE(key(spec_a) == key(spec_b));
  EXPECT_FALSE(key(spec_a) == key(spec_c));
}

TEST(VaryingMap, PlacesD3D9VaryingsAndRefusesUnlistedOnes) {
  const Module own = translate(kPixelShader, nullptr);
  ASSERT_TRUE(own.status) << own.status.message();
  auto map = std::make_shared<ShaderInterface>();
  map->varyings = {{5, 0, 7}, {10, 0, 3}, {10, 1, 4}}; // TEXCOORD0 -> 7, COLOR0/1 -> 3/4
  const Module mapped = translate(kPixelShader, map);
  ASSERT_TRUE(mapped.status) << mapped.status.message();
  std::vector<std::pair<std::string, std::uint32_t>> locations;
  for (const SignatureElement& e : mapped.reflection.inputs)
    locations.emplace_back(e.semantic, e.location);
  std::sort(locations.begin(), locations.end());
  const std::vector<std::pair<std::string, std::uint32_t>> want = {{"Color", 3}, {"TexCoord", 7}};
  EXPECT_EQ(locations, want);
  // Kiln's own table differs (Color 0, TexCoord 2).
  for (const SignatureElement& e : own.reflection.inputs)
    EXPECT_EQ(e.location, e.semantic == "Color" ? 0u : 2u) << e.semantic;
  // The vertex shader's oT0 follows the same map.
  const Module vs = translate(kVertexShader, map);
  ASSERT_TRUE(vs.status) << vs.status.message();
  std::uint32_t texcoord_location = ~0u;
  for (const SignatureElement& e : vs.reflection.outputs)
    if (e.semantic == "TexCoord") texcoord_location = e.location;
  EXPECT_EQ(texcoord_location, 7u);
  map->varyings = {{5, 0, 7}};
  const Module missing = translate(kPixelShader, map);
  EXPECT_FALSE(missing.status);
  EXPECT_NE(missing.status.message().find("not in the interface's varying map: Color0"),
            std::string::npos)
      << missing.status.message();
}

// ps_1_1: tex t0; texbem t1, t0; mov r0, t1.
const std::vector<std::uint32_t> kPs11Bump = {
    ps_version(1, 1), op(66), dst(kAddr, 0), op(67),        dst(kAddr, 1),
    src(kAddr, 0),    op(1),  dst(kTemp, 0), src(kAddr, 1), kEnd};

std::uint32_t image_dim(const std::vector<std::uint32_t>& words) {
  for (std::size_t i = 5; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == spv::OpTypeImage) return words[i + 3];
  return ~0u;
}

TEST(RenderState, D3D9TextureTypesPickTheImageDimension) {
  const Module plain = translate(kPs11Bump, nullptr);
  ASSERT_TRUE(plain.status) << plain.status.message();
  EXPECT_EQ(image_dim(plain.spirv), std::uint32_t(spv::Dim2D));
  auto in = std::make_shared<ShaderInterface>();
  // Stage 0 (the bump map, sampled by `tex`) a volume: 3D. texbem's stage stays 2D.
  in->parameters.push_back(parameter(ParameterName::D3D9_TEXTURE_TYPES, {KILN_D3D9_TEXTURE_3D}));
  const Module volume = translate(kPs11Bump, in);
  ASSERT_TRUE(volume.status) << volume.status.message();
  EXPECT_EQ(image_dim(volume.spirv), std::uint32_t(spv::Dim3D));
  in->parameters[0] = parameter(ParameterName::D3D9_TEXTURE_TYPES, {1}, true);
  const Module spec = translate(kPs11Bump, in);
  EXPECT_FALSE(spec.status);
  EXPECT_NE(spec.status.message().find("only be immediate"), std::string::npos);
}

TEST(RenderState, BumpMatrixReplacesTheConstantBuffer) {
  const Module plain = translate(kPs11Bump, nullptr);
  ASSERT_TRUE(plain.status) << plain.status.message();
  const auto uniform_blocks = [](const std::vector<std::uint32_t>& words) {
    std::size_t n = 0;
    for (std::size_t i = 5; i < words.size(); i += words[i] >> 16)
      if ((words[i] & 0xffff) == spv::OpVariable && words[i + 3] == spv::StorageClassUniform) ++n;
    return n;
  };
  EXPECT_EQ(uniform_blocks(plain.spirv), 1u); // cb3: the bump-environment state
  auto in = std::make_shared<ShaderInterface>();
  in->parameters.push_back(parameter(ParameterName::D3D9_BUMP_MATRIX_1, {40}, true));
  const Module spec = translate(kPs11Bump, in);
  ASSERT_TRUE(spec.status) << spec.status.message();
  EXPECT_EQ(uniform_blocks(spec.spirv), 0u);
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 5; i < spec.spirv.size(); i += spec.spirv[i] >> 16)
    if ((spec.spirv[i] & 0xffff) == spv::OpDecorate && spec.spirv[i + 2] == spv::DecorationSpecId)
      ids.push_back(spec.spirv[i + 3]);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{40, 41, 42, 43}));
  const Status valid = validate_spirv(spec.spirv, SpirvTarget::Vulkan13);
  EXPECT_TRUE(valid) << valid.message();
}

// The cost of one module for every state: size and instruction count of the specialization-
// constant form against the immediate one, for the test shaders and a few corpus shaders.
TEST(RenderState, SpecializationConstantCost) {
  struct Row {
    std::string name;
    std::vector<std::uint32_t> tokens;
  };
  std::vector<Row> rows = {{"ps_2_0 t0*v0", kPixelShader}, {"vs_2_0 pass", kVertexShader}};
  if (const auto corpus = test::corpus_dir(); !corpus.empty()) {
    const auto files = test::files_with_extension(corpus / "d3d9", ".d3d9");
    for (std::size_t i = 0; i < files.size() && rows.size() < 8; i += files.size() / 6 + 1) {
      const std::vector<std::uint8_t> bytes = test::read_bytes(files[i]);
      std::vector<std::uint32_t> tokens(bytes.size() / 4);
      std::memcpy(tokens.data(), bytes.data(), tokens.size() * 4);
      rows.push_back({files[i].filename().string(), tokens});
    }
  }
  std::printf("%-44s %10s %10s %10s %10s\n", "shader", "imm words", "spec words", "imm instr",
              "spec instr");
  for (const Row& row : rows) {
    const Module imm = translate(row.tokens, full_state(false));
    const Module spec = translate(row.tokens, full_state(true));
    if (!imm.status || !spec.status) {
      std::printf("%-44s %s\n", row.name.c_str(),
                  (imm.status ? spec.status : imm.status).message().c_str());
      continue;
    }
    const Counts ci = count(imm.spirv), cs = count(spec.spirv);
    std::printf("%-44s %10zu %10zu %10zu %10zu\n", row.name.c_str(), imm.spirv.size(),
                spec.spirv.size(), ci.instructions, cs.instructions);
    EXPECT_GE(spec.spirv.size(), imm.spirv.size()) << row.name;
  }
}

} // namespace
} // namespace kiln
