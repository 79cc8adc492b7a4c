// staged_h2d: moving a 32 MiB fp32 tensor from *pageable* host memory (memory you cannot pin: a
// framework's heap, a buffer a library hands you, a memory-mapped dataset) to the GPU, then
//   out = host_data + in
// on the device, so the output checks every byte that crossed and follows the harness's fresh inputs.
// The host data is a fixed pattern made in setup().
//
// Two pairs share this file:
//   pageable_copy  baseline: one cudaMemcpyAsync from the pageable source (the driver stages it)
//                  optimized: our own staging pipeline (StagedUploader): host threads copy chunks into a
//                  ring of pinned slots while the copy engine drains the filled ones
//   numa_affinity  baseline: the same pipeline, NUMA-unaware (threads float, slots wherever they land)
//                  optimized: threads bound to the GPU's local CPUs, slots on the GPU's NUMA node
#pragma once
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "../ch02/host_pipeline.hpp"
#include "aisp/aisp.hpp"

// 8 Mi floats = 32 MiB: ~0.65 ms of DMA at ~50 GB/s, 16 chunks of 2 MiB for the pipeline.
inline constexpr int64_t kStagedN = int64_t{1} << 23;
inline constexpr size_t kStagedChunkBytes = size_t{2} << 20;
inline constexpr int kStagedThreads = 4;  // host copy threads
inline constexpr int kStagedSlots = 6;    // pinned slots: threads + 2, so a slot is always free to fill while two drain

inline aisp::Workload staged_h2d_workload() {
  const double bytes = static_cast<double>(kStagedN) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", kStagedN}};
  w.precision = aisp::DType::f32;
  // Device memory: the uploaded tensor written once and read once by the add, `in` read, `out` written.
  w.bytes = 4.0 * bytes;
  w.flops = static_cast<double>(kStagedN);
  w.items = bytes;  // bytes that cross PCIe
  w.item_unit = "PCIe bytes";
  return w;
}

inline void declare_staged_h2d_buffers(aisp::Context& ctx) {
  const int64_t n = ctx.param("n");
  ctx.input("in", aisp::DType::f32, {n});
  ctx.output("out", aisp::DType::f32, {n});
}

// The pageable source: ordinary heap memory, filled (and so faulted in) by the thread calling setup().
inline std::unique_ptr<float[]> make_pageable_source(int64_t n) {
  auto src = std::make_unique<float[]>(n);
  for (int64_t i = 0; i < n; ++i) src[i] = host_pipeline::pattern_value(i);
  return src;
}

__global__ void staged_add_kernel(const float4* __restrict__ uploaded, const float4* __restrict__ in,
                                  float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 a = uploaded[i], b = in[i];
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

// out = uploaded + in on the harness stream, after the upload's copies (same stream, so ordered).
inline void launch_staged_add(aisp::Context& ctx, const float* uploaded) {
  const int64_t n = ctx.param("n");
  if (n % 4 != 0) throw std::runtime_error("staged_h2d: n must be a multiple of 4");
  const aisp::DeviceInfo& dev = ctx.device();
  const unsigned grid = static_cast<unsigned>((dev.sm_count > 0 ? dev.sm_count : 132) * 8);
  staged_add_kernel<<<grid, 256, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(uploaded),
                                                    ctx.buffer("in").as<const float4>(),
                                                    ctx.buffer("out").as<float4>(), n / 4);
  AISP_LAUNCH_CHECK();
}

// ---- NUMA facts, read from sysfs (no libnuma) ------------------------------------------------------

struct GpuLocality {
  std::string pci_bus_id;  // sysfs spelling, e.g. 0000:18:00.0
  int numa_node = -1;      // -1: the platform does not say (common in VMs and on single-node hosts)
  std::vector<int> local_cpus;
  int host_numa_nodes = 1;
};

inline int host_numa_node_count() {
  int nodes = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/sys/devices/system/node", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("node", 0) == 0 && name.size() > 4 && std::isdigit(static_cast<unsigned char>(name[4]))) ++nodes;
  }
  return std::max(nodes, 1);
}

inline std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

inline GpuLocality gpu_locality(int device) {
  GpuLocality g;
  g.host_numa_nodes = host_numa_node_count();
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) {
    cudaGetLastError();
    return g;
  }
  g.pci_bus_id = bus;
  std::transform(g.pci_bus_id.begin(), g.pci_bus_id.end(), g.pci_bus_id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string dir = "/sys/bus/pci/devices/" + g.pci_bus_id + "/";
  const std::string node = host_pipeline::read_text(dir + "numa_node");
  if (!node.empty()) g.numa_node = std::stoi(node);
  // Keep only CPUs this process may run on (a cpuset or taskset may exclude some of the GPU's).
  const std::vector<int> local = host_pipeline::parse_cpu_list(host_pipeline::read_text(dir + "local_cpulist"));
  const std::vector<int> allowed = allowed_cpus();
  for (int c : local)
    if (std::find(allowed.begin(), allowed.end(), c) != allowed.end()) g.local_cpus.push_back(c);
  return g;
}

// mbind(2) without libnuma: bind [p, p + bytes) to one node before its pages are touched.
inline bool bind_to_node(void* p, size_t bytes, int node) {
  if (node < 0 || node >= 1024) return false;
  unsigned long mask[1024 / (8 * sizeof(unsigned long))] = {};
  mask[node / (8 * sizeof(unsigned long))] |= 1ul << (node % (8 * sizeof(unsigned long)));
  constexpr int kMpolBind = 2;
  return syscall(SYS_mbind, p, bytes, kMpolBind, mask, 1024ul, 0u) == 0;
}

// ---- The staging pipeline ----------------------------------------------------------------------------

// A ring of pinned slots fed by host threads. upload() copies a pageable source to device memory:
// threads memcpy chunks into free slots; the calling thread queues each filled slot's DMA on the stream
// as soon as its chunk is ready and records an event to know when the slot may be refilled. The calling
// thread never copies data itself; it only orders the hand-offs.
class StagedUploader {
 public:
  struct Placement {
    std::vector<int> cpus;  // empty: threads float (NUMA-unaware)
    int numa_node = -1;     // >= 0: slots bound to this node (mbind), else wherever cudaHostAlloc puts them
  };

  explicit StagedUploader(const Placement& placement)
      : pool_(kStagedThreads, placement.cpus), node_bound_(placement.numa_node >= 0) {
    for (int i = 0; i < kStagedSlots; ++i) {
      if (node_bound_) {
        void* p = mmap(nullptr, kStagedChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error("staged_h2d: mmap of a staging slot failed");
        if (!bind_to_node(p, kStagedChunkBytes, placement.numa_node)) {
          munmap(p, kStagedChunkBytes);
          throw std::runtime_error("staged_h2d: mbind of a staging slot to the GPU's node failed");
        }
        // Fault the pages in from a thread on the node's CPUs as well (first touch agrees with mbind).
        pool_.submit([p] { std::memset(p, 0, kStagedChunkBytes); }).get();
        AISP_CUDA_CHECK(cudaHostRegister(p, kStagedChunkBytes, cudaHostRegisterDefault));
        slots_[i] = static_cast<char*>(p);
      } else {
        void* p = nullptr;
        AISP_CUDA_CHECK(cudaHostAlloc(&p, kStagedChunkBytes, cudaHostAllocDefault));
        slots_[i] = static_cast<char*>(p);
      }
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(&drained_[i], cudaEventDisableTiming));
    }
  }
  StagedUploader(const StagedUploader&) = delete;
  StagedUploader& operator=(const StagedUploader&) = delete;
  ~StagedUploader() {
    for (int i = 0; i < kStagedSlots; ++i) {
      if (drained_[i]) cudaEventSynchronize(drained_[i]);
      if (drained_[i]) cudaEventDestroy(drained_[i]);
      if (!slots_[i]) continue;
      if (node_bound_) {
        cudaHostUnregister(slots_[i]);
        munmap(slots_[i], kStagedChunkBytes);
      } else {
        cudaFreeHost(slots_[i]);
      }
    }
  }

  // Copies `bytes` from pageable `src` to device `dst` on stream `s`. Returns once every chunk's DMA is
  // queued; the last chunks may still be in flight (stream-ordered before whatever the caller queues next).
  void upload(char* dst, const char* src, size_t bytes, cudaStream_t s) {
    const size_t chunks = (bytes + kStagedChunkBytes - 1) / kStagedChunkBytes;
    std::vector<std::future<void>> filled(chunks);
    auto fill = [&](size_t c) {
      char* slot = slots_[c % kStagedSlots];
      const size_t off = c * kStagedChunkBytes, len = std::min(kStagedChunkBytes, bytes - off);
      filled[c] = pool_.submit([slot, src, off, len] { std::memcpy(slot, src + off, len); });
    };
    for (size_t c = 0; c < std::min<size_t>(chunks, kStagedSlots); ++c) fill(c);
    for (size_t c = 0; c < chunks; ++c) {
      const int slot = static_cast<int>(c % kStagedSlots);
      const size_t off = c * kStagedChunkBytes, len = std::min(kStagedChunkBytes, bytes - off);
      filled[c].get();  // chunk c is in its slot (rethrows a failed copy)
      AISP_CUDA_CHECK(cudaMemcpyAsync(dst + off, slots_[slot], len, cudaMemcpyHostToDevice, s));
      AISP_CUDA_CHECK(cudaEventRecord(drained_[slot], s));
      // Recycle the slot queued one step earlier: its DMA has had a chunk's time to finish while this
      // one was queued behind it, so the wait is short and the copy engine always has work queued.
      if (c >= 1 && c - 1 + kStagedSlots < chunks) {
        AISP_CUDA_CHECK(cudaEventSynchronize(drained_[(c - 1) % kStagedSlots]));
        fill(c - 1 + kStagedSlots);
      }
    }
  }

  // Which CPUs the copy threads are on right now (for the worker log).
  std::vector<int> thread_cpus() { return pool_.current_cpus(); }

 private:
  host_pipeline::WorkerPool pool_;
  bool node_bound_;
  char* slots_[kStagedSlots] = {};
  cudaEvent_t drained_[kStagedSlots] = {};
};

inline std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s.empty() ? "-" : s;
}
