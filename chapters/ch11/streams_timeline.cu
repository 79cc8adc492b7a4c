// streams_timeline: the timeline evidence for ch11 streams. A standalone program (not a benchmark plugin)
// that runs the pair's two schedules with the pair's own kernel (streams_compute from streams.cuh), the
// same sizes, pinned buffers, chunking (16 chunks over 4 streams) and copy calls, and records every kernel
// and memcpy with CUPTI's activity API. It prints, per schedule, each operation's span on the GPU clock
// (us from the schedule's first operation) and how long two or three engines were busy at once.
//
// Build (from the repository root; CUPTI ships with the toolkit):
//   nvcc -O2 -std=c++20 -arch=sm_90a -Iinclude chapters/ch11/streams_timeline.cu -lcupti -o build/ch11_streams_timeline
#include <cupti_activity.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "streams.cuh"

namespace {

struct Span {
  std::string what;
  uint32_t stream;
  uint64_t start, end;
};
std::vector<Span> g_spans;

void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI on_buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* rec = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(rec);
      g_spans.push_back({"kernel", k->streamId, k->start, k->end});
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(rec);
      const char* dir = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? "H2D" : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? "D2H" : "copy";
      g_spans.push_back({dir, m->streamId, m->start, m->end});
    }
  }
  std::free(buffer);
}

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

struct Buffers {
  float *host_in, *host_out, *x, *y, *coef;
};

void stage(const Buffers& b, cudaStream_t s, int64_t begin, int64_t count) {
  const size_t bytes = count * sizeof(float);
  CHECK(cudaMemcpyAsync(b.x + begin, b.host_in + begin, bytes, cudaMemcpyHostToDevice, s));
  const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((count + 255) / 256, 8192));
  streams_compute<<<blocks, 256, 0, s>>>(b.x + begin, b.y + begin, count, b.coef, static_cast<int>(kStreamsIters));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(b.host_out + begin, b.y + begin, bytes, cudaMemcpyDeviceToHost, s));
}

void serialized(const Buffers& b, cudaStream_t s) { stage(b, s, 0, kStreamsN); }

void overlapped(const Buffers& b, cudaStream_t* streams) {
  const int64_t chunks = 16, chunk = kStreamsN / chunks;
  for (int64_t c = 0; c < chunks; ++c) stage(b, streams[c % 4], c * chunk, chunk);
}

// Prints the spans recorded in [from, to) and the time 2+ / 3 operations overlapped.
void report(const char* name, size_t from, size_t to) {
  std::vector<Span> v(g_spans.begin() + from, g_spans.begin() + to);
  std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  if (v.empty()) return;
  const uint64_t t0 = v.front().start;
  uint64_t t1 = 0;
  std::printf("\n## %s\n\n| op | stream | start us | end us |\n|---|---|---|---|\n", name);
  for (auto& s : v) {
    std::printf("| %s | %u | %.1f | %.1f |\n", s.what.c_str(), s.stream, (s.start - t0) / 1e3, (s.end - t0) / 1e3);
    t1 = std::max(t1, s.end);
  }
  // Sweep: how long were >= 2 and >= 3 operations in flight at once?
  std::vector<std::pair<uint64_t, int>> edges;
  for (auto& s : v) edges.push_back({s.start, +1}), edges.push_back({s.end, -1});
  std::sort(edges.begin(), edges.end());
  uint64_t two = 0, three = 0, prev = t0;
  int depth = 0;
  for (auto& [t, d] : edges) {
    if (depth >= 2) two += t - prev;
    if (depth >= 3) three += t - prev;
    depth += d;
    prev = t;
  }
  std::printf("\n%s: span %.1f us, >= 2 operations in flight %.1f us, 3 in flight %.1f us\n", name, (t1 - t0) / 1e3,
              two / 1e3, three / 1e3);
}

}  // namespace

int main() {
  Buffers b{};
  CHECK(cudaHostAlloc(reinterpret_cast<void**>(&b.host_in), kStreamsN * sizeof(float), cudaHostAllocDefault));
  CHECK(cudaHostAlloc(reinterpret_cast<void**>(&b.host_out), kStreamsN * sizeof(float), cudaHostAllocDefault));
  for (int64_t i = 0; i < kStreamsN; ++i) b.host_in[i] = static_cast<float>(i % 1000) / 1000.f;
  CHECK(cudaMalloc(&b.x, kStreamsN * sizeof(float)));
  CHECK(cudaMalloc(&b.y, kStreamsN * sizeof(float)));
  CHECK(cudaMalloc(&b.coef, 2 * sizeof(float)));
  const float coef[2] = {0.9992f, 0.9993f};
  CHECK(cudaMemcpy(b.coef, coef, sizeof coef, cudaMemcpyHostToDevice));
  cudaStream_t main_stream, streams[4];
  CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Warm both schedules (module load, first-touch of the pinned pages by the copy engines).
  serialized(b, main_stream);
  overlapped(b, streams);
  CHECK(cudaDeviceSynchronize());

  if (cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "CUPTI activity tracing unavailable\n");
    return 2;
  }
  // One more pass of each with tracing on, discarded: the first kernel after enabling CUPTI activity pays a
  // one-time setup of several ms (seen as a gap between the first copy and the first kernel).
  serialized(b, main_stream);
  overlapped(b, streams);
  CHECK(cudaDeviceSynchronize());
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  g_spans.clear();
  serialized(b, main_stream);
  CHECK(cudaDeviceSynchronize());
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  const size_t after_serialized = g_spans.size();
  overlapped(b, streams);
  CHECK(cudaDeviceSynchronize());
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::printf("# ch11 streams timeline (CUPTI activity records, GPU clock)\n");
  report("baseline: serialized on one stream", 0, after_serialized);
  report("optimized: 16 chunks over 4 streams", after_serialized, g_spans.size());
  return 0;
}
