// ch13 fused_adamw, optimized: multi-tensor apply, one launch for all 148 tensors.
//
// Technique: the tensor list is cut into work items of at most 64 Ki elements (a small tensor is one
// item, the embedding 188), and a table of (offset, length) items is built once in setup(), where the
// parameter layout is known (it depends on shapes, never on values). One kernel launch runs one block
// per item. This is apex's multi_tensor_apply / torch's fused AdamW, with the table in device memory
// instead of in kernel arguments (so one launch covers any number of tensors).
// Why it is faster: 1 launch instead of 148; small tensors run side by side on different SMs instead of
// one after another.
// Expected on Hopper: close to the HBM time of the 951 MB it moves (~0.33-0.4 ms), ~1.5-2x.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 396.5 us, 2.31x [2.27, 2.35] (951 MB in 396 us =
// 2.4 TB/s).
#include <vector>

#include "fused_adamw.cuh"

namespace {

constexpr int64_t kChunk = int64_t{1} << 16;

struct WorkItem {
  int64_t offset;
  int64_t len;
};

__global__ void __launch_bounds__(512) adamw_multi_tensor_kernel(AdamWState s, const WorkItem* __restrict__ items,
                                                                 AdamWHyper h, float bc1, float bc2) {
  const WorkItem w = items[blockIdx.x];
  for (int64_t j = threadIdx.x; j < w.len; j += blockDim.x)
    adamw_update(s, w.offset + j, h.lr, h.beta1, h.beta2, h.eps, h.weight_decay, bc1, bc2);
}

class OptimizedFusedAdamW : public FusedAdamWBase {
 public:
  void setup(aisp::Context& ctx) override {
    FusedAdamWBase::setup(ctx);
    std::vector<WorkItem> items;
    int64_t offset = 0;
    for (int64_t len : adamw_tensor_sizes()) {
      for (int64_t c = 0; c < len; c += kChunk) items.push_back({offset + c, std::min(kChunk, len - c)});
      offset += len;
    }
    items_ = static_cast<WorkItem*>(ctx.scratch("work_items", items.size() * sizeof(WorkItem)));
    AISP_CUDA_CHECK(cudaMemcpy(items_, items.data(), items.size() * sizeof(WorkItem), cudaMemcpyHostToDevice));
    count_ = static_cast<unsigned>(items.size());
  }
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    adamw_multi_tensor_kernel<<<count_, 512, 0, ctx.stream()>>>(state(ctx), items_, hyper_, hyper_.bc1(), hyper_.bc2());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "multi-tensor apply: one launch over a (tensor, chunk) table"; }

 private:
  WorkItem* items_ = nullptr;
  unsigned count_ = 0;
};

}  // namespace

AISP_BENCHMARK(OptimizedFusedAdamW)
