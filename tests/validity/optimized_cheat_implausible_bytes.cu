// Cheat: the honest copy, but the declared workload claims 1000x the bytes it moves (8 GiB per run instead
// of 8 MiB), so its reported bandwidth is ~1000x the device's. The baseline declares the same inflated
// workload (workloads of a pair must match), so the pair is comparable and only plausibility can object.
// Real-world exploit: inflated byte/FLOP counts (counting re-reads, counting L2 hits as DRAM traffic,
// wrong units) that turn a normal kernel into a "record" throughput.
// Caught by: K17 (achieved bytes/s above the DRAM ceiling derived from the device's memory clock and bus width).
#include "validity_common.cuh"

struct ImplausibleBytes : validity::InflatedBytesCopy {
  std::string technique() const override { return "validity cheat: workload bytes inflated 1000x"; }
};

AISP_BENCHMARK(ImplausibleBytes)
