// The generated builders take what the op's shape names (ir_builder_args.h): a call with the
// wrong number of operands, or a reference where a literal belongs (or the reverse), does not
// compile. The static_asserts hold that; the tests check what the accepted forms build.
#include "translator/ir/ir.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <span>
#include <string>
#include <string_view>

namespace kiln::ir {
namespace {

// Whether `Build` can be called with arguments of types A...
template <typename Build, typename... A>
concept Accepts = requires(Build build, A... args) {
  build(args...);
};
// A builder call as a callable type that can be called exactly where the call compiles.
#define KILN_CALL(call) decltype([](auto... a) -> decltype(call) { return call; })

using U = std::uint32_t;

// Fixed references: exactly as many SsaDefs as the shape has letters; a literal (an integer, a
// float) or an Operand where a reference belongs is refused.
using FAdd = KILN_CALL(Op::FAdd(kF32, a...));
static_assert(Accepts<FAdd, SsaDef, SsaDef>);
static_assert(!Accepts<FAdd, SsaDef> && !Accepts<FAdd, SsaDef, SsaDef, SsaDef>);
static_assert(!Accepts<FAdd, SsaDef, U> && !Accepts<FAdd, SsaDef, float> &&
              !Accepts<FAdd, SsaDef, Operand>);

// Literals after the references: an integer or the letter's enum; a reference, another letter's
// enum or (for `0`) a float is refused.
using FRound = KILN_CALL(Op::FRound(kF32, a...));
static_assert(Accepts<FRound, SsaDef, RoundMode> && Accepts<FRound, SsaDef, U>);
static_assert(!Accepts<FRound, SsaDef, SsaDef> && !Accepts<FRound, SsaDef, DenormMode> &&
              !Accepts<FRound, SsaDef>);
using BufferLoad = KILN_CALL(Op::BufferLoad(kU32, a...));
static_assert(Accepts<BufferLoad, SsaDef, SsaDef, U> && !Accepts<BufferLoad, SsaDef, SsaDef> &&
              !Accepts<BufferLoad, SsaDef, SsaDef, SsaDef> &&
              !Accepts<BufferLoad, SsaDef, SsaDef, float>);

// A `[..]` group: whole repetitions, or one span; then its literals.
using Phi = KILN_CALL(Op::Phi(kF32, a...));
static_assert(Accepts<Phi> && Accepts<Phi, SsaDef, SsaDef> &&
              Accepts<Phi, SsaDef, SsaDef, SsaDef, SsaDef> &&
              Accepts<Phi, std::span<const SsaDef>>);
static_assert(!Accepts<Phi, SsaDef, SsaDef, SsaDef> && !Accepts<Phi, SsaDef, U>); // half a pair
using Label = KILN_CALL(Op::Label(a...));
static_assert(Accepts<Label, Construct> && Accepts<Label, SsaDef, SsaDef, Construct>);
static_assert(!Accepts<Label> && !Accepts<Label, Construct, SsaDef>); // literal missing, or first
using Construct3 = KILN_CALL(Op::CompositeConstruct(vec(ScalarType::F32, 3), a...));
static_assert(Accepts<Construct3, SsaDef, SsaDef, SsaDef> &&
              Accepts<Construct3, std::span<const SsaDef>> &&
              !Accepts<Construct3, std::span<const U>>);

// A `#` tail: numbers, or one span of them; a `$` tail: one string.
using Constant = KILN_CALL(Op::Constant(kF32, a...));
static_assert(Accepts<Constant, float> && Accepts<Constant, U, U, U> &&
              Accepts<Constant, std::span<const U>>);
static_assert(!Accepts<Constant, SsaDef> && !Accepts<Constant, std::string_view>);
using DebugName = KILN_CALL(Op::DebugName(a...));
static_assert(Accepts<DebugName, SsaDef, const char*> && Accepts<DebugName, SsaDef, std::string>);
static_assert(!Accepts<DebugName, SsaDef> && !Accepts<DebugName, SsaDef, U> &&
              !Accepts<DebugName, const char*>);

#undef KILN_CALL

TEST(TypedBuilders, ASpanBuildsWhatTheListBuilds) {
  const SsaDef a(1), b(2), c(3);
  const SsaDef parts[] = {a, b, c};
  const Op listed = Op::CompositeConstruct(vec(ScalarType::F32, 3), a, b, c);
  const Op spanned =
      Op::CompositeConstruct(vec(ScalarType::F32, 3), std::span<const SsaDef>(parts));
  ASSERT_EQ(spanned.operand_count(), 3u);
  EXPECT_EQ(spanned.ref_count(), listed.ref_count());
  for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(spanned.operand(i), listed.operand(i));

  const std::uint32_t bits[] = {7, 8};
  const Op constant = Op::Constant(vec(ScalarType::U32, 2), std::span<const std::uint32_t>(bits));
  ASSERT_EQ(constant.operand_count(), 2u);
  EXPECT_EQ(constant.ref_count(), 0u);
  EXPECT_EQ(constant.operand(1).literal_u32(), 8u);
}

TEST(TypedBuilders, LiteralsKeepTheirBits) {
  const Op round = Op::FRound(kF32, SsaDef(4), RoundMode::Zero);
  ASSERT_EQ(round.operand_count(), 2u);
  EXPECT_EQ(round.ref_count(), 1u);
  EXPECT_EQ(round.operand(1).literal_enum<RoundMode>(), RoundMode::Zero);
  const Op minus_one = Op::Constant(kI32, -1);
  EXPECT_EQ(minus_one.operand(0).bits(), 0xffffffffull);
  const Op half = Op::Constant(kF32, 0.5f);
  EXPECT_EQ(half.operand(0).literal_f32(), 0.5f);
  EXPECT_EQ(Op::Demote().type(), kVoid);
  EXPECT_EQ(Op::FLt(SsaDef(1), SsaDef(2)).type(), kBool); // the return class's type
}

} // namespace
} // namespace kiln::ir
