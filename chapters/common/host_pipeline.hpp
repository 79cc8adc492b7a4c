// Host-side building blocks for pairs whose timed work includes CPU work (transfers through host memory,
// staging copies, batch preparation, file reads). ch02's transfer pairs introduce it; ch01 pipeline_goodput,
// ch03's staging pairs and ch05's storage pairs build on it, so it lives in chapters/common/, not a chapter.
//
// How host work gets timed here. The harness times run() with CUDA events on its stream, and in its
// default cold mode it holds that stream with a blocking kernel while run() enqueues, so host enqueue
// latency stays out of GPU timings. Host work done in run() before the stream is released would
// therefore fall *outside* the window and look free. Every run() in these pairs starts with
// open_host_window(): a stream synchronize that waits for the held stream. The harness notices that
// run() waited on its held stream, drops the blocking kernel for this variant and retakes the sample
// (once, ~1 s), so from then on the start event executes as soon as it is recorded and every host cycle
// run() spends is inside the event window, exactly like the GPU work (docs/VALIDITY.md row 29).
//
// Rules kept by the helpers: host threads are created in setup() and joined in teardown(); they only
// touch host memory and file descriptors, never CUDA (all CUDA calls come from the thread calling
// run(), on the harness stream or on events/streams made in setup()).
#pragma once
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "aisp/check.hpp"

namespace host_pipeline {

// run() of these pairs does host work between CUDA calls, which a CUDA graph cannot record. Throwing
// before any work makes the harness's capture attempt end cleanly ("not capturable") instead of
// half-running the pipeline inside a capture.
inline void require_eager(cudaStream_t s, const char* pair) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  AISP_CUDA_CHECK(cudaStreamIsCapturing(s, &status));
  if (status != cudaStreamCaptureStatusNone)
    throw std::runtime_error(std::string(pair) + ": run() does host work (copies, reads) between CUDA calls; "
                             "it cannot be captured into a CUDA graph");
}

// See the file comment: after this returns, the timed window is open and host work counts.
inline void open_host_window(cudaStream_t s, const char* pair) {
  require_eager(s, pair);
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// "0-3,8,10-11" -> {0,1,2,3,8,10,11} (the kernel's cpulist format).
inline std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> cpus;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    const auto dash = part.find('-');
    const int lo = std::stoi(part.substr(0, dash));
    const int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
  }
  return cpus;
}

// Pins the calling thread to a set of CPUs (the scheduler still picks among them). Returns false when
// the set is empty or not allowed (e.g. outside this process's cpuset).
inline bool pin_current_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

// A fixed set of host threads fed through a queue. submit() returns a future that run() waits on, so a
// task's exception (a failed read, say) surfaces on the thread that called run().
class WorkerPool {
 public:
  // `cpus` empty: threads float wherever the OS puts them. Otherwise each thread pins itself to the set.
  explicit WorkerPool(int threads, std::vector<int> cpus = {}) {
    for (int i = 0; i < threads; ++i)
      threads_.emplace_back([this, cpus] {
        if (!cpus.empty()) pin_current_thread(cpus);
        loop();
      });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  std::future<void> submit(std::function<void()> fn) {
    std::packaged_task<void()> task(std::move(fn));
    std::future<void> done = task.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(task));
    }
    cv_.notify_one();
    return done;
  }

  // Which CPU each thread last ran on (for the worker log): asks every thread once and waits.
  std::vector<int> current_cpus() {
    std::vector<int> cpus(threads_.size(), -1);
    std::vector<std::future<void>> done;
    // One task per thread is not guaranteed to land on distinct threads; good enough for a log line.
    for (size_t i = 0; i < threads_.size(); ++i) done.push_back(submit([&cpus, i] { cpus[i] = sched_getcpu(); }));
    for (auto& f : done) f.get();
    return cpus;
  }

  size_t size() const { return threads_.size(); }

 private:
  void loop() {
    for (;;) {
      std::packaged_task<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stop_ and nothing left
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      task();
    }
  }

  std::vector<std::thread> threads_;
  std::deque<std::packaged_task<void()>> queue_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

// A fixed, cheap pattern for host-resident "data" made in setup() (dataset contents, file contents):
// not random (nothing here may depend on the harness's seeds), not constant (a lost or misplaced chunk
// shows up in the output comparison). Values are exact floats in [-1, 1).
inline float pattern_value(int64_t i) {
  uint32_t h = static_cast<uint32_t>(i) * 2654435761u;
  h ^= h >> 15;
  return static_cast<float>(static_cast<int32_t>(h & 0xffffu) - 32768) / 32768.0f;
}

// The same idea for GEMM operands: integers in [-4, 4] stored as floats, so products and partial sums of
// up to 2^19 terms stay exact in fp32 and any summation order gives the same bits (see ch02/cublas.cuh).
inline float pattern_small_int(int64_t i) {
  uint32_t h = static_cast<uint32_t>(i) * 2654435761u;
  h ^= h >> 15;
  return static_cast<float>(static_cast<int32_t>(h % 9u) - 4);
}

}  // namespace host_pipeline
