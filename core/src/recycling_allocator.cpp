// The per-thread cache behind RecyclingAllocator (pipesim/recycling_allocator.h), where the build
// keeps memory (PIPESIM_KEEP_MEMORY: natively, not in WebAssembly; core/CMakeLists.txt): one free list
// per power-of-two block size, threaded through the free blocks themselves, so giving a block
// back never allocates. The lists are plain data, still readable after the thread's cache has
// been emptied at its exit; from then on blocks simply go to operator delete.
#include "pipesim/recycling_allocator.h"

#include <new>

#ifndef PIPESIM_KEEP_MEMORY
#define PIPESIM_KEEP_MEMORY 1
#endif

namespace pipesim::detail {
namespace {

constexpr int kMinLog2 = 16;
constexpr int kMaxLog2 = 27;
static_assert(kRecycledMinBlockBytes == std::size_t{1} << kMinLog2 &&
                  kRecycledMaxBlockBytes == std::size_t{1} << kMaxLog2,
              "the size classes are the header's bounds");

struct FreeBlock {
  FreeBlock* next;
};

// Zero-initialised and trivially destructible.
struct Cache {
  FreeBlock* free[kMaxLog2 - kMinLog2 + 1];
  std::size_t cached_bytes;
  bool closed;  // the thread is exiting: cache nothing more
};
thread_local Cache t_cache;

// Empties the cache when its thread exits (registered when the thread first touches a large block).
struct Reaper {
  void arm() {}
  ~Reaper() {
    for (FreeBlock*& head : t_cache.free)
      while (head != nullptr) {
        FreeBlock* next = head->next;
        ::operator delete(head);
        head = next;
      }
    t_cache.cached_bytes = 0;
    t_cache.closed = true;
  }
};
thread_local Reaper t_reaper;

// The size class of a request: log2 of the smallest power of two >= bytes, or -1 when it is
// outside the cached range.
int size_class(std::size_t bytes) {
  if (bytes < kRecycledMinBlockBytes || bytes > kRecycledMaxBlockBytes) return -1;
  int log2 = kMinLog2;
  while ((std::size_t{1} << log2) < bytes) ++log2;
  return log2;
}

}  // namespace

void* recycled_allocate(std::size_t bytes) {
  if (!PIPESIM_KEEP_MEMORY) return ::operator new(bytes);  // see core/CMakeLists.txt
  const int c = size_class(bytes);
  if (c < 0) return ::operator new(bytes);
  FreeBlock*& head = t_cache.free[c - kMinLog2];
  if (head != nullptr) {
    FreeBlock* block = head;
    head = block->next;
    t_cache.cached_bytes -= std::size_t{1} << c;
    return block;
  }
  t_reaper.arm();
  return ::operator new(std::size_t{1} << c);
}

void recycled_deallocate(void* block, std::size_t bytes) noexcept {
  if (!PIPESIM_KEEP_MEMORY) {
    ::operator delete(block);
    return;
  }
  const int c = size_class(bytes);
  const std::size_t size = std::size_t{1} << (c < 0 ? 0 : c);
  if (c < 0 || t_cache.closed || t_cache.cached_bytes + size > kRecycledMaxCachedBytes) {
    ::operator delete(block);
    return;
  }
  t_reaper.arm();
  FreeBlock*& head = t_cache.free[c - kMinLog2];
  head = new (block) FreeBlock{head};
  t_cache.cached_bytes += size;
}

}  // namespace pipesim::detail
