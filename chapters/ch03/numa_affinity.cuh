// numa_affinity: the staged upload of staged_h2d.cuh with and without regard for where the GPU sits.
// On a multi-socket host the GPU hangs off one socket's PCIe root complex. Pinned staging memory on the
// other socket makes every DMA cross the inter-socket link (UPI/xGMI), and copy threads on the other
// socket pull the source across it too; both cost bandwidth and latency. The fix is placement: staging
// slots on the GPU's NUMA node, copy threads on its local CPUs, both read from sysfs
// (/sys/bus/pci/devices/<bus id>/numa_node and local_cpulist).
//
// On a host with a single NUMA node there is nothing to place: both variants then run the same
// pipeline, and the expected (and honest) verdict is SAME. The technique string and the worker log say
// which case a run measured.
#pragma once
#include "staged_h2d.cuh"

// Read without CUDA, so technique() (called before setup()) can state it.
inline std::string numa_situation() {
  const int nodes = host_numa_node_count();
  if (nodes <= 1) return "this host has 1 NUMA node: placement cannot differ, expect SAME";
  return "this host has " + std::to_string(nodes) + " NUMA nodes";
}

inline void log_numa_setup(const char* variant, const GpuLocality& g, StagedUploader& up, bool bound) {
  std::printf("[ch03 numa_affinity %s] host NUMA nodes=%d, GPU %s on node %d, GPU-local CPUs %s, "
              "slots %s, copy threads now on CPUs %s\n",
              variant, g.host_numa_nodes, g.pci_bus_id.c_str(), g.numa_node, join_ints(g.local_cpus).c_str(),
              bound ? "mbind'ed to the GPU's node" : "from cudaHostAlloc (placed by the OS)",
              join_ints(up.thread_cpus()).c_str());
  std::fflush(stdout);
}
