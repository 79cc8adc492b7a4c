// pcie_staging optimized: the same send/recv with NCCL's peer-to-peer transport allowed, so the data goes
// GPU to GPU over NVLink. See pcie_staging.cuh.
#include "pcie_staging.cuh"

struct Optimized : pcie_staging::Base {
  std::string technique() const override { return "direct GPU-to-GPU copy over NVLink (NCCL P2P transport)"; }
};

AISP_BENCHMARK(Optimized)
