// plugin/vkd3d_shader/boundary.h: what an exported function of the drop-in catches does not
// leave through the C API; it becomes one stderr line naming the function and what was caught,
// and VKD3D_ERROR_OUT_OF_MEMORY for an allocation failure, VKD3D_ERROR for anything else.

#include "plugin/vkd3d_shader/boundary.h"

#include <gtest/gtest.h>
#include <new>
#include <stdexcept>
#include <string>

namespace kiln::vkd3d {
namespace {

TEST(ExportBoundary, AnAllocationFailureIsOutOfMemoryWithALogLine) {
  testing::internal::CaptureStderr();
  const int result = guarded("vkd3d_shader_compile", []() -> int { throw std::bad_alloc(); });
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(result, VKD3D_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(log.find("vkd3d_shader_compile: out of memory"), std::string::npos) << log;
}

TEST(ExportBoundary, AnyOtherExceptionIsAnErrorNamingWhatWasCaught) {
  testing::internal::CaptureStderr();
  const int result =
      guarded("vkd3d_shader_scan", []() -> int { throw std::runtime_error("disk on fire"); });
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(result, VKD3D_ERROR);
  EXPECT_NE(log.find("vkd3d_shader_scan: disk on fire"), std::string::npos) << log;
}

TEST(ExportBoundary, FunctionsWithoutACodeReturnTheirFallbackAndStillLog) {
  testing::internal::CaptureStderr();
  const char* version = guarded_value("vkd3d_shader_get_version", "fallback",
                                      []() -> const char* { throw std::bad_alloc(); });
  bool ran = false;
  guarded_void("vkd3d_shader_free_messages", [&] {
    ran = true;
    throw 42;
  });
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_STREQ(version, "fallback");
  EXPECT_TRUE(ran);
  EXPECT_NE(log.find("vkd3d_shader_get_version: out of memory"), std::string::npos) << log;
  EXPECT_NE(log.find("vkd3d_shader_free_messages: "), std::string::npos) << log;
}

TEST(ExportBoundary, WhatDoesNotThrowPassesThrough) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(guarded("vkd3d_shader_compile", []() -> int { return VKD3D_OK; }), VKD3D_OK);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

} // namespace
} // namespace kiln::vkd3d
