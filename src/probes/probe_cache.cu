// hw cache: the memory hierarchy below HBM.
//  * bandwidth vs working set (RRZE gpu-l2-cache method): every block reads one chunk of a footprint F
//    with 16-B L2-only loads (ld.global.cg, so L1 never serves them); the total traffic stays constant
//    while F sweeps from 256 KiB to ~8x L2, showing the L2 plateau, the partition effect and HBM.
//  * shared memory bandwidth in bytes/clock/SM: conflict-free 16-B ld.shared, cycles from clock64.
//  * pointer-chase latency (RRZE gpu-latency method): one thread follows a random cycle with one
//    pointer per 128-B line, no address arithmetic in the chain; cycles from clock64, ns from the clock
//    measured in the same kernel (clock64 vs %globaltimer). hw_anchors §2.2–2.4.
#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

// ---------------------------------------------------------------- bandwidth vs footprint

constexpr int kChunkThreads = 512;
constexpr int kChunkUnroll = 8;  // 16-B loads in flight per thread

// Persistent grid: block b reads chunks b, b + grid, ... (each taken mod `chunks`), `loads` 16-B loads per
// thread per chunk, with ld.global.cg (L2 only). Plain ld.global was tried (2026-11-22, H100): blocks that
// share an SM and map to the same chunk then hit in L1 (up to 26 TB/s at 5.5 MiB), which is not L2
// bandwidth, so only the L2-only load is used.
__global__ void __launch_bounds__(kChunkThreads) chunk_read(const uint4* __restrict__ buf, unsigned chunks, int loads,
                                                            unsigned total, uint4* sink) {
  uint32_t acc = 0;
  for (unsigned c = blockIdx.x; c < total; c += gridDim.x) {
    const uint4* base = buf + size_t(c % chunks) * size_t(kChunkThreads) * loads + threadIdx.x;
    for (int j = 0; j < loads; j += kChunkUnroll) {
      uint4 v[kChunkUnroll];
#pragma unroll
      for (int u = 0; u < kChunkUnroll; ++u) v[u] = __ldcg(base + size_t(j + u) * kChunkThreads);
#pragma unroll
      for (int u = 0; u < kChunkUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  }
  if (acc == 0x9E3779B9u) sink[threadIdx.x] = make_uint4(acc, 0, 0, 0);
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

  // --- bandwidth vs footprint
  Series bw{"read bandwidth vs footprint (16-B ld.global.cg, persistent grid)", {"footprint_MiB", "GB/s", "ms"}, {}};
  Figure l2f;
  l2f.key = "l2_read";
  l2f.label = "L2 read (4-20 MiB footprint)";
  l2f.caps_key = "l2_read_gbs";
  l2f.unit = "GB/s";
  measure(ctx, l2f, [&](Figure& f) {
    DevBuf buf(max_fp), sink(kChunkThreads * 16);
    fill_random(buf.get(), max_fp / 4, RandKind::u32, 7, s);
    const int grid = ctx.dev.sm_count * std::max(1, blocks_per_sm(chunk_read, kChunkThreads));
    std::vector<double> all_samples;
    for (uint64_t fp : geometric_sizes<std::vector<uint64_t>>(256 << 10, max_fp, 4, 128 << 10)) {
      int loads = fp >= (4u << 20) ? 64 : fp >= (1u << 20) ? 32 : 16;  // chunk = 512 threads x loads x 16 B
      size_t chunk = size_t(kChunkThreads) * loads * 16;
      unsigned chunks = static_cast<unsigned>(fp / chunk);
      if (!chunks) continue;
      double footprint = double(chunks) * chunk;
      size_t reps = std::max<size_t>(1, size_t((2.0 * (1 << 30)) / footprint + 0.5));  // >= 2 GiB of traffic
      unsigned total = static_cast<unsigned>(reps * chunks);
      auto v = timer.samples([&] {
        chunk_read<<<grid, kChunkThreads, 0, s>>>(buf.get<uint4>(), chunks, loads, total, sink.get<uint4>());
        AISP_LAUNCH_CHECK();
      }, 1, samples);
      double ms = median(v), gbs = gb_per_s(double(total) * chunk, ms);
      bw.rows.push_back({footprint / mib, gbs, ms});
      if (footprint >= 4 * mib && footprint <= 20 * mib) all_samples.push_back(gbs);
    }
    f.value = median_in(bw, 0, 1, 4, 20);
    f.samples = all_samples;
    f.samples_unit = "GB/s per footprint point in 4-20 MiB";
    f.datasheet = ctx.sheet.l2_gbs;
    f.params = {{"grid", std::to_string(grid) + " x " + std::to_string(kChunkThreads)}};
    f.method = "persistent grid (" + std::to_string(grid / ctx.dev.sm_count) + " x " + std::to_string(kChunkThreads) +
               " threads per SM), each block reads whole chunks of the footprint with 16-B ld.global.cg (L2 only), " +
               std::to_string(kChunkUnroll) + " in flight/thread, >= 2 GiB read per point; value = median over the " +
               "footprints in [4, 20] MiB of the median of " + std::to_string(samples) +
               " event-timed kernels; datasheet column = ~12 TB/s unofficial quote";
  });
  r.figures.push_back(l2f);
  double dram = median_in(bw, 0, 1, 4 * l2 / mib, 1e12);
  double l2p = l2f.value;
  if (has(dram) && has(l2p)) {
    double mid = 0.5 * (dram + l2p), knee = kNaN;
    for (auto& row : bw.rows)
      if (row[0] > 1 && row[1] < mid) { knee = row[0]; break; }
    r.notes.push_back("L2 plateau " + fmt_num(l2p) + " GB/s; HBM tail (>= 4x L2) " + fmt_num(dram) +
                      " GB/s; bandwidth falls below their midpoint at " + fmt_num(knee) + " MiB (L2 = " +
                      fmt_num(l2 / mib) + " MiB)");
  }
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
