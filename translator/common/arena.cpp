#include "translator/common/arena.h"

#include <algorithm>
#include <cstdlib>

namespace kiln {

namespace {
constexpr std::size_t kHeader = (sizeof(void*) * 2 + alignof(std::max_align_t) - 1) &
                                ~(alignof(std::max_align_t) - 1);
} // namespace

Arena::~Arena() {
  for (Block* list : {used_, free_}) {
    while (list) {
      Block* next = list->next;
      std::free(list);
      list = next;
    }
  }
}

void Arena::enter(Block* block) {
  if (used_) used_before_current_ += (cursor_ - (reinterpret_cast<std::uintptr_t>(used_) + kHeader));
  block->next = used_;
  used_ = block;
  cursor_ = reinterpret_cast<std::uintptr_t>(block) + kHeader;
  limit_ = cursor_ + block->size;
}

void* Arena::allocate_slow(std::size_t bytes, std::size_t align) {
  const std::size_t need = bytes + align;
  // Reuse a kept block that is large enough.
  for (Block** link = &free_; *link; link = &(*link)->next) {
    if ((*link)->size >= need) {
      Block* block = *link;
      *link = block->next;
      enter(block);
      return allocate(bytes, align);
    }
  }
  // Grow geometrically so a large shader needs few blocks.
  std::size_t size = used_ ? std::min(used_->size * 2, kMaxBlockBytes) : kFirstBlockBytes;
  size = std::max(size, need);
  auto* block = static_cast<Block*>(std::malloc(kHeader + size));
  if (!block) throw std::bad_alloc();
  block->size = size;
  reserved_ += size;
  enter(block);
  return allocate(bytes, align);
}

void Arena::reset() {
  while (used_) {
    Block* next = used_->next;
    used_->next = free_;
    free_ = used_;
    used_ = next;
  }
  cursor_ = limit_ = 0;
  used_before_current_ = 0;
}

std::size_t Arena::bytes_used() const {
  if (!used_) return 0;
  return used_before_current_ + (cursor_ - (reinterpret_cast<std::uintptr_t>(used_) + kHeader));
}

} // namespace kiln
