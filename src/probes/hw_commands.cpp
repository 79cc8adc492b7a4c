#include "probes/hw_commands.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "probes/probes.hpp"
#include "probes/report_table.hpp"
#include "runtime/device.hpp"

namespace aisp {
namespace {

using probes::ProbeContext;
using probes::ProbeOptions;
using probes::ProbeResult;
using ProbeFn = ProbeResult (*)(const ProbeContext&);

struct Command {
  const char* name;
  const char* help;
  std::vector<ProbeFn> probes;  // run in this order; capabilities are merged after each
  bool needs_gpu = true;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"peak",
       "Run every single-GPU probe (memory, cache, fma, pcie, launch, roofline, tc) and print one table of "
       "measured ceilings vs datasheet, clock-adjusted ceiling and best public numbers (~20 s on an H100).",
       {probes::probe_memory, probes::probe_cache, probes::probe_fma, probes::probe_pcie, probes::probe_launch,
        probes::probe_roofline, probes::probe_tc}},
      {"memory",
       "HBM read, write and copy bandwidth with SM kernels (16-B accesses, 2 GiB buffers, bytes read + bytes "
       "written counted), and cudaMemcpy device-to-device beside them.",
       {probes::probe_memory}},
      {"cache",
       "Read bandwidth vs working set (256 KiB .. 8x L2: L2 plateau, partition effect, HBM), shared-memory "
       "bytes/clock/SM, and pointer-chase latency (shared, L1, L2, HBM) in cycles and ns.",
       {probes::probe_cache}},
      {"pcie",
       "Host<->device bandwidth: H2D, D2H and bidirectional with pinned memory (copy engine), pageable memory, "
       "and SM-initiated loads/stores of mapped host memory.",
       {probes::probe_pcie}},
      {"tc",
       "Tensor-core throughput per dtype (bf16, fp16, tf32, fp8 e4m3, int8; fp64 DGEMM) with cuBLASLt at "
       "plateau sizes on random data, and a wgmma microkernel for the clock-adjusted peak.",
       {probes::probe_tc}},
      {"fma", "FP32 (FFMA) and FP64 (DFMA) FMA throughput and FP64 tensor (DMMA), vs the peak at the measured clock.",
       {probes::probe_fma}},
      {"launch",
       "Kernel launch costs: host enqueue, launch+sync round trip, back-to-back period on a stream and in a "
       "CUDA graph, and the empty event pair.",
       {probes::probe_launch}},
      {"roofline",
       "FP32 intensity sweep (mixbench-style) against the measured HBM and FP32 ceilings, plus every ceiling on "
       "file (run memory and fma first, or peak).",
       {probes::probe_roofline}},
      {"p2p", "GPU<->GPU copy-engine bandwidth matrix, unidirectional and bidirectional (needs >= 2 GPUs; with one "
              "it says so and exits 0).",
       {probes::probe_p2p}},
      {"nccl", "NCCL all_reduce / all_gather / reduce_scatter algbw and busbw (nccl-tests formulas) over all GPUs "
               "(needs >= 2 GPUs; NVLS off unless NCCL_NVLS_ENABLE is set).",
       {probes::probe_nccl}},
      {"disk", "Sequential write and read throughput of a directory (O_DIRECT where the filesystem allows it).",
       {probes::probe_disk}, false},
      {"network",
       "TCP throughput and round trip over loopback (this host's TCP stack: an upper bound for any NIC test), and "
       "over a NIC to a peer running `aisp hw network --listen PORT` when --address HOST:PORT is given; lists the "
       "interfaces (state, link speed).",
       {probes::probe_network}, false},
      {"ib", "InfiniBand / RoCE ports from /sys/class/infiniband: state, link layer, negotiated link rate (read, not "
             "measured); with no device it says so and exits 0.",
       {probes::probe_ib}, false},
      {"speed", "~10-second sanity check: one BF16 GEMM (cuBLASLt 8192^3) and one 1 GiB HBM copy, compared with "
                "the datasheet and with this GPU's stored ceilings.",
       {probes::probe_speed}},
  };
  return list;
}

[[noreturn]] void fail(int code, const std::string& msg) {
  std::fflush(stdout);
  std::cerr << msg << "\n";
  throw CLI::RuntimeError(code);
}

void run(const Command& cmd, const ProbeOptions& opt) {
  std::string why;
  int n = cuda_device_count(&why);
  ProbeContext ctx;
  if (n == 0 && cmd.needs_gpu)
    fail(2, std::string("aisp hw ") + cmd.name + ": " + (why.empty() ? "no CUDA device" : why) +
                ". The hw probes need an NVIDIA GPU and driver; nothing was measured.");
  if (n > 0) {
    if (opt.device < 0 || opt.device >= n)
      fail(2, "aisp hw " + std::string(cmd.name) + ": --device " + std::to_string(opt.device) + " out of range (" +
                  std::to_string(n) + " visible)");
    if (cudaSetDevice(opt.device) != cudaSuccess) fail(2, "cudaSetDevice failed");
    try {
      ctx = probes::make_context(opt);
    } catch (const std::exception& e) {
      fail(2, std::string("aisp hw: cannot query the device: ") + e.what());
    }
  } else {
    ctx.opt = opt;
    ctx.dev.name = "no GPU";
    ctx.hwkey = "host";
    ctx.started_utc = probes::utc_now();
  }
  std::vector<ProbeResult> results;
  int code = 0;
  std::string caps;
  for (auto fn : cmd.probes) {
    ProbeResult r;
    try {
      r = fn(ctx);
    } catch (const std::exception& e) {
      r.notes.push_back(std::string("probe failed: ") + e.what());
      r.exit_code = 1;
    }
    if (r.name.empty()) r.name = cmd.name;
    std::cerr << "[aisp hw] " << r.name << " done in " << probes::fmt_num(r.wall_s, 1) << " s\n";
    if (r.exit_code) code = 1;
    results.push_back(std::move(r));
    if (!opt.no_caps && n > 0) {
      try {
        std::string p = probes::update_capabilities(ctx, {results.back()});
        if (!p.empty()) caps = p;
      } catch (const std::exception& e) {
        std::cerr << "[aisp hw] could not write capabilities: " << e.what() << "\n";
      }
    }
  }
  std::string doc = probes::render_json(ctx, cmd.name, results);
  if (opt.json) std::cout << doc << "\n";
  else std::cout << probes::render_text(ctx, results);
  if (!opt.out.empty()) {
    try {
      write_file_atomic(opt.out, doc + "\n");
    } catch (const std::exception& e) {
      fail(1, std::string("aisp hw: cannot write --out: ") + e.what());
    }
  }
  (opt.json ? std::cerr : std::cout) << (caps.empty() ? std::string() : "capabilities: " + caps + "\n")
                                     << (opt.out.empty() ? std::string() : "json: " + opt.out + "\n");
  std::cout.flush();
  if (code) throw CLI::RuntimeError(code);
}

}  // namespace

void add_hw_commands(CLI::App& root) {
  auto* hw = root.add_subcommand("hw", "Hardware probes: measure this GPU's real ceilings against datasheet and "
                                       "best public numbers");
  hw->require_subcommand(1);
  auto opt = std::make_shared<ProbeOptions>();
  for (const Command& cmd : commands()) {
    auto* sub = hw->add_subcommand(cmd.name, cmd.help);
    sub->add_flag("--json", opt->json, "print the JSON document instead of the table");
    sub->add_option("--out", opt->out, "also write the JSON document (figures, raw samples, clocks) to FILE");
    if (cmd.needs_gpu) {
      sub->add_option("--device", opt->device, "CUDA device ordinal")->capture_default_str();
      sub->add_option("--caps", opt->caps_path,
                      "hardware_capabilities file to update (default artifacts/hw/hardware_capabilities_<hwkey>.json)");
      sub->add_flag("--no-caps", opt->no_caps, "do not read or write the hardware_capabilities file");
      sub->add_flag("--quick", opt->quick, "fewer samples and sizes (smoke test; numbers less settled)");
    }
    std::string name = cmd.name;
    if (name == "memory" || name == "peak")
      sub->add_option("--gib", opt->memory_gib, "memory: GiB per buffer (two buffers)")->capture_default_str();
    if (name == "cache" || name == "peak")
      sub->add_option("--max-mib", opt->cache_max_mib, "cache: largest footprint in MiB (0 = 8x L2, <= 1 GiB)");
    if (name == "pcie" || name == "peak" || name == "p2p")
      sub->add_option("--mib", opt->pcie_mib, "MiB per copy")->capture_default_str();
    if (name == "tc" || name == "peak") {
      sub->add_option("--dtypes", opt->tc_dtypes, "tc: comma-separated dtypes")->capture_default_str();
      sub->add_flag("--no-micro", opt->tc_no_micro, "tc: skip the wgmma microkernel");
      sub->add_flag("--no-lib", opt->tc_no_lib, "tc: skip cuBLASLt");
    }
    if (name == "disk") {
      sub->add_option("--dir", opt->disk_dir, "directory to test")->capture_default_str();
      sub->add_option("--mib", opt->disk_mib, "file size in MiB")->capture_default_str();
    }
    if (name == "network") {
      sub->add_option("--address", opt->net_address, "HOST[:PORT] (default port 5201) of a peer running "
                                                     "`aisp hw network --listen`: measure the NIC path to it");
      sub->add_option("--listen", opt->net_listen, "Serve as the peer on this TCP port (0: any free port) instead "
                                                   "of measuring");
      sub->add_option("--listen-count", opt->net_listen_count, "--listen: connections to serve, then exit (0: until "
                                                               "killed)")->capture_default_str();
      sub->add_option("--bind", opt->net_bind, "--listen: IPv4 address to bind")->capture_default_str();
      sub->add_option("--mib", opt->net_mib, "MiB per throughput sample")->capture_default_str();
      sub->add_flag("--quick", opt->quick, "fewer samples (smoke test)");
    }
    if (name == "nccl")
      sub->add_option("--max-mib", opt->nccl_max_mib, "largest message in MiB (sizes 1 MiB x4 ...)")->capture_default_str();
    const Command* c = &cmd;
    sub->callback([c, opt, name] {
      if (name == "network" && opt->net_listen >= 0) {
        try {
          probes::serve_network_sink(*opt);
        } catch (const std::exception& e) {
          fail(2, std::string("aisp hw network --listen: ") + e.what());
        }
        return;
      }
      run(*c, *opt);
    });
  }
}

}  // namespace aisp
