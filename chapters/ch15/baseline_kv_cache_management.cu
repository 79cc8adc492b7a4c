// ch15 kv_cache_management, baseline: one contiguous region per sequence, reallocated and copied when full
// (kv_cache_management.cuh). The pool is a bump allocator on the device (offsets in rows); a sequence's
// region starts at its prompt length; when a decode step finds it full, `grow` takes a region 16 rows
// larger and the `write` kernel copies the cache over (16 blocks per sequence, 16-byte vectors) before
// appending the new row. The old region is not reused (a caching allocator could, at the price of
// fragmentation: the regions differ in size). Cost: 8 of the 128 steps copy every cache (~80 MB each way).
// Expected on H100: ~1.1 ms. Measured (H100 80GB HBM3, 2026-11-28, docs/measurements/ch15_ch16_h100_20261128.md): 1.486 ms,
// peak 690 MiB.
#include "kv_cache_management.cuh"

namespace {

using namespace kv_cache;

constexpr int kCopyBlocks = 16;  // blocks per sequence in the write kernel

struct Contiguous {
  __nv_bfloat16* pool;
  unsigned long long* top;  // next free row of the pool
  long long* off;           // [seqs] first row of the sequence's region
  long long* old_off;       // [seqs] region before this step's move, -1 if none
  int* cap;                 // [seqs] rows in the region
  int* len;
};

__global__ void prefill_alloc(Contiguous c) {
  const int b = threadIdx.x;
  if (b >= kKvSeqs) return;
  const int p = kv_prompt(b);
  c.off[b] = static_cast<long long>(atomicAdd(c.top, static_cast<unsigned long long>(p)));
  c.cap[b] = p;
  c.len[b] = p;
}

// Grid (kCopyBlocks, seqs): the prompt rows.
__global__ void prefill_write(Contiguous c, const float* __restrict__ x) {
  const int b = blockIdx.y;
  const int p = kv_prompt(b);
  for (int pos = blockIdx.x; pos < p; pos += gridDim.x) {
    uint4* row = reinterpret_cast<uint4*>(c.pool + (c.off[b] + pos) * kKvRow);
    for (int v = threadIdx.x; v < kKvRowVecs; v += blockDim.x) row[v] = make_row_vec(x, b, pos, v);
  }
}

// One thread per sequence: a full region is replaced by one 16 rows larger.
__global__ void grow(Contiguous c) {
  const int b = threadIdx.x;
  if (b >= kKvSeqs) return;
  c.old_off[b] = -1;
  if (c.len[b] < c.cap[b]) return;
  c.old_off[b] = c.off[b];
  c.cap[b] += kKvBlock;
  c.off[b] = static_cast<long long>(atomicAdd(c.top, static_cast<unsigned long long>(c.cap[b])));
}

// Grid (kCopyBlocks, seqs): move the cache if it was reallocated, then append the new row.
__global__ void write(Contiguous c, const float* __restrict__ x) {
  const int b = blockIdx.y, len = c.len[b];
  const long long off = c.off[b], from = c.old_off[b];
  if (from >= 0) {
    for (int pos = blockIdx.x; pos < len; pos += gridDim.x) {
      const uint4* src = reinterpret_cast<const uint4*>(c.pool + (from + pos) * kKvRow);
      uint4* dst = reinterpret_cast<uint4*>(c.pool + (off + pos) * kKvRow);
      for (int v = threadIdx.x; v < kKvRowVecs; v += blockDim.x) dst[v] = src[v];
    }
  }
  if (blockIdx.x == gridDim.x - 1) {
    uint4* row = reinterpret_cast<uint4*>(c.pool + (off + len) * kKvRow);
    for (int v = threadIdx.x; v < kKvRowVecs; v += blockDim.x) row[v] = make_row_vec(x, b, len, v);
  }
}

__global__ void bump_len(int* len) {
  if (threadIdx.x < kKvSeqs) ++len[threadIdx.x];
}

// Grid (chunks, seqs): each block sums one range of a sequence's positions (its region is contiguous).
__global__ void readout(Contiguous c, float* __restrict__ partial) {
  const int b = blockIdx.y;
  const __nv_bfloat16* base = c.pool + c.off[b] * kKvRow;
  readout_chunk([&](int pos) { return base + int64_t(pos) * kKvRow; }, b, blockIdx.x, c.len[b], partial);
}

class ContiguousKvCache : public KvCacheManagementBase {
 public:
  std::string technique() const override {
    return "per-request contiguous region, reallocated (+16 rows) and copied when full";
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    const float* x = ctx.buffer("x").as<const float>();
    AISP_CUDA_CHECK(cudaMemsetAsync(c_.top, 0, sizeof(unsigned long long), s));
    prefill_alloc<<<1, kKvSeqs, 0, s>>>(c_);
    prefill_write<<<dim3(kCopyBlocks, kKvSeqs), 256, 0, s>>>(c_, x);
    for (int step = 0; step < kKvSteps; ++step) {
      grow<<<1, kKvSeqs, 0, s>>>(c_);
      write<<<dim3(kCopyBlocks, kKvSeqs), 256, 0, s>>>(c_, x);
      bump_len<<<1, kKvSeqs, 0, s>>>(c_.len);
    }
    readout<<<dim3(kReadChunks, kKvSeqs), kKvRowVecs, 0, s>>>(c_, partial_);
    AISP_LAUNCH_CHECK();
    finish_readout(ctx);
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    // Every region a sequence ever holds: its prompt, then prompt + 16 i for each reallocation.
    long long rows = 0;
    for (int b = 0; b < kKvSeqs; ++b)
      for (int cap = kv_prompt(b);; cap += kKvBlock) {
        rows += cap;
        if (cap >= kv_prompt(b) + kKvSteps) break;
      }
    c_.pool = static_cast<__nv_bfloat16*>(ctx.scratch("pool", size_t(rows) * kKvRow * sizeof(__nv_bfloat16)));
    c_.top = static_cast<unsigned long long*>(ctx.scratch("top", sizeof(unsigned long long)));
    c_.off = static_cast<long long*>(ctx.scratch("off", kKvSeqs * sizeof(long long)));
    c_.old_off = static_cast<long long*>(ctx.scratch("old_off", kKvSeqs * sizeof(long long)));
    c_.cap = static_cast<int*>(ctx.scratch("cap", kKvSeqs * sizeof(int)));
    c_.len = len_;
  }

 private:
  Contiguous c_{};
};

}  // namespace

AISP_BENCHMARK(ContiguousKvCache)
