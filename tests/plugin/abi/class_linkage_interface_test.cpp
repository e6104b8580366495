// The class-linkage part of the interface description: the C ABI's chained
// kiln_class_linkage_info, the JSON form, and the canonical encoding (the translation key).

#include "kiln/kiln.h"
#include "plugin/abi/abi_interface.h"
#include "plugin/abi/interface_json.h"
#include "translator/common/shader_interface.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace kiln::test {
namespace {

TEST(ClassLinkageInterface, TheChainedStructReachesTheModel) {
  const kiln_class_instance instances[2] = {{1, {2, 3, 4, 5}}, {0, {6, 7, 8, 9}}};
  kiln_class_linkage_info linkage{};
  linkage.type = KILN_STRUCTURE_TYPE_CLASS_LINKAGE_INFO;
  linkage.selection_space = 2;
  linkage.selection_register = 11;
  linkage.fixed_instance_count = 2;
  linkage.fixed_instances = instances;
  kiln_interface_info info{};
  info.type = KILN_STRUCTURE_TYPE_INTERFACE_INFO;
  info.next = &linkage;
  ShaderInterface out;
  Status s = abi::interface_from_c(info, out);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(out.class_linkage.space, 2u);
  EXPECT_EQ(out.class_linkage.register_index, 11u);
  ASSERT_EQ(out.class_linkage.fixed_instances.size(), 2u);
  EXPECT_EQ(out.class_linkage.fixed_instances[0].function_table, 1u);
  EXPECT_EQ(out.class_linkage.fixed_instances[1].this_data[3], 9u);

  linkage.fixed_instance_count = 254;
  s = abi::interface_from_c(info, out);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("above 253"), std::string::npos) << s.message();
  linkage.fixed_instance_count = 1;
  linkage.fixed_instances = nullptr;
  s = abi::interface_from_c(info, out);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("NULL with a count"), std::string::npos) << s.message();
}

TEST(ClassLinkageInterface, WithoutItTheDefaultRegisterApplies) {
  ShaderInterface out;
  EXPECT_EQ(out.class_linkage.space, KILN_CLASS_LINKAGE_DEFAULT_SPACE);
  EXPECT_EQ(out.class_linkage.register_index, KILN_CLASS_LINKAGE_DEFAULT_REGISTER);
  EXPECT_FALSE(out.class_linkage.fixed());
}

TEST(ClassLinkageInterface, JsonReadsTheSelectionRegisterAndFixedInstances) {
  const char* text = R"({"class_linkage": {"space": 1, "register": 5,
    "fixed_instances": [{"function_table": 3, "this": [1, 2, 0, 0]}, {"function_table": 0}]}})";
  ShaderInterface i;
  Status s = abi::interface_from_json(text, i);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(i.class_linkage.space, 1u);
  EXPECT_EQ(i.class_linkage.register_index, 5u);
  ASSERT_EQ(i.class_linkage.fixed_instances.size(), 2u);
  EXPECT_EQ(i.class_linkage.fixed_instances[0].function_table, 3u);
  EXPECT_EQ(i.class_linkage.fixed_instances[0].this_data[1], 2u);

  const std::pair<const char*, const char*> bad[] = {
      {R"({"class_linkage": {"regster": 5}})", "class_linkage.regster is not a member"},
      {R"({"class_linkage": {"fixed_instances": [{"this": [1, 2]}]}})",
       "function_table is missing"},
      {R"({"class_linkage": {"fixed_instances": [{"function_table": 0, "this": [1]}]}})",
       "this is not a list of 4 integers"},
  };
  for (const auto& [json, expect] : bad) {
    s = abi::interface_from_json(json, i);
    ASSERT_FALSE(s) << json;
    EXPECT_NE(s.message().find(expect), std::string::npos) << s.message();
  }
}

TEST(ClassLinkageInterface, TheEncodingCarriesItBothWays) {
  ShaderInterface a;
  a.class_linkage.register_index = 6;
  a.class_linkage.fixed_instances = {{2, {1, 2, 3, 4}}};
  std::vector<std::uint8_t> bytes, plain;
  a.encode(bytes);
  ShaderInterface{}.encode(plain);
  EXPECT_NE(bytes, plain) << "class linkage must enter the translation key";
  ShaderInterface b;
  ASSERT_TRUE(ShaderInterface::decode(bytes, b));
  EXPECT_EQ(b.class_linkage.register_index, 6u);
  ASSERT_EQ(b.class_linkage.fixed_instances.size(), 1u);
  EXPECT_EQ(b.class_linkage.fixed_instances[0].function_table, 2u);
  EXPECT_EQ(b.class_linkage.fixed_instances[0].this_data[2], 3u);
  bytes.pop_back();
  EXPECT_FALSE(ShaderInterface::decode(bytes, b));
}

} // namespace
} // namespace kiln::test
