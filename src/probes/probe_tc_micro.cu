// Tensor-core microkernel: the clock-adjusted peak of the wgmma path (sm_90a), per dtype.
// Each warpgroup issues wgmma.mma_async m64n256k{8,16,32} with both operands in shared memory (random
// data, loaded once; no global traffic in the loop) and 128 accumulator registers per thread; 4 wgmmas
// per commit group, one group kept in flight (wait_group 1), as a GEMM main loop does. The descriptors
// use the no-swizzle K-major layout (8-row x 16-B core matrices); since only throughput is measured, the
// values never need to form a meaningful product, only valid shared-memory addresses.
// Rate = warpgroups x iterations x 4 x 2·64·256·K / event time; the clock is read inside the kernel
// (clock64 vs %globaltimer), so "% clk" is against SMs x flop/clk/SM x that clock. hw_anchors §6.1.
#include <algorithm>
#include <string>
#include <type_traits>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

#define WG_ACC_LIST                                                                                              \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                                        \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"                               \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"                               \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"                               \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"                               \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"                               \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"                    \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define ACC8(C, i) C(i), C(i + 1), C(i + 2), C(i + 3), C(i + 4), C(i + 5), C(i + 6), C(i + 7)
#define ACC128(C) \
  ACC8(C, 0), ACC8(C, 8), ACC8(C, 16), ACC8(C, 24), ACC8(C, 32), ACC8(C, 40), ACC8(C, 48), ACC8(C, 56), \
  ACC8(C, 64), ACC8(C, 72), ACC8(C, 80), ACC8(C, 88), ACC8(C, 96), ACC8(C, 104), ACC8(C, 112), ACC8(C, 120)
#define CF(i) "+f"(d[i])
#define CR(i) "+r"(d[i])

// scale-d is a predicate (1 = accumulate); the immediates after it are the operand negations (1 = keep) and,
// for 16-bit types only, the transposes (0 = K-major). 8-bit and tf32 take no transpose; s8 takes neither.
#define WGMMA_ASM(INSTR, TAIL, CONSTRAINT)                                                                        \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" INSTR " " WG_ACC_LIST ", %128, %129, p" TAIL ";\n}\n" \
               : ACC128(CONSTRAINT)                                                                              \
               : "l"(a), "l"(b), "r"(1))

enum Op { kBF16, kFP16, kTF32, kE4M3, kS8 };

template <int O> struct Mma;
template <> struct Mma<kBF16> {
  using Acc = float;
  static __device__ __forceinline__ void run(float* d, uint64_t a, uint64_t b) {
    WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ", 1, 1, 0, 0", CF);
  }
};
template <> struct Mma<kFP16> {
  using Acc = float;
  static __device__ __forceinline__ void run(float* d, uint64_t a, uint64_t b) {
    WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", ", 1, 1, 0, 0", CF);
  }
};
template <> struct Mma<kTF32> {
  using Acc = float;
  static __device__ __forceinline__ void run(float* d, uint64_t a, uint64_t b) {
    WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", ", 1, 1", CF);
  }
};
template <> struct Mma<kE4M3> {
  using Acc = float;
  static __device__ __forceinline__ void run(float* d, uint64_t a, uint64_t b) {
    WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", ", 1, 1", CF);
  }
};
template <> struct Mma<kS8> {
  using Acc = int;
  static __device__ __forceinline__ void run(int* d, uint64_t a, uint64_t b) {
    WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", "", CR);
  }
};

// Keeps the compiler from moving accumulator reads/writes across the asynchronous wgmma window
// (CUTLASS's warpgroup_fence_operand).
template <class T>
__device__ __forceinline__ void fence_acc(T (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) {
    if constexpr (sizeof(T) == 4 && std::is_same_v<T, float>) asm volatile("" : "+f"(d[i])::"memory");
    else asm volatile("" : "+r"(d[i])::"memory");
  }
}

// Shared-memory matrix descriptor, no swizzle: start>>4 | LBO>>4 << 16 | SBO>>4 << 32. LBO = 128 B (next core
// matrix along K), SBO = 256 B (next 8-row group along M/N); every row of A and B is 32 B of K.
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

constexpr int kPerGroup = 4;         // wgmmas per commit group
constexpr int kABytes = 64 * 32;     // A tile: 64 rows x 32 B
constexpr int kBBytes = 256 * 32;    // B tile: 256 rows x 32 B

template <int O, int WG, int MinBlocks>
__global__ void __launch_bounds__(WG * 128, MinBlocks) wgmma_peak(const uint4* rnd, int iters, uint4* sink,
                                                                  ClockStamp* stamps) {
  using Acc = typename Mma<O>::Acc;
  __shared__ alignas(128) uint4 tiles[(kABytes + kBBytes) / 16];
  for (int i = threadIdx.x; i < (kABytes + kBBytes) / 16; i += blockDim.x) tiles[i] = rnd[i];
  // Generic-proxy stores that the tensor cores (async proxy) will read need this fence before the barrier.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(tiles));
  const uint64_t a = smem_desc(base), b = smem_desc(base + kABytes);
  Acc d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0;
  fence_acc(d);
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kPerGroup; ++u) Mma<O>::run(d, a, b);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  fence_acc(d);
  __syncthreads();
  if (threadIdx.x == 0) stamps[blockIdx.x] = {c0, sm_clock(), n0, global_ns()};
  Acc acc = 0;
#pragma unroll
  for (int i = 0; i < 128; ++i) acc += d[i];
  if (acc == Acc(123456789)) sink[threadIdx.x] = make_uint4(1, 2, 3, 4);  // consume the accumulators
}

struct DtypeInfo {
  const char* name;
  const char* label;
  int op;
  double per_sm;
  const char* caps;
  const char* unit;
};

const DtypeInfo* info(const std::string& dt) {
  static const DtypeInfo table[] = {
      {"bf16", "BF16 wgmma microkernel", kBF16, per_sm::bf16_tc, "tflops_bf16_wgmma", "TFLOP/s"},
      {"fp16", "FP16 wgmma microkernel", kFP16, per_sm::fp16_tc, "tflops_fp16_wgmma", "TFLOP/s"},
      {"tf32", "TF32 wgmma microkernel", kTF32, per_sm::tf32_tc, "tflops_tf32_wgmma", "TFLOP/s"},
      {"fp8_e4m3", "FP8 e4m3 wgmma microkernel", kE4M3, per_sm::fp8_tc, "tflops_fp8_e4m3_wgmma", "TFLOP/s"},
      {"int8", "INT8 wgmma microkernel", kS8, per_sm::int8_tc, "tops_int8_wgmma", "TOP/s"}};
  for (auto& t : table)
    if (dt == t.name) return &t;
  return nullptr;
}

struct Variant {
  int wg, min_blocks;
};
constexpr Variant kVariants[] = {{1, 2}, {2, 1}, {3, 1}};

template <int O, int WG, int MB>
void launch_variant(int sms, const uint4* rnd, int iters, uint4* sink, ClockStamp* st, cudaStream_t s, int* blocks_out,
                    bool launch) {
  auto k = wgmma_peak<O, WG, MB>;
  int per_sm = blocks_per_sm(k, WG * 128);
  *blocks_out = per_sm * sms;
  if (launch && per_sm > 0) {
    k<<<per_sm * sms, WG * 128, 0, s>>>(rnd, iters, sink, st);
    AISP_LAUNCH_CHECK();
  }
}

template <int O>
void launch_op(int variant, int sms, const uint4* rnd, int iters, uint4* sink, ClockStamp* st, cudaStream_t s,
               int* blocks, bool launch) {
  switch (variant) {
    case 0: launch_variant<O, 1, 2>(sms, rnd, iters, sink, st, s, blocks, launch); break;
    case 1: launch_variant<O, 2, 1>(sms, rnd, iters, sink, st, s, blocks, launch); break;
    default: launch_variant<O, 3, 1>(sms, rnd, iters, sink, st, s, blocks, launch); break;
  }
}

void launch_any(int op, int variant, int sms, const uint4* rnd, int iters, uint4* sink, ClockStamp* st,
                cudaStream_t s, int* blocks, bool launch) {
  switch (op) {
    case kBF16: launch_op<kBF16>(variant, sms, rnd, iters, sink, st, s, blocks, launch); break;
    case kFP16: launch_op<kFP16>(variant, sms, rnd, iters, sink, st, s, blocks, launch); break;
    case kTF32: launch_op<kTF32>(variant, sms, rnd, iters, sink, st, s, blocks, launch); break;
    case kE4M3: launch_op<kE4M3>(variant, sms, rnd, iters, sink, st, s, blocks, launch); break;
    default: launch_op<kS8>(variant, sms, rnd, iters, sink, st, s, blocks, launch); break;
  }
}

int k_of(int op) { return op == kTF32 ? 8 : (op == kBF16 || op == kFP16) ? 16 : 32; }

}  // namespace

void tc_micro_figures(const ProbeContext& ctx, const std::vector<std::string>& dtypes, std::vector<Figure>& out) {
  const int sms = ctx.dev.sm_count;
  const int samples = ctx.opt.quick ? 3 : 7;
  for (auto& dt : dtypes) {
    const DtypeInfo* t = info(dt);
    if (!t) continue;
    Figure f;
    f.key = std::string("mma_") + dt;
    f.label = t->label;
    f.unit = t->unit;
    f.caps_key = t->caps;
    measure(ctx, f, [&](Figure& fig) {
      if (ctx.dev.cc_major != 9) throw std::runtime_error("wgmma needs compute capability 9.0 (sm_90a build)");
      Stream s;
      DevBuf rnd(kABytes + kBBytes), sink(1024 * 16), st(sizeof(ClockStamp) * sms * 8);
      // Operands: uniform random values of the dtype itself (finite, never zero), as a real GEMM would see.
      const size_t tile_bytes = kABytes + kBBytes;
      switch (t->op) {
        case kBF16: fill_random(rnd.get(), tile_bytes / 2, RandKind::bf16, 0x7E57, s); break;
        case kFP16: fill_random(rnd.get(), tile_bytes / 2, RandKind::f16, 0x7E57, s); break;
        case kTF32: fill_random(rnd.get(), tile_bytes / 4, RandKind::f32, 0x7E57, s); break;
        case kE4M3: fill_random(rnd.get(), tile_bytes, RandKind::fp8_e4m3, 0x7E57, s); break;
        default: fill_random(rnd.get(), tile_bytes, RandKind::int8, 0x7E57, s); break;
      }
      const double flop_per_inst = 2.0 * 64 * 256 * k_of(t->op);
      EventTimer timer(s);
      double best = 0;
      int best_variant = -1, best_blocks = 0, best_iters = 0;
      ClockedSamples best_cs;
      double best_flops = 0;
      for (int v = 0; v < 3; ++v) {
        int blocks = 0;
        launch_any(t->op, v, sms, rnd.get<uint4>(), 0, sink.get<uint4>(), st.get<ClockStamp>(), s, &blocks, false);
        if (blocks <= 0) continue;
        int wg_per_sm = blocks / sms * kVariants[v].wg;
        // ~25 ms per kernel at the datasheet rate (1.83 GHz).
        double clk_per_iter = wg_per_sm * kPerGroup * flop_per_inst / t->per_sm;
        int iters = std::max(64, static_cast<int>(0.025 * 1.83e9 / clk_per_iter));
        auto run = [&] {
          launch_any(t->op, v, sms, rnd.get<uint4>(), iters, sink.get<uint4>(), st.get<ClockStamp>(), s, &blocks, true);
        };
        ClockedSamples cs = sample_with_clock(timer, run, st.get<ClockStamp>(), blocks, 1, samples, s);
        double flops = double(blocks) * kVariants[v].wg * iters * kPerGroup * flop_per_inst;
        double tf = tflop_per_s(flops, median(cs.ms));
        if (tf > best) best = tf, best_variant = v, best_blocks = blocks, best_iters = iters, best_cs = cs, best_flops = flops;
      }
      if (best_variant < 0) throw std::runtime_error("no wgmma variant could be launched");
      const Variant& bv = kVariants[best_variant];
      fig.value = best;
      fig.samples = best_cs.ms;
      fig.samples_unit = "ms per kernel";
      fig.kernel_clock_mhz = median(best_cs.mhz);
      double best_mhz = fig.kernel_clock_mhz;
      fig.datasheet = ctx.sheet.tflops(t->per_sm, true);
      // Each sample's rate against the peak at that sample's own clock, median over samples.
      double frac = median_fraction_of_clock(best_cs, best_flops * 1e-9, sms * t->per_sm * 1e-6);
      fig.clock_ceiling = frac > 0 ? best / frac : tflops_at(sms, t->per_sm, best_mhz);
      fig.clock_basis = "per sample: SMs x flop/clk/SM x SM clock measured in that kernel (clock64 / globaltimer); "
                        "median of the per-sample fractions";
      fig.params = {{"warpgroups_per_block", std::to_string(bv.wg)},
                    {"blocks_per_sm", std::to_string(best_blocks / sms)},
                    {"iters", std::to_string(best_iters)},
                    {"instruction", "m64n256k" + std::to_string(k_of(t->op))}};
      fig.method = "wgmma.mma_async m64n256k" + std::to_string(k_of(t->op)) + " " + dt +
                   ", A and B in shared memory (random values, no swizzle), 128 accumulators/thread, " +
                   std::to_string(kPerGroup) + " wgmma per commit group, 1 group in flight; " +
                   std::to_string(best_blocks / sms) + " block(s) x " + std::to_string(bv.wg) +
                   " warpgroup(s) per SM (best of 3 shapes); median of " + std::to_string(samples) +
                   " kernels at " + fmt_num(best_mhz, 0) + " MHz (in-kernel clock)";
    });
    out.push_back(std::move(f));
  }
}

}  // namespace aisp::probes
