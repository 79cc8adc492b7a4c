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

class BaselineNumaAffinity : public StagedPipelineBase {
 public:
  void run(aisp::Context& ctx) override { upload_and_add(ctx, "numa_affinity (unaware)"); }

  std::string technique() const override {
    return "staging pipeline, NUMA-unaware: floating threads, OS-placed pinned slots (" + numa_situation() + ")";
  }

 protected:
  // Default placement: threads float, slots from cudaHostAlloc.
  std::unique_ptr<StagedUploader> make_uploader(aisp::Context& ctx) override {
    auto uploader = std::make_unique<StagedUploader>(StagedUploader::Geometry{}, StagedUploader::Placement{});
    log_numa_setup("baseline", gpu_locality(ctx.device().ordinal), *uploader, false);
    return uploader;
  }
};

}  // namespace

AISP_BENCHMARK(BaselineNumaAffinity)
