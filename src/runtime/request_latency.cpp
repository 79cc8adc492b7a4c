#include "runtime/request_latency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "aisp/check.hpp"
#include "core/stats.hpp"
#include "runtime/request_clock.hpp"

namespace aisp {

RequestLatency::RequestLatency(std::vector<TraceRequest> trace, double percentile)
    : trace_(std::move(trace)), percentile_(percentile) {
  if (trace_.empty()) throw std::invalid_argument("a request trace needs at least one request");
  AISP_CUDA_CHECK(cudaMalloc(&slots_, (trace_.size() + 2) * sizeof(unsigned long long)));
  // One stamp now, in setup: with lazy module loading the stamp kernel's module would otherwise load at its
  // first launch, inside the first timed sample while the blocking kernel holds the GPU (measured on an
  // H100: the load waited for it, the blocking kernel timed out after 1 s and sample 0 was retaken).
  stamp_globaltimer_async(slots_, nullptr);
  AISP_CUDA_CHECK(cudaDeviceSynchronize());
  AISP_CUDA_CHECK(cudaMemset(slots_, 0, (trace_.size() + 2) * sizeof(unsigned long long)));
}

RequestLatency::~RequestLatency() { cudaFree(slots_); }

void RequestLatency::complete(int32_t index, cudaStream_t stream) {
  if (index < 0 || static_cast<size_t>(index) >= trace_.size())
    throw std::out_of_range(fmt::format("complete_request({}): the trace has {} requests", index, trace_.size()));
  stamp_globaltimer_async(slots_ + 1 + index, stream);
}

void RequestLatency::clear_async(cudaStream_t stream) {
  AISP_CUDA_CHECK(cudaMemsetAsync(slots_, 0, (trace_.size() + 2) * sizeof(unsigned long long), stream));
}

void RequestLatency::open_window_async(cudaStream_t stream) { stamp_globaltimer_async(slots_, stream); }

void RequestLatency::close_window_async(cudaStream_t stream) {
  stamp_globaltimer_async(slots_ + 1 + trace_.size(), stream);
}

double RequestLatency::percentile_ms(cudaStream_t stream) const {
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream));  // with validity off nothing else waited for the close stamp
  std::vector<unsigned long long> h(trace_.size() + 2);
  AISP_CUDA_CHECK(cudaMemcpy(h.data(), slots_, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  const unsigned long long open = h[0], closed = h[1 + trace_.size()];
  if (open == 0 || closed == 0) throw std::runtime_error("request trace: a window stamp is missing");
  std::vector<double> ms;
  for (size_t i = 0; i < trace_.size(); ++i) {
    const unsigned long long done = h[1 + i];
    const double arrival_ns = 1000.0 * trace_[i].arrival_us;
    if (done == 0)
      throw std::runtime_error(fmt::format("request {} was never marked complete (Context::complete_request)", i));
    const double latency_ns = static_cast<double>(done) - static_cast<double>(open) - arrival_ns;
    if (done > closed)
      throw std::runtime_error(fmt::format("request {} was marked complete after the timed window closed", i));
    if (latency_ns < 0)
      throw std::runtime_error(fmt::format("request {} was marked complete {:.1f} us before it arrived", i, -latency_ns / 1e3));
    ms.push_back(latency_ns / 1e6);
  }
  return aisp::percentile(std::move(ms), percentile_);
}

}  // namespace aisp
