// BlockCache: the smallest useful caching device allocator, the idea behind PyTorch's CUDA caching
// allocator. A freed block is not returned to the driver but kept on a free list keyed by its rounded
// size; the next request of that size takes it back without any CUDA call.
//
// Why that is safe without events: every user of a block here enqueues on one stream, so a kernel that
// reuses a block is ordered after every kernel that used it before (stream order is the lifetime).
// A multi-stream allocator must record an event per block and wait on it; PyTorch does exactly that
// (record_stream), which is why cross-stream reuse there needs care.
// Why it is fast: cudaMalloc costs tens of microseconds (the driver maps pages) and cudaFree
// synchronizes the whole device before unmapping; a cache hit is a few hundred nanoseconds of host code.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <vector>

#include "aisp/check.hpp"

class BlockCache {
 public:
  BlockCache() = default;
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;
  ~BlockCache() {
    for (auto& [bytes, blocks] : free_)
      for (void* p : blocks) cudaFree(p);
    for (auto& [p, bytes] : live_) cudaFree(p);
  }

  void* allocate(size_t bytes) {
    bytes = round_up(bytes);
    void* p = nullptr;
    if (auto it = free_.find(bytes); it != free_.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
      ++hits_;
    } else {
      AISP_CUDA_CHECK(cudaMalloc(&p, bytes));
      ++misses_;
    }
    live_[p] = bytes;
    return p;
  }

  void release(void* p) {
    auto it = live_.find(p);
    if (it == live_.end()) return;
    free_[it->second].push_back(p);
    live_.erase(it);
  }

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  // 2 MiB granularity: the driver's large-page size, so a cached block never wastes more than one page
  // and nearby request sizes share a bucket.
  static size_t round_up(size_t bytes) {
    constexpr size_t kGranule = size_t{2} << 20;
    return (bytes + kGranule - 1) / kGranule * kGranule;
  }

  std::map<size_t, std::vector<void*>> free_;
  std::map<void*, size_t> live_;
  size_t hits_ = 0, misses_ = 0;
};
