// ch18 paged_attn_backend, contiguous reference: the optimized split-KV kernel over a contiguous cache.
//
// Technique: setup() repacks the static paged pool once into per-(sequence, head) contiguous K and V
// [row][4096][128] (a gather through the block table on the harness stream); run() is the split-KV loop of
// decode_split.cuh with the contiguous loader, the same schedule, split count and merge as
// optimized_paged_attn_backend.cu, without the block table. This variant exists to measure what paging
// costs: the goal (issue 24) is the paged kernel within 10% of this one. It also beats the naive paged
// baseline, for the same reasons as the paged kernel.
// Expected on Hopper: the same ~0.2 ms as the paged kernel, within a few percent.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 19 checks passed): 185.7 us (paged: 187.8 us, +1.1%).
#include "paged_attn_backend.cuh"

namespace {

using namespace paged_attn;

constexpr int kWarps = 4, kUnroll = 4;

// One CTA per (logical block, row): copies the 16 x 128 K and V of that block to their contiguous place.
__global__ void gather_pages(const __nv_bfloat16* __restrict__ pool, const int32_t* __restrict__ table, int heads, int64_t len,
                             __nv_bfloat16* __restrict__ out) {
  const int64_t j = blockIdx.x, row = blockIdx.y, seq = row / heads, head = row % heads;
  const int64_t blk = table[seq * (len / kBlock) + j];
  const uint4* src = reinterpret_cast<const uint4*>(pool + ((blk * heads + head) * kBlock) * ch18::kD);
  uint4* dst = reinterpret_cast<uint4*>(out + (row * len + j * kBlock) * ch18::kD);
  for (int i = threadIdx.x; i < kBlock * ch18::kD / 8; i += blockDim.x) dst[i] = src[i];
}

// The kernel: decode_split.cuh's split_kv_contiguous<4, 4>, the loop of the paged kernel over contiguous rows.
constexpr auto contiguous_split_kv = ch18::split_kv_contiguous<kWarps, kUnroll>;

class ContiguousReference : public PagedAttnBase {
 public:
  std::string technique() const override { return "split-KV over a contiguous copy of the cache (paging's reference)"; }
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("batch") * ctx.param("heads");
    contiguous_split_kv<<<dim3(splits_, static_cast<unsigned>(rows)), kWarps * 32, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ch18::ContiguousBf16{k_, v_, 0}, ctx.param("context"), ch18::q_scale_log2(),
        splits_, part_);
    AISP_LAUNCH_CHECK();
    ch18::combine(ctx.stream(), part_, splits_, rows, ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t heads = ctx.param("heads"), rows = ctx.param("batch") * heads, len = ctx.param("context");
    const size_t bytes = static_cast<size_t>(rows * len * ch18::kD) * sizeof(__nv_bfloat16);
    k_ = static_cast<__nv_bfloat16*>(ctx.scratch("k_contiguous", bytes));
    v_ = static_cast<__nv_bfloat16*>(ctx.scratch("v_contiguous", bytes));
    // The same split count as the paged kernel (same occupancy: same loop, same launch bounds).
    splits_ = ch18::choose_splits(contiguous_split_kv, kWarps * 32, ctx.device().sm_count, rows, len);
    part_.carve(ctx.scratch("partials", ch18::Partials::bytes(rows, splits_)), rows, splits_);
    // On the harness stream, after the static fills and the scratch zeroing enqueued there.
    const dim3 grid(static_cast<unsigned>(len / kBlock), static_cast<unsigned>(rows));
    const auto* table = ctx.buffer("block_table").as<const int32_t>();
    gather_pages<<<grid, 256, 0, ctx.stream()>>>(ctx.buffer("k_pool").as<const __nv_bfloat16>(), table, static_cast<int>(heads),
                                                 len, k_);
    AISP_LAUNCH_CHECK();
    gather_pages<<<grid, 256, 0, ctx.stream()>>>(ctx.buffer("v_pool").as<const __nv_bfloat16>(), table, static_cast<int>(heads),
                                                 len, v_);
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

 private:
  __nv_bfloat16* k_ = nullptr;
  __nv_bfloat16* v_ = nullptr;
  int splits_ = 1;
  ch18::Partials part_;
};

}  // namespace

AISP_BENCHMARK(ContiguousReference)
