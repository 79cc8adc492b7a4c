// staging_ring: a ring of pinned host slots fed by host threads, drained by DMA on a CUDA stream, and
// the NUMA facts needed to place it. Used by ch03's staged_h2d pairs (slots filled by memcpy from a
// pageable source) and by ch05 storage_cpu (slots filled by pread from a file).
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
#include <functional>
#include <stdexcept>
#include <future>
#include <string>
#include <vector>

#include "host_pipeline.hpp"

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

// A ring of pinned slots fed by host threads. upload() moves `bytes` to device memory chunk by chunk:
// pool threads fill free slots (a memcpy from a pageable source, a pread from a file: the caller's
// `fill`), and the calling thread queues each filled slot's DMA on the stream as soon as its chunk is
// ready, recording an event to know when the slot may be refilled. The calling thread never moves data
// itself; it only orders the hand-offs, and it is the only thread that calls CUDA.
class StagedUploader {
 public:
  struct Geometry {
    int threads = 4;                       // host fill threads
    int slots = 6;                         // threads + 2: a slot is free to fill while two drain
    size_t chunk_bytes = size_t{2} << 20;  // 2 MiB: ~40 us of DMA, long enough to hide hand-off latency
  };
  struct Placement {
    std::vector<int> cpus;  // empty: threads float (NUMA-unaware)
    int numa_node = -1;     // >= 0: slots bound to this node (mbind), else wherever cudaHostAlloc puts them
  };
  // fill(slot, offset, length): put bytes [offset, offset + length) of the source into `slot`. Runs on a
  // pool thread; must not call CUDA. An exception propagates to upload()'s caller.
  using Fill = std::function<void(char* slot, size_t offset, size_t length)>;

  StagedUploader(const Geometry& geometry, const Placement& placement)
      : geo_(geometry),
        pool_(geometry.threads, placement.cpus),
        node_bound_(placement.numa_node >= 0),
        slots_(geometry.slots, nullptr),
        drained_(geometry.slots, nullptr) {
    for (int i = 0; i < geo_.slots; ++i) {
      if (node_bound_) {
        void* p = mmap(nullptr, geo_.chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error("staging_ring: mmap of a staging slot failed");
        if (!bind_to_node(p, geo_.chunk_bytes, placement.numa_node)) {
          munmap(p, geo_.chunk_bytes);
          throw std::runtime_error("staging_ring: mbind of a staging slot to the GPU's node failed");
        }
        // Fault the pages in from a thread on the node's CPUs as well (first touch agrees with mbind).
        const size_t len = geo_.chunk_bytes;
        pool_.submit([p, len] { std::memset(p, 0, len); }).get();
        AISP_CUDA_CHECK(cudaHostRegister(p, geo_.chunk_bytes, cudaHostRegisterDefault));
        slots_[i] = static_cast<char*>(p);
      } else {
        void* p = nullptr;  // page-aligned, as O_DIRECT reads into it require
        AISP_CUDA_CHECK(cudaHostAlloc(&p, geo_.chunk_bytes, cudaHostAllocDefault));
        slots_[i] = static_cast<char*>(p);
      }
      AISP_CUDA_CHECK(cudaEventCreateWithFlags(&drained_[i], cudaEventDisableTiming));
    }
  }
  StagedUploader(const StagedUploader&) = delete;
  StagedUploader& operator=(const StagedUploader&) = delete;
  ~StagedUploader() {
    for (int i = 0; i < geo_.slots; ++i) {
      if (drained_[i]) {
        cudaEventSynchronize(drained_[i]);
        cudaEventDestroy(drained_[i]);
      }
      if (!slots_[i]) continue;
      if (node_bound_) {
        cudaHostUnregister(slots_[i]);
        munmap(slots_[i], geo_.chunk_bytes);
      } else {
        cudaFreeHost(slots_[i]);
      }
    }
  }

  // Moves `bytes` to device `dst` on stream `s`. Returns once every chunk's DMA is queued; the last
  // chunks may still be in flight (stream-ordered before whatever the caller queues next).
  void upload(char* dst, size_t bytes, cudaStream_t s, const Fill& fill) {
    const size_t chunk = geo_.chunk_bytes, nslots = static_cast<size_t>(geo_.slots);
    const size_t chunks = (bytes + chunk - 1) / chunk;
    std::vector<std::future<void>> filled(chunks);
    auto start_fill = [&](size_t c) {
      char* slot = slots_[c % nslots];
      const size_t off = c * chunk, len = std::min(chunk, bytes - off);
      filled[c] = pool_.submit([&fill, slot, off, len] { fill(slot, off, len); });
    };
    try {
      // A slot's DMA from the previous upload() may still be in flight (upload returns once the copies are
      // queued): wait for it before refilling. Already complete when a caller synchronized in between.
      for (size_t c = 0; c < std::min(chunks, nslots); ++c) {
        AISP_CUDA_CHECK(cudaEventSynchronize(drained_[c]));
        start_fill(c);
      }
      for (size_t c = 0; c < chunks; ++c) {
        const size_t slot = c % nslots, off = c * chunk, len = std::min(chunk, bytes - off);
        filled[c].get();  // chunk c is in its slot (rethrows a failed fill)
        AISP_CUDA_CHECK(cudaMemcpyAsync(dst + off, slots_[slot], len, cudaMemcpyHostToDevice, s));
        AISP_CUDA_CHECK(cudaEventRecord(drained_[slot], s));
        // Recycle the slot queued one step earlier: its DMA has had a chunk's time to finish while this
        // one was queued behind it, so the wait is short and the copy engine always has work queued.
        if (c >= 1 && c - 1 + nslots < chunks) {
          AISP_CUDA_CHECK(cudaEventSynchronize(drained_[(c - 1) % nslots]));
          start_fill(c - 1 + nslots);
        }
      }
    } catch (...) {
      // Queued fills still reference `fill` and the slots: let them finish before unwinding.
      for (auto& f : filled)
        if (f.valid()) f.wait();
      throw;
    }
  }

  // The common case: the source is a pageable host array.
  void upload_from(char* dst, const char* src, size_t bytes, cudaStream_t s) {
    upload(dst, bytes, s, [src](char* slot, size_t off, size_t len) { std::memcpy(slot, src + off, len); });
  }

  const Geometry& geometry() const { return geo_; }
  // Which CPUs the fill threads are on right now (for the worker log).
  std::vector<int> thread_cpus() { return pool_.current_cpus(); }

 private:
  Geometry geo_;
  host_pipeline::WorkerPool pool_;
  bool node_bound_;
  std::vector<char*> slots_;
  std::vector<cudaEvent_t> drained_;
};

inline std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s.empty() ? "-" : s;
}
