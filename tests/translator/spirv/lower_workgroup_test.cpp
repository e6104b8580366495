// g# (thread-group shared memory) accesses stay inside their Workgroup variable: D3D keeps an
// out-of-range g# address inside the group's shared memory, SPIR-V does not, so the backend
// clamps every index it cannot prove in range to its dimension's last element
// (translator/spirv/lower_memory.cpp, workgroup_index).

#include "tests/translator/spirv/lower_test_util.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <string_view>

namespace kiln::test {
namespace {

// The id of the u32 constant `value` in `text` ("%25 = OpConstant %3 63"), or "?".
std::string constant_id(const std::string& text, unsigned value) {
  const std::string tail = " " + std::to_string(value) + "\n";
  for (std::size_t at = text.find("OpConstant "); at != std::string::npos;
       at = text.find("OpConstant ", at + 1)) {
    const std::size_t end = text.find('\n', at);
    if (text.compare(end - tail.size() + 1, tail.size(), tail) != 0) continue;
    const std::size_t start = text.rfind('%', text.rfind(" = ", at));
    return text.substr(start, text.find(' ', start) - start);
  }
  return "?";
}

// Lines of `text` that hold `needle` and end with the operand `id`.
int count_ending(const std::string& text, std::string_view needle, const std::string& id) {
  int count = 0;
  for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
    end = std::min(text.find('\n', start), text.size());
    const std::string_view line = std::string_view(text).substr(start, end - start);
    count += line.find(needle) != std::string_view::npos && line.ends_with(" " + id);
  }
  return count;
}

TEST(SpirvLowerWorkgroup, IndicesNotProvablyInRangeAreClamped) {
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 64 1 1
%4 = DclInputBuiltIn u32 %1 LocalThreadIndex 0
%6 = DclLds u32[64] %1
%7 = DclLds u32[4][16] %1
%10 = Constant u32 0
%11 = Constant u32 3
%12 = Constant u32 70
%13 = Constant u32 60
%14 = Constant u32 62
%20 = Function void
  %21 = Label void None
    %23 = InputLoad u32 %4 null
    %24 = LdsStore void %6 %23 %23
    %25 = LdsStore void %6 %10 %23
    %26 = LdsStore void %6 %12 %23
    %27 = LdsLoad vec4<u32> %6 %13
    %28 = LdsLoad vec4<u32> %6 %23
    %29 = LdsLoad vec4<u32> %6 %14
    %30 = CompositeConstruct vec2<u32> %23 %11
    %31 = LdsStore void %7 %30 %23
    %32 = CompositeConstruct vec2<u32> %23 %23
    %33 = LdsLoad u32 %7 %32
    %34 = LdsAtomic u32 %6 %23 %33 Add
    %35 = Return void null
%36 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  const std::string& s = out.text;
  // Dynamic: the first store (1), each scalar of the dynamic vec4 load (4), the structured
  // store's structure index (1; its word 3 is a constant in range), both indices of the
  // structured load (2) and the atomic (1).
  EXPECT_EQ(count_lines(s, "UMin"), 9) << s;
  const std::string last = constant_id(s, 63), last_structure = constant_id(s, 15),
                    last_word = constant_id(s, 3);
  EXPECT_EQ(count_ending(s, "UMin", last), 6) << s;           // u32[64]: elements 0-63
  EXPECT_EQ(count_ending(s, "UMin", last_structure), 2) << s; // 16 structures
  EXPECT_EQ(count_ending(s, "UMin", last_word), 1) << s;      // of 4 words
  // Constants are checked when lowering: the store at 70 goes to 63; the vec4 load at 62 reads
  // 62, 62 + 1, then 63 twice (no index past 63 is used); the one at 60 reads 60 to 63.
  EXPECT_EQ(count_ending(s, "OpAccessChain", constant_id(s, 70)), 0) << s;
  EXPECT_EQ(count_ending(s, "OpAccessChain", last), 3) << s;
}

TEST(SpirvLowerWorkgroup, InRangeAccessesAreLeftAlone) {
  // A constant address in range and an address whose only dynamic index has one element to
  // choose from need no clamp.
  const char* ir = R"(
%1 = EntryPoint void %20 Compute
%2 = SetCsWorkgroupSize void %1 64 1 1
%4 = DclInputBuiltIn u32 %1 LocalThreadIndex 0
%6 = DclLds u32[1][8] %1
%10 = Constant u32 0
%11 = Constant u32 7
%12 = Constant vec2<u32> 7 0
%20 = Function void
  %21 = Label void None
    %23 = InputLoad u32 %4 null
    %24 = LdsStore void %6 %12 %23
    %25 = CompositeConstruct vec2<u32> %11 %23
    %26 = LdsStore void %6 %25 %23
    %27 = Return void null
%28 = FunctionEnd void
)";
  Lowered out;
  lower_and_validate(ir, out);
  EXPECT_EQ(count_lines(out.text, "UMin"), 0) << out.text;
}

} // namespace
} // namespace kiln::test
