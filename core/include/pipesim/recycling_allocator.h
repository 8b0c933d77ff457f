// Storage for the timeline's per-rank op lists (SimResult::timeline), recycled within a thread.
// A timeline of 64 ranks x 1024 micro-batches is 6-19 MB of lists of 100-300 KB each; natively,
// glibc hands freed memory that large back to the kernel, so every simulate() call faulted all of
// it in afresh (zb-v: ~4,600 page faults, more time than the simulation itself). Large lists
// therefore come from, and return to, a small per-thread cache of freed blocks, so a thread that
// simulates again reuses pages it has already touched. Small lists use plain operator new, and so
// does every list in builds that do not keep memory (WebAssembly, whose memory never goes back to
// the system anyway; core/CMakeLists.txt).
#pragma once

#include <cstddef>

namespace pipesim {
namespace detail {

/// Smallest block the cache keeps (smaller requests go straight to operator new), and the most
/// bytes one thread keeps cached; blocks come in powers of two up to kRecycledMaxBlockBytes.
inline constexpr std::size_t kRecycledMinBlockBytes = std::size_t{1} << 16;
inline constexpr std::size_t kRecycledMaxBlockBytes = std::size_t{1} << 27;
inline constexpr std::size_t kRecycledMaxCachedBytes = std::size_t{64} << 20;

/// At least `bytes` of storage aligned for any object: from the calling thread's cache when it
/// holds a block of the right size, else from operator new.
void* recycled_allocate(std::size_t bytes);
/// Returns storage from recycled_allocate(bytes) (any thread's): to the calling thread's cache
/// while it has room, else to operator delete.
void recycled_deallocate(void* block, std::size_t bytes) noexcept;

}  // namespace detail

/// An allocator drawing on recycled_allocate, stateless, so any two compare equal and containers
/// move and swap freely between threads.
template <typename T>
struct RecyclingAllocator {
  using value_type = T;
  RecyclingAllocator() noexcept = default;
  /// Rebinding keeps the allocator (it has no state).
  template <typename U>
  RecyclingAllocator(const RecyclingAllocator<U>& /*other*/) noexcept {}
  /// Storage for `n` objects of T.
  T* allocate(std::size_t n) { return static_cast<T*>(detail::recycled_allocate(n * sizeof(T))); }
  /// Gives back storage from allocate(n).
  void deallocate(T* p, std::size_t n) noexcept { detail::recycled_deallocate(p, n * sizeof(T)); }
};

/// Stateless: every RecyclingAllocator can free what any other allocated.
template <typename T, typename U>
bool operator==(const RecyclingAllocator<T>& /*a*/, const RecyclingAllocator<U>& /*b*/) {
  return true;
}
/// See operator==.
template <typename T, typename U>
bool operator!=(const RecyclingAllocator<T>& /*a*/, const RecyclingAllocator<U>& /*b*/) {
  return false;
}

}  // namespace pipesim
