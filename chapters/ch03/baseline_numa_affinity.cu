// ch03 numa_affinity, baseline: the staging pipeline with no idea where the GPU is.
//
// Technique: StagedUploader as in pageable_copy's optimized variant: 4 copy threads that float wherever
// the scheduler puts them, 6 pinned 2 MiB slots from cudaHostAlloc placed by the OS (on the node of the
// CPU that faulted them, i.e. wherever setup() happened to run).
// Why it can be slow: on a 2-socket host, half the time the slots land on the socket the GPU is not
// attached to; then each DMA crosses the inter-socket link and the copy threads may also write across
// it. The link's bandwidth (often 20-60 GB/s per direction, shared with everything else) and its extra
// latency cut into PCIe's ~50 GB/s.
// Expected on Hopper: as pageable_copy's optimized variant (~0.8-1.1 ms for 32 MiB) when placement
// happens to be right; 10-40% slower when it is wrong. On a single-node host: identical to the optimized
// variant (SAME).
#include "numa_affinity.cuh"

namespace {

class BaselineNumaAffinity : public StagedH2dBase {
 public:
  void setup(aisp::Context& ctx) override {
    StagedH2dBase::setup(ctx);
    src_ = make_pageable_source(ctx.param("n"));
    uploaded_ = static_cast<float*>(ctx.scratch("uploaded", ctx.param("n") * sizeof(float)));
    uploader_ = std::make_unique<StagedUploader>(StagedUploader::Geometry{}, StagedUploader::Placement{});
    log_numa_setup("baseline", gpu_locality(ctx.device().ordinal), *uploader_, false);
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, "numa_affinity (unaware)");
    uploader_->upload_from(reinterpret_cast<char*>(uploaded_), reinterpret_cast<const char*>(src_.get()),
                      ctx.param("n") * sizeof(float), s);
    launch_staged_add(ctx, uploaded_);
  }

  void teardown(aisp::Context&) override {
    uploader_.reset();
    src_.reset();
  }
  std::string technique() const override {
    return "staging pipeline, NUMA-unaware: floating threads, OS-placed pinned slots (" + numa_situation() + ")";
  }

 private:
  std::unique_ptr<float[]> src_;
  float* uploaded_ = nullptr;
  std::unique_ptr<StagedUploader> uploader_;
};

}  // namespace

AISP_BENCHMARK(BaselineNumaAffinity)
