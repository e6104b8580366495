// Every SM4/SM5 shader of ../shared/corpus/dxbc through the DXBC -> IR converter, judged on
// the resource half: no rejection may come from a resource opcode (declarations, sample*,
// ld*, store*, atomics, ...), and every converted program validates. Rejections by the core
// half are counted, not judged here (tests/translator/dxbc does that).
#include "tests/support/shared_data.h"
#include "translator/dxbc/convert_context.h"
#include "translator/dxbc/converter.h"
#include "translator/ir/ir.h"
#include "translator/ir/ir_validate.h"

#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string>

namespace kiln::dxbc {
namespace {

// The opcode whose mnemonic a message names as "SHDR token N (mnemonic): ...", if any.
bool opcode_in_message(const std::string& message, Opcode& out) {
  const std::size_t open = message.find(" (");
  const std::size_t close = message.find("):", open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return false;
  const std::string name = message.substr(open + 2, close - open - 2);
  for (std::uint32_t i = 0; i < kOpcodeCount; ++i) {
    if (is_known_opcode(i) && opcode_info(i).mnemonic == name) {
      out = Opcode(i);
      return true;
    }
  }
  return false;
}

// Whether a validator message quotes an op the resource half emits.
bool names_resource_op(const std::string& message) {
  static const char* const kOps[] = {"= DescriptorLoad",
                                     "= DclSrv",
                                     "= DclUav",
                                     "= DclSampler",
                                     "= DclLds",
                                     "= Image",
                                     "= Buffer",
                                     "= Lds",
                                     "= CounterAtomic",
                                     "= Barrier",
                                     "= CheckSparseAccess",
                                     "= ConstantLoad",
                                     "= DclInputBuiltIn"};
  for (const char* op : kOps)
    if (message.find(op) != std::string::npos) return true;
  return false;
}

bool uses_resources(ir::Builder& b) {
  for (ir::OpView op : b.declarations()) {
    switch (op.code()) {
    case ir::OpCode::DclSrv:
    case ir::OpCode::DclUav:
    case ir::OpCode::DclSampler:
    case ir::OpCode::DclLds:
      return true;
    default:
      break;
    }
  }
  return false;
}

// An opcode the resource half converts: its row names a handler of convert_resources*.cpp
// (convert_dispatch.h).
bool resource_opcode(Opcode op) {
  static constexpr std::string_view kResourceHandlers[] = {
      "dcl_resource",    "sample_image", "load_texel",  "load_uav_typed",
      "store_uav_typed", "resinfo",      "sampleinfo",  "samplepos",
      "compute_lod",     "bufinfo",      "load_dwords", "store_dwords",
      "atomic",          "uav_counter",  "sync",        "check_access_mapped"};
  for (std::string_view h : kResourceHandlers)
    if (kiln::dxbc::opcode_info(op).handler == h) return true;
  return false;
}

TEST(DxbcResourcesCorpus, NoResourceOpcodeIsRejectedAndEveryProgramValidates) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  ASSERT_FALSE(files.empty());
  Converter converter;
  ir::Builder builder;
  std::map<std::string, int> resource_rejections, core_rejections;
  int converted = 0, with_resources = 0, other_invalid = 0;
  for (const auto& path : files) {
    const auto bytes = kiln::test::read_bytes(path);
    builder.reset();
    const Status s = converter.convert(bytes, {}, builder);
    if (!s) {
      Opcode op;
      const bool resource = opcode_in_message(s.message(), op) && resource_opcode(op);
      const std::string reason = s.message().substr(s.message().find(" (") + 1);
      if (resource) {
        if (!resource_rejections[reason]++) ADD_FAILURE() << path.filename() << ": " << s.message();
      } else {
        ++core_rejections[reason];
      }
      continue;
    }
    const Status v = ir::validate(builder);
    if (!v) {
      // Judged here only when the op the validator quotes is one the resource half emits;
      // the rest (control flow, I/O) belongs to tests/dxbc_convert.
      EXPECT_FALSE(names_resource_op(v.message())) << path.filename() << ": " << v.message();
      ++other_invalid;
      continue;
    }
    ++converted;
    if (uses_resources(builder)) ++with_resources;
  }
  std::printf("[ converted %d of %zu, %d of them with resources; %d invalid outside the resource "
              "ops; core rejections:\n",
              converted, files.size(), with_resources, other_invalid);
  for (const auto& [reason, n] : core_rejections) std::printf("    %5d %s\n", n, reason.c_str());
  EXPECT_TRUE(resource_rejections.empty());
  EXPECT_GT(with_resources, 0);
}

// Corpus shaders that use resources, with random dwords of their program chunk replaced or
// bit-flipped: the converter must reject or convert without crashing, and whatever it converts
// must validate or be rejected by the validator (never UB; run under ASan/UBSan in CI).
TEST(DxbcResourcesCorpus, MangledResourceProgramsNeverCrashTheConverter) {
  auto dir = kiln::test::corpus_dir();
  KILN_REQUIRE_DIR(dir, "corpus");
  auto files = kiln::test::files_with_extension(dir / "dxbc", ".dxbc");
  Converter converter;
  ir::Builder builder;
  std::mt19937 rng(12345);
  int mangled = 0, converted = 0;
  for (const auto& path : files) {
    const auto original = kiln::test::read_bytes(path);
    builder.reset();
    if (!converter.convert(original, {}, builder) || !uses_resources(builder)) continue;
    // The program chunk: the last SHDR/SHEX tag in the file, then its size.
    std::size_t at = 0;
    for (std::size_t i = 0; i + 8 <= original.size(); i += 4)
      if (!std::memcmp(&original[i], "SHEX", 4) || !std::memcmp(&original[i], "SHDR", 4)) at = i;
    if (at == 0) continue;
    const std::size_t first = at + 8 + 8, end = original.size() & ~std::size_t(3);
    if (end <= first + 4) continue;
    for (int round = 0; round < 12; ++round) {
      auto bytes = original;
      for (int n = 0; n < 1 + round % 3; ++n) {
        const std::size_t word = first + 4 * (rng() % ((end - first) / 4));
        std::uint32_t v;
        std::memcpy(&v, &bytes[word], 4);
        v = round % 2 ? std::uint32_t(rng()) : v ^ (1u << (rng() % 32));
        std::memcpy(&bytes[word], &v, 4);
      }
      builder.reset();
      const Status s = converter.convert(bytes, {}, builder);
      ++mangled;
      if (s) {
        ++converted;
        (void)ir::validate(builder);
      } else {
        EXPECT_EQ(s.message().find('\n'), std::string::npos) << path.filename();
      }
    }
    if (mangled >= 4000) break;
  }
  std::printf("[ %d mangled programs, %d still converted\n", mangled, converted);
  EXPECT_GT(mangled, 0);
}

} // namespace
} // namespace kiln::dxbc
