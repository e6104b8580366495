// bench/child_process.h: work run in a child comes back as its payload, or as the signal or
// exit status that ended the child; a hang ends at the time limit.

#include "bench/child_process.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <unistd.h>

namespace kiln::bench {
namespace {

TEST(ChildProcess, ThePayloadComesBack) {
  const std::string big(200000, 'x'); // more than a pipe holds at once
  const ChildOutcome child = run_in_child([&] { return "S" + big; });
  EXPECT_TRUE(child.exited_cleanly());
  EXPECT_EQ(child.payload, "S" + big);
}

TEST(ChildProcess, ACrashIsTheSignalThatEndedIt) {
  const ChildOutcome child = run_in_child([]() -> std::string {
    std::fputs("this line goes to /dev/null\n", stderr);
    std::abort();
  });
  EXPECT_EQ(child.end, ChildOutcome::End::Signalled);
  EXPECT_EQ(child.signal, SIGABRT);
  EXPECT_FALSE(child.exited_cleanly());
  EXPECT_TRUE(child.payload.empty());
}

TEST(ChildProcess, AnExitBeforeTheEndIsItsStatus) {
  const ChildOutcome child = run_in_child([]() -> std::string { _exit(7); });
  EXPECT_EQ(child.end, ChildOutcome::End::Exited);
  EXPECT_EQ(child.exit_status, 7);
}

TEST(ChildProcess, AHangEndsAtTheTimeLimit) {
  const ChildOutcome child = run_in_child(
      []() -> std::string {
        for (;;) pause();
      },
      1);
  EXPECT_EQ(child.end, ChildOutcome::End::Signalled);
  EXPECT_EQ(child.signal, SIGALRM);
}

} // namespace
} // namespace kiln::bench
