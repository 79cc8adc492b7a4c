// The shared measurement/report core of the `hw` probes (nccl-tests' common.cu in spirit): the result model
// (Figure, Series, ProbeResult), the context every probe receives, the NVML clock monitor that runs beside
// each measurement, the terminal table, the JSON document and hardware_capabilities.json. A probe file
// only says what it measures and how; everything it reports passes through here.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "aisp/device_info.hpp"
#include "core/stats.hpp"
#include "probes/probe_math.hpp"
#include "runtime/nvml.hpp"

namespace aisp::probes {

// What NVML saw while a measurement ran (polled on a side thread, hw_anchors pitfall 1).
struct ClockStats {
  int n = 0;
  double sm_mhz_median = kNaN, sm_mhz_min = kNaN, sm_mhz_max = kNaN;
  double mem_mhz_median = kNaN;
  double power_w_median = kNaN, power_w_max = kNaN, temp_c_max = kNaN;
  uint64_t throttle_any = 0;   // OR of every sample's clocks-event reasons
  int slowdown_samples = 0;    // samples with a power/thermal slowdown bit set
};

class ClockMonitor {
 public:
  // Starts polling at once; `uuid` empty or NVML missing = a monitor that records nothing.
  explicit ClockMonitor(std::string uuid, int period_ms = 10);
  ~ClockMonitor();
  ClockMonitor(const ClockMonitor&) = delete;
  ClockMonitor& operator=(const ClockMonitor&) = delete;
  ClockStats stop();  // idempotent

 private:
  void loop();
  std::string uuid_;
  int period_ms_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::mutex mu_;
  std::vector<NvmlSample> samples_;
  ClockStats result_;
  bool stopped_ = false;
};

struct Figure {
  std::string key;         // stable id, e.g. "hbm_read"; anchors and goals are looked up by it
  std::string label;       // what the table shows
  std::string unit;        // "GB/s", "TFLOP/s", "cycles", "us", "B/clk/SM"
  double value = kNaN;
  double datasheet = kNaN;       // same unit; NaN where no datasheet number exists
  double clock_ceiling = kNaN;   // the ceiling recomputed at the clock measured during this figure
  std::string clock_basis;       // how clock_ceiling was computed
  double best_public = kNaN;
  std::string best_public_source;
  Goal goal;
  Verdict verdict;
  std::string method;            // how it was measured and what bytes/flops were counted
  std::string caps_key;          // key in hardware_capabilities.json ("" = not a ceiling)
  std::vector<double> samples;   // raw samples kept (unit in samples_unit)
  std::string samples_unit;
  Summary summary;               // of `samples`
  ClockStats clocks;             // NVML during this figure's measurement
  double kernel_clock_mhz = kNaN;  // measured inside the kernel (clock64 / globaltimer), when available
  std::vector<std::pair<std::string, std::string>> params;  // configuration that produced the value
  std::string status = "ok";     // "ok" | "skipped: why" | "error: what"
  bool ok() const { return status == "ok"; }
};

// A curve (bandwidth vs footprint, latency vs size, roofline points, NCCL sizes...).
struct Series {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

struct ProbeResult {
  std::string name;
  std::vector<Figure> figures;
  std::vector<Series> series;
  std::vector<std::string> notes;
  ClockStats clocks;  // whole probe
  double wall_s = 0;
  int exit_code = 0;  // non-zero only when the probe could not run at all
};

// Options shared by all subcommands plus the few that are probe-specific (only registered where used).
struct ProbeOptions {
  int device = 0;
  bool json = false;
  std::string out;            // --out FILE: JSON document
  std::string caps_path;      // --caps FILE (default artifacts/hw/hardware_capabilities_<hwkey>.json)
  bool no_caps = false;
  bool quick = false;         // fewer sizes/repetitions (speed, CI smoke)
  double memory_gib = 2.0;    // memory: bytes per buffer
  double cache_max_mib = 0;   // cache: largest footprint (0 = 8x L2)
  double pcie_mib = 512;      // pcie/p2p: MiB per copy (nvbandwidth's default size)
  std::string tc_dtypes = "bf16,fp16,tf32,fp8_e4m3,int8,fp64";
  bool tc_no_micro = false, tc_no_lib = false;
  std::string disk_dir = ".";
  double disk_mib = 1024;
  double nccl_max_mib = 1024;
  std::string net_address;          // network: HOST[:PORT] of a peer running `aisp hw network --listen`
  int net_listen = -1;              // network: >= 0, serve as that peer on this port instead of measuring
  int net_listen_count = 0;         // network --listen: connections to serve (0: until killed)
  std::string net_bind = "0.0.0.0";  // network --listen: address to bind
  double net_mib = 256;             // network: MiB per throughput sample
};

struct ProbeContext {
  DeviceInfo dev;
  std::string hwkey;
  Family family = Family::other;
  Datasheet sheet;
  NvmlStatic nvml_static;
  ProbeOptions opt;
  std::string started_utc;

  // Fills datasheet-independent annotations of a figure from its key: best public number, goal, verdict
  // and (via value/clock_ceiling) the percentages. Call after value, datasheet and clock_ceiling are set.
  void finish(Figure& f) const;
};

// Builds the context for `opt.device` (throws if the device cannot be queried).
ProbeContext make_context(const ProbeOptions& opt);

// Times `fn` on the host; used for the probes whose clock is the host (pageable copies, disk, enqueue).
double now_seconds();
std::string utc_now();

// Terminal table for one or more probes, methods as footnotes, one clocks line per probe.
std::string render_text(const ProbeContext& ctx, const std::vector<ProbeResult>& results);
// JSON document for --json / --out (serialized by nlohmann in probe_core.cpp).
std::string render_json(const ProbeContext& ctx, const std::string& command, const std::vector<ProbeResult>& results);
// Merges every figure with a caps_key into the capabilities file (read-modify-write, atomic). Returns path.
std::string update_capabilities(const ProbeContext& ctx, const std::vector<ProbeResult>& results);
// The measured ceilings currently on disk for this device (for roofline); empty map if none.
std::vector<std::pair<std::string, double>> read_capabilities(const ProbeContext& ctx);

// Runs a figure's measurement under a ClockMonitor and turns exceptions into status "error: ...",
// so one failing figure never hides the others.
void measure(const ProbeContext& ctx, Figure& f, const std::function<void(Figure&)>& body);

}  // namespace aisp::probes
