// The fused attention forward kernel both optimized_flash_attention variants run: FlashAttention-2's
// algorithm on mma.sync tensor cores (the pre-Hopper instruction; Hopper runs it at ~2/3 of its wgmma peak).
//
// One block of 8 warps owns 128 query rows of one head (each warp 16 rows) and walks the keys in tiles of
// 64: S = Q K_j^T (16 x 64 per warp, fp32 in registers), online softmax (running row max m and sum l,
// earlier output rescaled by exp(m_old - m_new)), O += P V_j with P converted in registers from the S
// accumulator layout straight into the A-operand layout of the next mma (no shared-memory round trip).
// K and V tiles come in by cp.async, double-buffered: tile j+1 is in flight while tile j is multiplied.
// Shared memory rows are 256 B (128 bf16); the 16-byte chunk index is XORed with (row % 8) so the 8 rows an
// ldmatrix reads hit 8 different bank groups instead of one. 96 KiB per block -> 2 blocks (16 warps) per SM.
// Causal: key tiles wholly above the diagonal are never loaded; the one or two tiles crossing it get -inf
// above it; query blocks are issued longest-first so the last wave is not one long block.
#pragma once
#include "flash_attention.cuh"

namespace fa_mma {

constexpr int kBr = 128, kBc = 64, kD = 128, kThreads = 256;
constexpr int kRowBytes = kD * 2;
constexpr int kQBytes = kBr * kRowBytes, kKVBytes = kBc * kRowBytes;
constexpr int kSmemBytes = kQBytes + 4 * kKVBytes;  // Q + 2 stages x (K, V) = 96 KiB

__device__ __forceinline__ uint32_t swizzle(int row, int chunk) {
  return static_cast<uint32_t>(row * kRowBytes + ((chunk ^ (row & 7)) << 4));
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// rows x 128 bf16 from global (row pitch 256 B) into a swizzled shared tile; 16 B per thread per step.
template <int kRows>
__device__ __forceinline__ void load_tile(uint32_t smem, const __nv_bfloat16* __restrict__ src) {
  static_assert(kRows * 16 % kThreads == 0, "whole steps");
#pragma unroll
  for (int step = 0; step < kRows * 16 / kThreads; ++step) {
    const int i = step * kThreads + static_cast<int>(threadIdx.x);
    const int row = i >> 4, chunk = i & 15;
    cp_async16(smem + swizzle(row, chunk), src + row * kD + chunk * 8);
  }
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
// D += A B, m16n8k16, bf16 in, fp32 accumulate.
__device__ __forceinline__ void mma_bf16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

template <bool kCausal>
__global__ void __launch_bounds__(kThreads, 2)
flash_fwd_kernel(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                 const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o, int seq, float scale_log2) {
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t sq = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t sk = sq + kQBytes, sv = sk + 2 * kKVBytes;  // stage s: sk + s * kKVBytes, sv + s * kKVBytes

  // blockIdx.x (the fastest-launched index) walks the query blocks of one head, so the blocks resident at
  // one moment share a few heads' K and V (2 MiB per head) through L2 instead of streaming 64 heads' worth.
  const int qblock = kCausal ? static_cast<int>(gridDim.x - 1 - blockIdx.x) : static_cast<int>(blockIdx.x);
  const int q0 = qblock * kBr;
  const int64_t head = static_cast<int64_t>(blockIdx.y) * seq * kD;
  const __nv_bfloat16* kh = k + head;
  const __nv_bfloat16* vh = v + head;
  const int tiles = kCausal ? (q0 + kBr) / kBc : seq / kBc;

  load_tile<kBr>(sq, q + head + static_cast<int64_t>(q0) * kD);
  load_tile<kBc>(sk, kh);
  load_tile<kBc>(sv, vh);
  cp_async_commit();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // mma fragment coordinates: row group, thread in group
  float acc[16][4];                     // O: 16 rows x 128 d per warp (16 n-tiles of 8)
#pragma unroll
  for (int i = 0; i < 16; ++i) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0.0f;
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};  // rows g and g + 8 (log2 units)

  for (int j = 0; j < tiles; ++j) {
    const int stage = j & 1;
    if (j + 1 < tiles) {
      load_tile<kBc>(sk + (stage ^ 1) * kKVBytes, kh + static_cast<int64_t>(j + 1) * kBc * kD);
      load_tile<kBc>(sv + (stage ^ 1) * kKVBytes, vh + static_cast<int64_t>(j + 1) * kBc * kD);
      cp_async_commit();
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();

    // S = Q K^T for this warp's 16 rows and the tile's 64 keys.
    float s[8][4];
#pragma unroll
    for (int i = 0; i < 8; ++i) s[i][0] = s[i][1] = s[i][2] = s[i][3] = 0.0f;
    const uint32_t kst = sk + stage * kKVBytes;
#pragma unroll
    for (int kk = 0; kk < kD / 16; ++kk) {
      uint32_t a[4];
      ldmatrix_x4(a, sq + swizzle(warp * 16 + (lane & 15), 2 * kk + (lane >> 4)));
#pragma unroll
      for (int jj = 0; jj < kBc / 16; ++jj) {
        uint32_t b[4];
        ldmatrix_x4(b, kst + swizzle(16 * jj + (lane & 7) + 8 * (lane >> 4), 2 * kk + ((lane >> 3) & 1)));
        mma_bf16(s[2 * jj], a, b[0], b[1]);
        mma_bf16(s[2 * jj + 1], a, b[2], b[3]);
      }
    }

    if (kCausal && (j + 1) * kBc > q0) {  // the tile crosses the diagonal: mask keys after the query
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int key = j * kBc + 8 * i + 2 * t + (e & 1);
          const int query = q0 + warp * 16 + g + 8 * (e >> 1);
          if (key > query) s[i][e] = -INFINITY;
        }
    }

    // Online softmax in base 2: p = 2^(s * scale * log2(e) - m).
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float mx = -INFINITY;
#pragma unroll
      for (int i = 0; i < 8; ++i) mx = fmaxf(mx, fmaxf(s[i][2 * r], s[i][2 * r + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float m_new = fmaxf(row_max[r], mx * scale_log2);
      const float m_use = m_new == -INFINITY ? 0.0f : m_new;  // a row with no key yet: keep everything at 0
      const float alpha = exp2_approx(row_max[r] - m_use);
      row_max[r] = m_new;
      float sum = 0.0f;
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        s[i][2 * r] = exp2_approx(fmaf(s[i][2 * r], scale_log2, -m_use));
        s[i][2 * r + 1] = exp2_approx(fmaf(s[i][2 * r + 1], scale_log2, -m_use));
        sum += s[i][2 * r] + s[i][2 * r + 1];
      }
      row_sum[r] = row_sum[r] * alpha + sum;
#pragma unroll
      for (int i = 0; i < 16; ++i) {
        acc[i][2 * r] *= alpha;
        acc[i][2 * r + 1] *= alpha;
      }
    }

    // O += P V: the S accumulators of key n-tiles 2kk, 2kk+1 are exactly the A fragment of key step kk.
    const uint32_t vst = sv + stage * kKVBytes;
#pragma unroll
    for (int kk = 0; kk < kBc / 16; ++kk) {
      const uint32_t a[4] = {pack_bf16(s[2 * kk][0], s[2 * kk][1]), pack_bf16(s[2 * kk][2], s[2 * kk][3]),
                             pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                             pack_bf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int dd = 0; dd < kD / 16; ++dd) {
        uint32_t b[4];
        ldmatrix_x4_trans(b, vst + swizzle(16 * kk + (lane & 15), 2 * dd + (lane >> 4)));
        mma_bf16(acc[2 * dd], a, b[0], b[1]);
        mma_bf16(acc[2 * dd + 1], a, b[2], b[3]);
      }
    }
    __syncthreads();  // every warp is done with this stage before the next iteration refills it
  }

  // O = acc / l; rows g and g + 8 of this warp, 2 consecutive d per n-tile.
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float l = row_sum[r];
    l += __shfl_xor_sync(0xffffffffu, l, 1);
    l += __shfl_xor_sync(0xffffffffu, l, 2);
    const float inv = 1.0f / l;
    __nv_bfloat16* out = o + head + static_cast<int64_t>(q0 + warp * 16 + g + 8 * r) * kD + 2 * t;
#pragma unroll
    for (int i = 0; i < 16; ++i)
      *reinterpret_cast<uint32_t*>(out + 8 * i) = pack_bf16(acc[i][2 * r] * inv, acc[i][2 * r + 1] * inv);
  }
}

template <bool kCausal>
class FlashAttentionMmaSync : public FlashAttentionPair<kCausal> {
 protected:
  void setup_variant(aisp::Context&) override {
    AISP_CUDA_CHECK(
        cudaFuncSetAttribute(flash_fwd_kernel<kCausal>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }

 public:
  void run(aisp::Context& ctx) override {
    const int seq = static_cast<int>(ctx.param("seq"));
    const dim3 grid(static_cast<unsigned>(seq / kBr), static_cast<unsigned>(this->batch_heads(ctx)));
    const float scale_log2 = this->softmax_scale() * 1.4426950408889634f;
    flash_fwd_kernel<kCausal><<<grid, kThreads, kSmemBytes, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ctx.buffer("k").as<const __nv_bfloat16>(),
        ctx.buffer("v").as<const __nv_bfloat16>(), ctx.buffer("o").as<__nv_bfloat16>(), seq, scale_log2);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override {
    return "fused flash attention (FA2-style): mma.sync bf16, online softmax, cp.async double-buffered K/V";
  }
};

}  // namespace fa_mma
