// The bytecode's own reflection (translator/dxbc/scan.h) against what the compiler wrote in the
// same container's RDEF chunk (an independent record of every binding: dimension, return type,
// comparison sampler, raw/structured, stride), and a translation's reflection against its
// signature (registers, masks and system values reach the SPIR-V interface entries).
#include "support/shared_data.h"
#include "translator/d3d9/reader.h"
#include "translator/dxbc/container.h"
#include "translator/dxbc/scan.h"
#include "translator/dxbc/signature.h"
#include "translator/translate.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace {

using kiln::ResourceBinding;
using kiln::ResourceDataType;
using kiln::ResourceDimension;

// D3D_SHADER_INPUT_TYPE -> the descriptor class that declares it.
bool class_of_rdef_type(std::uint32_t type, ResourceBinding::Class& out) {
  switch (type) {
  case 0: // CBUFFER
    out = ResourceBinding::Class::Cbv;
    return true;
  case 1: // TBUFFER
  case 2: // TEXTURE
  case 5: // STRUCTURED
  case 7: // BYTEADDRESS
    out = ResourceBinding::Class::Srv;
    return true;
  case 3:
    out = ResourceBinding::Class::Sampler;
    return true;
  case 4:
  case 6:
  case 8:
  case 9:
  case 10:
  case 11: // the UAV kinds
    out = ResourceBinding::Class::Uav;
    return true;
  default:
    return false;
  }
}

// D3D_SRV_DIMENSION -> the model's dimension.
ResourceDimension dimension_of_rdef(std::uint32_t d) {
  static constexpr ResourceDimension kByRdef[] = {ResourceDimension::None,
                                                  ResourceDimension::Buffer,
                                                  ResourceDimension::Texture1D,
                                                  ResourceDimension::Texture1DArray,
                                                  ResourceDimension::Texture2D,
                                                  ResourceDimension::Texture2DArray,
                                                  ResourceDimension::Texture2DMS,
                                                  ResourceDimension::Texture2DMSArray,
                                                  ResourceDimension::Texture3D,
                                                  ResourceDimension::TextureCube,
                                                  ResourceDimension::TextureCubeArray,
                                                  ResourceDimension::Buffer /* BUFFEREX */};
  return d < std::size(kByRdef) ? kByRdef[d] : ResourceDimension::None;
}

TEST(DxbcSourceReflection, DescriptorsAgreeWithTheRdefChunkOverTheCorpus) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  int scanned = 0, compared = 0, typed = 0, structured = 0, comparison = 0, uav_read = 0;
  kiln::SourceReflection source;
  for (const auto& path : files) {
    const auto bytes = kiln::test::read_bytes(path);
    kiln::dxbc::Container container;
    if (!kiln::dxbc::parse_container(bytes, container, {.verify_checksum = false}) ||
        !container.has_program() || container.rdef.empty())
      continue;
    kiln::dxbc::ReflectionView rdef;
    if (!rdef.open(container.rdef)) continue;
    kiln::Status st = kiln::dxbc::scan_dxbc(bytes, source);
    if (!st) continue; // the converter's corpus test names such files
    ++scanned;
    for (const ResourceBinding& d : source.descriptors) {
      if (d.flags & ResourceBinding::UavRead) ++uav_read;
      bool found = false;
      for (std::uint32_t i = 0; i < rdef.binding_count() && !found; ++i) {
        kiln::dxbc::RdefBinding b;
        ResourceBinding::Class c;
        if (!rdef.binding(i, b) || !class_of_rdef_type(b.type, c) || c != d.register_class ||
            b.space != d.space || d.register_index < b.bind_point ||
            d.register_index - b.bind_point >= std::max(b.bind_count, 1u))
          continue;
        found = true;
        ++compared;
        SCOPED_TRACE(path.filename().string() + " " + std::string(b.name));
        // An SM5.0 array is one RDEF binding over registers declared one by one.
        if (d.array_size != 1) {
          EXPECT_EQ(b.bind_count, d.array_size);
        }
        const bool raw = b.type == 7 || b.type == 8;
        const bool is_structured = b.type == 5 || b.type == 6 || b.type >= 9;
        EXPECT_EQ(raw, (d.flags & ResourceBinding::RawBuffer) != 0);
        EXPECT_EQ(is_structured, (d.flags & ResourceBinding::StructuredBuffer) != 0);
        if (c == ResourceBinding::Class::Sampler) {
          EXPECT_EQ((b.flags & 2u) != 0, (d.flags & ResourceBinding::ComparisonSampler) != 0);
          comparison += (d.flags & ResourceBinding::ComparisonSampler) != 0;
          EXPECT_EQ(d.dimension, ResourceDimension::None);
        } else if (c == ResourceBinding::Class::Cbv) {
          EXPECT_EQ(d.dimension, ResourceDimension::Buffer);
        } else if (is_structured) {
          ++structured;
          EXPECT_EQ(d.dimension, ResourceDimension::Buffer);
          EXPECT_EQ(b.sample_count, d.structure_stride); // RDEF keeps the stride there
        } else if (raw) {
          EXPECT_EQ(d.dimension, ResourceDimension::Buffer);
        } else if (b.type != 1) {
          ++typed;
          EXPECT_EQ(dimension_of_rdef(b.dimension), d.dimension);
          EXPECT_EQ(b.return_type, std::uint32_t(d.data_type));
        }
      }
      EXPECT_TRUE(found) << path.filename() << ": no RDEF binding for class "
                         << int(d.register_class) << " register " << d.register_index;
    }
  }
  std::printf("scanned %d shaders; %d descriptors matched RDEF (%d typed, %d structured, %d "
              "comparison samplers, %d read UAVs)\n",
              scanned, compared, typed, structured, comparison, uav_read);
  EXPECT_GT(scanned, 400);
  EXPECT_GT(typed, 400);
  EXPECT_GT(structured, 0);
  EXPECT_GT(comparison, 0);
  EXPECT_GT(uav_read, 0);
}

// A translation's interface entries carry their signature entry: kiln puts a vertex shader's
// input and a pixel shader's output register r at location r, so location and register agree,
// and the SPIR-V variable's components lie inside the element's mask.
TEST(DxbcSourceReflection, TranslationEntriesCarryTheirSignatureRegisters) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  kiln::Translator translator;
  kiln::TranslateResult result;
  int translated = 0, checked = 0, system_values = 0, resources = 0;
  for (std::size_t i = 0; i < files.size() && translated < 200; i += 5) {
    const auto bytes = kiln::test::read_bytes(files[i]);
    if (!translator.translate(bytes, {}, result)) continue;
    ++translated;
    SCOPED_TRACE(files[i].filename().string());
    const kiln::Reflection& r = result.reflection;
    for (const auto* list : {&r.inputs, &r.outputs}) {
      const bool located = (list == &r.inputs && r.stage == kiln::ShaderStage::Vertex) ||
                           (list == &r.outputs && r.stage == kiln::ShaderStage::Pixel);
      for (const kiln::SignatureElement& e : *list) {
        if (e.semantic.empty()) continue;
        EXPECT_NE(e.mask, 0u) << e.semantic << e.semantic_index;
        if (e.system_value != 0) ++system_values;
        if (!located || e.builtin != ~0u) continue;
        ++checked;
        EXPECT_EQ(e.location, e.register_index) << e.semantic << e.semantic_index;
        EXPECT_EQ(e.component_mask & ~e.mask, 0u) << e.semantic << e.semantic_index;
      }
    }
    for (const ResourceBinding& b : r.resources) {
      if (b.register_class == ResourceBinding::Class::Srv ||
          b.register_class == ResourceBinding::Class::Uav) {
        ++resources;
        EXPECT_NE(b.dimension, ResourceDimension::None) << b.register_index;
      }
    }
  }
  std::printf("%d translations: %d located entries checked, %d system values, %d SRV/UAVs\n",
              translated, checked, system_values, resources);
  EXPECT_GT(translated, 100);
  EXPECT_GT(checked, 100);
  EXPECT_GT(system_values, 50);
  EXPECT_GT(resources, 50);
}

// D3D9 has no reflection chunk: its samplers' dimensions come from their dcl (2d, cube,
// volume), through the IR, to the reflection's SRV entries, with float data.
TEST(D3d9Reflection, SamplerDimensionsFollowTheirDeclarations) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "d3d9", ".d3d9");
  ASSERT_FALSE(files.empty());
  kiln::Translator translator;
  kiln::TranslateResult result;
  kiln::d3d9::Program program;
  int checked = 0, not_2d = 0;
  for (const auto& path : files) {
    const auto bytes = kiln::test::read_bytes(path);
    if (!kiln::d3d9::decode(bytes, program) || !translator.translate(bytes, {}, result)) continue;
    SCOPED_TRACE(path.filename().string());
    for (const kiln::d3d9::Instruction& ins : program.instructions) {
      if (ins.opcode != kiln::d3d9::Opcode::Dcl ||
          ins.dst.type != kiln::d3d9::RegisterType::Sampler)
        continue;
      const kiln::d3d9::TextureType type = ins.declaration.texture_type;
      const ResourceDimension expected =
          type == kiln::d3d9::TextureType::Cube     ? ResourceDimension::TextureCube
          : type == kiln::d3d9::TextureType::Volume ? ResourceDimension::Texture3D
                                                    : ResourceDimension::Texture2D;
      for (const ResourceBinding& b : result.reflection.resources) {
        if (b.register_class != ResourceBinding::Class::Srv || b.register_index != ins.dst.index)
          continue;
        EXPECT_EQ(b.dimension, expected) << "s" << ins.dst.index;
        EXPECT_EQ(b.data_type, ResourceDataType::Float) << "s" << ins.dst.index;
        ++checked;
        not_2d += expected != ResourceDimension::Texture2D;
      }
    }
  }
  std::printf("%d D3D9 samplers checked, %d of them cube or volume\n", checked, not_2d);
  EXPECT_GT(checked, 100);
  EXPECT_GT(not_2d, 0);
}

} // namespace
