// ir::TempForwarding: what a front end may forward within a straight-line stretch, and which
// stores it emits at the stretch's end.
#include "translator/ir/temp_forwarding.h"

#include <gtest/gtest.h>
#include <utility>
#include <vector>

namespace kiln::ir {
namespace {

using Stores = std::vector<std::pair<std::uint32_t, std::uint32_t>>; // (tmp id, value id)

Stores end_stretch(TempForwarding& f, OpCode op) {
  Stores out;
  f.before(op, [&](SsaDef tmp, SsaDef value) { out.emplace_back(tmp.id(), value.id()); });
  return out;
}

TEST(TempForwarding, AWriteIsKnownUntilTheStretchEnds) {
  TempForwarding f;
  f.reset();
  const SsaDef r0(10), value(20);
  EXPECT_FALSE(f.known(0, r0).value);
  f.stored(0, r0, value, ScalarType::F32);
  EXPECT_EQ(f.known(0, r0).value, value);
  EXPECT_EQ(f.known(0, r0).type, ScalarType::F32);
  // Code that does not end the stretch keeps it; a scoped marker ends it.
  EXPECT_TRUE(end_stretch(f, OpCode::FAdd).empty());
  EXPECT_EQ(f.known(0, r0).value, value);
  EXPECT_EQ(end_stretch(f, OpCode::ScopedIf), (Stores{{10, 20}}));
  EXPECT_FALSE(f.known(0, r0).value);
  EXPECT_TRUE(end_stretch(f, OpCode::ScopedEndIf).empty()); // stored once only
}

TEST(TempForwarding, OnlyTheLastWriteOfAStretchIsStoredInFirstWriteOrder) {
  TempForwarding f;
  f.reset();
  const SsaDef r0(10), r1(11);
  f.stored(0, r0, SsaDef(20), ScalarType::F32);
  f.stored(1, r1, SsaDef(21), ScalarType::U32);
  f.stored(0, r0, SsaDef(22), ScalarType::F32);
  EXPECT_EQ(end_stretch(f, OpCode::ScopedLoop), (Stores{{10, 22}, {11, 21}}));
}

TEST(TempForwarding, NothingIsStoredWhereTheFunctionEnds) {
  for (OpCode op : {OpCode::Return, OpCode::FunctionEnd}) {
    TempForwarding f;
    f.reset();
    f.stored(0, SsaDef(10), SsaDef(20), ScalarType::F32);
    EXPECT_TRUE(end_stretch(f, op).empty()) << op_name(op);
    EXPECT_FALSE(f.known(0, SsaDef(10)).value);
  }
}

TEST(TempForwarding, APendingStoreIsHandedOverOnceBeforeALoad) {
  TempForwarding f;
  f.reset();
  const SsaDef r0(10);
  f.stored(0, r0, SsaDef(20), ScalarType::F32);
  EXPECT_EQ(f.take_pending(0, r0), SsaDef(20));
  EXPECT_FALSE(f.take_pending(0, r0));
  EXPECT_TRUE(end_stretch(f, OpCode::Label).empty()); // the caller emitted it
}

TEST(TempForwarding, AForgottenTempIsUnknownAndItsPendingStoreDead) {
  TempForwarding f;
  f.reset();
  const SsaDef r0(10);
  f.stored(0, r0, SsaDef(20), ScalarType::F32);
  f.forget(0, r0);
  EXPECT_FALSE(f.known(0, r0).value);
  EXPECT_TRUE(end_stretch(f, OpCode::ScopedElse).empty());
}

TEST(TempForwarding, ALoadIsReusedButNeverStored) {
  TempForwarding f;
  f.reset();
  const SsaDef r0(10), load(30);
  f.loaded(0, r0, load, ScalarType::Unknown);
  EXPECT_EQ(f.known(0, r0).value, load);
  EXPECT_TRUE(end_stretch(f, OpCode::Branch).empty());
}

TEST(TempForwarding, SlotsAreKeyedByTheirTempAndForgottenByANewShader) {
  TempForwarding f;
  f.reset();
  f.stored(0, SsaDef(10), SsaDef(20), ScalarType::F32);
  EXPECT_FALSE(f.known(0, SsaDef(11)).value); // another DclTmp in the same slot (a new phase)
  f.reset();
  EXPECT_FALSE(f.known(0, SsaDef(10)).value);
  EXPECT_TRUE(end_stretch(f, OpCode::ScopedIf).empty()); // the old shader's write is dropped
}

TEST(TempForwarding, TheFirstStretchEndsAtTheFirstBoundary) {
  TempForwarding f;
  f.reset();
  EXPECT_TRUE(f.in_first_stretch());
  end_stretch(f, OpCode::FAdd);
  EXPECT_TRUE(f.in_first_stretch());
  end_stretch(f, OpCode::ScopedIf);
  EXPECT_FALSE(f.in_first_stretch());
  f.reset();
  EXPECT_TRUE(f.in_first_stretch());
}

} // namespace
} // namespace kiln::ir
