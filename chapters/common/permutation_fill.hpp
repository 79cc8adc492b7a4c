// A custom input fill (aisp::Fill::custom) for int32 index tables: a random permutation of 0..count-1
// (Fisher-Yates driven by splitmix64 from the seed), so every target is used exactly once. ch18's block
// tables (paged_attn_backend, and through it labs/kv_cache and labs/decode: every physical block used once)
// and rope_q_cache's slot mapping (every cache slot written once). Host code only.
#pragma once
#include <cstdint>
#include <numeric>
#include <utility>

namespace fills {

inline void permutation_fill(uint64_t seed, void* host, int64_t count) {
  auto* out = static_cast<int32_t*>(host);
  std::iota(out, out + count, 0);
  for (int64_t i = count - 1; i > 0; --i) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    std::swap(out[i], out[static_cast<int64_t>(z % static_cast<uint64_t>(i + 1))]);
  }
}

}  // namespace fills
