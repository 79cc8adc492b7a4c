// hw roofline: measured ceilings + an FP32 intensity sweep (mixbench-style, hw_anchors §7).
// The sweep kernel streams a 256 MiB float4 buffer into another (16 B read + 16 B written per element,
// 4 elements per thread in one pass) and applies K FMAs to each of the 4 lanes in between: intensity = 8K flop / 32 B = K/4 flop/B.
// Each point is compared with min(FP32 peak, HBM bandwidth x intensity), using the ceilings measured by
// `hw memory` / `hw fma` (hardware_capabilities.json) or, without them, the sweep's own end points.
// Slanted ceilings for the other levels and dtypes are listed from the same file.
#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

constexpr int kPerThread = 4;  // float4 elements per thread, loaded together (16 independent FMA chains)

template <int K>
__global__ void __launch_bounds__(256) roof_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n,
                                                   float a, float c) {
  const size_t base = size_t(blockIdx.x) * blockDim.x * kPerThread + threadIdx.x;
  float4 v[kPerThread];
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    size_t i = base + size_t(u) * blockDim.x;
    v[u] = i < n ? in[i] : make_float4(0, 0, 0, 0);
  }
  // Partially unrolled: a fully unrolled K = 1024 body (16 K FMAs) overflows the instruction cache.
#pragma unroll 16
  for (int j = 0; j < K; ++j) {
#pragma unroll
    for (int u = 0; u < kPerThread; ++u) {
      v[u].x = fmaf(v[u].x, a, c);
      v[u].y = fmaf(v[u].y, a, c);
      v[u].z = fmaf(v[u].z, a, c);
      v[u].w = fmaf(v[u].w, a, c);
    }
  }
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    size_t i = base + size_t(u) * blockDim.x;
    if (i < n) out[i] = v[u];
  }
}

using Launch = void (*)(const float4*, float4*, size_t, float, float, int, cudaStream_t);
template <int K>
void launch_k(const float4* in, float4* out, size_t n, float a, float c, int blocks, cudaStream_t s) {
  roof_kernel<K><<<blocks, 256, 0, s>>>(in, out, n, a, c);
}
struct Point {
  int k;
  Launch fn;
};
const Point kPoints[] = {{0, launch_k<0>},     {1, launch_k<1>},     {2, launch_k<2>},     {4, launch_k<4>},
                         {8, launch_k<8>},     {16, launch_k<16>},   {32, launch_k<32>},   {48, launch_k<48>},
                         {64, launch_k<64>},   {80, launch_k<80>},   {96, launch_k<96>},   {128, launch_k<128>},
                         {192, launch_k<192>}, {256, launch_k<256>}, {512, launch_k<512>}, {1024, launch_k<1024>}};

}  // namespace

ProbeResult probe_roofline(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "roofline";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Stream s;
  EventTimer timer(s);
  const size_t n = (256ull << 20) / 16;
  const int samples = ctx.opt.quick ? 3 : 5;
  DevBuf in(n * 16), out(n * 16);
  fill_random(in.get(), n * 4, RandKind::f32, 99, s);
  int blocks = static_cast<int>((n + 256 * kPerThread - 1) / (256 * kPerThread));  // one pass, like the copy kernel

  Series pts{"FP32 intensity sweep (16 B read + 16 B written per float4)",
             {"flop_per_byte", "GFLOP/s", "GB/s", "attainable_GFLOP/s", "pct_attained"}, {}};
  std::vector<std::array<double, 3>> raw;  // intensity, gflops, gbs
  for (auto& p : kPoints) {
    auto ms = timer.samples([&] {
      p.fn(in.get<float4>(), out.get<float4>(), n, 0.999f, 1e-3f, blocks, s);
      AISP_LAUNCH_CHECK();
    }, 1, samples);
    double t = median(ms);
    double flops = 8.0 * p.k * n, bytes = 32.0 * n;
    raw.push_back({flops / bytes, has(tflop_per_s(flops, t)) ? tflop_per_s(flops, t) * 1e3 : 0.0, gb_per_s(bytes, t)});
  }

  std::map<std::string, double> caps;
  for (auto& [k, v] : read_capabilities(ctx)) caps[k] = v;
  double bw = caps.count("hbm_copy_gbs") ? caps["hbm_copy_gbs"] : kNaN;
  double peak = caps.count("tflops_fp32_fma") ? caps["tflops_fp32_fma"] * 1e3 : kNaN;
  std::string source = "hardware_capabilities.json (hbm_copy_gbs, tflops_fp32_fma)";
  if (!has(bw) || !has(peak)) {
    bw = 0, peak = 0;
    for (auto& p : raw) bw = std::max(bw, p[2]), peak = std::max(peak, p[1]);
    source = "the sweep's own maxima (no measured ceilings on file: run `aisp hw memory` and `aisp hw fma` first)";
  }
  double ridge = peak / bw;
  double worst_mem = kNaN, worst_comp = kNaN;
  for (auto& p : raw) {
    double attainable = std::min(peak, bw * p[0]);
    double pc = attainable > 0 ? 100.0 * p[1] / attainable : kNaN;
    if (p[0] == 0) pc = 100.0 * p[2] / bw;  // zero-flop point: judge by bandwidth
    pts.rows.push_back({p[0], p[1], p[2], attainable, pc});
    if (p[0] <= ridge / 2) worst_mem = has(worst_mem) ? std::min(worst_mem, pc) : pc;
    if (p[0] >= ridge * 2) worst_comp = has(worst_comp) ? std::min(worst_comp, pc) : pc;
  }
  r.series.push_back(pts);

  auto fig = [&](const char* key, const char* label, double v, const std::string& method) {
    Figure f;
    f.key = key;
    f.label = label;
    f.unit = "%";
    f.value = v;
    f.goal = goal_higher(90, 85, ">= 90 % of min(ceilings)");
    f.method = method;
    f.clocks = whole.stop();
    ctx.finish(f);
    r.figures.push_back(f);
  };
  std::string base = "FP32 sweep, K FMAs per lane, 256 MiB in + out; ceilings from " + source + ": " + fmt_num(bw) +
                     " GB/s, " + fmt_num(peak / 1e3) + " TFLOP/s, ridge " + fmt_num(ridge) + " flop/B";
  fig("roofline_mem_attain", "worst point, memory-bound side", worst_mem, base + "; points with I <= ridge/2");
  fig("roofline_comp_attain", "worst point, compute-bound side", worst_comp, base + "; points with I >= 2 x ridge");
  Figure rf;
  rf.key = "roofline_ridge";
  rf.label = "FP32 ridge point";
  rf.unit = "flop/B";
  rf.value = ridge;
  rf.datasheet = ctx.sheet.tflops(per_sm::fp32_fma, false) * 1e3 / ctx.sheet.hbm_gbs;
  rf.method = "measured FP32 peak / measured HBM bandwidth (datasheet column = datasheet ridge)";
  ctx.finish(rf);
  r.figures.push_back(rf);

  // The other ceilings on file, so a roofline can be drawn for every level and dtype.
  Series ceil{"ceilings on file (value; GB/s for bandwidths, TFLOP/s for compute)", {"index", "value"}, {}};
  int i = 0;
  for (auto& [k, v] : caps) {
    r.notes.push_back("ceiling " + std::to_string(i) + ": " + k + " = " + fmt_num(v));
    ceil.rows.push_back({double(i++), v});
  }
  if (!caps.empty()) r.series.push_back(ceil);
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
