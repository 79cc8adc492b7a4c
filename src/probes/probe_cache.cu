// hw cache: the memory hierarchy below HBM.
//  * bandwidth vs working set: one block per SM, every SM streams the whole footprint F (per-SM re-read
//    distance = F, so L1 cannot serve it once F >> 256 KiB), plain 16-B loads, checked against the same kernel
//    with ld.global.cg and shown beside RRZE gpu-l2-cache's schedule; the total traffic stays constant while F
//    sweeps from 128 KiB to ~8x L2, showing L1, the L2 plateau, the partition effect and HBM.
//  * shared memory bandwidth in bytes/clock/SM: conflict-free 16-B ld.shared, cycles from clock64.
//  * pointer-chase latency (RRZE gpu-latency method): one thread follows a random cycle with one
//    pointer per 128-B line, no address arithmetic in the chain; cycles from clock64, ns from the clock
//    measured in the same kernel (clock64 vs %globaltimer). hw_anchors §2.2–2.4.
#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

// ---------------------------------------------------------------- bandwidth vs footprint
//
// Headline kernel (sm_sweep, plain loads): one 1024-thread block per SM, and every SM streams the *whole*
// footprint F in the same cyclic order, in tiles of 1024 threads x 16 B; SM s starts at tile s * tiles / SMs,
// so the SMs are spread evenly over F. Why this measures L2 and not L1 (256 KiB unified L1/shared per SM):
//  * within one pass an SM reads every line of F exactly once: warp w only ever touches bytes
//    [512 w, 512 w + 512) of each tile, so no two warps (and, with one block per SM, no two blocks) of an SM
//    share a 128-B line;
//  * between two reads of the same line by one SM, that SM reads the rest of the footprint (per-SM re-read
//    distance = F), so the L1 can only serve a re-read if it kept the line through F - 128 B of other lines.
//    Rows with F < 4 x 256 KiB get counts_as_L2 = 0 and never enter the L2 figure, which uses F in
//    [4, 20] MiB (re-read distance >= 16x the L1 array). The margin is needed: on the H100 the plain loads
//    still beat .cg by 10-19 % at 320 KiB and 3 % at 384 KiB (replacement is not strict LRU, warps drift),
//    and agree from 0.5 MiB on. Co-resident blocks are what broke the first
//    plain-load attempt (2026-11-22: 26 TB/s "L2" at 5.5 MiB): the kernel counts blocks per SM (%smid) and
//    the figure is an error unless every SM ran exactly one block in every launch;
//  * check, in the same run: the identical kernel with ld.global.cg (L2 only, never allocates in L1) must
//    read as fast as the plain one; plain > 1.03 x cg over 4-20 MiB is reported as an error (L1 leak).
//    Nsight Compute on the H100 (2026-11-25): l1tex sector hit rate 0.00 % for the plain loads at 4 and 16 MiB
//    (and for .cg at 0.375-4 MiB), against 37.8 % for the old chunk schedule with plain loads at 6 MiB.
// The SMs are evenly staggered, so a line is re-read (by another SM) every F / bandwidth on average, the
// least concurrent sharing a footprint allows. rrze_columns is the public anchor's schedule (RRZE
// gpu-l2-cache) with L2-only loads: blocks b, b + run, ... read the same column at the same time on different
// SMs, which the L2 serves somewhat faster at the small end of the window (8.5-8.8 TB/s at 4 MiB with
// RRZE's 100000 blocks, H100); it is reported beside the headline, not instead of it.

constexpr int kSweepThreads = 1024;
constexpr int kSweepUnroll = 8;                 // 16-B loads in flight per thread (128 KiB per SM)
constexpr uint64_t kTileBytes = uint64_t(kSweepThreads) * 16;
constexpr uint64_t kL1ArrayBytes = 256 << 10;   // unified L1/shared-memory array per SM (sm_80, sm_90)
constexpr uint64_t kMinL2Reuse = 4 * kL1ArrayBytes;  // smallest per-SM re-read distance counted as L2
constexpr unsigned kMaxSmid = 1024;             // size of the blocks-per-SM counter array
constexpr int kRrzeDoubles = 32;                // per thread (RRZE's N): 256 KiB per 1024-thread block

template <bool kCg>
__device__ __forceinline__ uint4 load16(const uint4* p) {
  uint4 v;
  if constexpr (kCg)  // SASS LDG.E.128.STRONG.GPU: cached in L2 only
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else  // SASS LDG.E.128: the ordinary load, allocates in L1
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// Launched with one block per SM (grid = SM count); `iters` trips of kSweepUnroll tiles per block.
template <bool kCg>
__global__ void __launch_bounds__(kSweepThreads, 1) sm_sweep(const uint4* __restrict__ buf, unsigned tiles,
                                                             unsigned iters, unsigned* blocks_on_sm,
                                                             ClockStamp* stamps, uint4* sink) {
  __shared__ unsigned s_start;
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    // The counter accumulates over launches; a second block on the same SM gets the other parity and starts
    // half the footprint away (it would still be an error: the host checks exactly one block per SM).
    unsigned n = atomicAdd(&blocks_on_sm[sm % kMaxSmid], 1u);
    s_start = unsigned((uint64_t(sm) * tiles / gridDim.x + uint64_t(n & 1) * (tiles / 2)) % tiles);
  }
  __syncthreads();
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  const uint4* base = buf + threadIdx.x;
  unsigned cur = s_start;
  uint32_t acc = 0;
  for (unsigned it = 0; it < iters; ++it) {
    uint4 v[kSweepUnroll];
#pragma unroll
    for (int u = 0; u < kSweepUnroll; ++u) {
      unsigned t = cur + u;  // tiles >= kSweepUnroll, so one wrap at most
      t = t >= tiles ? t - tiles : t;
      v[u] = load16<kCg>(base + size_t(t) * kSweepThreads);
    }
#pragma unroll
    for (int u = 0; u < kSweepUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    cur += kSweepUnroll;
    cur = cur >= tiles ? cur - tiles : cur;
  }
  __syncthreads();
  if (threadIdx.x == 0) stamps[blockIdx.x] = {c0, sm_clock(), n0, global_ns()};
  if (acc == 0x9E3779B9u) sink[threadIdx.x] = make_uint4(acc, 0, 0, 0);
}

// RRZE gpu-l2-cache's schedule (footprint = run x 256 KiB; block b reads the 8-KiB slice b % run of each of 32
// rows), 8-B ld.global.cg instead of RRZE's L1-allocating loads, so L1 cannot serve any of it.
__global__ void __launch_bounds__(1024) rrze_columns(const double* __restrict__ buf, int run, double* sink) {
  double s = 0;
  for (int i = 0; i < kRrzeDoubles; i++) {
    int idx = blockDim.x * run * i + (blockIdx.x % run) * 1024 + threadIdx.x;
    s += __ldcg(buf + idx);
  }
  if (s == 23.12) sink[threadIdx.x] = s;
}

// ---------------------------------------------------------------- shared memory bandwidth

constexpr int kSmemWords = 2048;  // uint4 slots = 32 KiB per block
constexpr int kSmemUnroll = 8;

__global__ void __launch_bounds__(1024) smem_bw(int iters, uint4* sink, ClockStamp* stamps) {
  __shared__ uint4 s[kSmemWords];
  for (int i = threadIdx.x; i < kSmemWords; i += blockDim.x) s[i] = make_uint4(i * 7u + 1, i ^ 0x55u, i + 3u, ~i);
  __syncthreads();
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  uint32_t ax = 0, ay = 0, az = 0, aw = 0;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < kSmemUnroll; ++u) {
      // A warp reads 32 consecutive 16-B slots (512 B, conflict-free); the offset moves every access.
      unsigned idx = (threadIdx.x + unsigned(it * kSmemUnroll + u) * 96u) & (kSmemWords - 1);
      uint4 v = s[idx];
      ax ^= v.x; ay ^= v.y; az ^= v.z; aw ^= v.w;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) stamps[blockIdx.x] = {c0, sm_clock(), n0, global_ns()};
  if ((ax ^ ay ^ az ^ aw) == 0x9E3779B9u) sink[threadIdx.x] = make_uint4(ax, ay, az, aw);
}

// ---------------------------------------------------------------- latency

__global__ void smem_chase(int n, int steps, unsigned* out_cycles, ClockStamp* stamp) {
  __shared__ unsigned ring[1024];
  if (threadIdx.x != 0) return;
  // Stride 33 words through a 1024-word ring: every hop changes bank and the cycle covers all slots.
  for (int i = 0; i < n; ++i) ring[i] = static_cast<unsigned>(__cvta_generic_to_shared(&ring[(i + 33) % n]));
  unsigned p = static_cast<unsigned>(__cvta_generic_to_shared(&ring[0]));
  for (int i = 0; i < 256; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  for (int i = 0; i < steps; i += 16) {
#pragma unroll
    for (int u = 0; u < 16; ++u) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
  }
  unsigned long long c1 = sm_clock(), n1 = global_ns();
  *stamp = {c0, c1, n0, n1};
  out_cycles[0] = p;  // keeps the chain alive
}

// The same ring walked by index (p = ring[p]): the address arithmetic (shift + add) is in the chain, as in
// most published shared-memory latency numbers.
__global__ void smem_chase_index(int n, int steps, unsigned* out, ClockStamp* stamp) {
  __shared__ unsigned ring[1024];
  if (threadIdx.x != 0) return;
  for (int i = 0; i < n; ++i) ring[i] = static_cast<unsigned>((i + 33) % n);
  unsigned p = 0;
  for (int i = 0; i < 256; ++i) p = ring[p];
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  for (int i = 0; i < steps; i += 16) {
#pragma unroll
    for (int u = 0; u < 16; ++u) p = ring[p];
  }
  unsigned long long c1 = sm_clock(), n1 = global_ns();
  *stamp = {c0, c1, n0, n1};
  out[0] = p;
}

// Chases from *cursor and leaves the end point there, so successive launches continue along the cycle and a
// footprint larger than the steps taken is never revisited (each line is touched once before reuse).
__global__ void global_chase(void** cursor, long long warm, long long steps, ClockStamp* stamp) {
  const void* p = *cursor;
  for (long long i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
  unsigned long long c0 = sm_clock(), n0 = global_ns();
  for (long long i = 0; i < steps; i += 16) {
#pragma unroll
    for (int u = 0; u < 16; ++u) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
  }
  unsigned long long c1 = sm_clock(), n1 = global_ns();
  *stamp = {c0, c1, n0, n1};
  *cursor = const_cast<void*>(p);
}

__global__ void scatter_cycle(uint64_t* buf, const uint32_t* next, size_t lines) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < lines; i += size_t(gridDim.x) * blockDim.x)
    buf[i * 16] = reinterpret_cast<uint64_t>(buf) + uint64_t(next[i]) * 128;
}

// Builds a random Hamiltonian cycle over the 128-B lines of buf[0, bytes): one 8-B pointer per line.
// The successor table is uploaded compactly and scattered on the device (a 2-D copy of 8-B rows is slow).
void build_cycle(char* dev, size_t bytes, std::mt19937_64& rng, uint32_t* next_dev, cudaStream_t s) {
  size_t lines = bytes / 128;
  std::vector<uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), rng);  // line 0 stays the start
  std::vector<uint32_t> next(lines);
  for (size_t i = 0; i < lines; ++i) next[order[i]] = order[(i + 1) % lines];
  AISP_CUDA_CHECK(cudaMemcpyAsync(next_dev, next.data(), lines * 4, cudaMemcpyHostToDevice, s));
  scatter_cycle<<<264, 256, 0, s>>>(reinterpret_cast<uint64_t*>(dev), next_dev, lines);
  AISP_LAUNCH_CHECK();
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
}

double median_in(const Series& s, int xcol, int ycol, double lo, double hi) {
  std::vector<double> v;
  for (auto& r : s.rows)
    if (r[xcol] >= lo && r[xcol] <= hi) v.push_back(r[ycol]);
  return v.empty() ? kNaN : median(v);
}

}  // namespace

ProbeResult probe_cache(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "cache";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Stream s;
  EventTimer timer(s);
  const double mib = 1 << 20;
  const double l2 = static_cast<double>(ctx.dev.l2_bytes);
  const size_t max_fp = ctx.opt.cache_max_mib > 0 ? size_t(ctx.opt.cache_max_mib * mib)
                                                  : std::min<size_t>(size_t(8 * l2), size_t(1) << 30);
  const int samples = ctx.opt.quick ? 3 : 5;

  // --- bandwidth vs footprint (see the comment above sm_sweep for why the headline is L2, not L1)
  Series bw{"read bandwidth vs footprint (every SM streams the footprint; 16-B plain / ld.global.cg loads; "
            "RRZE column schedule with 8-B ld.global.cg)",
            {"footprint_MiB", "GB/s", "ms", "GB/s_cg", "GB/s_rrze_cg", "MHz", "counts_as_L2"}, {}};
  enum Col { kFp, kPlain, kMs, kCg, kRrze, kMhz, kIsL2 };
  Figure l2f, l2cg, l2rr;
  l2f.key = "l2_read";
  l2f.label = "L2 read (4-20 MiB, every SM streams it)";
  l2f.caps_key = "l2_read_gbs";
  l2cg.key = "l2_read_cg";
  l2cg.label = "L2 read, same kernel, ld.global.cg";
  l2rr.key = "l2_read_rrze";
  l2rr.label = "L2 read, RRZE column schedule, .cg";
  for (Figure* f : {&l2f, &l2cg, &l2rr}) f->unit = "GB/s";
  const double lo_mib = 4, hi_mib = 20;  // the L2 window of issue 5's goal
  std::string leak;                      // set when the plain loads beat the L2-only ones (L1 serving)
  measure(ctx, l2f, [&](Figure& f) {
    const int nsm = ctx.dev.sm_count;
    if (blocks_per_sm(sm_sweep<false>, kSweepThreads) < 1 || blocks_per_sm(sm_sweep<true>, kSweepThreads) < 1)
      throw std::runtime_error("sm_sweep cannot run 1024-thread blocks on this device");
    // Maximal L1 carve-out: the load staging lives in the L1 array (a smaller L1 would only make the plain
    // loads *less* able to hit, so this is the conservative choice for the honesty argument too).
    AISP_CUDA_CHECK(cudaFuncSetAttribute(sm_sweep<false>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    AISP_CUDA_CHECK(cudaFuncSetAttribute(sm_sweep<true>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    DevBuf buf(max_fp), sink(kSweepThreads * 16), count(kMaxSmid * 4), st(sizeof(ClockStamp) * nsm);
    fill_random(buf.get(), max_fp / 4, RandKind::u32, 7, s);
    const double traffic = 2.0 * (1 << 30);  // >= 2 GiB read per point (constant traffic, any footprint)
    std::vector<ClockStamp> stamps(nsm);
    std::vector<unsigned> per_sm(kMaxSmid);
    int bad_placement = 0;
    // One footprint, one load kind: GB/s (median of `samples`), ms, in-kernel MHz.
    auto sweep_point = [&](bool cg, uint64_t fp, double& gbs, double& ms, double& mhz) {
      unsigned tiles = static_cast<unsigned>(fp / kTileBytes);
      double per_iter = double(kSweepUnroll) * kTileBytes;
      unsigned iters = static_cast<unsigned>(std::max(1.0, std::round(traffic / nsm / per_iter)));
      AISP_CUDA_CHECK(cudaMemsetAsync(count.get(), 0, kMaxSmid * 4, s));
      const int warm = 1;
      auto v = timer.samples([&] {
        if (cg) sm_sweep<true><<<nsm, kSweepThreads, 0, s>>>(buf.get<uint4>(), tiles, iters, count.get<unsigned>(),
                                                               st.get<ClockStamp>(), sink.get<uint4>());
        else sm_sweep<false><<<nsm, kSweepThreads, 0, s>>>(buf.get<uint4>(), tiles, iters, count.get<unsigned>(),
                                                             st.get<ClockStamp>(), sink.get<uint4>());
        AISP_LAUNCH_CHECK();
      }, warm, samples);
      AISP_CUDA_CHECK(cudaMemcpy(per_sm.data(), count.get(), kMaxSmid * 4, cudaMemcpyDeviceToHost));
      AISP_CUDA_CHECK(cudaMemcpy(stamps.data(), st.get(), sizeof(ClockStamp) * nsm, cudaMemcpyDeviceToHost));
      // Every launch must have put exactly one block on each SM: nsm counters equal to the launch count.
      const unsigned launches = static_cast<unsigned>(warm + samples);
      if (std::count(per_sm.begin(), per_sm.end(), launches) != nsm) ++bad_placement;
      ms = median(v);
      gbs = gb_per_s(double(nsm) * iters * per_iter, ms);
      mhz = stamps_mhz(stamps);
    };
    auto rrze_point = [&](uint64_t fp) {
      int run = static_cast<int>(fp / (uint64_t(kRrzeDoubles) * 8 * 1024));
      if (run < 1) return kNaN;
      const int blocks = static_cast<int>(traffic / (kRrzeDoubles * 8 * 1024));  // 8192 blocks = 2 GiB
      auto v = timer.samples([&] {
        rrze_columns<<<blocks, 1024, 0, s>>>(reinterpret_cast<const double*>(buf.get()), run, sink.get<double>());
        AISP_LAUNCH_CHECK();
      }, 1, samples);
      return gb_per_s(double(blocks) * kRrzeDoubles * 8 * 1024, median(v));
    };
    for (uint64_t fp : geometric_sizes<std::vector<uint64_t>>(128 << 10, max_fp, 4, 64 << 10)) {
      if (fp / kTileBytes < kSweepUnroll) continue;
      double gbs, ms, mhz, gcg, mcg, hcg;
      sweep_point(false, fp, gbs, ms, mhz);
      sweep_point(true, fp, gcg, mcg, hcg);
      bw.rows.push_back({fp / mib, gbs, ms, gcg, rrze_point(fp), mhz, fp >= kMinL2Reuse ? 1.0 : 0.0});
    }
    if (bad_placement)
      throw std::runtime_error(std::to_string(bad_placement) + " footprint points ran a launch without exactly one "
                               "block per SM: the re-read argument does not hold, no L2 figure");
    auto in_window = [&](const std::vector<double>& row) {
      return row[kFp] >= lo_mib && row[kFp] <= hi_mib && row[kIsL2] > 0;
    };
    for (auto& row : bw.rows)
      if (in_window(row)) {
        f.samples.push_back(row[kPlain]);
        l2cg.samples.push_back(row[kCg]);
        if (has(row[kRrze])) l2rr.samples.push_back(row[kRrze]);
      }
    if (f.samples.empty()) throw std::runtime_error("no footprint in [4, 20] MiB (raise --max-mib)");
    f.value = median(f.samples);
    l2cg.value = median(l2cg.samples);
    l2rr.value = l2rr.samples.empty() ? kNaN : median(l2rr.samples);
    double mhz_sum = 0;
    int mhz_n = 0;
    for (auto& row : bw.rows)
      if (in_window(row)) mhz_sum += row[kMhz], ++mhz_n;
    f.kernel_clock_mhz = mhz_n ? mhz_sum / mhz_n : kNaN;
    // The honesty check: L1-allocating loads may not beat L2-only loads on the same schedule.
    if (f.value > 1.03 * l2cg.value)
      leak = "plain loads read " + fmt_num(100 * (f.value / l2cg.value - 1), 1) +
             " % faster than ld.global.cg on the same schedule: L1 serves part of them, not an L2 figure";
    for (Figure* g : {&f, &l2cg, &l2rr}) {
      g->samples_unit = "GB/s per footprint point in 4-20 MiB";
      g->datasheet = ctx.sheet.l2_gbs;
    }
    const std::string common =
        " footprints in [4, 20] MiB (4 per octave) of the median of " + std::to_string(samples) +
        " event-timed kernels, >= 2 GiB read per point; datasheet column = ~12 TB/s unofficial quote";
    f.params = {{"grid", std::to_string(nsm) + " x " + std::to_string(kSweepThreads) + " (one block per SM, checked)"},
                {"min_reuse_per_SM_KiB", std::to_string(kMinL2Reuse >> 10)}};
    f.method = "one 1024-thread block per SM (checked with %smid), every SM streams the whole footprint in the same "
               "cyclic order, SMs evenly staggered; 16-B plain (L1-allocating) loads, " +
               std::to_string(kSweepUnroll) + " in flight/thread, L1 carve-out max. Per-SM re-read distance = the "
               "footprint (>= 16x the 256 KiB L1 array in the window), checked against the ld.global.cg line. "
               "Value = median over the" + common;
    l2cg.method = "the same kernel with ld.global.cg (L2 only; never allocates in L1): the L1-free reference for the "
                  "line above. Value = median over the" + common;
    l2rr.method = "RRZE gpu-l2-cache schedule (the public anchor's): 8192 blocks x 1024 threads, 32 x 8-B loads per "
                  "thread, footprint = run x 256 KiB, blocks b, b + run, ... read the same slice at about the same "
                  "time on different SMs; ld.global.cg instead of RRZE's L1-allocating loads. Value = median over the" +
                  common;
  });
  if (!leak.empty()) {
    l2f.status = "error: " + leak;
    l2f.value = kNaN;
  }
  for (Figure* g : {&l2cg, &l2rr}) {
    g->clocks = l2f.clocks;
    g->kernel_clock_mhz = l2f.kernel_clock_mhz;
    if (!l2f.ok() && leak.empty()) g->status = l2f.status;
    ctx.finish(*g);
  }
  ctx.finish(l2f);
  r.figures.push_back(l2f);
  r.figures.push_back(l2cg);
  r.figures.push_back(l2rr);
  double dram = median_in(bw, kFp, kPlain, 4 * l2 / mib, 1e12);
  double l2p = l2f.value;
  if (has(dram) && has(l2p)) {
    double mid = 0.5 * (dram + l2p), knee = kNaN;
    for (auto& row : bw.rows)
      if (row[kFp] > 1 && row[kPlain] < mid) { knee = row[kFp]; break; }
    r.notes.push_back("L2 plateau " + fmt_num(l2p) + " GB/s; HBM tail (>= 4x L2) " + fmt_num(dram) +
                      " GB/s; bandwidth falls below their midpoint at " + fmt_num(knee) + " MiB (L2 = " +
                      fmt_num(l2 / mib) + " MiB)");
    // One L2 partition holds half of L2; past it lines are fetched across the partition crossbar.
    double beyond = median_in(bw, kFp, kPlain, 0.5 * l2 / mib, 0.9 * l2 / mib);
    r.notes.push_back("past one L2 partition (" + fmt_num(0.5 * l2 / mib) + "-" + fmt_num(0.9 * l2 / mib) +
                      " MiB) the plain curve holds " + fmt_num(beyond) + " GB/s = " + fmt_pct(100 * beyond / l2p) +
                      " of the 4-20 MiB figure");
  }
  if (has(l2f.value) && has(l2cg.value))
    r.notes.push_back("plain / ld.global.cg on the same schedule, 4-20 MiB: " + fmt_num(l2f.value / l2cg.value, 3) +
                      " (L1 serving would show as > 1; > 1.03 voids the L2 figure)");
  double l1_row = median_in(bw, kFp, kPlain, 0, double(kL1ArrayBytes) / mib);
  if (has(l1_row))
    r.notes.push_back("footprints <= one SM's 256 KiB L1 array: plain loads " + fmt_num(l1_row) +
                      " GB/s (served by L1; rows with counts_as_L2 = 0 never enter the L2 figure)");
  r.series.push_back(bw);

  // --- shared memory bandwidth
  Figure sm;
  sm.key = "smem_bw";
  sm.label = "shared memory ld (per SM)";
  sm.unit = "B/clk/SM";
  sm.caps_key = "smem_bytes_per_clk_per_sm";
  Figure smg;
  smg.key = "smem_gbs";
  smg.label = "shared memory ld (all SMs)";
  smg.unit = "GB/s";
  smg.caps_key = "smem_gbs";
  measure(ctx, sm, [&](Figure& f) {
    int per_sm = blocks_per_sm(smem_bw, 1024);
    int blocks = per_sm * ctx.dev.sm_count;
    const int iters = ctx.opt.quick ? 1024 : 4096;
    DevBuf sink(1024 * 16), st(sizeof(ClockStamp) * blocks);
    std::vector<double> bpc, mhz;
    std::vector<ClockStamp> stamps(blocks);
    double bytes_per_block = 1024.0 * iters * kSmemUnroll * 16;
    auto ms = timer.samples([&] {
      smem_bw<<<blocks, 1024, 0, s>>>(iters, sink.get<uint4>(), st.get<ClockStamp>());
      AISP_LAUNCH_CHECK();
    }, 1, samples);
    // Per-launch clock figures come from the last launch's stamps (every launch runs the same work).
    AISP_CUDA_CHECK(cudaMemcpy(stamps.data(), st.get(), sizeof(ClockStamp) * blocks, cudaMemcpyDeviceToHost));
    double cyc = stamps_cycles(stamps);
    f.kernel_clock_mhz = stamps_mhz(stamps);
    f.value = bytes_per_block * per_sm / cyc;
    for (double m : ms) f.samples.push_back(bytes_per_block * blocks / (m * 1e-3) / 1e9);
    f.samples_unit = "GB/s (all SMs) per kernel";
    f.datasheet = per_sm::smem_bytes_per_clk;
    f.clock_ceiling = per_sm::smem_bytes_per_clk;
    f.clock_basis = "128 B/clk/SM (32 banks x 4 B) at any clock";
    f.params = {{"blocks_per_sm", std::to_string(per_sm)}, {"iters", std::to_string(iters)}};
    f.method = "conflict-free 16-B ld.shared (a warp reads 512 contiguous B), " + std::to_string(per_sm) +
               " x 1024-thread blocks per SM on all SMs; B/clk/SM = bytes per SM / median block cycles (clock64)";
    smg.value = median(f.samples);
    smg.samples = f.samples;
    smg.samples_unit = f.samples_unit;
    smg.kernel_clock_mhz = f.kernel_clock_mhz;
    smg.datasheet = ctx.sheet.smem_gbs();
    smg.clock_ceiling = tflops_at(ctx.dev.sm_count, per_sm::smem_bytes_per_clk, f.kernel_clock_mhz) * 1e3;
    smg.clock_basis = "128 B/clk/SM x SMs x in-kernel clock";
    smg.method = "same kernel; GB/s = bytes read from shared memory on all SMs / event time (median of " +
                 std::to_string(samples) + ")";
  });
  smg.clocks = sm.clocks;
  if (!sm.ok()) smg.status = sm.status;
  ctx.finish(smg);
  r.figures.push_back(sm);
  r.figures.push_back(smg);

  // --- latency
  for (int indexed = 0; indexed < 2; ++indexed) {
    Figure ls;
    ls.key = indexed ? "lat_smem_index" : "lat_smem";
    ls.label = indexed ? "shared memory latency (index chain)" : "shared memory latency";
    ls.unit = "cycles";
    ls.caps_key = indexed ? "" : "latency_smem_cycles";
    measure(ctx, ls, [&](Figure& f) {
      DevBuf out(16), st(sizeof(ClockStamp));
      const int steps = 1 << 18;
      for (int i = 0; i < samples; ++i) {
        if (indexed) smem_chase_index<<<1, 1, 0, s>>>(1024, steps, out.get<unsigned>(), st.get<ClockStamp>());
        else smem_chase<<<1, 1, 0, s>>>(1024, steps, out.get<unsigned>(), st.get<ClockStamp>());
        AISP_LAUNCH_CHECK();
        ClockStamp c{};
        AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // s is non-blocking: the legacy-stream copy would not wait
        AISP_CUDA_CHECK(cudaMemcpy(&c, st.get(), sizeof c, cudaMemcpyDeviceToHost));
        f.samples.push_back(double(c.clk1 - c.clk0) / steps);
        f.kernel_clock_mhz = stamps_mhz({c});
      }
      f.samples_unit = "cycles per load";
      f.value = median(f.samples);
      f.method = std::string("one thread, ") +
                 (indexed ? "p = ring[p] over 32-bit indices (shift + add in the chain, the usual published method)"
                          : "ld.shared.u32 chain of shared addresses (no address math in the chain)") +
                 ", " + std::to_string(steps) + " dependent loads, clock64; " +
                 fmt_num(cycles_to_ns(f.value, f.kernel_clock_mhz)) + " ns at " + fmt_num(f.kernel_clock_mhz, 0) +
                 " MHz";
    });
    r.figures.push_back(ls);
  }

  Series lat{"pointer-chase latency vs footprint (1 thread, 128-B lines, random cycle)",
             {"footprint_KiB", "cycles", "ns", "MHz"}, {}};
  std::vector<uint64_t> sizes;
  for (uint64_t kib : {16, 32, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096, 8192, 16384, 24576, 32768,
                       40960, 49152, 65536, 98304, 131072, 262144, 524288})
    if (kib * 1024 <= std::max<uint64_t>(max_fp, 512ull << 20)) sizes.push_back(kib * 1024);
  std::string lat_error;
  {
    ClockMonitor mon(ctx.dev.uuid);
    try {
      AISP_CUDA_CHECK(cudaFuncSetAttribute(global_chase, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
      DevBuf buf(sizes.back()), st(sizeof(ClockStamp)), cursor(16), next(sizes.back() / 128 * 4);
      std::mt19937_64 rng(12345);
      for (uint64_t fp : sizes) {
        build_cycle(buf.get<char>(), fp, rng, next.get<uint32_t>(), s);
        void* start = buf.get();
        AISP_CUDA_CHECK(cudaMemcpyAsync(cursor.get(), &start, sizeof start, cudaMemcpyHostToDevice, s));
        long long lines = static_cast<long long>(fp / 128);
        long long warm = fp <= 2 * l2 ? lines : 16384;  // a full pass leaves every line cached when it fits
        long long steps = fp <= (1 << 20) ? (1 << 18) : (1 << 16);
        std::vector<double> cyc;
        double mhz = 0;
        for (int i = 0; i < 3; ++i) {
          global_chase<<<1, 1, 0, s>>>(cursor.get<void*>(), i == 0 ? warm : 0, steps, st.get<ClockStamp>());
          AISP_LAUNCH_CHECK();
          ClockStamp c{};
          AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // s is non-blocking: the legacy-stream copy would not wait
          AISP_CUDA_CHECK(cudaMemcpy(&c, st.get(), sizeof c, cudaMemcpyDeviceToHost));
          cyc.push_back(double(c.clk1 - c.clk0) / steps);
          mhz = stamps_mhz({c});
        }
        double m = median(cyc);
        lat.rows.push_back({fp / 1024.0, m, cycles_to_ns(m, mhz), mhz});
      }
    } catch (const std::exception& e) {
      lat_error = std::string("error: ") + e.what();
    }
    ClockStats cs = mon.stop();
    struct Level { const char* key; const char* label; double lo_kib, hi_kib; const char* caps; };
    for (auto lv : {Level{"lat_l1", "L1 hit latency (<= 96 KiB)", 0, 96, "latency_l1_cycles"},
                    Level{"lat_l2", "L2 hit latency (1-16 MiB)", 1024, 16384, "latency_l2_cycles"},
                    Level{"lat_dram", "HBM latency (>= 4x L2)", 4 * l2 / 1024, 1e12, "latency_dram_cycles"}}) {
      Figure f;
      f.key = lv.key;
      f.label = lv.label;
      f.unit = "cycles";
      f.caps_key = lv.caps;
      f.clocks = cs;
      if (!lat_error.empty()) f.status = lat_error;
      f.value = median_in(lat, 0, 1, lv.lo_kib, lv.hi_kib);
      double ns = median_in(lat, 0, 2, lv.lo_kib, lv.hi_kib);
      f.kernel_clock_mhz = median_in(lat, 0, 3, lv.lo_kib, lv.hi_kib);
      for (auto& row : lat.rows)
        if (row[0] >= lv.lo_kib && row[0] <= lv.hi_kib) f.samples.push_back(row[1]);
      f.samples_unit = "cycles per load, one per footprint";
      if (f.ok() && f.samples.empty()) f.status = "skipped: no footprint in range (raise --max-mib)";
      f.method = "1 thread chases a random cycle, one 8-B pointer per 128-B line, ld.global.ca, no address math in "
                 "the chain, carveout 0 (max L1), warm pass first; median over footprints in range = " +
                 fmt_num(ns) + " ns";
      ctx.finish(f);
      r.figures.push_back(f);
    }
  }
  r.series.push_back(lat);
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
