// splitmix64's finalizer: the host side's one mixer for deriving seeds (per input, per timed sample), so
// seeds drawn from related values (a seed and a buffer name, a base and an index) are unrelated.
// (The fill and fingerprint kernels in runtime/buffer_ops.cu carry a device copy of the same function.)
#pragma once
#include <cstdint>

namespace aisp {

constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace aisp
