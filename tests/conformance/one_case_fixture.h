#pragma once
// What the fixtures that replay one-case scripts on lavapipe share (render_state_fixture.h,
// dxbc_features_test.cpp): a Vulkan device (without one the test is skipped, and fails in CI)
// and a scratch folder for the script and its shaders, removed after the test.

#include "tests/support/shared_data.h"
#include "bench/execute/vulkan_harness.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>

namespace kiln::conformance {

// Base: ::testing::Test or ::testing::TestWithParam<...>. `name` names the scratch folder.
template <typename Base>
class OneCaseFixture : public Base {
 protected:
  explicit OneCaseFixture(const char* name) : name_(name) {}
  void SetUp() override {
    std::string why_not;
    context_ = vulkan::Context::create(why_not);
    if (!context_) KILN_SKIP_OR_FAIL_IN_CI("no Vulkan device: " << why_not);
    folder_ = std::filesystem::temp_directory_path() /
              ("kiln_" + std::string(name_) + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override {
    if (!folder_.empty()) std::filesystem::remove_all(folder_);
  }

  std::unique_ptr<vulkan::Context> context_;
  std::filesystem::path folder_;

 private:
  const char* name_;
};

} // namespace kiln::conformance
