// hugepage_transfer: a 64 MiB round trip device -> host -> device through a page-locked host buffer
// that was pinned by registration (mmap, touch, cudaHostRegister: how you pin memory you allocated
// yourself). Shared by baseline_hugepage_transfer.cu (the buffer is backed by 4 KiB pages) and
// optimized_hugepage_transfer.cu (2 MiB pages: hugetlbfs if the host reserved any, else transparent
// huge pages through madvise). The copies are identical; only the page size behind the buffer differs.
// The output is the input after the round trip (bit-exact).
//
// Why page size can matter for DMA: the copy engines address host memory by physical page. Every 4 KiB
// of a transfer is a separate translation (in the IOMMU when one is active, which a VM's passthrough
// GPU always has, and in the GPU's own mapping of the pinned range): 64 MiB is 16384 translations with
// 4 KiB pages and 32 with 2 MiB pages. When the translation caches miss, DMA requests wait on page
// walks. How much that costs depends entirely on the platform: little on bare metal with the IOMMU in
// passthrough, more under a VM's two-stage translation. The worker log reports the page size actually
// obtained; technique() reports what the host offers.
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "../common/host_pipeline.hpp"
#include "aisp/aisp.hpp"

// 16 Mi floats = 64 MiB = 32 huge pages of 2 MiB, 16384 pages of 4 KiB. ~1.3 ms per direction at 50 GB/s.
inline constexpr int64_t kHugeN = int64_t{1} << 24;
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

inline aisp::Workload hugepage_transfer_workload() {
  const double bytes = static_cast<double>(kHugeN) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", kHugeN}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * bytes;  // device memory: `in` read by the D2H copy, `out` written by the H2D copy
  w.items = 2.0 * bytes;
  w.item_unit = "PCIe bytes";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class HugepageTransferBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return hugepage_transfer_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }
};

inline void hugepage_round_trip(aisp::Context& ctx, void* host) {
  const aisp::Buffer in = ctx.buffer("in"), out = ctx.buffer("out");
  AISP_CUDA_CHECK(cudaMemcpyAsync(host, in.data, in.bytes(), cudaMemcpyDeviceToHost, ctx.stream()));
  AISP_CUDA_CHECK(cudaMemcpyAsync(out.data, host, out.bytes(), cudaMemcpyHostToDevice, ctx.stream()));
}

// What the host offers, from /proc and /sys (no CUDA), for technique() and the log.
inline int64_t hugetlb_pages_free() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  int64_t value = 0;
  while (f >> key >> value) {
    if (key == "HugePages_Free:") return value;
    f.ignore(1 << 10, '\n');
  }
  return 0;
}

inline std::string thp_mode() {
  // "always [madvise] never" -> "madvise"
  const std::string s = host_pipeline::read_text("/sys/kernel/mm/transparent_hugepage/enabled");
  const auto a = s.find('['), b = s.find(']');
  return a == std::string::npos || b == std::string::npos ? "unavailable" : s.substr(a + 1, b - a - 1);
}

inline std::string huge_page_offer() {
  const int64_t free_pages = hugetlb_pages_free();
  const std::string thp = thp_mode();
  std::string s = "hugetlbfs pages free: " + std::to_string(free_pages) + ", THP mode: " + thp;
  if (free_pages * kHugePageBytes < kHugeN * sizeof(float) && thp == "never")
    s += " (no 2 MiB pages available: both variants use 4 KiB pages, expect SAME)";
  return s;
}

// Bytes of [p, p + bytes) backed by huge pages, from /proc/self/smaps (AnonHugePages for THP,
// KernelPageSize for hugetlbfs). -1 if the mapping is not found.
inline int64_t huge_backed_bytes(const void* p, size_t bytes) {
  std::ifstream f("/proc/self/smaps");
  std::string line;
  const auto target = reinterpret_cast<uintptr_t>(p);
  bool in_vma = false;
  int64_t huge_kb = 0;
  bool found = false;
  while (std::getline(f, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find('-')) {
      in_vma = lo <= target && target < hi;
      found = found || in_vma;
      continue;
    }
    if (!in_vma) continue;
    int64_t kb = 0;
    if (std::sscanf(line.c_str(), "AnonHugePages: %ld kB", &kb) == 1) huge_kb += kb;
    if (std::sscanf(line.c_str(), "KernelPageSize: %ld kB", &kb) == 1 && kb >= 2048)
      return static_cast<int64_t>(bytes);  // a hugetlbfs mapping: every page is huge
  }
  return found ? std::min<int64_t>(huge_kb * 1024, static_cast<int64_t>(bytes)) : -1;
}

// A registered (pinned) host buffer from mmap. `huge`: try hugetlbfs, then THP (2 MiB-aligned region +
// MADV_HUGEPAGE); otherwise MADV_NOHUGEPAGE so the baseline gets 4 KiB pages even where THP is "always".
class RegisteredHostBuffer {
 public:
  RegisteredHostBuffer(size_t bytes, bool huge) : bytes_(bytes) {
    if (huge) {
      map_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
      if (map_ != MAP_FAILED) {
        map_bytes_ = bytes;
        data_ = map_;
        how_ = "hugetlbfs 2 MiB pages (MAP_HUGETLB)";
      }
    }
    if (!data_) {
      // Over-allocate by one huge page so the buffer can start on a 2 MiB boundary (THP only maps
      // aligned 2 MiB extents).
      map_bytes_ = bytes + kHugePageBytes;
      map_ = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (map_ == MAP_FAILED) throw std::runtime_error("hugepage_transfer: mmap failed");
      const uintptr_t a = (reinterpret_cast<uintptr_t>(map_) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
      data_ = reinterpret_cast<void*>(a);
      const bool advised = madvise(data_, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0;
      how_ = huge ? (advised ? "transparent huge pages (madvise MADV_HUGEPAGE)" : "4 KiB pages (MADV_HUGEPAGE refused)")
                  : "4 KiB pages (MADV_NOHUGEPAGE)";
    }
    std::memset(data_, 0, bytes);  // fault every page in now (THP collapses at fault time when it can)
    huge_bytes_ = huge_backed_bytes(data_, bytes);
    AISP_CUDA_CHECK(cudaHostRegister(data_, bytes, cudaHostRegisterDefault));
  }
  RegisteredHostBuffer(const RegisteredHostBuffer&) = delete;
  RegisteredHostBuffer& operator=(const RegisteredHostBuffer&) = delete;
  ~RegisteredHostBuffer() {
    cudaHostUnregister(data_);
    munmap(map_, map_bytes_);
  }

  void* data() const { return data_; }
  void log(const char* variant) const {
    std::printf("[ch03 hugepage_transfer %s] %zu MiB host buffer: %s; %.0f%% backed by huge pages (smaps); %s\n",
                variant, bytes_ >> 20, how_.c_str(),
                huge_bytes_ < 0 ? -1.0 : 100.0 * static_cast<double>(huge_bytes_) / static_cast<double>(bytes_),
                huge_page_offer().c_str());
    std::fflush(stdout);
  }

 private:
  size_t bytes_, map_bytes_ = 0;
  void* map_ = nullptr;
  void* data_ = nullptr;
  int64_t huge_bytes_ = -1;
  std::string how_;
};
