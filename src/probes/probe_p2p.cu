// hw p2p: GPU <-> GPU bandwidth through the copy engines (hw_anchors §4, nvbandwidth / p2pBandwidthLatencyTest).
// For every ordered pair (src, dst) with peer access: unidirectional = cudaMemcpyPeerAsync of 256 MiB x 4
// pushed from src to dst (a "write"), timed on src's stream; bidirectional = both directions at once on two
// streams, total bytes / the later finish. Bytes are counted once (what crossed the link). With one GPU
// there is nothing to measure: the probe says so and exits 0.
#include <algorithm>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {

ProbeResult probe_p2p(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "p2p";
  double t0 = now_seconds();
  int n = 0;
  AISP_CUDA_CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    r.notes.push_back("p2p needs >= 2 GPUs; this machine shows " + std::to_string(n) + " — nothing to measure");
    r.wall_s = now_seconds() - t0;
    return r;
  }
  ClockMonitor whole(ctx.dev.uuid, 50);
  const size_t bytes = static_cast<size_t>(ctx.opt.pcie_mib * (1 << 20));
  const int reps = 4, samples = ctx.opt.quick ? 3 : 5;
  std::vector<DevBuf> buf_a, buf_b;
  std::vector<cudaStream_t> streams(n);
  for (int d = 0; d < n; ++d) {
    AISP_CUDA_CHECK(cudaSetDevice(d));
    buf_a.emplace_back(bytes);
    buf_b.emplace_back(bytes);
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
    for (int p = 0; p < n; ++p) {
      int can = 0;
      if (p != d && cudaDeviceCanAccessPeer(&can, d, p) == cudaSuccess && can) {
        cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) AISP_CUDA_CHECK(e);
        cudaGetLastError();
      }
    }
  }
  Series uni{"CE unidirectional GB/s (row = src GPU, col = dst GPU)", {"src"}, {}};
  Series bid{"CE bidirectional total GB/s (row, col)", {"gpu"}, {}};
  for (int d = 0; d < n; ++d) uni.columns.push_back("dst" + std::to_string(d)), bid.columns.push_back("gpu" + std::to_string(d));
  std::vector<double> all_uni, all_bi;
  auto time_pair = [&](int src, int dst, bool both) {
    cudaEvent_t start, e1, e2;
    AISP_CUDA_CHECK(cudaSetDevice(src));
    AISP_CUDA_CHECK(cudaEventCreate(&start));
    AISP_CUDA_CHECK(cudaEventCreate(&e1));
    AISP_CUDA_CHECK(cudaSetDevice(dst));
    AISP_CUDA_CHECK(cudaEventCreate(&e2));
    std::vector<double> v;
    for (int i = 0; i < samples + 1; ++i) {
      AISP_CUDA_CHECK(cudaSetDevice(src));
      AISP_CUDA_CHECK(cudaEventRecord(start, streams[src]));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(streams[dst], start));
      for (int k = 0; k < reps; ++k) {
        AISP_CUDA_CHECK(cudaMemcpyPeerAsync(buf_b[dst].get(), dst, buf_a[src].get(), src, bytes, streams[src]));
        if (both)
          AISP_CUDA_CHECK(cudaMemcpyPeerAsync(buf_b[src].get(), src, buf_a[dst].get(), dst, bytes, streams[dst]));
      }
      // One clock: events of two devices cannot be compared (cudaEventElapsedTime refuses them, seen on two
      // H200s on 2026-11-28), so the dst stream's end is joined back to the src stream and timed there.
      AISP_CUDA_CHECK(cudaSetDevice(dst));
      AISP_CUDA_CHECK(cudaEventRecord(e2, streams[dst]));
      AISP_CUDA_CHECK(cudaSetDevice(src));
      AISP_CUDA_CHECK(cudaStreamWaitEvent(streams[src], e2));
      AISP_CUDA_CHECK(cudaEventRecord(e1, streams[src]));
      AISP_CUDA_CHECK(cudaEventSynchronize(e1));
      float a = 0;
      AISP_CUDA_CHECK(cudaEventElapsedTime(&a, start, e1));
      if (i) v.push_back(a);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(e1);
    cudaEventDestroy(e2);
    return gb_per_s(double(bytes) * reps * (both ? 2 : 1), median(v));
  };
  Figure fu, fb;
  fu.key = "p2p_ce_uni";
  fu.label = "P2P CE write, worst pair";
  fu.caps_key = "p2p_uni_gbs";
  fb.key = "p2p_ce_bidir";
  fb.label = "P2P CE bidirectional, worst pair";
  fb.caps_key = "p2p_bidir_gbs";
  measure(ctx, fu, [&](Figure& f) {
    for (int src = 0; src < n; ++src) {
      std::vector<double> row = {double(src)}, brow = {double(src)};
      for (int dst = 0; dst < n; ++dst) {
        if (dst == src) {
          row.push_back(kNaN);
          brow.push_back(kNaN);
          continue;
        }
        double u = time_pair(src, dst, false);
        row.push_back(u);
        all_uni.push_back(u);
        double b = dst > src ? time_pair(src, dst, true) : kNaN;
        brow.push_back(b);
        if (has(b)) all_bi.push_back(b);
      }
      uni.rows.push_back(row);
      bid.rows.push_back(brow);
    }
    f.samples = all_uni;
    f.samples_unit = "GB/s per ordered pair";
    f.value = *std::min_element(all_uni.begin(), all_uni.end());
    f.unit = "GB/s";
    f.datasheet = 450;
    f.method = "cudaMemcpyPeerAsync " + std::to_string(bytes >> 20) + " MiB x " + std::to_string(reps) +
               " per sample, events on the source GPU's stream, median of " + std::to_string(samples) +
               "; value = worst ordered pair (matrix in the series); datasheet = NVLink4 450 GB/s per direction";
    fb.samples = all_bi;
    fb.samples_unit = "GB/s per pair";
    fb.value = all_bi.empty() ? kNaN : *std::min_element(all_bi.begin(), all_bi.end());
    fb.unit = "GB/s";
    fb.datasheet = 900;
    fb.method = "both directions at once on two streams, total bytes / later finish; worst pair; datasheet 900 GB/s";
  });
  fb.clocks = fu.clocks;
  if (!fu.ok()) fb.status = fu.status;
  ctx.finish(fb);
  r.figures.push_back(fu);
  r.figures.push_back(fb);
  r.series.push_back(uni);
  r.series.push_back(bid);
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cudaStreamDestroy(streams[d]);
  }
  buf_a.clear();
  buf_b.clear();
  cudaSetDevice(ctx.dev.ordinal);
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
