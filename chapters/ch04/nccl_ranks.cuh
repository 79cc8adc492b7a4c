// ch04's multi-GPU plumbing, shared by every pair of the chapter (issue 26).
//
// - NCCL is loaded with dlopen (libnccl.so.2), as `aisp hw nccl` does: a plugin linked against NCCL would not
//   even load where NCCL is absent, and a one-GPU run must load the plugin to skip it with a reason.
// - Ranks come from the launcher's RANK / WORLD_SIZE (runner/rank_plan.hpp: `aisp bench run
//   --nproc-per-node N`, one worker process and one GPU per rank).
// - The communicator's unique id travels as a file: rank 0 calls ncclGetUniqueId and publishes the 128 bytes
//   in AISP_RENDEZVOUS_DIR, the folder the harness makes for each variant's ranks, under a temporary name
//   and then renamed (a reader never sees half an id); the other ranks poll for it. Files rather than a
//   MASTER_ADDR/PORT socket: nothing to bind, the baseline's and the variant's ranks (alive at the same time)
//   cannot meet each other's id, and a stale id cannot exist because each run's folder is new.
// - NVLink SHARP (NVLS) is always off: NCCL_NVLS_ENABLE=0 overrides the environment before any
//   communicator exists, so NCCL never calls cuMulticastCreate (on the lent machines multicast objects can
//   take GPUs down). NCCL_RUNTIME_CONNECT=0 (unless the caller set it): every connection is made inside
//   ncclCommInitRank, i.e. in setup(), not lazily by NCCL's proxy thread inside a timed run().
// - Every pair needs 2 GPUs (Requirements::gpus): run as one rank, the harness skips it and names the flag.
#pragma once
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "aisp/aisp.hpp"

namespace ch04 {

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}
inline int rank() { return env_int("RANK", 0); }
inline int world() { return env_int("WORLD_SIZE", 1); }

// The NCCL functions the chapter uses, resolved once per process.
struct Nccl {
  ncclResult_t (*get_unique_id)(ncclUniqueId*) = nullptr;
  ncclResult_t (*init_rank)(ncclComm_t*, int, ncclUniqueId, int) = nullptr;
  ncclResult_t (*abort)(ncclComm_t) = nullptr;
  ncclResult_t (*all_reduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*all_gather)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*reduce_scatter)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*broadcast)(const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*send)(const void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*recv)(void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*group_start)() = nullptr;
  ncclResult_t (*group_end)() = nullptr;
  const char* (*error_string)(ncclResult_t) = nullptr;

  static const Nccl& get() {
    static const Nccl api = load();
    return api;
  }
  void check(ncclResult_t r, const char* what) const {
    if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + error_string(r));
  }

 private:
  static Nccl load() {
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error(std::string("ch04 needs NCCL: libnccl.so.2 not found (") + dlerror() + ")");
    Nccl n;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn) throw std::runtime_error(std::string("libnccl lacks ") + name);
    };
    sym(n.get_unique_id, "ncclGetUniqueId");
    sym(n.init_rank, "ncclCommInitRank");
    sym(n.abort, "ncclCommAbort");
    sym(n.all_reduce, "ncclAllReduce");
    sym(n.all_gather, "ncclAllGather");
    sym(n.reduce_scatter, "ncclReduceScatter");
    sym(n.broadcast, "ncclBroadcast");
    sym(n.send, "ncclSend");
    sym(n.recv, "ncclRecv");
    sym(n.group_start, "ncclGroupStart");
    sym(n.group_end, "ncclGroupEnd");
    sym(n.error_string, "ncclGetErrorString");
    return n;
  }
};

// A communicator of all ranks (see the header comment for the id exchange). Blocks until every rank has
// called it: call it from setup(), which the harness sends to every rank at once.
inline ncclComm_t make_comm(const std::string& tag = "world") {
  namespace fs = std::filesystem;
  const Nccl& nccl = Nccl::get();
  setenv("NCCL_NVLS_ENABLE", "0", 1);     // always, whatever the environment says
  setenv("NCCL_RUNTIME_CONNECT", "0", 0);  // connect in setup(); a caller's explicit choice stands
  const char* dir = std::getenv("AISP_RENDEZVOUS_DIR");
  if (world() < 2 || !dir || !*dir)
    throw std::runtime_error("ch04 pairs run as ranks: aisp bench run --nproc-per-node 2 (RANK, WORLD_SIZE and "
                             "AISP_RENDEZVOUS_DIR come from the harness)");
  const fs::path file = fs::path(dir) / ("nccl_id." + tag);
  ncclUniqueId id{};
  if (rank() == 0) {
    nccl.check(nccl.get_unique_id(&id), "ncclGetUniqueId");
    fs::path tmp = file;
    tmp += ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(id.internal, sizeof id.internal);
      if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, file);
  } else {
    // 60 s: rank 0 may still be loading NCCL; well inside the harness's setup timeout, so a rank 0 that died
    // is reported by this rank with a reason rather than by a timeout.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      std::ifstream in(file, std::ios::binary);
      if (in && in.read(id.internal, sizeof id.internal)) break;
      if (std::chrono::steady_clock::now() > until)
        throw std::runtime_error("rank " + std::to_string(rank()) + ": no NCCL id from rank 0 at " + file.string());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ncclComm_t comm = nullptr;
  nccl.check(nccl.init_rank(&comm, world(), id, rank()), "ncclCommInitRank");
  return comm;
}

// The base of every ch04 variant: two GPUs required, one communicator made in setup() (after the pair's
// buffers) and released at teardown. ncclCommAbort rather than ncclCommDestroy: it frees this rank's
// resources without waiting on its peers, which may already be tearing down.
struct RankedBenchmark : aisp::Benchmark {
  aisp::Requirements requirements() const override { return {.gpus = 2}; }
  void teardown(aisp::Context&) override {
    if (comm_) Nccl::get().abort(comm_);
    comm_ = nullptr;
  }

 protected:
  void connect(aisp::Context& ctx) {
    barrier_ = static_cast<float*>(ctx.scratch("ch04_step_barrier", sizeof(float)));
    comm_ = make_comm();
  }
  const Nccl& nccl() const { return Nccl::get(); }
  // The harness times a multi-rank step as the slowest rank's window, and each rank's window opens when that
  // rank is ready (they are not aligned). A pair whose ranks finish at different times (a pipeline's first
  // stage is done long before its last) ends run() with this: a 1-float all-reduce that no rank leaves before
  // every rank has reached it, so every rank's window ends at the step's end and the slowest window spans
  // the step from its earliest start. Without it, rank 0 could start step k+1 while rank 1 still finishes
  // step k, and the steps of a naive pipeline would overlap across samples. ~15 us on NVLink.
  void end_of_step(cudaStream_t s) {
    nccl().check(nccl().all_reduce(barrier_, barrier_, 1, ncclFloat, ncclSum, comm_, s), "ncclAllReduce(barrier)");
  }
  ncclComm_t comm_ = nullptr;
  float* barrier_ = nullptr;
};

// The same element-wise "layer" for every pair that needs compute: `iters` dependent FMA+sin steps per element
// (SFU-bound, so its time is set by `iters`, not by memory). `salt` makes stages differ (pipeline_parallel).
__device__ __forceinline__ float layer_step(float x, int iters, float salt) {
  float y = x;
  for (int i = 0; i < iters; ++i) y = fmaf(0.999f, y, 0.01f * __sinf(y + salt));
  return y;
}

__global__ void layer_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n, int iters, float salt) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = layer_step(in[i], iters, salt);
}

inline void launch_layer(const float* in, float* out, int64_t n, int iters, float salt, cudaStream_t s) {
  const int blocks = static_cast<int>(std::min<int64_t>((n + 255) / 256, 132 * 8));
  layer_kernel<<<blocks, 256, 0, s>>>(in, out, n, iters, salt);
  AISP_LAUNCH_CHECK();
}

}  // namespace ch04
