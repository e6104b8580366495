#include "tests/translator/spirv/lower_test_util.h"

#include "translator/ir/ir.h"
#include "translator/ir/ir_text.h"
#include "translator/spirv/disassembler.h"
#include "translator/spirv/lower.h"
#include "translator/spirv/module_builder.h"
#include "translator/spirv/validate.h"

#include <gtest/gtest.h>

namespace kiln::test {

Status lower_only(std::string_view ir_text, SpirvTarget target, Lowered& out) {
  return lower_only(ir_text, target, nullptr, out);
}

void lower_and_validate(std::string_view ir_text, SpirvTarget target,
                        const ShaderInterface& interface, Lowered& out) {
  Status st = lower_only(ir_text, target, &interface, out);
  ASSERT_TRUE(st) << spirv_target_name(target) << ": " << st.message();
  Status valid = validate_spirv(out.words, target);
  ASSERT_TRUE(valid) << spirv_target_name(target) << ": " << valid.message() << "\n" << out.text;
}

Status lower_only(std::string_view ir_text, SpirvTarget target, const ShaderInterface* interface,
                  Lowered& out) {
  ir::Builder builder;
  if (Status st = ir::parse(ir_text, builder); !st) return st;
  spirv::Lowering lowering;
  spirv::LowerOptions options;
  options.target = target;
  options.interface = interface;
  out.words.clear();
  if (Status st = lowering.lower(builder, options, out.words, out.reflection); !st) return st;
  out.text.clear();
  return spirv::disassemble(out.words, out.text);
}

void lower_and_validate(std::string_view ir_text, Lowered& out) {
  for (SpirvTarget target : kAllSpirvTargets) {
    Lowered lowered;
    Status st = lower_only(ir_text, target, lowered);
    ASSERT_TRUE(st) << spirv_target_name(target) << ": " << st.message();
    Status valid = validate_spirv(lowered.words, target);
    ASSERT_TRUE(valid) << spirv_target_name(target) << ": " << valid.message() << "\n"
                       << lowered.text;
    if (target == SpirvTarget::Vulkan13) out = std::move(lowered);
  }
}

int count_lines(const std::string& text, std::string_view needle) {
  return count_lines(text, needle, needle);
}

int count_lines(const std::string& text, std::string_view a, std::string_view b) {
  int count = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line = std::string_view(text).substr(start, end - start);
    if (line.find(a) != std::string_view::npos && line.find(b) != std::string_view::npos) ++count;
    start = end + 1;
  }
  return count;
}

} // namespace kiln::test
