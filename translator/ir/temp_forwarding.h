#pragma once
// Straight-line forwarding of temporaries, for the front ends (docs/pipeline.md, "Scoped form").
//
// Front ends write D3D registers as DclTmp/TmpLoad/TmpStore and leave SSA to the passes. Most
// reads of a register follow a write in the same straight-line stretch of code (no scoped
// marker, label or terminator between: ir::ends_straight_line), where the value is known. The
// table keeps, per temporary, the value it holds in the current stretch: a read there takes
// that value instead of emitting a TmpLoad, and a write only records it. The TmpStores are
// emitted at the end of the stretch, one per temporary written in it, with its last value; at a
// Return or FunctionEnd none is (the function's temporaries die there). SSA construction and
// type resolution are then left only the loads and stores that cross blocks, and the front end
// builds far fewer ops.
//
// The front end names each temporary by a slot number of its own (register * 4 + component, or
// the DclTmp's id) together with its DclTmp, and routes every TmpLoad and TmpStore of the
// temporaries it forwards through the table: before it emits a TmpLoad of a temporary, the
// store still pending for it (take_pending) must be emitted first. Per worker: reset() between
// shaders; the slots are stamped with their stretch, so nothing is cleared per shader.

#include "translator/ir/ir_opcodes.h"
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

  // A new shader: whatever an unfinished one left is dropped.
  void reset() {
    written_.clear();
    next_stretch();
    first_ = stretch_;
  }
  // Whether no op has ended a stretch since reset(): the code so far is one block, the first
  // of the function, so a value written now is as good as one stored at its entry.
  bool in_first_stretch() const { return stretch_ == first_; }

  Known known(std::uint32_t slot, SsaDef tmp) const {
    if (slot >= slots_.size()) return {};
    const Slot& s = slots_[slot];
    if (s.stretch != stretch_ || s.tmp != tmp) return {};
    return {s.value, s.type};
  }
  // The value of the store to `tmp` that this stretch has not emitted yet, handed over so that
  // the caller emits it now (before a TmpLoad of `tmp`); null when there is none.
  SsaDef take_pending(std::uint32_t slot, SsaDef tmp) {
    if (slot >= slots_.size()) return {};
    Slot& s = slots_[slot];
    if (s.stretch != stretch_ || s.tmp != tmp || !s.pending) return {};
    s.pending = false;
    return s.value;
  }
  // A TmpLoad of `tmp` (or a value read through it): later reads in the stretch reuse it.
  void loaded(std::uint32_t slot, SsaDef tmp, SsaDef value, ScalarType type) {
    set(at(slot), tmp, value, type, false);
  }
  // A write of `value` to `tmp`: its TmpStore is left to the end of the stretch.
  void stored(std::uint32_t slot, SsaDef tmp, SsaDef value, ScalarType type) {
    Slot& s = at(slot);
    if (!(s.stretch == stretch_ && s.pending)) written_.push_back(slot);
    set(s, tmp, value, type, true);
  }
  // A write the caller emitted itself (a value the table does not forward): nothing is known
  // of `tmp` any more, and a store still pending for it is dead.
  void forget(std::uint32_t slot, SsaDef tmp) {
    set(at(slot), tmp, SsaDef(), ScalarType::Unknown, false);
  }

  // `op` is about to be emitted. When it ends the stretch, `emit_store(tmp, value)` is called for
  // each temporary written in the stretch and not yet stored (unless `op` leaves the function),
  // and nothing known survives.
  template <typename EmitStore>
  void before(OpCode op, EmitStore&& emit_store) {
    if (!ends_straight_line(op)) return;
    if (op != OpCode::Return && op != OpCode::FunctionEnd)
      for (std::uint32_t slot : written_) {
        Slot& s = slots_[slot];
        if (s.stretch == stretch_ && s.pending) emit_store(s.tmp, s.value);
      }
    written_.clear();
    next_stretch();
  }

 private:
  struct Slot {
    std::uint32_t stretch = 0;
    SsaDef tmp;
    SsaDef value;
    ScalarType type = ScalarType::Unknown;
    bool pending = false; // `value` is written in this stretch and its TmpStore not emitted
  };
  // Member by member: assigning a braced Slot built it on the stack and copied it with 8-byte
  // moves across the fields just stored, a store-forwarding stall on every register write.
  void set(Slot& s, SsaDef tmp, SsaDef value, ScalarType type, bool pending) const {
    s.stretch = stretch_;
    s.tmp = tmp;
    s.value = value;
    s.type = type;
    s.pending = pending;
  }
  Slot& at(std::uint32_t slot) {
    if (slot >= slots_.size()) slots_.resize(std::size_t(slot) + 1);
    return slots_[slot];
  }
  void next_stretch() {
    if (++stretch_ == 0) { // wrapped: old stamps could match again
      slots_.clear();
      stretch_ = 1;
    }
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> written_; // slots written in this stretch, in first-write order
  std::uint32_t stretch_ = 1;
  std::uint32_t first_ = 1; // the stretch reset() began
};

} // namespace kiln::ir
