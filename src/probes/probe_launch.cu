// hw launch: what a kernel launch costs (hw_anchors §6.3).
//  1. host enqueue cost: host clock around one cudaLaunchKernel of an empty kernel (queue kept shallow);
//  2. launch-to-completion round trip: host clock around launch + cudaStreamSynchronize;
//  3. back-to-back period: N empty kernels on a stream between two events, / N (bound by the slower of
//     host enqueue and GPU); the same with the queue pre-filled behind a spin kernel (GPU side only); the
//     same N kernels captured once in a CUDA graph and replayed (graphs remove per-launch host work);
//  4. an empty event pair (the floor of any event-timed measurement on this machine).
// p50 and p99 of the samples are reported; the figure value is the median.
#include <algorithm>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

__global__ void empty_kernel() {}

// Holds the stream until the host has enqueued everything (nvbandwidth's trick), so the events see the GPU's
// own launch rate rather than the host's enqueue rate; gives up after `timeout_ns` and says so.
__global__ void spin_until(volatile int* flag, int* timed_out, unsigned long long timeout_ns) {
  unsigned long long t0 = global_ns();
  while (*flag == 0)
    if (global_ns() - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
}

std::string p50_p99(const std::vector<double>& v) {
  return "p50 " + fmt_num(percentile(v, 50)) + " us, p99 " + fmt_num(percentile(v, 99)) + " us, n " +
         std::to_string(v.size());
}

}  // namespace

ProbeResult probe_launch(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "launch";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Stream s;
  const int n_host = ctx.opt.quick ? 500 : 5000;
  const int chain = 1000;  // kernels per back-to-back sample
  const int samples = ctx.opt.quick ? 5 : 15;

  auto add = [&](const char* key, const char* label, const char* caps, const std::function<void(Figure&)>& body) {
    Figure f;
    f.key = key;
    f.label = label;
    f.unit = "us";
    if (caps) f.caps_key = caps;
    measure(ctx, f, [&](Figure& fig) {
      body(fig);
      fig.value = median(fig.samples);
      fig.samples_unit = "us";
    });
    r.figures.push_back(std::move(f));
  };

  // Warm-up: module load, first-launch costs.
  for (int i = 0; i < 100; ++i) empty_kernel<<<1, 1, 0, s>>>();
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));

  add("launch_enqueue", "host enqueue (cudaLaunchKernel)", nullptr, [&](Figure& f) {
    for (int i = 0; i < n_host; ++i) {
      if (i % 256 == 0) AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // never let the queue fill and block
      double a = now_seconds();
      empty_kernel<<<1, 1, 0, s>>>();
      double b = now_seconds();
      f.samples.push_back((b - a) * 1e6);
    }
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));
    f.method = "steady_clock around one <<<1,1>>> empty-kernel launch; " + p50_p99(f.samples);
  });

  add("launch_roundtrip", "launch + sync round trip", nullptr, [&](Figure& f) {
    for (int i = 0; i < n_host / 5; ++i) {
      double a = now_seconds();
      empty_kernel<<<1, 1, 0, s>>>();
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));
      double b = now_seconds();
      f.samples.push_back((b - a) * 1e6);
    }
    f.method = "steady_clock around launch + cudaStreamSynchronize of an empty kernel; " + p50_p99(f.samples);
  });

  EventTimer timer(s);
  add("launch_stream_period", "back-to-back, stream", "launch_stream_period_us", [&](Figure& f) {
    auto ms = timer.samples([&] {
      for (int i = 0; i < chain; ++i) empty_kernel<<<1, 1, 0, s>>>();
      AISP_LAUNCH_CHECK();
    }, 1, samples, chain);
    for (double m : ms) f.samples.push_back(m * 1e3);
    f.method = std::to_string(chain) + " empty kernels enqueued back-to-back between two events, time / " +
               std::to_string(chain) + " (bound by the slower of host enqueue and GPU launch); " + p50_p99(f.samples);
  });

  add("launch_stream_prefilled", "back-to-back, stream, queue pre-filled", nullptr, [&](Figure& f) {
    int* host = nullptr;
    AISP_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
    struct Free { int* p; ~Free() { cudaFreeHost(p); } } fr{host};
    int* dev = nullptr;
    AISP_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0));
    volatile int* flag = host;
    const int n = 256;  // stays below the launch queue depth, so enqueueing never blocks on the spinning GPU
    cudaEvent_t a, b;
    AISP_CUDA_CHECK(cudaEventCreate(&a));
    AISP_CUDA_CHECK(cudaEventCreate(&b));
    for (int i = 0; i < samples + 1; ++i) {
      flag[0] = 0;
      flag[1] = 0;
      spin_until<<<1, 1, 0, s>>>(dev, dev + 1, 2000000000ull);
      AISP_CUDA_CHECK(cudaEventRecord(a, s));
      for (int k = 0; k < n; ++k) empty_kernel<<<1, 1, 0, s>>>();
      AISP_CUDA_CHECK(cudaEventRecord(b, s));
      __sync_synchronize();
      flag[0] = 1;
      AISP_CUDA_CHECK(cudaEventSynchronize(b));
      float ms = 0;
      AISP_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      if (flag[1]) throw std::runtime_error("the spin kernel timed out: the launch queue blocked the host");
      if (i) f.samples.push_back(ms * 1e3 / n);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    f.method = "a spin kernel holds the stream while " + std::to_string(n) + " empty kernels are enqueued, then the " +
               "host releases it; events around the kernels / " + std::to_string(n) + " (GPU-side launch rate, " +
               "host enqueue excluded); " + p50_p99(f.samples);
  });

  add("launch_graph_period", "back-to-back, CUDA graph", "launch_graph_period_us", [&](Figure& f) {
    cudaGraph_t g = nullptr;
    cudaGraphExec_t exec = nullptr;
    AISP_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < chain; ++i) empty_kernel<<<1, 1, 0, s>>>();
    AISP_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    AISP_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
    struct Free {
      cudaGraph_t g;
      cudaGraphExec_t e;
      ~Free() { cudaGraphExecDestroy(e); cudaGraphDestroy(g); }
    } fr{g, exec};
    auto ms = timer.samples([&] { AISP_CUDA_CHECK(cudaGraphLaunch(exec, s)); }, 2, samples, chain);
    for (double m : ms) f.samples.push_back(m * 1e3);
    f.method = std::to_string(chain) + " empty kernels captured in one graph, replay between two events, time / " +
               std::to_string(chain) + "; " + p50_p99(f.samples);
  });

  add("event_pair", "empty event pair", nullptr, [&](Figure& f) {
    for (int i = 0; i < 200; ++i) f.samples.push_back(timer.once([] {}) * 1e3);
    f.method = "cudaEventRecord twice with nothing between, cudaEventElapsedTime (the floor of event timing); " +
               p50_p99(f.samples);
  });

  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
