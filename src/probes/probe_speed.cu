// hw speed: a ~10-second sanity check for triage (`aisp info`-style): one BF16 GEMM at a plateau size
// through cuBLASLt and one HBM copy kernel over 1 GiB, each compared with the datasheet and, when this
// GPU has a hardware_capabilities file, with the ceilings measured earlier (a drop says "look closer").
#include <map>
#include <string>

#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {

ProbeResult probe_speed(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "speed";
  double t0 = now_seconds();
  ClockMonitor whole(ctx.dev.uuid, 50);
  Figure g;
  gemm_lt_figure(ctx, "bf16", 8192, 8192, 8192, g, 10);
  g.caps_key.clear();  // a sanity check does not overwrite the full probe's ceiling
  r.figures.push_back(g);
  Figure c = hbm_copy_figure(ctx, size_t(1) << 30, 10);
  c.caps_key.clear();
  r.figures.push_back(c);
  std::map<std::string, double> caps;
  for (auto& [k, v] : read_capabilities(ctx)) caps[k] = v;
  auto compare = [&](const Figure& f, const char* key) {
    if (!f.ok() || !caps.count(key)) return;
    double p = 100.0 * f.value / caps[key];
    r.notes.push_back(f.label + ": " + fmt_num(p, 1) + " % of the stored ceiling " + key + " = " + fmt_num(caps[key]) +
                      (p < 90 ? "  <-- more than 10 % below what this GPU did before" : ""));
  };
  compare(g, "tflops_bf16_cublaslt");
  compare(c, "hbm_copy_gbs");
  if (caps.empty()) r.notes.push_back("no hardware_capabilities file for " + ctx.hwkey + " yet: run `aisp hw peak` once");
  r.clocks = whole.stop();
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
