// Per-variant derivations: throughput from the declared workload, roofline ceilings (measured or from
// device properties), % of roofline, and energy per run from NVML energy telemetry.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/variant_metrics.hpp"
#include "core/plausibility.hpp"
#include "core/stats.hpp"

namespace aisp::analysis {
namespace {

double positive_or_nan(double v) { return v > 0 && std::isfinite(v) ? v : kNaN; }

// hardware_capabilities ceilings[key].value in the file's units (GB/s, TFLOP/s, TOP/s), NaN when absent.
double capability(const json& caps, const std::string& key) {
  if (!caps.is_object() || !caps.contains("ceilings")) return kNaN;
  const json& c = caps["ceilings"];
  if (!c.contains(key) || !c[key].is_object()) return kNaN;
  const json& v = c[key].value("value", json());
  return v.is_number() ? positive_or_nan(v.get<double>()) : kNaN;
}

// The capabilities keys (docs/hw_probes.md) that bound a kernel of each declared precision. f32 maps to the
// CUDA-core FMA peak, not TF32: the harness pins cuBLAS's math mode (K16), so an f32 pair runs FP32 math.
std::vector<std::string> compute_keys(const std::string& precision) {
  if (precision == "f32") return {"tflops_fp32"};
  if (precision == "tf32") return {"tflops_tf32"};
  if (precision == "f16") return {"tflops_fp16"};
  if (precision == "bf16") return {"tflops_bf16"};
  if (precision == "fp8_e4m3" || precision == "fp8_e5m2") return {"tflops_fp8_e4m3"};
  if (precision == "f64") return {"tflops_fp64_tc", "tflops_fp64"};
  if (precision == "i8" || precision == "u8") return {"tops_int8"};
  return {};
}

// FP32 FMA lanes per SM (CUDA C Programming Guide, "Arithmetic Instructions" throughput table): 64 on
// GP100/GV100/GA100 (cc 6.0, 7.x, 8.0), 128 on cc 8.6/8.9/9.0/10.x/12.x.
double fp32_lanes_per_sm(int cc_major, int cc_minor) {
  if (cc_major == 7 || (cc_major == 8 && cc_minor == 0) || (cc_major == 6 && cc_minor == 0)) return 64;
  return 128;
}

}  // namespace

RooflineCeilings roofline_ceilings(const Hardware& hw, const std::string& precision) {
  RooflineCeilings c;
  const DeviceInfo& d = hw.device;
  std::string caps_name = hw.capabilities_path.empty() ? "hardware_capabilities" : hw.capabilities_path;
  double hbm = capability(hw.capabilities, "hbm_gbs");
  if (known(hbm)) {
    c.dram_bytes_per_s = hbm * 1e9;
    c.measured_bandwidth = true;
    c.bandwidth_source = fmt::format("measured: {} (hbm_gbs = {:.0f} GB/s)", caps_name, hbm);
  } else if (d.mem_clock_max_mhz > 0 && d.memory_bus_width_bits > 0) {
    c.dram_bytes_per_s = device_ceilings(d, DType::f32).dram_bytes_per_s;
    c.bandwidth_source = fmt::format("device properties: 2 x {:.0f} MHz x {} bit = {:.0f} GB/s (theoretical; no "
                                     "measured hbm_gbs)", d.mem_clock_max_mhz, d.memory_bus_width_bits,
                                     c.dram_bytes_per_s / 1e9);
  }
  for (auto& key : compute_keys(precision)) {
    double v = capability(hw.capabilities, key);
    if (known(v)) {
      c.flops_per_s = v * 1e12;
      c.measured_compute = true;
      c.compute_source = fmt::format("measured: {} ({} = {:.1f})", caps_name, key, v);
      break;
    }
  }
  if (!known(c.flops_per_s) && d.sm_count > 0 && d.sm_clock_max_mhz > 0) {
    if (precision == "f32") {
      double lanes = fp32_lanes_per_sm(d.cc_major, d.cc_minor);
      c.flops_per_s = 2 * lanes * d.sm_count * d.sm_clock_max_mhz * 1e6;
      c.compute_source = fmt::format("device properties: {} SMs x {:.0f} FP32 lanes x 2 x {:.0f} MHz = {:.1f} TFLOP/s "
                                     "(theoretical; no measured tflops_fp32)",
                                     d.sm_count, lanes, d.sm_clock_max_mhz, c.flops_per_s / 1e12);
    } else if (!compute_keys(precision).empty()) {
      auto p = dtype_from_name(precision);
      c.flops_per_s = device_ceilings(d, p ? *p : DType::f32).flops_per_s;
      c.compute_source = fmt::format("device properties: dense tensor-core peak for {} at {:.0f} MHz = {:.1f} "
                                     "TFLOP/s (theoretical upper bound; no measured ceiling)",
                                     precision, d.sm_clock_max_mhz, c.flops_per_s / 1e12);
    }
  }
  return c;
}

Energy energy_of(const Telemetry& t, const std::string& target, const std::string& variant, double median_ms) {
  Energy e;
  auto ti = t.find(target);
  const std::map<std::string, std::vector<double>>* m = nullptr;
  if (ti != t.end()) {
    auto vi = ti->second.find(variant);
    if (vi != ti->second.end()) m = &vi->second;
  }
  auto series = [&](const char* name) -> const std::vector<double>* {
    if (!m) return nullptr;
    auto it = m->find(name);
    return it == m->end() || it->second.empty() ? nullptr : &it->second;
  };
  // Accepted forms, most direct first. Per-block energy divided by the runs in the block is the only
  // attribution that excludes idle gaps; raw counter readings per sample also hold the L2 flush and
  // host time between runs, so they are not turned into a per-run figure.
  struct Form { const char* name; double to_joules; const char* runs; };
  for (Form f : {Form{"energy_per_run_j", 1.0, nullptr}, Form{"energy_per_run_mj", 1e-3, nullptr},
                 Form{"energy_j", 1.0, "energy_runs"}, Form{"energy_mj", 1e-3, "energy_runs"},
                 Form{"block_energy_j", 1.0, "block_runs"}, Form{"block_energy_mj", 1e-3, "block_runs"}}) {
    const std::vector<double>* values = series(f.name);
    if (!values) continue;
    std::vector<double> per_run;
    const std::vector<double>* runs = f.runs ? series(f.runs) : nullptr;
    if (f.runs && (!runs || runs->size() != values->size())) continue;
    for (size_t i = 0; i < values->size(); ++i) {
      double n = runs ? (*runs)[i] : 1.0;
      double j = (*values)[i] * f.to_joules / n;
      if (n > 0 && j > 0 && std::isfinite(j)) per_run.push_back(j);
    }
    if (per_run.empty()) continue;
    e.present = true;
    e.joules_per_run = median(per_run);
    e.source = runs ? fmt::format("NVML energy counter: median over {} blocks of {} / {}", per_run.size(), f.name, f.runs)
                    : fmt::format("NVML energy counter: median of {} over {} blocks", f.name, per_run.size());
    if (known(median_ms) && median_ms > 0) e.avg_power_w = e.joules_per_run / (median_ms / 1e3);
    return e;
  }
  if (series("energy_mj") || series("energy_j"))
    e.why = "energy counter readings without the number of runs they cover (per-sample readings include the L2 "
            "flush and host gaps), so no per-run energy is derived";
  else if (!m)
    e.why = "the run recorded no telemetry for this variant (no NVML energy fields)";
  else
    e.why = "no NVML energy fields in this variant's telemetry (the GPU or the harness version did not record them)";
  return e;
}

Energy energy_from_summary(const json& j) {
  Energy e;
  if (!j.is_object() || !j.contains("joules_per_run") || !j["joules_per_run"].is_number()) return e;
  e.joules_per_run = positive_or_nan(j["joules_per_run"].get<double>());
  if (!known(e.joules_per_run)) return e;
  e.present = true;
  auto num = [&](const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : kNaN; };
  e.avg_power_w = num("mean_power_w");
  double wall = num("wall_s"), busy = num("gpu_busy_s");
  if (known(wall) && wall > 0 && known(busy)) e.gpu_busy_fraction = busy / wall;
  e.source = "NVML energy counter around the timed blocks (harness summary)";
  if (j.contains("method") && j["method"].is_string()) e.source += ": " + j["method"].get<std::string>();
  return e;
}

std::vector<VariantRow> variant_rows(const std::vector<TargetResult>& targets, const DerivationInputs& ctx) {
  std::vector<VariantRow> out;
  for (const TargetResult& t : targets) {
    const json& w = t.workload.is_object() ? t.workload : json::object();
    std::string precision = w.value("precision", "");
    RooflineCeilings ceil = roofline_ceilings(ctx.hardware, precision);
    auto declared = [&](const char* k) { return w.contains(k) && w[k].is_number() ? positive_or_nan(w[k].get<double>()) : kNaN; };
    double bytes = declared("bytes"), flops = declared("flops"), items = declared("items");
    double base_peak = positive_or_nan(t.baseline.memory.peak_mb);

    auto make = [&](const VariantResult& v, bool is_baseline) {
      VariantRow r;
      r.target = t.id;
      r.variant = v.name.empty() ? (is_baseline ? "baseline" : "?") : v.name;
      r.technique = v.technique;
      r.status = v.status;
      r.verdict = v.verdict;
      r.goal = t.goal;
      r.mode = t.mode;
      r.precision = precision;
      r.item_unit = w.value("item_unit", "items");
      r.baseline = is_baseline;
      r.params = w.value("params", json::object());
      r.median_ms = positive_or_nan(v.timing.median);
      r.p99_ms = positive_or_nan(v.timing.p99);
      r.rel_noise = v.timing.n > 0 ? v.timing.rel_noise : kNaN;
      r.samples = v.timing.n;
      r.flops = flops;
      r.bytes = bytes;
      r.items = items;
      // A variant is rankable only with a measured median and no failed validity check: an INVALID
      // result, a failed verification or a crash is shown, never ranked.
      if (!known(r.median_ms)) r.unusable_reason = v.error.empty() ? "no timing" : v.error;
      else if (v.verdict == "INVALID" || v.status == "invalid") r.unusable_reason = "INVALID (a validity check failed)";
      else if (v.status == "failed_verification") r.unusable_reason = "outputs did not match the baseline";
      else if (v.status == "failed_error" || v.status == "skipped") r.unusable_reason = v.status + (v.error.empty() ? "" : ": " + v.error);
      r.usable = r.unusable_reason.empty();
      if (is_baseline) {
        r.speedup = r.ci_low = r.ci_high = known(r.median_ms) ? 1.0 : kNaN;
      } else {
        r.speedup = positive_or_nan(v.speedup);
        r.ci_low = positive_or_nan(v.ci_low);
        r.ci_high = positive_or_nan(v.ci_high);
      }
      r.peak_mb = positive_or_nan(v.memory.peak_mb);
      r.allocated_mb = positive_or_nan(v.memory.allocated_mb);
      if (!is_baseline && known(base_peak) && known(r.peak_mb))
        r.memory_savings_pct = 100.0 * (base_peak - r.peak_mb) / base_peak;
      if (known(r.median_ms)) {
        double s = r.median_ms / 1e3;
        r.items_per_s = items / s;
        r.bytes_per_s = bytes / s;
        r.flops_per_s = flops / s;
      }
      if (known(flops) && known(bytes)) r.arithmetic_intensity = flops / bytes;
      // % of the attainable roofline at this intensity: min(peak compute, intensity x bandwidth). Without
      // declared FLOPs the kernel is a data mover and only the bandwidth roof applies.
      if (known(r.flops_per_s) && known(ceil.flops_per_s)) {
        double attainable = ceil.flops_per_s;
        r.bound = "compute";
        if (known(r.arithmetic_intensity) && known(ceil.dram_bytes_per_s) &&
            r.arithmetic_intensity * ceil.dram_bytes_per_s < ceil.flops_per_s) {
          attainable = r.arithmetic_intensity * ceil.dram_bytes_per_s;
          r.bound = "memory";
        }
        r.roofline_pct = 100.0 * r.flops_per_s / attainable;
      } else if (!known(flops) && known(r.bytes_per_s) && known(ceil.dram_bytes_per_s)) {
        r.roofline_pct = 100.0 * r.bytes_per_s / ceil.dram_bytes_per_s;
        r.bound = "memory";
      }
      // The result's JSON form carries the harness's energy summary when the run recorded one; reading it
      // through to_json keeps this independent of how VariantResult stores it.
      json vj = to_json(v);
      r.energy = energy_from_summary(vj.value("energy", json()));
      if (!r.energy.present) r.energy = energy_of(ctx.telemetry, t.id, r.variant, r.median_ms);
      return r;
    };
    out.push_back(make(t.baseline, true));
    for (const VariantResult& v : t.optimizations) out.push_back(make(v, false));
  }
  return out;
}

}  // namespace aisp::analysis
