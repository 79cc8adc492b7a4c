// hw ib: the InfiniBand / RoCE adapters the kernel exposes under /sys/class/infiniband — per port its
// state, physical state, link layer and the negotiated link rate. These are what the link trained to,
// read from sysfs, not a measured throughput: measuring RDMA bandwidth needs libibverbs and a peer
// (perftest's ib_write_bw), which aisp does not link. With no device the probe says so and exits 0.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "probes/probes.hpp"

namespace aisp::probes {
namespace {

std::string first_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// "400 Gb/sec (4X NDR)" -> 400; NaN when the file has no leading number.
double rate_gbps(const std::string& rate) {
  try {
    return std::stod(rate);
  } catch (const std::exception&) {
    return kNaN;
  }
}

}  // namespace

ProbeResult probe_ib(const ProbeContext& ctx) {
  namespace fs = std::filesystem;
  ProbeResult r;
  r.name = "ib";
  double t0 = now_seconds();
  fs::path root = sysfs_root() / "class" / "infiniband";
  std::error_code ec;
  std::vector<fs::path> devices;
  if (fs::is_directory(root, ec))
    for (auto& e : fs::directory_iterator(root, ec)) devices.push_back(e.path());
  std::sort(devices.begin(), devices.end());
  if (devices.empty()) {
    Figure f;
    f.key = "ib_link_rate";
    f.label = "InfiniBand / RoCE link rate";
    f.unit = "Gb/s";
    f.status = "skipped: no InfiniBand or RoCE device (" + root.string() + " is " +
               (fs::exists(root, ec) ? "empty" : "absent") + ")";
    ctx.finish(f);
    r.figures.push_back(f);
  }
  for (auto& dev : devices) {
    std::string name = dev.filename().string();
    r.notes.push_back(name + ": " + first_line(dev / "hca_type") + " firmware " + first_line(dev / "fw_ver") +
                      ", node " + first_line(dev / "node_desc"));
    std::vector<fs::path> ports;
    for (auto& p : fs::directory_iterator(dev / "ports", ec)) ports.push_back(p.path());
    std::sort(ports.begin(), ports.end());
    for (auto& port : ports) {
      Figure f;
      std::string id = name + " port " + port.filename().string();
      f.key = "ib_" + name + "_" + port.filename().string() + "_rate";
      std::string state = first_line(port / "state"), phys = first_line(port / "phys_state");
      f.label = id + " (" + first_line(port / "link_layer") + ", " + state + ")";
      f.unit = "Gb/s";
      std::string rate = first_line(port / "rate");
      f.value = rate_gbps(rate);
      f.method = "link rate read from " + (port / "rate").string() + " ('" + rate + "'), physical state '" + phys +
                 "': what the link trained to, not a measured throughput (RDMA bandwidth: perftest ib_write_bw)";
      if (state.find("ACTIVE") == std::string::npos) f.status = "skipped: port not active (" + state + ")";
      ctx.finish(f);
      r.figures.push_back(f);
    }
  }
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
