// One function per probe; each lives in its own file (probe_<name>.cu/.cpp) and reports through
// probe_core. hw_commands.cpp maps subcommands onto these.
#pragma once
#include <filesystem>

#include "probes/probe_core.hpp"

namespace aisp::probes {

ProbeResult probe_memory(const ProbeContext& ctx);    // HBM read/write/copy kernels + cudaMemcpy D2D
ProbeResult probe_cache(const ProbeContext& ctx);     // L2/HBM bandwidth vs footprint, SMEM B/clk/SM, latencies
ProbeResult probe_pcie(const ProbeContext& ctx);      // H2D/D2H/bidir, pinned vs pageable, CE vs SM
ProbeResult probe_tc(const ProbeContext& ctx);        // cuBLASLt per dtype + wgmma microkernel (probe_tc_micro.cu)
ProbeResult probe_fma(const ProbeContext& ctx);       // FFMA, DFMA, DMMA
ProbeResult probe_launch(const ProbeContext& ctx);    // enqueue cost, round trip, back-to-back stream vs graph
ProbeResult probe_roofline(const ProbeContext& ctx);  // FP32 intensity sweep against the measured ceilings
ProbeResult probe_p2p(const ProbeContext& ctx);       // GPU<->GPU copy-engine bandwidth (>= 2 GPUs)
ProbeResult probe_nccl(const ProbeContext& ctx);      // NCCL collectives, algbw/busbw (>= 2 GPUs)
ProbeResult probe_disk(const ProbeContext& ctx);      // sequential write/read of a directory
ProbeResult probe_speed(const ProbeContext& ctx);     // ~10 s sanity check: one GEMM + one copy
ProbeResult probe_network(const ProbeContext& ctx);   // TCP loopback, and a NIC path to a --listen peer
ProbeResult probe_ib(const ProbeContext& ctx);        // InfiniBand / RoCE ports from sysfs (or a clear skip)

// `aisp hw network --listen PORT`: the peer side of the NIC test (probe_network.cpp); returns the exit code.
int serve_network_sink(const ProbeOptions& opt);
// "/sys", or $AISP_SYSFS_ROOT (tests point it at a fake tree of class/net and class/infiniband).
std::filesystem::path sysfs_root();

// Pieces that other probes reuse (speed, roofline).
// cuBLASLt GEMM of m×n×k in `dtype` ("bf16", "fp16", "tf32", "fp8_e4m3", "int8", "fp64"); fills `f`
// (value in TFLOP/s or TOP/s, samples in ms). Returns false (with f.status set) when cuBLASLt has no algorithm.
bool gemm_lt_figure(const ProbeContext& ctx, const std::string& dtype, int64_t m, int64_t n, int64_t k, Figure& f,
                    int samples);
// Tensor-core microkernel figures (wgmma, one per dtype), appended to `out`.
void tc_micro_figures(const ProbeContext& ctx, const std::vector<std::string>& dtypes, std::vector<Figure>& out);
// The HBM copy kernel at `bytes` per buffer: read+write GB/s (used by speed).
Figure hbm_copy_figure(const ProbeContext& ctx, size_t bytes, int samples);

}  // namespace aisp::probes
