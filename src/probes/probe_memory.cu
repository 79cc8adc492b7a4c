// hw memory: HBM read / write / copy with SM kernels (16-byte accesses, 4 or 8 independent accesses in
// flight per thread, footprint >= 1 GiB so L2 never holds it), and cudaMemcpy device-to-device beside it.
// Bytes counted = bytes read + bytes written (a copy of N bytes moves 2N); hw_anchors §2.1, pitfalls 4, 6, 12.
// Launch shape, accesses in flight and cache hints are swept briefly and the best is re-measured: the figure is the best
// kernel this probe can build, and the configuration that produced it is printed with it.
#include <algorithm>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"

namespace aisp::probes {
namespace {


template <int Hint>
__device__ __forceinline__ uint4 load16(const uint4* p) {
  if constexpr (Hint == 0) {
    return *p;
  } else {
    // Read-only path, no L1 allocation, 256-B L2 prefetch: each line is used exactly once.
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
  }
}
template <int Hint>
__device__ __forceinline__ void store16(uint4* p, uint4 v) {
  if constexpr (Hint == 0) *p = v;
  else __stcs(p, v);  // streaming (evict-first): written lines are not reused
}

template <int Hint, int kUnroll>  // kUnroll independent 16-B accesses in flight per thread
__global__ void read_kernel(const uint4* __restrict__ p, size_t n, uint4* sink) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  uint32_t acc = 0;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load16<Hint>(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += stride) {
    uint4 v = load16<Hint>(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) sink[threadIdx.x] = make_uint4(acc, acc, acc, acc);  // consume (practically never taken)
}

template <int Hint, int kUnroll>  // kUnroll independent 16-B accesses in flight per thread
__global__ void write_kernel(uint4* __restrict__ p, size_t n, uint32_t seed) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      uint32_t x = static_cast<uint32_t>(i + u * stride) * 2654435761u ^ seed;
      store16<Hint>(p + i + u * stride, make_uint4(x, x + 1, x + 2, x + 3));
    }
  }
  for (; i < n; i += stride) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    store16<Hint>(p + i, make_uint4(x, x + 1, x + 2, x + 3));
  }
}

template <int Hint, int kUnroll>  // kUnroll independent 16-B accesses in flight per thread
__global__ void copy_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load16<Hint>(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) store16<Hint>(dst + i + u * stride, v[u]);
  }
  for (; i < n; i += stride) store16<Hint>(dst + i, load16<Hint>(src + i));
}

enum class Kind { read, write, copy };

struct Config {
  int threads = 256;
  int blocks_per_sm = 0;  // 0 = one pass: enough blocks that each thread does `unroll` accesses
  int hint = 0;
  int unroll = 4;
  std::string describe() const {
    std::string g = blocks_per_sm ? std::to_string(blocks_per_sm) + " blocks/SM grid-stride" : "full grid (1 pass)";
    return std::to_string(threads) + " threads/block, " + g + ", " + std::to_string(unroll) + " x 16 B in flight/thread" +
           (hint ? ", nc/no_allocate/L2::256B loads + .cs stores" : ", default cache policy");
  }
};

struct Buffers {
  DevBuf src, dst, sink;
  size_t n = 0;  // uint4 elements per buffer
};

template <int Hint, int U>
void launch_t(Kind kind, dim3 grid, int threads, Buffers& b, cudaStream_t s) {
  auto* src = b.src.get<uint4>();
  auto* dst = b.dst.get<uint4>();
  switch (kind) {
    case Kind::read: read_kernel<Hint, U><<<grid, threads, 0, s>>>(src, b.n, b.sink.get<uint4>()); break;
    case Kind::write: write_kernel<Hint, U><<<grid, threads, 0, s>>>(dst, b.n, 0x1234567u); break;
    case Kind::copy: copy_kernel<Hint, U><<<grid, threads, 0, s>>>(src, dst, b.n); break;
  }
}

void launch(Kind kind, const Config& c, Buffers& b, int sms, cudaStream_t s) {
  size_t per_block = size_t(c.threads) * c.unroll;
  size_t blocks = c.blocks_per_sm ? size_t(c.blocks_per_sm) * sms : (b.n + per_block - 1) / per_block;
  dim3 grid(static_cast<unsigned>(std::max<size_t>(blocks, 1)));
  if (c.hint && c.unroll == 8) launch_t<1, 8>(kind, grid, c.threads, b, s);
  else if (c.hint) launch_t<1, 4>(kind, grid, c.threads, b, s);
  else if (c.unroll == 8) launch_t<0, 8>(kind, grid, c.threads, b, s);
  else launch_t<0, 4>(kind, grid, c.threads, b, s);
  AISP_LAUNCH_CHECK();
}

double bytes_moved(Kind k, size_t n) { return double(n) * 16.0 * (k == Kind::copy ? 2.0 : 1.0); }

std::vector<Config> configs() {
  std::vector<Config> out;
  for (int unroll : {4, 8})
    for (int hint : {0, 1})
      for (auto [t, b] : std::initializer_list<std::pair<int, int>>{{256, 0}, {512, 0}, {1024, 0}, {256, 8}, {512, 4}, {1024, 2}})
        out.push_back({t, b, hint, unroll});
  return out;
}

Buffers alloc_buffers(size_t bytes_per_buffer, cudaStream_t s) {
  Buffers b;
  b.n = bytes_per_buffer / 16;
  b.src = DevBuf(b.n * 16);
  b.dst = DevBuf(b.n * 16);
  b.sink = DevBuf(1024 * 16);
  fill_random(b.src.get(), b.n * 4, RandKind::u32, 42, s);
  fill_random(b.dst.get(), b.n * 4, RandKind::u32, 43, s);
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
  return b;
}

size_t buffer_bytes(const ProbeContext& ctx) {
  size_t free_b = 0, total_b = 0;
  AISP_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  size_t want = static_cast<size_t>(ctx.opt.memory_gib * (1ull << 30));
  size_t cap = static_cast<size_t>(free_b * 0.4);  // two buffers, leave room for everything else
  return std::max<size_t>(std::min(want, cap) / (1 << 20) * (1 << 20), 64ull << 20);
}

void hbm_ceilings(const ProbeContext& ctx, Figure& f) {
  f.datasheet = ctx.sheet.hbm_gbs;
  double mem = has(f.clocks.mem_mhz_median) ? f.clocks.mem_mhz_median : ctx.dev.mem_clock_max_mhz;
  f.clock_ceiling = hbm_gbs_at(mem, ctx.dev.memory_bus_width_bits);
  f.clock_basis = "memory clock (NVML) x 2 (DDR) x bus width";
}

// Sweeps configurations briefly (3 samples each) and re-measures the best with `samples` samples.
void kernel_figure(const ProbeContext& ctx, Kind kind, Buffers& b, cudaStream_t s, int samples, Figure& f) {
  EventTimer timer(s);
  int sms = ctx.dev.sm_count;
  Config best;
  double best_ms = 1e30;
  for (auto& c : configs()) {
    auto v = timer.samples([&] { launch(kind, c, b, sms, s); }, 1, 3);
    double ms = *std::min_element(v.begin(), v.end());
    if (ms < best_ms) best_ms = ms, best = c;
  }
  ClockMonitor mon(ctx.dev.uuid);
  f.samples = timer.samples([&] { launch(kind, best, b, sms, s); }, 2, samples);
  f.clocks = mon.stop();
  f.samples_unit = "ms per kernel";
  f.value = gb_per_s(bytes_moved(kind, b.n), median(f.samples));
  f.unit = "GB/s";
  f.params = {{"config", best.describe()}, {"bytes_per_buffer", std::to_string(b.n * 16)}};
  const char* what = kind == Kind::read ? "bytes read" : kind == Kind::write ? "bytes written" : "bytes read + bytes written";
  f.method = "SM kernel, 16-B accesses, " +
             std::to_string((b.n * 16) >> 20) + " MiB per buffer; counted " + what + "; best of " +
             std::to_string(configs().size()) + " launch shapes (" + best.describe() + "); median of " +
             std::to_string(samples) + " event-timed kernels after warm-up";
  hbm_ceilings(ctx, f);
}

}  // namespace

Figure hbm_copy_figure(const ProbeContext& ctx, size_t bytes, int samples) {
  Stream s;
  Figure f;
  f.key = "hbm_copy";
  f.label = "HBM copy kernel (read+write)";
  f.caps_key = "hbm_copy_gbs";
  measure(ctx, f, [&](Figure& fig) {
    Buffers b = alloc_buffers(bytes, s);
    kernel_figure(ctx, Kind::copy, b, s, samples, fig);
  });
  return f;
}

ProbeResult probe_memory(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "memory";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Stream s;
  const int samples = ctx.opt.quick ? 7 : 21;
  Buffers b;
  try {
    b = alloc_buffers(buffer_bytes(ctx), s);
  } catch (const std::exception& e) {
    r.notes.push_back(std::string("allocation failed: ") + e.what());
    r.exit_code = 1;
    return r;
  }
  struct Spec { Kind kind; const char* key; const char* label; const char* caps; };
  for (auto sp : {Spec{Kind::read, "hbm_read", "HBM read kernel", "hbm_read_gbs"},
                  Spec{Kind::write, "hbm_write", "HBM write kernel", "hbm_write_gbs"},
                  Spec{Kind::copy, "hbm_copy", "HBM copy kernel (read+write)", "hbm_copy_gbs"}}) {
    Figure f;
    f.key = sp.key;
    f.label = sp.label;
    f.caps_key = sp.caps;
    measure(ctx, f, [&](Figure& fig) { kernel_figure(ctx, sp.kind, b, s, samples, fig); });
    r.figures.push_back(std::move(f));
  }
  // The copy engine beside our kernel (pitfall 12: CE local copy reaches ~75 % of HBM on H100).
  Figure f;
  f.key = "memcpy_d2d";
  f.label = "cudaMemcpy D2D (read+write)";
  f.caps_key = "memcpy_d2d_gbs";
  measure(ctx, f, [&](Figure& fig) {
    EventTimer timer(s);
    size_t bytes = b.n * 16;
    fig.samples = timer.samples([&] {
      AISP_CUDA_CHECK(cudaMemcpyAsync(b.dst.get(), b.src.get(), bytes, cudaMemcpyDeviceToDevice, s));
    }, 2, samples);
    fig.samples_unit = "ms per copy";
    fig.unit = "GB/s";
    fig.value = gb_per_s(2.0 * bytes, median(fig.samples));
    fig.method = "cudaMemcpyAsync device-to-device of " + std::to_string(bytes >> 20) +
                 " MiB, counted read + write (2x; nvbandwidth counts once: " +
                 std::to_string(static_cast<int>(fig.value / 2)) + " GB/s); median of " + std::to_string(samples) +
                 " event-timed copies";
    fig.params = {{"bytes", std::to_string(bytes)}};
  });
  hbm_ceilings(ctx, f);
  ctx.finish(f);
  r.figures.push_back(std::move(f));
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
