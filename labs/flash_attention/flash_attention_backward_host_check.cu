// labs/flash_attention flash_attention_backward: a host-reference check of both plugins on small shapes
// (not part of the CMake glob, which takes only baseline_*/optimized_*; a standalone tool, run on a GPU):
//   nvcc -std=c++20 -O2 -I include labs/flash_attention/flash_attention_backward_host_check.cu -lcublas -ldl \
//        -o fabwd_check && ./fabwd_check build/plugins/labs/flash_attention/{baseline,optimized}_flash_attention_backward.so
// It loads each plugin through its C factory with a minimal Context (inputs filled here from a fixed seed with
// the pair's distributions; seq 256 and 512, 2 heads), runs it once, and compares dQ, dK, dV with a double-
// precision CPU backward of the same bf16 inputs under the pair's tolerance (|x - ref| <= 5e-4 + 1e-2 |ref|;
// at seq 256 the outputs are ~4x larger than at 4096 - sqrt(e/n) - and so is the P-rounding noise: the check
// reports the max error against the tolerance instead of relying on the 4096-token derivation alone).
// Exit status 0 only if every output of every plugin is within tolerance.
// Run once (H200, 2026-11-28, in the same device call as the bench run): exit 1. Both plugins gave the SAME
// max errors to 4 digits (seq 256: dQ 1.51e-3, dK 1.76e-3, dV 1.30e-3 = 1.43-1.56x the criterion; seq 512:
// 1.28e-3, 1.03e-3, 0.89e-3 = 1.07-1.25x): the kernels agree, and what exceeds the criterion is the
// bf16 rounding of the largest P and dS terms, which both variants share. At small n one term is a large
// share of a row (p up to ~0.08 at n = 256; its rounding alone is ~2^-9 x 0.7 = 1.4e-3), so the pair's
// tolerance - derived for 4096 tokens and for the difference between two variants - is the wrong yardstick
// against an exact reference. Not yet done: judge each output against its own arithmetic bound,
// (2^-9 + 1e-5) x sum of |terms| (P and dS each rounded once to bf16; fp32 sums and ex2.approx ~1e-5),
// which a wrong kernel (errors ~ the output itself) would still fail.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "aisp/benchmark.hpp"

namespace {

struct MiniContext : aisp::Context {
  std::map<std::string, int64_t> params;
  std::map<std::string, aisp::Buffer> buffers;
  std::map<std::string, std::vector<float>> host;  // inputs as the device sees them (after bf16 rounding)
  std::vector<void*> allocations;
  cudaStream_t s = nullptr;
  cublasHandle_t h = nullptr;
  aisp::DeviceInfo info;
  uint64_t seed = 1;

  MiniContext() {
    cudaStreamCreate(&s);
    cublasCreate(&h);
    cublasSetStream(h, s);
    cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  }
  ~MiniContext() override {
    for (void* p : allocations) cudaFree(p);
    cublasDestroy(h);
    cudaStreamDestroy(s);
  }
  void* alloc(size_t bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) throw std::runtime_error("cudaMalloc");
    allocations.push_back(p);
    return p;
  }
  cudaStream_t stream() override { return s; }
  aisp::Buffer input(const std::string& name, aisp::DType dtype, aisp::Shape shape, aisp::Fill fill, aisp::Role) override {
    aisp::Buffer b{nullptr, dtype, shape, name};
    b.data = alloc(b.bytes());
    std::mt19937_64 rng(seed * 1000003 + std::hash<std::string>{}(name));
    std::vector<float> v(static_cast<size_t>(b.count()));
    for (auto& x : v) {
      if (fill.kind == aisp::Fill::Kind::normal) x = static_cast<float>(std::normal_distribution<double>(fill.a, fill.b)(rng));
      else x = static_cast<float>(std::uniform_real_distribution<double>(fill.a, fill.b)(rng));
    }
    if (dtype == aisp::DType::bf16) {
      std::vector<__nv_bfloat16> bv(v.size());
      for (size_t i = 0; i < v.size(); ++i) {
        bv[i] = __float2bfloat16(v[i]);
        v[i] = __bfloat162float(bv[i]);
      }
      cudaMemcpy(b.data, bv.data(), b.bytes(), cudaMemcpyHostToDevice);
    } else {
      cudaMemcpy(b.data, v.data(), b.bytes(), cudaMemcpyHostToDevice);
    }
    host[name] = v;
    buffers[name] = b;
    return b;
  }
  aisp::Buffer output(const std::string& name, aisp::DType dtype, aisp::Shape shape) override {
    aisp::Buffer b{nullptr, dtype, shape, name};
    b.data = alloc(b.bytes());
    cudaMemset(b.data, 0xFF, b.bytes());  // poisoned (NaN) like the harness does
    buffers[name] = b;
    return b;
  }
  void* scratch(const std::string&, size_t bytes) override {
    void* p = alloc(bytes);
    cudaMemset(p, 0, bytes);
    return p;
  }
  aisp::Buffer buffer(const std::string& name) override { return buffers.at(name); }
  cublasHandle_t cublas() override { return h; }
  const aisp::DeviceInfo& device() const override { return info; }
  int64_t param(const std::string& name) const override { return params.at(name); }
  aisp::RequestTrace request_trace(const std::string&, const aisp::TraceSpec&) override {
    throw std::runtime_error("no traces here");
  }
  void complete_request(int32_t, cudaStream_t) override {}
};

// Double-precision backward of one head: q, k, v, o, dout [n][128], lse [n]; outputs [n][128].
void reference_head(int n, const float* q, const float* k, const float* v, const float* o, const float* dout, const float* lse,
                    double* dq, double* dk, double* dv) {
  const int d = 128;
  const double scale = 1.0 / std::sqrt(128.0);
  std::vector<double> p(static_cast<size_t>(n) * n), ds(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    double dd = 0;
    for (int c = 0; c < d; ++c) dd += static_cast<double>(dout[i * d + c]) * o[i * d + c];
    for (int j = 0; j < n; ++j) {
      double s = 0, dp = 0;
      for (int c = 0; c < d; ++c) {
        s += static_cast<double>(q[i * d + c]) * k[j * d + c];
        dp += static_cast<double>(dout[i * d + c]) * v[j * d + c];
      }
      const double pij = std::exp(s * scale - lse[i]);
      p[static_cast<size_t>(i) * n + j] = pij;
      ds[static_cast<size_t>(i) * n + j] = pij * (dp - dd);
    }
  }
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) {
      double a = 0;
      for (int j = 0; j < n; ++j) a += ds[static_cast<size_t>(i) * n + j] * k[j * d + c];
      dq[i * d + c] = a * scale;
    }
  for (int j = 0; j < n; ++j)
    for (int c = 0; c < d; ++c) {
      double a = 0, b = 0;
      for (int i = 0; i < n; ++i) {
        a += ds[static_cast<size_t>(i) * n + j] * q[i * d + c];
        b += p[static_cast<size_t>(i) * n + j] * dout[i * d + c];
      }
      dk[j * d + c] = a * scale;
      dv[j * d + c] = b;
    }
}

bool check_plugin(const char* path, int seq, int heads) {
  void* so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!so) {
    std::printf("%s: dlopen failed: %s\n", path, dlerror());
    return false;
  }
  auto create = reinterpret_cast<aisp::Benchmark* (*)()>(dlsym(so, "aisp_create_benchmark"));
  aisp::Benchmark* bench = create();
  bool ok = true;
  {
    MiniContext ctx;
    ctx.params = {{"batch", 1}, {"heads", heads}, {"seq", seq}, {"head_dim", 128}, {"causal", 0}};
    bench->setup(ctx);
    bench->run(ctx);
    if (cudaStreamSynchronize(ctx.s) != cudaSuccess) {
      std::printf("%s: CUDA error %s\n", path, cudaGetErrorString(cudaGetLastError()));
      return false;
    }
    const size_t head = static_cast<size_t>(seq) * 128;
    std::map<std::string, std::vector<double>> ref = {{"dq", std::vector<double>(head * heads)},
                                                      {"dk", std::vector<double>(head * heads)},
                                                      {"dv", std::vector<double>(head * heads)}};
    for (int hh = 0; hh < heads; ++hh)
      reference_head(seq, &ctx.host["q"][hh * head], &ctx.host["k"][hh * head], &ctx.host["v"][hh * head],
                     &ctx.host["o"][hh * head], &ctx.host["do"][hh * head], &ctx.host["lse"][hh * seq], &ref["dq"][hh * head],
                     &ref["dk"][hh * head], &ref["dv"][hh * head]);
    for (const char* name : {"dq", "dk", "dv"}) {
      std::vector<float> got(head * heads);
      cudaMemcpy(got.data(), ctx.buffers[name].data, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
      double max_err = 0, max_ratio = 0, rms = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        const double r = ref[name][i], err = std::fabs(got[i] - r);
        const double ratio = err / (5e-4 + 1e-2 * std::fabs(r));
        if (!(ratio <= max_ratio)) max_ratio = std::isnan(ratio) ? INFINITY : std::max(max_ratio, ratio);
        max_err = std::max(max_err, err);
        rms += r * r;
      }
      rms = std::sqrt(rms / got.size());
      const bool pass = max_ratio <= 1.0;
      ok = ok && pass;
      std::printf("%-60s seq %4d %s: rms(ref) %.3e  max|err| %.3e  max err/tol %.3f  %s\n", path, seq, name, rms, max_err,
                  max_ratio, pass ? "ok" : "FAIL");
    }
    bench->teardown(ctx);
  }
  delete bench;
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  bool ok = true;
  for (int a = 1; a < argc; ++a)
    for (int seq : {256, 512}) ok = check_plugin(argv[a], seq, 2) && ok;
  std::printf("%s\n", ok ? "ALL OK" : "SOME FAILED");
  return ok ? 0 : 1;
}
