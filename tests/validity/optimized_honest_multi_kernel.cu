// Honest control: the copy split into three kernel launches on ctx.stream() (thirds of the array).
// Several launches per run() are normal; all of them lie inside the timed window.
// Must pass every check.
#include "validity_common.cuh"

struct HonestMultiKernel : fixture::HonestCopy {
  void run(aisp::Context& ctx) override {
    const float* in = validity::in_ptr(ctx);
    float* out = validity::out_ptr(ctx);
    const int64_t third = fixture::kN / 3;
    const int64_t begin[4] = {0, third, 2 * third, fixture::kN};
    for (int part = 0; part < 3; ++part)
      AISP_CUDA_CHECK(validity::copy_async(ctx.stream(), in + begin[part], out + begin[part], begin[part + 1] - begin[part]));
  }
  std::string technique() const override { return "validity control: copy in three kernel launches"; }
};

AISP_BENCHMARK(HonestMultiKernel)
