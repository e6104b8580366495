// The conformance runner's parsers: unit cases, then every command and state section of the
// whole package must parse (an unparsed command would silently drop a check).

#include "tests/conformance/package.h"
#include "tests/conformance/resources.h"
#include "tests/support/shared_data.h"

#include <cstring>
#include <gtest/gtest.h>

namespace kiln::conformance {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

Command parse(const char* text) {
  Command command;
  std::string error;
  EXPECT_TRUE(parse_command(text, 1, command, error)) << text << ": " << error;
  return command;
}

TEST(ConformanceCommands, Probes) {
  Command c = parse("probe (1, 2) rgba (0.5, 1.0, -2.0, 0.0) 4");
  EXPECT_EQ(c.kind, Command::Kind::Probe);
  EXPECT_EQ(c.probe.left, 1u);
  EXPECT_EQ(c.probe.top, 2u);
  EXPECT_EQ(c.probe.right, 2u);
  EXPECT_EQ(c.probe.value_count, 4u);
  EXPECT_EQ(c.probe.values[2], bits(-2.0f));
  EXPECT_EQ(c.probe.ulps, 4u);

  c = parse("probe uav 2 (3) u32(0x10)");
  EXPECT_EQ(c.probe.target, ProbeTarget::Uav);
  EXPECT_EQ(c.probe.slot, 2u);
  EXPECT_EQ(c.probe.left, 3u);
  EXPECT_EQ(c.probe.kind, ValueKind::Uint);
  EXPECT_EQ(c.probe.values[0], 16u);

  c = parse("probe (0, 0, 640, 480) i32(-1, 2, 3, 4)");
  EXPECT_EQ(c.probe.right, 640u);
  EXPECT_EQ(c.probe.values[0], 0xffffffffu);

  c = parse("probe dsv (0,0) f32(0.5)");
  EXPECT_EQ(c.probe.target, ProbeTarget::Dsv);
  EXPECT_EQ(c.probe.value_count, 1u);

  Command bad;
  std::string error;
  EXPECT_FALSE(parse_command("probe (0, 0) xyz(1)", 1, bad, error));
  EXPECT_FALSE(parse_command("probe (0, 0) rgba(1, 2, 3)", 1, bad, error));
  EXPECT_FALSE(parse_command("frobnicate", 1, bad, error));
}

TEST(ConformanceCommands, UniformsAndState) {
  Command c = parse("uniform 4 float4 1.0 2 -3.5 0");
  EXPECT_EQ(c.uniform.offset_words, 4u);
  ASSERT_EQ(c.uniform.words.size(), 4u);
  EXPECT_EQ(c.uniform.words[1], bits(2.0f)); // float uniforms take strtof even without '.'
  c = parse("uniform 0 int -2");
  EXPECT_EQ(c.uniform.words.at(0), 0xfffffffeu);
  Command bad;
  std::string error;
  EXPECT_FALSE(parse_command("uniform 0 double2 1.0 2.0", 1, bad, error));

  c = parse("alpha test greater equal 0.5");
  EXPECT_EQ(c.func, CompareFunc::GreaterEqual);
  EXPECT_EQ(c.floats[0], 0.5f);
  c = parse("alpha test always");
  EXPECT_EQ(c.func, CompareFunc::Always);
  c = parse("draw triangle strip 4 2");
  EXPECT_EQ(c.draw.topology, Topology::TriangleStrip);
  EXPECT_EQ(c.draw.instance_count, 2u);
  c = parse("draw 3 control point patch list 3");
  EXPECT_EQ(c.draw.patch_size, 3u);
  c = parse("clear rtv 1 0.0 1.0 0.0 1.0");
  EXPECT_EQ(c.slot, 1u);
  // `ortho` / `non-ortho` where vkd3d's runner reads them, after the mode, or after the
  // constants (FORMAT.md 4.5).
  c = parse("fog linear ortho 0.25 1.0");
  EXPECT_EQ(c.fog.mode, FogCommand::Mode::Linear);
  EXPECT_EQ(c.fog.source, FogCommand::Source::Ortho);
  EXPECT_EQ(c.fog.start, 0.25f);
  EXPECT_EQ(c.fog.end, 1.0f);
  c = parse("fog exp2 non-ortho 0.5");
  EXPECT_EQ(c.fog.source, FogCommand::Source::NonOrtho);
  EXPECT_EQ(c.fog.density, 0.5f);
  c = parse("fog none ortho");
  EXPECT_EQ(c.fog.mode, FogCommand::Mode::None);
  EXPECT_EQ(c.fog.source, FogCommand::Source::Ortho);
  c = parse("fog linear 0.0 1.0 ortho");
  EXPECT_EQ(c.fog.source, FogCommand::Source::Ortho);
  c = parse("fog exp 2.0");
  EXPECT_EQ(c.fog.source, FogCommand::Source::Default);
  EXPECT_FALSE(parse_command("fog linear ortho 0.0 1.0 non-ortho", 1, bad, error));
  c = parse("viewport 0 (0, 0, 320, 240)");
  EXPECT_EQ(c.floats[2], 320.0f);
}

TEST(ConformanceCommands, UlpCompare) {
  EXPECT_TRUE(floats_match(bits(0.0f), bits(-0.0f), 0));
  EXPECT_TRUE(floats_match(bits(1.0f), bits(1.0f), 0));
  EXPECT_FALSE(floats_match(bits(1.0f), bits(1.0f) + 1, 0));
  EXPECT_TRUE(floats_match(bits(1.0f), bits(1.0f) + 1, 1));
  EXPECT_TRUE(floats_match(0x7fc00000u, 0x7f800001u, 0)); // NaNs of one sign
  EXPECT_FALSE(floats_match(0x7fc00000u, 0xffc00000u, 0));
  EXPECT_FALSE(floats_match(bits(1.0f), 0x7fc00000u, 1000));
  EXPECT_TRUE(floats_match(bits(-1e-45f), bits(1e-45f), 2)); // across zero
}

TEST(ConformanceScript, Sections) {
  const auto sections =
      split_sections("% comment\n[require]\nshader model >= 4.0\n\n"
                     "[srv 3]\nsize (2d, 1, 1)\n1.0 2 0x3 -1\n[test]\ndraw quad\n");
  ASSERT_EQ(sections.size(), 3u);
  EXPECT_EQ(sections[1].kind, SectionKind::Srv);
  EXPECT_EQ(sections[1].slot, 3);
  ResourceDesc srv;
  std::string error;
  ASSERT_TRUE(parse_resource(sections[1], srv, error)) << error;
  EXPECT_EQ(srv.dim, ResourceDim::Tex2D);
  ASSERT_EQ(srv.data.size(), 4u);
  EXPECT_EQ(srv.data[0], bits(1.0f));
  EXPECT_EQ(srv.data[1], 2u); // integers are not floats
  EXPECT_EQ(srv.data[2], 3u);
  EXPECT_EQ(srv.data[3], 0xffffffffu);
  EXPECT_EQ(sections[2].lines.at(0).number, 9u);
}

// Every command of every included case and every state section of the package parses.
TEST(ConformancePackage, EverythingParses) {
  const auto package = test::conformance_dir();
  KILN_REQUIRE_DIR(package, "conformance package");
  std::size_t files = 0, cases = 0, commands = 0, sections = 0;
  for (const auto& folder : list_test_folders(package)) {
    TestFile file;
    std::string error;
    ASSERT_TRUE(load_test_file(folder, file, error)) << error;
    ++files;
    for (const auto& [model, replay] : file.replay) {
      for (unsigned index : replay.state_sections) {
        ASSERT_LT(index, file.sections.size()) << file.name;
        const Section& section = file.sections[index];
        ++sections;
        if (section.kind == SectionKind::Sampler) {
          SamplerDesc sampler;
          EXPECT_TRUE(parse_sampler(section, sampler, error)) << file.name << ": " << error;
        } else if (section.kind == SectionKind::InputLayout) {
          std::vector<InputElement> layout;
          EXPECT_TRUE(parse_input_layout(section, layout, error)) << file.name << ": " << error;
        } else {
          ResourceDesc resource;
          EXPECT_TRUE(parse_resource(section, resource, error)) << file.name << ": " << error;
        }
      }
    }
    for (const CaseInfo& info : file.cases) {
      if (!info.included) continue;
      ++cases;
      for (const auto& [line, text] : info.commands) {
        Command command;
        // 64-bit uniforms occur only in cases that need float64/int64 and are reported as
        // unsupported by the runner; everything else must parse.
        if (text.find("uniform") == 0 && text.find("64") != std::string::npos) continue;
        if (text.find("double") != std::string::npos) continue;
        EXPECT_TRUE(parse_command(text, line, command, error))
            << info.id << " line " << line << ": '" << text << "': " << error;
        ++commands;
      }
      for (const auto& [stage, blob] : info.blobs)
        EXPECT_TRUE(std::filesystem::exists(blob)) << info.id << ": " << blob;
    }
  }
  EXPECT_GT(files, 100u);
  EXPECT_GT(cases, 2000u);
  EXPECT_GT(commands, 8000u);
  EXPECT_GT(sections, 100u);
}

} // namespace
} // namespace kiln::conformance
