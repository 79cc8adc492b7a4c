// storage_cpu / storage_odirect: loading a tensor file into GPU memory, then
//   out = file_data + in
// on the device, so the output checks every byte that was loaded and follows the harness's fresh
// inputs. Two pairs share this file:
//   storage_cpu     the CACHED path. baseline_storage_cpu.cu: read() the whole 16 MiB file into a
//                   pageable buffer, then a blocking copy; optimized_storage_cpu.cu: 4 threads pread()
//                   1 MiB chunks into a ring of pinned slots while the copy engine drains the filled
//                   ones (ch03's StagedUploader with a file as the source).
//   storage_odirect the UNCACHED path (O_DIRECT, no page cache): baseline_storage_odirect.cu reads the
//                   whole 8 MiB file with one O_DIRECT pread into an aligned pageable buffer, then a
//                   blocking copy; optimized_storage_odirect.cu is the storage_cpu pipeline with O_DIRECT.
//
// The file: created in setup() under $TMPDIR (else /tmp) with fixed contents, fsync'ed, opened, and
// unlinked at once, so it disappears when the worker exits however it exits. We may not drop the page
// cache, and a file just written is cached: storage_cpu therefore measures the cached path (page cache
// -> user buffer -> GPU), which is what repeated epochs over a dataset that fits in RAM see. O_DIRECT
// bypasses the page cache by definition, so both storage_odirect variants read from the storage device
// on every run: an uncached-vs-uncached comparison. Comparing an O_DIRECT pipeline against a cached
// baseline would measure the disk against DRAM, not the technique. Where the file system refuses
// O_DIRECT (tmpfs on older kernels), storage_odirect falls back to buffered reads in both variants and
// says so in the worker log.
#pragma once
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/data_file.hpp"
#include "../common/staging_ring.hpp"
#include "aisp/aisp.hpp"

// storage_cpu: 4 Mi floats = 16 MiB (~3-4 ms for the synchronous cached baseline on the H100 VM).
// storage_odirect: 2 Mi floats = 8 MiB (uncached reads from the VM's virtual disk run at ~2-3 GB/s).
inline constexpr int64_t kStorageN = int64_t{1} << 22;
inline constexpr int64_t kStorageDirectN = int64_t{1} << 21;
inline constexpr size_t kStorageChunkBytes = size_t{1} << 20;  // pipeline chunk (a multiple of any O_DIRECT block size)

inline aisp::Workload storage_workload(int64_t n) {
  const double bytes = static_cast<double>(n) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", n}};
  w.precision = aisp::DType::f32;
  w.bytes = 4.0 * bytes;  // device memory: loaded data written and read once, `in` read, `out` written
  w.flops = static_cast<double>(n);
  w.items = bytes;  // bytes loaded from the file
  w.item_unit = "file bytes";
  return w;
}

// The base of both pairs (storage_cpu, storage_odirect), whatever the loader: the workload for n floats and the
// buffers. StoragePipeline and StorageSynchronous below add the loaders; a variant file picks n, the read path
// and its technique line.
class StorageBase : public aisp::Benchmark {
 public:
  explicit StorageBase(int64_t n) : n_(n) {}
  aisp::Workload workload() const override { return storage_workload(n_); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
  }

 private:
  int64_t n_;
};

__global__ void file_plus_input_kernel(const float4* __restrict__ loaded, const float4* __restrict__ in,
                                       float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 a = loaded[i], b = in[i];
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

inline void launch_file_plus_input(aisp::Context& ctx, const float* loaded) {
  const int64_t n = ctx.param("n");
  if (n % 4 != 0) throw std::runtime_error("storage_cpu: n must be a multiple of 4");
  const aisp::DeviceInfo& dev = ctx.device();
  const unsigned grid = static_cast<unsigned>((dev.sm_count > 0 ? dev.sm_count : 132) * 8);
  file_plus_input_kernel<<<grid, 256, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(loaded),
                                                         ctx.buffer("in").as<const float4>(),
                                                         ctx.buffer("out").as<float4>(), n / 4);
  AISP_LAUNCH_CHECK();
}

// The pipelined variants: file -> (4 threads, pread; 8 for O_DIRECT) -> 6 (10) pinned 1 MiB slots -> DMA -> device.
class StoragePipeline : public StorageBase {
 public:
  StoragePipeline(int64_t n, bool direct) : StorageBase(n), direct_(direct) {}

  void setup(aisp::Context& ctx) override {
    StorageBase::setup(ctx);
    file_ = std::make_unique<TempDataFile>(ctx.param("n"), direct_);
    fd_ = direct_ && file_->direct_fd() >= 0 ? file_->direct_fd() : file_->buffered_fd();
    loaded_ = static_cast<float*>(ctx.scratch("loaded", file_->bytes()));
    StagedUploader::Geometry geo;
    geo.chunk_bytes = kStorageChunkBytes;
    if (direct_) {
      // Direct reads leave the CPU idle while the device works, so more threads cost nothing and keep 8
      // requests in flight, about what the baseline's single large direct read gets from the block layer.
      geo.threads = 8;
      geo.slots = 10;
    }
    uploader_ = std::make_unique<StagedUploader>(geo, StagedUploader::Placement{});
    std::printf("[ch05 %s optimized] file under %s, %zu MiB, reads %s\n", direct_ ? "storage_odirect" : "storage_cpu",
                storage_dir().c_str(), file_->bytes() >> 20,
                fd_ == file_->direct_fd() ? "with O_DIRECT (uncached: from the storage device)"
                : direct_ ? ("buffered: O_DIRECT refused (" + file_->direct_error() + ")").c_str()
                          : "buffered (page cache: the file was just written, so it is cached)");
    std::fflush(stdout);
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "storage (pipelined)");
    const int fd = fd_;
    uploader_->upload(reinterpret_cast<char*>(loaded_), file_->bytes(), s,
                      [fd](char* slot, size_t off, size_t len) { read_fully(fd, slot, len, off); });
    launch_file_plus_input(ctx, loaded_);
  }

  void teardown(aisp::Context&) override {
    uploader_.reset();
    file_.reset();
  }

 private:
  bool direct_;
  std::unique_ptr<TempDataFile> file_;
  int fd_ = -1;
  float* loaded_ = nullptr;
  std::unique_ptr<StagedUploader> uploader_;
};

// The synchronous loaders (both baselines): one thread reads the whole file into a pageable buffer, then
// copies it with cudaMemcpy semantics (cudaMemcpyAsync + stream synchronize), then the add kernel.
// `direct`: one O_DIRECT pread of the whole file (the buffer is 4 KiB-aligned, as O_DIRECT requires).
class StorageSynchronous : public StorageBase {
 public:
  StorageSynchronous(int64_t n, bool direct) : StorageBase(n), direct_(direct) {}

  void setup(aisp::Context& ctx) override {
    StorageBase::setup(ctx);
    file_ = std::make_unique<TempDataFile>(ctx.param("n"), direct_);
    fd_ = direct_ && file_->direct_fd() >= 0 ? file_->direct_fd() : file_->buffered_fd();
    host_ = static_cast<char*>(std::aligned_alloc(4096, file_->bytes()));  // pageable, page-aligned
    if (!host_) throw std::runtime_error("storage: host buffer allocation failed");
    std::memset(host_, 0, file_->bytes());  // fault the pages in now, not in the first sample
    loaded_ = static_cast<float*>(ctx.scratch("loaded", file_->bytes()));
    if (direct_) {
      std::printf("[ch05 storage_odirect baseline] file under %s, %zu MiB, reads %s\n", storage_dir().c_str(),
                  file_->bytes() >> 20,
                  fd_ == file_->direct_fd() ? "with O_DIRECT (uncached)"
                                            : ("buffered: O_DIRECT refused (" + file_->direct_error() + ")").c_str());
      std::fflush(stdout);
    }
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "storage (synchronous)");
    read_fully(fd_, host_, file_->bytes(), 0);
    AISP_CUDA_CHECK(cudaMemcpyAsync(loaded_, host_, file_->bytes(), cudaMemcpyHostToDevice, s));
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));  // cudaMemcpy semantics: the data is on the GPU when it returns
    launch_file_plus_input(ctx, loaded_);
  }

  void teardown(aisp::Context&) override {
    file_.reset();
    std::free(host_);
    host_ = nullptr;
  }

 private:
  bool direct_;
  std::unique_ptr<TempDataFile> file_;
  int fd_ = -1;
  char* host_ = nullptr;
  float* loaded_ = nullptr;
};
