// RuntimeKernel: CUDA C++ source compiled at run time with NVRTC for the device in use, loaded as a
// library (cudaLibraryLoadData: runtime API, nothing links libcuda) and launched on a stream.
//
// Every pair here compiles in setup(), never in run(): the harness times run() only, so compile time is
// the one-off cost a JIT pays before its first launch. It is measured here (steady clock around NVRTC and
// the load) and written to the worker log ("[nvrtc] ... compiled in ... ms"), since the benchmark API has
// no per-variant metric for it; the chapter README quotes the logged numbers.
// The cubin is built for exactly this device (sm_<major><minor>), so no PTX JIT happens at load.
#pragma once
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "aisp/aisp.hpp"

class RuntimeKernel {
 public:
  RuntimeKernel() = default;
  RuntimeKernel(const RuntimeKernel&) = delete;
  RuntimeKernel& operator=(const RuntimeKernel&) = delete;
  ~RuntimeKernel() {
    if (library_) cudaLibraryUnload(library_);
  }

  // Compiles `source`, loads it and looks up the extern "C" kernel `name`. `who` labels the log line.
  void compile(const std::string& source, const std::string& name, const aisp::DeviceInfo& device, const char* who) {
    const auto t0 = std::chrono::steady_clock::now();
    nvrtcProgram prog = nullptr;
    check(nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr), "create");
    const std::string arch = "--gpu-architecture=sm_" + std::to_string(device.cc_major) + std::to_string(device.cc_minor);
    const char* options[] = {arch.c_str(), "--std=c++17", "-default-device"};
    const nvrtcResult compiled = nvrtcCompileProgram(prog, 3, options);
    if (compiled != NVRTC_SUCCESS) {
      size_t log_size = 0;
      nvrtcGetProgramLogSize(prog, &log_size);
      std::string log(log_size, '\0');
      nvrtcGetProgramLog(prog, log.data());
      nvrtcDestroyProgram(&prog);
      throw std::runtime_error(std::string(who) + ": NVRTC: " + nvrtcGetErrorString(compiled) + "\n" + log);
    }
    size_t cubin_size = 0;
    check(nvrtcGetCUBINSize(prog, &cubin_size), "cubin size");
    cubin_.resize(cubin_size);
    check(nvrtcGetCUBIN(prog, cubin_.data()), "cubin");
    nvrtcDestroyProgram(&prog);
    const auto t1 = std::chrono::steady_clock::now();
    AISP_CUDA_CHECK(cudaLibraryLoadData(&library_, cubin_.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    AISP_CUDA_CHECK(cudaLibraryGetKernel(&kernel_, library_, name.c_str()));
    const auto t2 = std::chrono::steady_clock::now();
    compile_ms_ = std::chrono::duration<double, std::milli>(t1 - t0).count();
    load_ms_ = std::chrono::duration<double, std::milli>(t2 - t1).count();
    std::fprintf(stderr, "[nvrtc] %s: %s compiled in %.1f ms (cubin %zu bytes), loaded in %.2f ms\n", who, name.c_str(),
                 compile_ms_, cubin_.size(), load_ms_);
    std::fflush(stderr);
  }

  // args: pointers to each kernel argument, as for cudaLaunchKernel.
  void launch(dim3 grid, dim3 block, void** args, cudaStream_t s, size_t shared_bytes = 0) const {
    AISP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), grid, block, args, shared_bytes, s));
  }

  double compile_ms() const { return compile_ms_; }

 private:
  static void check(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string("NVRTC ") + what + ": " + nvrtcGetErrorString(r));
  }

  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
  std::vector<char> cubin_;
  double compile_ms_ = 0, load_ms_ = 0;
};
