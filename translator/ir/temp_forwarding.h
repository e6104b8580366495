#pragma once
// Straight-line forwarding of temporaries, for the front ends (docs/pipeline.md, "Scoped form").
//
// Front ends write D3D registers as DclTmp/TmpLoad/TmpStore and leave SSA to the passes. Most
// reads of a register follow a write in the same straight-line stretch of code (no scoped
// marker, label or terminator between: ir::ends_straight_line), where the value is known. A
// front end that asks this table before emitting a TmpLoad gets that value instead, and a store
// that a later store of the same stretch overwrites is reported dead (nothing can read it: the
// reads in between were forwarded). SSA construction and type resolution are then left only
// the loads and stores that cross blocks, and the front end builds far fewer ops.
//
// The front end names each temporary by a slot number of its own (register * 4 + component, or
// the DclTmp's id) together with its DclTmp, calls boundary() for every op that ends a stretch, and
// reports every TmpLoad and TmpStore of the temporaries it forwards; a TmpLoad of such a
// temporary emitted behind the table's back would read a store the table may call dead.
// Per worker: reset() between shaders keeps the storage.

#include "translator/ir/ir_operand.h"
#include "translator/ir/ir_type.h"

#include <cstdint>
#include <vector>

namespace kiln::ir {

class TempForwarding {
 public:
  // What a slot holds in the current stretch: the value and its scalar type (Unknown for an
  // untyped TmpLoad), or a null value when the stretch has not seen the slot.
  struct Known {
    SsaDef value;
    ScalarType type = ScalarType::Unknown;
  };

  // A new shader. Slots are stamped with their stretch, so nothing is cleared: an entry of an
  // earlier shader or stretch never matches (the storage is reused, at no cost per shader).
  void reset() { boundary(); }
  // An op that ends a straight-line stretch was emitted: nothing known survives it.
  void boundary() {
    if (++stretch_ == 0) { // wrapped: old stamps could match again
      slots_.clear();
      stretch_ = 1;
    }
  }

  Known known(std::uint32_t slot, SsaDef tmp) const {
    if (slot >= slots_.size()) return {};
    const Slot& s = slots_[slot];
    if (s.stretch != stretch_ || s.tmp != tmp) return {};
    return {s.value, s.type};
  }
  // A TmpLoad (or a value read through it) of `tmp`: later reads in the stretch reuse it.
  void loaded(std::uint32_t slot, SsaDef tmp, SsaDef value, ScalarType type) {
    at(slot) = {stretch_, tmp, value, type, SsaDef()};
  }
  // A TmpStore `store` of `value` to `tmp`. Returns the store it overwrites when that one is
  // of this stretch (dead: the caller removes it), else null.
  SsaDef stored(std::uint32_t slot, SsaDef tmp, SsaDef store, SsaDef value, ScalarType type) {
    Slot& s = at(slot);
    SsaDef dead = s.stretch == stretch_ && s.tmp == tmp ? s.store : SsaDef();
    s = {stretch_, tmp, value, type, store};
    return dead;
  }

 private:
  struct Slot {
    std::uint32_t stretch = 0;
    SsaDef tmp;
    SsaDef value;
    ScalarType type = ScalarType::Unknown;
    SsaDef store; // this stretch's last TmpStore to the slot, if any
  };
  Slot& at(std::uint32_t slot) {
    if (slot >= slots_.size()) slots_.resize(std::size_t(slot) + 1);
    return slots_[slot];
  }

  std::vector<Slot> slots_;
  std::uint32_t stretch_ = 1;
};

} // namespace kiln::ir
