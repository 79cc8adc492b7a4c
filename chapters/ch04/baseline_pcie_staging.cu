// pcie_staging baseline: NCCL with peer-to-peer disabled in this process (NCCL_P2P_DISABLE=1, set before the
// communicator is made), so the ring exchange is staged through host memory. See pcie_staging.cuh.
#include "pcie_staging.cuh"

struct Baseline : pcie_staging::Base {
  void setup(aisp::Context& ctx) override {
    setenv("NCCL_P2P_DISABLE", "1", 1);  // this worker process only: the optimized variant is another process
    Base::setup(ctx);
  }
  std::string technique() const override { return "GPU -> host -> GPU staging (NCCL SHM transport, P2P off)"; }
};

AISP_BENCHMARK(Baseline)
