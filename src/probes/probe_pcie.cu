// hw pcie: host <-> device bandwidth (hw_anchors §3, nvbandwidth's method).
//  * copy engine, pinned (cudaHostAlloc): H2D and D2H alone, then both at once on two streams
//    (bidirectional: each direction reported with its own events, plus their sum);
//  * copy engine, pageable (malloc'd, pages touched first): synchronous cudaMemcpy, host-timed;
//  * SM-initiated: a kernel reads (H2D) or writes (D2H) mapped pinned host memory with 16-B accesses.
// Ceilings: 63 GB/s per direction for Gen5 x16 after 128b/130b; the "% clk" column uses the link speed and
// width the OS reports for this GPU right now (sysfs), so a link that trained down shows up.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

__global__ void sm_read_host(const uint4* __restrict__ p, size_t n, uint4* sink) {
  uint32_t acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) sink[threadIdx.x] = make_uint4(acc, 0, 0, 0);
}

__global__ void sm_write_host(uint4* __restrict__ p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u;
    p[i] = make_uint4(x, x ^ 1u, x ^ 2u, x ^ 3u);
  }
}

struct Link {
  double gts = kNaN;
  int width = 0;
  std::string text;
};

// current_link_speed reads like "32.0 GT/s PCIe"; a VM may show the virtual bridge instead of the real link.
Link read_link(int device) {
  Link l;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) return l;
  std::string id(bus);
  for (auto& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string base = "/sys/bus/pci/devices/" + id + "/";
  std::ifstream sp(base + "current_link_speed"), wd(base + "current_link_width");
  std::string speed;
  if (sp && std::getline(sp, speed)) l.gts = std::atof(speed.c_str());
  if (wd) wd >> l.width;
  l.text = id + ": " + (speed.empty() ? "unknown speed" : speed) + " x" + std::to_string(l.width);
  return l;
}

}  // namespace

ProbeResult probe_pcie(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "pcie";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  const size_t bytes = static_cast<size_t>(ctx.opt.pcie_mib * (1 << 20)) / 64 * 64;
  const int reps = 4;  // copies per sample (one sample ~ 40 ms at 55 GB/s for 512 MiB)
  const int samples = ctx.opt.quick ? 3 : 7;
  Link link = read_link(ctx.dev.ordinal);
  double link_ceiling = pcie_gbs_at(link.gts, link.width);
  r.notes.push_back("PCIe link (sysfs): " + (link.text.empty() ? std::string("unknown") : link.text) +
                    " -> " + fmt_num(link_ceiling) + " GB/s per direction after encoding");

  Stream s1, s2;
  DevBuf d1(bytes), d2(bytes), sink(1024 * 16);
  void *h1 = nullptr, *h2 = nullptr;
  AISP_CUDA_CHECK(cudaHostAlloc(&h1, bytes, cudaHostAllocPortable | cudaHostAllocMapped));
  AISP_CUDA_CHECK(cudaHostAlloc(&h2, bytes, cudaHostAllocPortable | cudaHostAllocMapped));
  std::memset(h1, 0x5A, bytes);
  std::memset(h2, 0xA5, bytes);
  struct HostFree {
    void* p;
    ~HostFree() { cudaFreeHost(p); }
  } f1{h1}, f2{h2};

  auto finish_bw = [&](Figure& f, double bytes_per_sample) {
    f.unit = "GB/s";
    f.samples_unit = "ms per sample";
    f.value = gb_per_s(bytes_per_sample, median(f.samples));
    f.datasheet = ctx.sheet.pcie_gbs_per_dir;
    f.clock_ceiling = link_ceiling;
    f.clock_basis = "current PCIe link speed x width (sysfs), 128b/130b";
  };
  auto add = [&](const char* key, const char* label, const char* caps, const std::function<void(Figure&)>& body) {
    Figure f;
    f.key = key;
    f.label = label;
    if (caps) f.caps_key = caps;
    measure(ctx, f, body);
    r.figures.push_back(std::move(f));
  };
  const std::string size_txt = std::to_string(bytes >> 20) + " MiB";

  for (int dir = 0; dir < 2; ++dir) {
    bool h2d = dir == 0;
    add(h2d ? "pcie_h2d_pinned" : "pcie_d2h_pinned", h2d ? "H2D pinned, copy engine" : "D2H pinned, copy engine",
        h2d ? "pcie_h2d_gbs" : "pcie_d2h_gbs", [&](Figure& f) {
          EventTimer t(s1);
          f.samples = t.samples([&] {
            for (int i = 0; i < reps; ++i)
              AISP_CUDA_CHECK(h2d ? cudaMemcpyAsync(d1.get(), h1, bytes, cudaMemcpyHostToDevice, s1)
                                  : cudaMemcpyAsync(h1, d1.get(), bytes, cudaMemcpyDeviceToHost, s1));
          }, 1, samples);
          finish_bw(f, double(bytes) * reps);
          f.method = "cudaMemcpyAsync " + std::string(h2d ? "H2D" : "D2H") + ", cudaHostAlloc'd buffer, " + size_txt +
                     " x " + std::to_string(reps) + " per sample, events, median of " + std::to_string(samples) +
                     "; bytes counted once";
        });
  }

  // Bidirectional: both directions at once on two streams, each timed by its own events from a common start.
  Figure bi_h2d, bi_d2h;
  bi_h2d.key = "pcie_h2d_bidir";
  bi_h2d.label = "H2D while D2H runs (pinned)";
  bi_d2h.key = "pcie_d2h_bidir";
  bi_d2h.label = "D2H while H2D runs (pinned)";
  Figure bi_sum;
  bi_sum.key = "pcie_bidir_total";
  bi_sum.label = "bidirectional total (pinned)";
  bi_sum.caps_key = "pcie_bidir_gbs";
  measure(ctx, bi_sum, [&](Figure& f) {
    cudaEvent_t start, e1, e2;
    AISP_CUDA_CHECK(cudaEventCreate(&start));
    AISP_CUDA_CHECK(cudaEventCreate(&e1));
    AISP_CUDA_CHECK(cudaEventCreate(&e2));
    for (int i = 0; i < samples + 1; ++i) {
      AISP_CUDA_CHECK(cudaEventRecord(start, s1));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(s2, start));
      for (int k = 0; k < reps; ++k) {
        AISP_CUDA_CHECK(cudaMemcpyAsync(d1.get(), h1, bytes, cudaMemcpyHostToDevice, s1));
        AISP_CUDA_CHECK(cudaMemcpyAsync(h2, d2.get(), bytes, cudaMemcpyDeviceToHost, s2));
      }
      AISP_CUDA_CHECK(cudaEventRecord(e1, s1));
      AISP_CUDA_CHECK(cudaEventRecord(e2, s2));
      AISP_CUDA_CHECK(cudaEventSynchronize(e1));
      AISP_CUDA_CHECK(cudaEventSynchronize(e2));
      float a = 0, b = 0;
      AISP_CUDA_CHECK(cudaEventElapsedTime(&a, start, e1));
      AISP_CUDA_CHECK(cudaEventElapsedTime(&b, start, e2));
      if (i == 0) continue;  // warm-up
      bi_h2d.samples.push_back(a);
      bi_d2h.samples.push_back(b);
      f.samples.push_back(std::max(a, b));
    }
    cudaEventDestroy(start);
    cudaEventDestroy(e1);
    cudaEventDestroy(e2);
    finish_bw(f, 2.0 * bytes * reps);
    f.datasheet = 2 * ctx.sheet.pcie_gbs_per_dir;
    f.clock_ceiling = 2 * link_ceiling;
    f.method = "H2D on one stream and D2H on another, " + size_txt + " x " + std::to_string(reps) +
               " each, started from one event; total = both directions' bytes / the later finish";
  });
  for (Figure* g : {&bi_h2d, &bi_d2h}) {
    g->clocks = bi_sum.clocks;
    if (!bi_sum.ok()) g->status = bi_sum.status;
    else {
      finish_bw(*g, double(bytes) * reps);
      g->method = "the same bidirectional run; this direction's bytes / its own events (nvbandwidth style)";
    }
    ctx.finish(*g);
    r.figures.push_back(*g);
  }
  r.figures.push_back(bi_sum);

  // Pageable: what most frameworks hit when they forget to pin.
  for (int dir = 0; dir < 2; ++dir) {
    bool h2d = dir == 0;
    add(h2d ? "pcie_h2d_pageable" : "pcie_d2h_pageable", h2d ? "H2D pageable" : "D2H pageable", nullptr,
        [&](Figure& f) {
          char* h = static_cast<char*>(std::malloc(bytes));
          if (!h) throw std::runtime_error("malloc failed");
          std::memset(h, 0x3C, bytes);  // touch every page first
          struct Free { char* p; ~Free() { std::free(p); } } fr{h};
          AISP_CUDA_CHECK(cudaDeviceSynchronize());
          for (int i = 0; i < samples + 1; ++i) {
            double a = now_seconds();
            AISP_CUDA_CHECK(h2d ? cudaMemcpy(d1.get(), h, bytes, cudaMemcpyHostToDevice)
                                : cudaMemcpy(h, d1.get(), bytes, cudaMemcpyDeviceToHost));
            double b = now_seconds();
            if (i) f.samples.push_back((b - a) * 1e3);
          }
          finish_bw(f, double(bytes));
          f.method = "synchronous cudaMemcpy from/to malloc'd memory (pages touched), " + size_txt +
                     ", host steady_clock, median of " + std::to_string(samples);
        });
  }

  // SM-initiated: kernels load/store mapped host memory over PCIe.
  for (int dir = 0; dir < 2; ++dir) {
    bool h2d = dir == 0;
    add(h2d ? "pcie_h2d_sm" : "pcie_d2h_sm", h2d ? "H2D by SM loads (mapped)" : "D2H by SM stores (mapped)", nullptr,
        [&](Figure& f) {
          void* dp = nullptr;
          AISP_CUDA_CHECK(cudaHostGetDevicePointer(&dp, h2, 0));
          size_t n = bytes / 16;
          int blocks = ctx.dev.sm_count * 4;
          EventTimer t(s1);
          f.samples = t.samples([&] {
            if (h2d) sm_read_host<<<blocks, 512, 0, s1>>>(static_cast<const uint4*>(dp), n, sink.get<uint4>());
            else sm_write_host<<<blocks, 512, 0, s1>>>(static_cast<uint4*>(dp), n);
            AISP_LAUNCH_CHECK();
          }, 1, samples);
          finish_bw(f, double(bytes));
          f.method = std::string("kernel ") + (h2d ? "reads" : "writes") + " cudaHostAlloc(Mapped) memory with 16-B " +
                     "accesses, " + std::to_string(blocks) + " x 512 threads, " + size_txt + ", events, median of " +
                     std::to_string(samples);
        });
  }
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
