// hw fma: FP32 (FFMA) and FP64 (DFMA) throughput of the CUDA cores, and FP64 tensor (DMMA).
// Each thread runs kChains independent FMA chains (latency hidden by ILP and by full occupancy), fully
// unrolled, operands from kernel arguments so nothing folds, results consumed behind an impossible branch
// (pitfall 13). The SM clock is measured in the same kernel (clock64 vs %globaltimer), so "% clk" is the
// fraction of SMs x flop/clk/SM x the clock the kernel actually ran at. hw_anchors §6.2.
#include <algorithm>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

constexpr int kChains = 8;
constexpr int kInner = 64;  // unrolled FMAs per chain per loop trip

template <class T>
__global__ void __launch_bounds__(256) fma_kernel(int iters, T b, T c, T* sink, ClockStamp* stamps) {
  T x[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) x[i] = T(threadIdx.x + i) * T(1e-3);
  __syncthreads();
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < kInner; ++k)
#pragma unroll
      for (int i = 0; i < kChains; ++i) x[i] = fma(x[i], b, c);
  }
  __syncthreads();
  if (threadIdx.x == 0) stamps[blockIdx.x] = {c0, sm_clock(), n0, global_ns()};
  T sum = 0;
#pragma unroll
  for (int i = 0; i < kChains; ++i) sum += x[i];
  if (sum == T(-1.2345)) sink[threadIdx.x] = sum;
}

// DMMA m16n8k16 (sm_90): A 8 doubles, B 4, C/D 4 per thread; 4 independent accumulators per warp.
constexpr int kDmmaAcc = 4;
__global__ void __launch_bounds__(256) dmma_kernel(int iters, double seed, double* sink, ClockStamp* stamps) {
  double a[8], b[4], d[kDmmaAcc][4];
#pragma unroll
  for (int i = 0; i < 8; ++i) a[i] = seed * (threadIdx.x + i + 1);
#pragma unroll
  for (int i = 0; i < 4; ++i) b[i] = seed * (i + 2);
#pragma unroll
  for (int j = 0; j < kDmmaAcc; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) d[j][i] = 0;
  __syncthreads();
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < kDmmaAcc; ++j)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
          "{%12,%13,%14,%15}, {%0,%1,%2,%3};"
          : "+d"(d[j][0]), "+d"(d[j][1]), "+d"(d[j][2]), "+d"(d[j][3])
          : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
            "d"(b[1]), "d"(b[2]), "d"(b[3]));
  }
  __syncthreads();
  if (threadIdx.x == 0) stamps[blockIdx.x] = {c0, sm_clock(), n0, global_ns()};
  double sum = 0;
#pragma unroll
  for (int j = 0; j < kDmmaAcc; ++j) sum += d[j][0] + d[j][1] + d[j][2] + d[j][3];
  if (sum == -1.2345) sink[threadIdx.x] = sum;
}

}  // namespace

ProbeResult probe_fma(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "fma";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Stream s;
  const int sms = ctx.dev.sm_count;
  const int samples = ctx.opt.quick ? 3 : 7;
  DevBuf sink(256 * 8), st(sizeof(ClockStamp) * sms * 32);

  auto timed = [&](auto launch, int blocks, Figure& f, double flops, double per_sm_rate, const std::string& what) {
    EventTimer timer(s);
    ClockedSamples cs = sample_with_clock(timer, launch, st.get<ClockStamp>(), blocks, 1, samples, s);
    f.samples = cs.ms;
    f.samples_unit = "ms per kernel";
    f.kernel_clock_mhz = median(cs.mhz);
    f.value = tflop_per_s(flops, median(f.samples));
    f.unit = "TFLOP/s";
    f.datasheet = ctx.sheet.tflops(per_sm_rate, false);
    double frac = median_fraction_of_clock(cs, flops * 1e-9, sms * per_sm_rate * 1e-6);
    f.clock_ceiling = frac > 0 ? f.value / frac : tflops_at(sms, per_sm_rate, f.kernel_clock_mhz);
    f.clock_basis = "per sample: SMs x flop/clk/SM x SM clock measured in that kernel (clock64 / globaltimer); "
                    "median of the per-sample fractions";
    f.params = {{"blocks", std::to_string(blocks)}, {"threads_per_block", "256"}};
    f.method = what + "; " + std::to_string(blocks / sms) + " x 256-thread blocks per SM; median of " +
               std::to_string(samples) + " event-timed kernels at " + fmt_num(f.kernel_clock_mhz, 0) +
               " MHz (in-kernel clock)";
  };

  // FP32 and FP64 FMA: ~20 ms kernels at the datasheet rate.
  for (int dbl = 0; dbl < 2; ++dbl) {
    Figure f;
    f.key = dbl ? "fma_fp64" : "fma_fp32";
    f.label = dbl ? "FP64 FMA (DFMA)" : "FP32 FMA (FFMA)";
    f.caps_key = dbl ? "tflops_fp64_fma" : "tflops_fp32_fma";
    measure(ctx, f, [&](Figure& fig) {
      double rate = dbl ? per_sm::fp64_fma : per_sm::fp32_fma;
      int blocks = (dbl ? blocks_per_sm(fma_kernel<double>, 256) : blocks_per_sm(fma_kernel<float>, 256)) * sms;
      double flop_per_iter = 2.0 * kChains * kInner;
      double threads = double(blocks) * 256;
      int iters = std::max(16, static_cast<int>(0.02 * rate * sms * 1.98e9 / (threads * flop_per_iter)));
      double flops = threads * iters * flop_per_iter;
      auto launch = [&] {
        if (dbl) fma_kernel<double><<<blocks, 256, 0, s>>>(iters, 0.999999, 1e-7, sink.get<double>(), st.get<ClockStamp>());
        else fma_kernel<float><<<blocks, 256, 0, s>>>(iters, 0.9999f, 1e-4f, sink.get<float>(), st.get<ClockStamp>());
        AISP_LAUNCH_CHECK();
      };
      timed(launch, blocks, fig, flops, rate,
            std::string(dbl ? "DFMA" : "FFMA") + ", " + std::to_string(kChains) + " independent chains/thread x " +
                std::to_string(kInner) + " unrolled, flops = 2 per FMA");
    });
    r.figures.push_back(std::move(f));
  }

  Figure dm;
  dm.key = "dmma_fp64";
  dm.label = "FP64 tensor (DMMA mma.sync)";
  dm.caps_key = "tflops_fp64_dmma";
  measure(ctx, dm, [&](Figure& fig) {
    if (ctx.dev.cc_major < 9) throw std::runtime_error("m16n8k16 f64 mma needs sm_90");
    int blocks = blocks_per_sm(dmma_kernel, 256) * sms;
    double flop_per_iter_warp = kDmmaAcc * 2.0 * 16 * 8 * 16;
    double warps = double(blocks) * 8;
    int iters = std::max(16, static_cast<int>(0.02 * per_sm::fp64_tc * sms * 1.98e9 / (warps * flop_per_iter_warp)));
    double flops = warps * iters * flop_per_iter_warp;
    auto launch = [&] {
      dmma_kernel<<<blocks, 256, 0, s>>>(iters, 1.0000001, sink.get<double>(), st.get<ClockStamp>());
      AISP_LAUNCH_CHECK();
    };
    timed(launch, blocks, fig, flops, per_sm::fp64_tc,
          "mma.sync m16n8k16 f64 (4096 flop per warp instruction), " + std::to_string(kDmmaAcc) +
              " independent accumulators per warp");
  });
  r.figures.push_back(std::move(dm));
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
