// hw nccl: collective bandwidth with nccl-tests' definitions (hw_anchors §5): one process drives all
// visible GPUs (ncclCommInitAll), float sum, out-of-place; per size: warm-up, then `iters` collectives timed
// with the host clock around them (+ a sync on every GPU), time = total / iters;
// algbw = S / t (GB/s = 1e9) with S = per-rank bytes (all_gather / reduce_scatter: count x 4 x nranks);
// busbw = algbw x factor (all_reduce 2(n-1)/n, all_gather / reduce_scatter (n-1)/n).
// NCCL is loaded with dlopen (libnccl.so.2), so the binary starts where NCCL is absent; NVLink SHARP
// (NVLS) is always off (NCCL_NVLS_ENABLE=0 overrides the caller's environment): on shared hosts it can take
// GPUs down.
// With one GPU the probe says so and exits 0.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <cstdlib>
#include <string>

#include "aisp/check.hpp"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

struct NcclApi {
  ncclResult_t (*get_version)(int*) = nullptr;
  ncclResult_t (*init_all)(ncclComm_t*, int, const int*) = nullptr;
  ncclResult_t (*destroy)(ncclComm_t) = nullptr;
  ncclResult_t (*all_reduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*all_gather)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*reduce_scatter)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*group_start)() = nullptr;
  ncclResult_t (*group_end)() = nullptr;
  const char* (*error_string)(ncclResult_t) = nullptr;
  std::string error;

  bool load() {
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      error = std::string("libnccl.so.2 not found: ") + dlerror();
      return false;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      return fn != nullptr;
    };
    bool ok = sym(get_version, "ncclGetVersion") && sym(init_all, "ncclCommInitAll") &&
              sym(destroy, "ncclCommDestroy") && sym(all_reduce, "ncclAllReduce") &&
              sym(all_gather, "ncclAllGather") && sym(reduce_scatter, "ncclReduceScatter") &&
              sym(group_start, "ncclGroupStart") && sym(group_end, "ncclGroupEnd") &&
              sym(error_string, "ncclGetErrorString");
    if (!ok) error = "libnccl lacks a required symbol";
    return ok;
  }
  void check(ncclResult_t r, const char* what) const {
    if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + error_string(r));
  }
};

}  // namespace

ProbeResult probe_nccl(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "nccl";
  double t0 = now_seconds();
  int n = 0;
  AISP_CUDA_CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    r.notes.push_back("nccl needs >= 2 GPUs; this machine shows " + std::to_string(n) + " — nothing to measure");
    r.wall_s = now_seconds() - t0;
    return r;
  }
  NcclApi api;
  if (!api.load()) {
    r.notes.push_back("NCCL unavailable: " + api.error);
    r.exit_code = 1;
    return r;
  }
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // always off, whatever the caller's environment says
  int version = 0;
  api.get_version(&version);
  r.notes.push_back("NCCL " + std::to_string(version) + ", " + std::to_string(n) + " GPUs, NCCL_NVLS_ENABLE=" +
                    std::string(std::getenv("NCCL_NVLS_ENABLE") ? std::getenv("NCCL_NVLS_ENABLE") : "?") +
                    " (set NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING to see the algorithm NCCL picks)");
  ClockMonitor whole(ctx.dev.uuid, 50);
  std::vector<ncclComm_t> comms(n);
  std::vector<int> devs(n);
  for (int i = 0; i < n; ++i) devs[i] = i;
  api.check(api.init_all(comms.data(), n, devs.data()), "ncclCommInitAll");
  const size_t max_bytes = static_cast<size_t>(ctx.opt.nccl_max_mib * (1 << 20));
  std::vector<void*> send(n), recv(n);
  std::vector<cudaStream_t> streams(n);
  for (int i = 0; i < n; ++i) {
    AISP_CUDA_CHECK(cudaSetDevice(i));
    AISP_CUDA_CHECK(cudaMalloc(&send[i], max_bytes * n));  // room for all_gather's n x count output
    AISP_CUDA_CHECK(cudaMalloc(&recv[i], max_bytes * n));
    AISP_CUDA_CHECK(cudaMemset(send[i], 1, max_bytes * n));
    AISP_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
  }
  const char* colls[] = {"all_reduce", "all_gather", "reduce_scatter"};
  for (int c = 0; c < 3; ++c) {
    std::string coll = colls[c];
    Series s{coll + " (float, sum, out-of-place)", {"size_B", "time_us", "algbw_GBs", "busbw_GBs"}, {}};
    Figure f;
    f.key = "nccl_" + coll;
    f.label = coll + " busbw (largest size)";
    f.unit = "GB/s";
    f.caps_key = "nccl_" + coll + "_busbw_gbs";
    measure(ctx, f, [&](Figure& fig) {
      for (size_t bytes = 1 << 20; bytes <= max_bytes; bytes *= 4) {
        // nccl-tests' S: all_reduce count x 4; all_gather / reduce_scatter: total buffer = count x 4 x n.
        size_t count = coll == "all_reduce" ? bytes / 4 : bytes / 4 / n;
        auto once = [&] {
          api.check(api.group_start(), "ncclGroupStart");
          for (int i = 0; i < n; ++i) {
            if (coll == "all_reduce")
              api.check(api.all_reduce(send[i], recv[i], count, ncclFloat, ncclSum, comms[i], streams[i]), "ncclAllReduce");
            else if (coll == "all_gather")
              api.check(api.all_gather(send[i], recv[i], count, ncclFloat, comms[i], streams[i]), "ncclAllGather");
            else
              api.check(api.reduce_scatter(send[i], recv[i], count, ncclFloat, ncclSum, comms[i], streams[i]),
                        "ncclReduceScatter");
          }
          api.check(api.group_end(), "ncclGroupEnd");
        };
        auto sync = [&] {
          for (int i = 0; i < n; ++i) {
            AISP_CUDA_CHECK(cudaSetDevice(i));
            AISP_CUDA_CHECK(cudaStreamSynchronize(streams[i]));
          }
        };
        for (int w = 0; w < 5; ++w) once();
        sync();
        const int iters = 20;
        double a = now_seconds();
        for (int k = 0; k < iters; ++k) once();
        sync();
        double t = (now_seconds() - a) / iters;
        double algbw = double(bytes) / t / 1e9;
        s.rows.push_back({double(bytes), t * 1e6, algbw, algbw * nccl_busbw_factor(coll, n)});
        fig.samples.push_back(algbw * nccl_busbw_factor(coll, n));
      }
      fig.samples_unit = "busbw GB/s per size (1 MiB x4 ... max)";
      fig.value = s.rows.empty() ? kNaN : s.rows.back()[3];
      fig.datasheet = 450;
      fig.method = "nccl-tests formulas, single process, " + std::to_string(n) + " GPUs, 20 iterations per size " +
                   "after 5 warm-up, host clock; busbw factor " + fmt_num(nccl_busbw_factor(coll, n)) +
                   "; datasheet = NVLink4 450 GB/s per direction";
    });
    r.figures.push_back(f);
    r.series.push_back(s);
  }
  for (int i = 0; i < n; ++i) {
    cudaSetDevice(i);
    api.destroy(comms[i]);
    cudaFree(send[i]);
    cudaFree(recv[i]);
    cudaStreamDestroy(streams[i]);
  }
  cudaSetDevice(ctx.dev.ordinal);
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
