// hw tc: tensor-core throughput per dtype.
//  * library: cuBLASLt GEMM (TN layout, the fast layout for every dtype; FP8 requires it) on random
//    operands (never zeros: pitfall 2) at sizes that reach the plateau; the best shape is the figure and
//    every shape is kept as a series. FLOPs = 2·M·N·K; timed back-to-back with CUDA events (hot: the
//    operands of the plateau shapes are several times L2, so caching is not what is measured).
//  * microkernel: wgmma from shared memory with no global traffic (probe_tc_micro.cu), for the
//    clock-adjusted peak; printed beside the library number.
// FP64 rides along (cuBLASLt DGEMM = the FP64 tensor-core path) for the DGEMM goal.
#include <cublasLt.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>

#include "probes/probe_gpu.cuh"
#include "probes/probes.hpp"

namespace aisp::probes {
namespace {

struct LtType {
  std::string name, label;
  cudaDataType ab, cd, scale;
  cublasComputeType_t compute;
  RandKind rk;
  size_t ab_bytes, cd_bytes;
  double per_sm;  // flop/clk/SM of the unit that runs it
  std::string caps_key, unit;
};

bool lt_type(const std::string& dt, LtType& t) {
  if (dt == "bf16") t = {dt, "BF16", CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, RandKind::bf16, 2, 2, per_sm::bf16_tc, "tflops_bf16_cublaslt", "TFLOP/s"};
  else if (dt == "fp16") t = {dt, "FP16", CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, RandKind::f16, 2, 2, per_sm::fp16_tc, "tflops_fp16_cublaslt", "TFLOP/s"};
  else if (dt == "tf32") t = {dt, "TF32", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, RandKind::f32, 4, 4, per_sm::tf32_tc, "tflops_tf32_cublaslt", "TFLOP/s"};
  else if (dt == "fp8_e4m3") t = {dt, "FP8 e4m3", CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, RandKind::fp8_e4m3, 1, 2, per_sm::fp8_tc, "tflops_fp8_e4m3_cublaslt", "TFLOP/s"};
  else if (dt == "int8") t = {dt, "INT8", CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, RandKind::int8, 1, 4, per_sm::int8_tc, "tops_int8_cublaslt", "TOP/s"};
  else if (dt == "fp64") t = {dt, "FP64 (DGEMM, tensor)", CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, RandKind::f64, 8, 8, per_sm::fp64_tc, "tflops_fp64_cublaslt", "TFLOP/s"};
  else return false;
  return true;
}

#define LT_CHECK(expr)                                                                                 \
  do {                                                                                                 \
    cublasStatus_t st_ = (expr);                                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                  \
      throw std::runtime_error(std::string(#expr) + ": " + cublasLtGetStatusName(st_));                \
  } while (0)

// Everything one cuBLASLt GEMM needs, released in the destructor.
struct LtGemm {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t algo{};
  DevBuf A, B, C, ws;
  double alpha_d = 1, beta_d = 0;
  float alpha_f = 1, beta_f = 0;
  int32_t alpha_i = 1, beta_i = 0;
  const void *alpha = nullptr, *beta = nullptr;
  ~LtGemm() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (desc) cublasLtMatmulDescDestroy(desc);
    if (lt) cublasLtDestroy(lt);
  }
  void run(cudaStream_t s) {
    LT_CHECK(cublasLtMatmul(lt, desc, alpha, A.get(), a, B.get(), b, beta, C.get(), c, C.get(), c, &algo.algo,
                            ws.get(), ws.bytes(), s));
  }
};

// Returns false when cuBLASLt offers no algorithm for this dtype/shape.
bool setup(LtGemm& g, const LtType& t, int64_t m, int64_t n, int64_t k, bool fast_accum, cudaStream_t s) {
  LT_CHECK(cublasLtCreate(&g.lt));
  LT_CHECK(cublasLtMatmulDescCreate(&g.desc, t.compute, t.scale));
  cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  LT_CHECK(cublasLtMatmulDescSetAttribute(g.desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  LT_CHECK(cublasLtMatmulDescSetAttribute(g.desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  if (fast_accum) {
    int8_t on = 1;
    LT_CHECK(cublasLtMatmulDescSetAttribute(g.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &on, sizeof on));
  }
  LT_CHECK(cublasLtMatrixLayoutCreate(&g.a, t.ab, k, m, k));  // A^T stored k x m
  LT_CHECK(cublasLtMatrixLayoutCreate(&g.b, t.ab, k, n, k));
  LT_CHECK(cublasLtMatrixLayoutCreate(&g.c, t.cd, m, n, m));
  g.ws = DevBuf(64ull << 20);  // Hopper kernels ask for up to 32 MiB; give room
  LT_CHECK(cublasLtMatmulPreferenceCreate(&g.pref));
  size_t wsb = g.ws.bytes();
  LT_CHECK(cublasLtMatmulPreferenceSetAttribute(g.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof wsb));
  int found = 0;
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(g.lt, g.desc, g.a, g.b, g.c, g.c, g.pref, 1, &g.algo, &found);
  if (st != CUBLAS_STATUS_SUCCESS || found == 0) return false;
  g.A = DevBuf(size_t(m) * k * t.ab_bytes);
  g.B = DevBuf(size_t(n) * k * t.ab_bytes);
  g.C = DevBuf(size_t(m) * n * t.cd_bytes);
  fill_random(g.A.get(), size_t(m) * k, t.rk, 0xA11CE, s);
  fill_random(g.B.get(), size_t(n) * k, t.rk, 0xB0B, s);
  if (t.scale == CUDA_R_64F) g.alpha = &g.alpha_d, g.beta = &g.beta_d;
  else if (t.scale == CUDA_R_32I) g.alpha = &g.alpha_i, g.beta = &g.beta_i;
  else g.alpha = &g.alpha_f, g.beta = &g.beta_f;
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
  return true;
}

std::string shape_text(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

bool gemm_measure(const ProbeContext& ctx, const LtType& t, int64_t m, int64_t n, int64_t k, bool fast_accum,
                  Figure& f, int samples) {
  Stream s;
  LtGemm g;
  if (!setup(g, t, m, n, k, fast_accum, s)) {
    f.status = "skipped: cuBLASLt has no algorithm for " + t.name + " " + shape_text(m, n, k);
    return false;
  }
  EventTimer timer(s);
  double one = timer.once([&] { g.run(s); });  // also loads the kernel
  one = timer.once([&] { g.run(s); });
  int batch = std::max(1, static_cast<int>(5.0 / std::max(one, 1e-3)));  // ~5 ms per sample
  ClockMonitor mon(ctx.dev.uuid);
  f.samples = timer.samples([&] { for (int i = 0; i < batch; ++i) g.run(s); }, 1, samples, batch);
  f.clocks = mon.stop();
  f.samples_unit = "ms per GEMM";
  f.value = tflop_per_s(gemm_flops(m, n, k), median(f.samples));
  f.unit = t.unit;
  f.datasheet = ctx.sheet.tflops(t.per_sm, t.name != "fp64");
  f.clock_ceiling = tflops_at(ctx.dev.sm_count, t.per_sm, f.clocks.sm_mhz_median);
  f.clock_basis = "SMs x flop/clk/SM x NVML SM clock (median during the timed GEMMs)";
  f.params = {{"shape_mnk", shape_text(m, n, k)}, {"layout", "TN (A^T·B), column-major"},
              {"algo_workspace_bytes", std::to_string(g.algo.workspaceSize)}, {"batch", std::to_string(batch)},
              {"fast_accum", fast_accum ? "1" : "0"}};
  f.method = "cuBLASLt matmul " + t.name + " TN " + shape_text(m, n, k) + ", top heuristic algorithm, random " +
             "operands, " + std::to_string(batch) + " back-to-back GEMMs per event pair, median of " +
             std::to_string(samples) + "; FLOPs = 2MNK" + (fast_accum ? "; CUBLASLT_MATMUL_DESC_FAST_ACCUM on" : "");
  return true;
}

std::vector<std::array<int64_t, 3>> shapes_for(const std::string& dt, bool quick) {
  if (quick) return {{8192, 8192, 8192}};
  if (dt == "fp64") return {{4096, 4096, 4096}, {8192, 8192, 8192}};
  std::vector<std::array<int64_t, 3>> s = {{4096, 4096, 4096}, {8192, 8192, 8192}, {12288, 12288, 12288}, {16384, 16384, 16384}};
  // The best shapes public finders reported (MAMF, hw_anchors §6.1).
  if (dt == "bf16" || dt == "fp16") s.push_back({2048, 2048, 13312});
  if (dt == "fp8_e4m3" || dt == "int8") s.push_back({1024, 9216, 14336}), s.push_back({8192, 8192, 16384});
  return s;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) out.push_back(x);
  return out;
}

}  // namespace

bool gemm_lt_figure(const ProbeContext& ctx, const std::string& dtype, int64_t m, int64_t n, int64_t k, Figure& f,
                    int samples) {
  LtType t;
  if (!lt_type(dtype, t)) throw std::runtime_error("unknown dtype " + dtype);
  f.key = "gemm_" + dtype;
  f.label = t.label + " GEMM (cuBLASLt)";
  f.caps_key = t.caps_key;
  bool ok = false;
  measure(ctx, f, [&](Figure& fig) { ok = gemm_measure(ctx, t, m, n, k, false, fig, samples); });
  return ok;
}

ProbeResult probe_tc(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "tc";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  auto dtypes = split(ctx.opt.tc_dtypes);
  const int samples = ctx.opt.quick ? 5 : 10;
  Series sweep{"cuBLASLt shapes (dtype: 0 bf16, 1 fp16, 2 tf32, 3 fp8_e4m3, 4 int8, 5 fp64, 6 fp8 fast-accum)",
               {"dtype", "M", "N", "K", "TFLOP/s", "ms", "SM_MHz"}, {}};
  auto dtype_id = [](const std::string& d) {
    static const char* ids[] = {"bf16", "fp16", "tf32", "fp8_e4m3", "int8", "fp64"};
    for (int i = 0; i < 6; ++i)
      if (d == ids[i]) return double(i);
    return -1.0;
  };
  if (!ctx.opt.tc_no_lib) {
    for (auto& dt : dtypes) {
      LtType t;
      if (!lt_type(dt, t)) {
        r.notes.push_back("unknown dtype '" + dt + "' (known: bf16, fp16, tf32, fp8_e4m3, int8, fp64)");
        continue;
      }
      for (bool fast : {false, true}) {
        if (fast && dt != "fp8_e4m3") continue;
        Figure best;
        best.key = fast ? "gemm_fp8_e4m3_fast" : "gemm_" + dt;
        best.label = t.label + (fast ? " GEMM (cuBLASLt, fast accum)" : " GEMM (cuBLASLt)");
        best.status = "skipped: no shape ran";
        for (auto sh : shapes_for(dt, ctx.opt.quick)) {
          Figure f;
          f.key = best.key;
          f.label = best.label;
          f.caps_key = fast ? "tflops_fp8_e4m3_cublaslt_fastaccum" : t.caps_key;
          measure(ctx, f, [&](Figure& fig) { gemm_measure(ctx, t, sh[0], sh[1], sh[2], fast, fig, samples); });
          if (f.ok()) {
            sweep.rows.push_back({fast ? 6.0 : dtype_id(dt), double(sh[0]), double(sh[1]), double(sh[2]), f.value,
                                  median(f.samples), f.clocks.sm_mhz_median});
            if (!best.ok() || f.value > best.value) best = f;
          } else if (!best.ok()) {
            best.status = f.status;
          }
        }
        if (best.ok()) best.method += "; best of " + std::to_string(shapes_for(dt, ctx.opt.quick).size()) + " shapes";
        ctx.finish(best);
        r.figures.push_back(best);
      }
    }
  }
  if (!ctx.opt.tc_no_micro) {
    std::vector<std::string> micro;
    for (auto& dt : dtypes)
      if (dt != "fp64") micro.push_back(dt);
    tc_micro_figures(ctx, micro, r.figures);
  }
  r.series.push_back(sweep);
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
