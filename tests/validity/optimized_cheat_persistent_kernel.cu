// Cheat: a persistent kernel, launched on a private stream, spins on a mailbox in mapped pinned host
// memory. run() launches nothing: it bumps the request number (a host write), the resident kernel copies
// and acknowledges, and run() returns once the ack arrives - so ctx.stream() carries no work at all and the
// timed window is empty. The kernel leaves after 50 ms without requests (so checked runs, which wait for
// the whole device, finish) and after 20 s in any case (so a worker killed before teardown cannot leave the
// GPU busy); run() relaunches it, on its private stream, when it has left.
// Real-world exploit: persistent / "megakernel" servers fed through host-mapped flags, where the timed
// call only rings a doorbell.
// Caught by: K8 (audit: no kernel, memcpy or memset of run() inside the timed window; relaunches run outside
// it), K6 (drain residual: the device is still busy after the harness stream finished).
#include <chrono>
#include <stdexcept>

#include "validity_common.cuh"

namespace {

struct Mailbox {
  int request, ack, exited, quit;
};

constexpr unsigned long long kIdleNs = 50'000'000ull, kLifetimeNs = 20'000'000'000ull;

// One block: thread 0 watches the mailbox, everyone copies, thread 0 acknowledges.
__global__ void persistent_copy(const float* __restrict__ in, float* __restrict__ out, int64_t n, volatile Mailbox* box) {
  __shared__ int todo;  // request number to serve, or -1 to leave
  const unsigned long long born = validity::globaltimer_ns();
  unsigned long long last = born;
  int served = box->ack;
  for (;;) {
    if (threadIdx.x == 0) {
      for (;;) {
        const int r = box->request;
        if (box->quit) { todo = -1; break; }
        if (r != served) { todo = r; break; }
        const unsigned long long now = validity::globaltimer_ns();
        if (now - last > kIdleNs || now - born > kLifetimeNs) { todo = -1; break; }
      }
    }
    __syncthreads();
    const int r = todo;
    if (r < 0) break;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i];
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x == 0) box->ack = r;
    served = r;
    last = validity::globaltimer_ns();
    __syncthreads();  // `todo` is rewritten only after everyone has read it
  }
  if (threadIdx.x == 0) {
    __threadfence_system();
    box->exited = 1;
  }
}

}  // namespace

struct PersistentKernel : fixture::HonestCopy {
  volatile Mailbox* box = nullptr;  // host view
  Mailbox* dev_box = nullptr;       // device view of the same memory
  cudaStream_t own = nullptr;
  const float* in = nullptr;
  float* out = nullptr;

  void launch() {
    box->exited = 0;
    persistent_copy<<<1, 1024, 0, own>>>(in, out, fixture::kN, dev_box);
    AISP_LAUNCH_CHECK();
  }
  void setup(aisp::Context& ctx) override {
    fixture::declare_copy_buffers(ctx);
    in = validity::in_ptr(ctx);
    out = validity::out_ptr(ctx);
    Mailbox* host = nullptr;
    AISP_CUDA_CHECK(cudaHostAlloc(&host, sizeof(Mailbox), cudaHostAllocMapped));
    *host = Mailbox{0, 0, 1, 0};
    box = host;
    AISP_CUDA_CHECK(cudaHostGetDevicePointer(&dev_box, host, 0));
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    launch();
  }
  void run(aisp::Context&) override {
    if (box->exited) launch();
    const int ticket = box->request + 1;
    box->request = ticket;  // the doorbell: a plain host store, no CUDA call
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (box->ack != ticket) {
      // It may have left (idle) just before the doorbell rang: start it again; it serves pending requests.
      if (box->exited && box->ack != ticket) launch();
      if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("persistent kernel did not answer in 5 s");
    }
  }
  void teardown(aisp::Context&) override {
    if (!box) return;
    box->quit = 1;
    cudaStreamSynchronize(own);
    cudaStreamDestroy(own);
    cudaFreeHost(const_cast<Mailbox*>(box));
    box = nullptr;
  }
  std::string technique() const override { return "validity cheat: persistent kernel fed through a host doorbell"; }
};

AISP_BENCHMARK(PersistentKernel)
