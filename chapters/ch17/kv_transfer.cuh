// kv_transfer: handing a prefilled request's KV cache from the prefill engine's pool to the decode
// engine's pool (the transfer step of prefill/decode disaggregation; on one GPU, two regions of device
// memory). Paged caches on both sides: the request's 2 layers x 256 blocks of 16 tokens x 8 KV heads x 128
// dims (bf16; 32 KB per block for K and as much for V, 33.5 MB in all) sit at scattered blocks of the
// prefill pool (src_blocks: 512 distinct blocks of a 1024-block pool) and go to the blocks the decode
// engine's allocator handed out (dst_blocks: a permutation of its 512-block pool).
//   inputs  k_src, v_src [1024][8][16][128] bf16 (dynamic: fresh KV from the prefill);
//           src_blocks, dst_blocks [512] int32 (static: the two allocators' decisions, known to the host
//           scheduler that issues the transfer)
//   outputs k_dst, v_dst [512][8][16][128] bf16
//   baseline_kv_transfer.cu   one cudaMemcpyAsync per block and tensor (1024 copies of 32 KB), the way
//                             vLLM's swap_blocks and a naive NIXL-style sender issue them
//   optimized_kv_transfer.cu  one gather-scatter kernel: a CTA per block reads the block tables on the
//                             device and moves 32 KB of K and of V with 16-byte loads and stores
// Same bytes, bit-identical outputs. Why it matters: a paged cache turns a transfer into thousands of small
// copies; the fixed cost per copy, not the bandwidth, then sets the time.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "aisp/aisp.hpp"

namespace kv_transfer {

constexpr int kSrcBlocks = 1024, kBlocks = 512, kHeads = 8, kBlockTokens = 16, kD = 128;
constexpr size_t kBlockBytes = size_t{kHeads} * kBlockTokens * kD * 2;  // 32 KB

inline uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// `count` distinct block ids out of `pool` (Fisher-Yates prefix).
inline void distinct_blocks(uint64_t seed, int32_t* out, int64_t count, int64_t pool) {
  std::vector<int32_t> ids(static_cast<size_t>(pool));
  std::iota(ids.begin(), ids.end(), 0);
  for (int64_t i = 0; i < count; ++i) std::swap(ids[i], ids[i + static_cast<int64_t>(mix(seed) % uint64_t(pool - i))]);
  std::copy(ids.begin(), ids.begin() + count, out);
}
inline void src_fill(uint64_t seed, void* host, int64_t count) {
  distinct_blocks(seed, static_cast<int32_t*>(host), count, kSrcBlocks);
}
inline void dst_fill(uint64_t seed, void* host, int64_t count) {  // a permutation: every block written once
  distinct_blocks(seed, static_cast<int32_t*>(host), count, count);
}

class KvTransferBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"blocks", kBlocks},
                {"src_pool_blocks", kSrcBlocks},
                {"heads", kHeads},
                {"block_tokens", kBlockTokens},
                {"head_dim", kD}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * 2.0 * kBlocks * kBlockBytes + 8.0 * kBlocks;  // K and V read and written, tables read
    w.items = double(kBlocks) * kBlockTokens;
    w.item_unit = "token-blocks moved";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    for (const char* name : {"k_src", "v_src"})
      ctx.input(name, aisp::DType::bf16, {kSrcBlocks, kHeads, kBlockTokens, kD}, aisp::Fill::normal(0, 1));
    ctx.input("src_blocks", aisp::DType::i32, {kBlocks}, aisp::Fill::custom(src_fill), aisp::Role::static_);
    ctx.input("dst_blocks", aisp::DType::i32, {kBlocks}, aisp::Fill::custom(dst_fill), aisp::Role::static_);
    for (const char* name : {"k_dst", "v_dst"}) ctx.output(name, aisp::DType::bf16, {kBlocks, kHeads, kBlockTokens, kD});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};

}  // namespace kv_transfer
