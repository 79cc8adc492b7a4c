// labs/async_input_pipeline: feeding a training loop from storage, file -> host memory -> GPU, step by step.
//
// The workload: one slice of an epoch, `batches` batches of `rows` samples with 256 uint8 features each (an
// 8-bit dataset on disk: pixels, token ids' low bytes; 16 MiB by default). For every batch the GPU
// normalizes the features, x = (u - 128) / 128, and runs a model step, here the first layer as a
// matrix-vector product with the weight `w` (a dynamic input the harness refills):
//     out[b][r] = sum_j x[b][r][j] * w[j]
// The model step is deliberately small. This lab is about the loader, the part that leaves a GPU idle in
// many real training jobs: with a model step this cheap, the time per slice *is* the loader's time.
//
// The dataset file comes from chapters/common/data_file.hpp (ch05's storage pairs use it too): written
// once in setup(), unlinked at once, read through the page cache (a dataset that fits in RAM, the state
// of every epoch after the first). Its bytes are fixed, not seeded; the outputs still follow the harness's
// inputs through `w`.
//
// The steps (one file each; the lab's README tells the story with the measured numbers):
//   baseline_async_input_pipeline.cu                  read -> normalize on the CPU -> pageable copy of floats
//   optimized_async_input_pipeline_gpu_decode.cu      read -> pageable copy of the uint8 bytes -> normalize on the GPU
//   optimized_async_input_pipeline_pinned.cu          + two pinned buffers: the read of batch b+1 overlaps b's DMA
//   optimized_async_input_pipeline.cu                 + 4 reader threads filling a ring of pinned chunks
//
// Verification: every variant runs the same row_dot kernel (one warp per row, the same summation order)
// on the same exactly-representable x (u - 128 and the scale 2^-7 are exact in fp32, on the CPU as on the
// GPU), so the outputs agree bit for bit with the default tolerance.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "../../chapters/common/data_file.hpp"
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

inline constexpr int64_t kPipelineFeatures = 256;  // one warp per row, 8 features per lane
inline constexpr int64_t kPipelineRows = 8192;     // 2 MiB of uint8 per batch
inline constexpr int64_t kPipelineBatches = 8;     // 16 MiB per slice
inline int64_t pipeline_rows() { return aisp::axis("rows", kPipelineRows); }
inline int64_t pipeline_batches() { return aisp::axis("batches", kPipelineBatches); }

// The normalization, on the host and the device alike: exact in fp32 for every byte value.
__host__ __device__ inline float normalize_feature(uint8_t u) { return (static_cast<float>(u) - 128.0f) * 0.0078125f; }
__device__ inline float feature_value(uint8_t u) { return normalize_feature(u); }
__device__ inline float feature_value(float x) { return x; }

// out[r] = sum_j feature(x[r][j]) * w[j], one warp per row; lane l owns features 8l..8l+7, then a fixed
// butterfly reduction. T = uint8_t (normalized here) or float (normalized by the host beforehand).
template <typename T>
__global__ void row_dot_kernel(const T* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                               int64_t rows) {
  const int lane = threadIdx.x & 31;
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) >> 5;
  if (row >= rows) return;
  const T* xr = x + row * kPipelineFeatures + lane * 8;
  const float* wl = w + lane * 8;
  float acc = 0.0f;
#pragma unroll
  for (int i = 0; i < 8; ++i) acc = fmaf(feature_value(xr[i]), wl[i], acc);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if (lane == 0) out[row] = acc;
}

// The pair's contract: workload, buffers, the dataset file, and the model step every variant launches.
class AsyncInputPipelineBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload wl;
    wl.params = {{"batches", pipeline_batches()}, {"rows", pipeline_rows()}, {"features", kPipelineFeatures}};
    wl.precision = aisp::DType::f32;
    const double samples = double(pipeline_batches()) * pipeline_rows();
    const double file_bytes = samples * kPipelineFeatures;
    // Device memory at minimum: the uint8 bytes written by the DMA and read by the step, w, out.
    wl.bytes = 2.0 * file_bytes + kPipelineFeatures * 4.0 + samples * 4.0;
    wl.flops = 2.0 * file_bytes;
    wl.items = samples;
    wl.item_unit = "samples";
    return wl;
  }

  void setup(aisp::Context& ctx) override {
    if (ctx.param("features") != kPipelineFeatures)
      throw std::invalid_argument("async_input_pipeline: features must be 256 (one warp per row)");
    batches_ = ctx.param("batches");
    rows_ = ctx.param("rows");
    ctx.input("w", aisp::DType::f32, {kPipelineFeatures});
    ctx.output("out", aisp::DType::f32, {batches_, rows_});
    if (batch_bytes() % 4 != 0) throw std::invalid_argument("async_input_pipeline: rows * 256 must be a multiple of 4");
    file_ = std::make_unique<TempDataFile>(batches_ * static_cast<int64_t>(batch_bytes()) / 4, false);
    loaded_ = static_cast<uint8_t*>(ctx.scratch("loaded_u8", file_->bytes()));
    prepare(ctx);
  }

  void teardown(aisp::Context& ctx) override {
    release(ctx);
    file_.reset();
  }

 protected:
  // A variant's own buffers (pinned slots, threads, device floats), made after the file exists.
  virtual void prepare(aisp::Context&) {}
  virtual void release(aisp::Context&) {}

  size_t batch_bytes() const { return static_cast<size_t>(rows_ * kPipelineFeatures); }
  size_t batch_offset(int64_t b) const { return static_cast<size_t>(b) * batch_bytes(); }
  int fd() const { return file_->buffered_fd(); }

  // The model step for batch b, on the harness stream, from features already on the device.
  template <typename T>
  void launch_step(aisp::Context& ctx, int64_t b, const T* features) const {
    const int threads = 256;
    const unsigned blocks = static_cast<unsigned>((rows_ * 32 + threads - 1) / threads);
    row_dot_kernel<T><<<blocks, threads, 0, ctx.stream()>>>(features, ctx.buffer("w").as<const float>(),
                                                            ctx.buffer("out").as<float>() + b * rows_, rows_);
    AISP_LAUNCH_CHECK();
  }

  int64_t batches_ = 0, rows_ = 0;
  std::unique_ptr<TempDataFile> file_;
  uint8_t* loaded_ = nullptr;  // the whole slice's bytes on the device
};
