#include "report/exports.hpp"

#include <fmt/format.h>

#include <cctype>

#include "core/stats.hpp"
#include "core/verdict.hpp"

namespace aisp {

namespace {

std::string text(const json& j, const char* key, const std::string& fallback = "") {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : fallback;
}

std::vector<const VariantResult*> variants_of(const TargetResult& t) {
  std::vector<const VariantResult*> all{&t.baseline};
  for (auto& o : t.optimizations) all.push_back(&o);
  return all;
}

std::string why_not_exported(const VariantResult& v) {
  std::string s = v.status.empty() ? "not measured" : v.status;
  if (!v.error.empty()) s += ": " + v.error;
  return s;
}

// ---- Google Benchmark ------------------------------------------------------------------------

int num_cpus(const json& manifest) {
  json env = manifest.value("environment", json::object());
  for (auto& c : env.value("checks", json::array()))
    if (c.value("name", "") == "numa" && c.contains("value") && c["value"].is_object())
      return cpulist_count(text(c["value"], "allowed_cpus"));
  return 0;
}

bool cpu_scaling_enabled(const json& manifest) {
  json env = manifest.value("environment", json::object());
  for (auto& c : env.value("checks", json::array()))
    if (c.value("name", "") == "cpu_governor" && c.contains("value") && c["value"].is_object())
      for (auto& [governor, count] : c["value"].items())
        if (governor != "performance") return true;
  return false;  // unknown (VMs hide cpufreq) reads as gbench's "not enabled"
}

json gbench_entry(const std::string& name, const std::string& run_type, int family, int64_t repetitions) {
  return {{"name", name},   {"family_index", family}, {"per_family_instance_index", 0}, {"run_name", name},
          {"run_type", run_type}, {"repetitions", repetitions}, {"threads", 1}};
}

}  // namespace

int cpulist_count(const std::string& list) {
  int n = 0;
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(',', pos);
    std::string part = list.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    try {
      size_t dash = part.find('-');
      if (dash == std::string::npos) n += (std::stoi(part), 1);  // stoi: rejects non-numbers
      else n += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
    } catch (const std::exception&) {
      return 0;
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return n;
}

std::string export_name(const TargetResult& t, const VariantResult& v) { return t.id + "/" + v.name; }

bool exportable_timing(const VariantResult& v) {
  return (v.status == status::succeeded || v.status == status::failed_no_speedup) && !v.samples_ms.empty();
}

json to_gbench_json(const std::vector<TargetResult>& targets, const json& manifest, const ExportOptions& o) {
  json hw = manifest.value("hardware", json::object()), git = manifest.value("git", json::object());
  json build = manifest.value("build", json::object());
  std::string build_type = text(build, "build_type", "release");
  for (auto& c : build_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  json context = {
      {"date", text(manifest, "start_time")},
      {"host_name", text(manifest.value("environment", json::object()), "hostname")},
      {"executable", text(manifest, "command", "aisp bench run")},
      {"num_cpus", num_cpus(manifest)},
      {"mhz_per_cpu", 0},  // not recorded by the run
      {"cpu_scaling_enabled", cpu_scaling_enabled(manifest)},
      {"caches", json::array()},
      {"load_avg", json::array()},
      {"library_version", "aisp " + text(manifest.value("software", json::object()), "aisp_version", AISP_VERSION)},
      {"library_build_type", build_type == "debug" ? "debug" : "release"},
      {"json_schema_version", 1},
      // Custom context (what --benchmark_context=k=v adds in Google Benchmark).
      {"gpu", text(hw, "gpu_model")},
      {"hardware_key", text(hw, "hardware_key")},
      {"driver_version", text(hw, "driver_version")},
      {"cuda_version", text(hw, "cuda_version")},
      {"git_commit", text(git, "commit")},
      {"mode", text(manifest, "mode")},
      {"aisp_source", o.source},
      {"aisp_time_note", "real_time = GPU time per sample (CUDA events); cpu_time = host wall time per sample"}};
  json benchmarks = json::array();
  int family = 0;
  for (auto& t : targets) {
    double bytes = t.workload.is_object() ? t.workload.value("bytes", 0.0) : 0.0;
    for (const VariantResult* v : variants_of(t)) {
      std::string name = export_name(t, *v);
      if (!exportable_timing(*v)) {
        json e = gbench_entry(name, "iteration", family++, 1);
        e["repetition_index"] = 0;
        e["error_occurred"] = true;
        e["error_message"] = why_not_exported(*v);
        benchmarks.push_back(e);
        continue;
      }
      const std::vector<double>& gpu = v->samples_ms;
      // cpu_time: the host wall time around each sample when recorded, else the GPU time itself.
      const std::vector<double>& host = v->wall_ms.size() == gpu.size() ? v->wall_ms : gpu;
      Summary g = summarize(gpu), h = summarize(host);
      int64_t n = static_cast<int64_t>(gpu.size());
      json counters = json::object();
      if (v != &t.baseline && v->ci_high > 0) {
        counters = {{"speedup", v->speedup}, {"speedup_ci_low", v->ci_low}, {"speedup_ci_high", v->ci_high},
                    {"p_value", v->p_value}};
      }
      if (bytes > 0 && g.mean > 0) counters["bytes_per_second"] = bytes / (g.mean / 1e3);
      std::string label = v->verdict.empty() ? v->technique : v->verdict + (v->technique.empty() ? "" : "; " + v->technique);
      auto iteration = [&](int64_t rep_index, int64_t iterations, double gpu_ms, double host_ms) {
        json e = gbench_entry(name, "iteration", family, o.samples_as_repetitions ? n : 1);
        e["repetition_index"] = rep_index;
        e["iterations"] = iterations;
        e["real_time"] = gpu_ms * 1e3;
        e["cpu_time"] = host_ms * 1e3;
        e["time_unit"] = "us";
        e.update(counters);
        if (!label.empty()) e["label"] = label;
        benchmarks.push_back(e);
      };
      if (o.samples_as_repetitions) {
        for (int64_t i = 0; i < n; ++i) iteration(i, 1, gpu[i], host[i]);
      } else {
        iteration(0, n, g.mean, h.mean);  // gbench's per-iteration time is the run's average
      }
      struct Agg { const char* name; double real, cpu; const char* unit; };
      double cv_real = g.mean > 0 ? g.stdev / g.mean : 0, cv_cpu = h.mean > 0 ? h.stdev / h.mean : 0;
      for (Agg a : {Agg{"mean", g.mean * 1e3, h.mean * 1e3, "time"}, Agg{"median", g.median * 1e3, h.median * 1e3, "time"},
                    Agg{"stddev", g.stdev * 1e3, h.stdev * 1e3, "time"}, Agg{"cv", cv_real, cv_cpu, "percentage"}}) {
        json e = gbench_entry(name + "_" + a.name, "aggregate", family, o.samples_as_repetitions ? n : 1);
        e["run_name"] = name;
        e["aggregate_name"] = a.name;
        e["aggregate_unit"] = a.unit;
        e["iterations"] = o.samples_as_repetitions ? int64_t{1} : n;
        e["real_time"] = a.real;
        e["cpu_time"] = a.cpu;
        e["time_unit"] = "us";
        benchmarks.push_back(e);
      }
      ++family;
    }
  }
  return {{"context", context}, {"benchmarks", benchmarks}};
}

// ---- NVBench -----------------------------------------------------------------------------------

namespace {

// nvbench writes every number as a string (to keep int64 exact); nvbench_compare.py float()s them.
json datum(const char* type, json value) { return {{"name", "value"}, {"type", type}, {"value", std::move(value)}}; }
std::string f64(double x) { return fmt::format("{}", x); }

json summary(const std::string& tag, const std::string& name, const std::string& hint, const std::string& description,
             json data, bool hide = false) {
  json s = {{"tag", tag}, {"name", name}, {"description", description}, {"data", json::array({std::move(data)})}};
  if (!hint.empty()) s["hint"] = hint;
  if (hide) s["hide"] = "Hidden by default.";
  return s;
}

// Only static properties: nvbench_compare.py refuses to compare files whose device sections differ,
// so clocks-now, temperatures or UUIDs would make every pair of runs incomparable.
json nvbench_device(const json& manifest) {
  json hw = manifest.value("hardware", json::object());
  json gpu = json::object();
  for (auto& g : manifest.value("gpus", json::array()))
    if (gpu.empty() || text(g, "uuid") == text(hw, "gpu_uuid")) gpu = g;
  json d = {{"id", gpu.value("ordinal", 0)}, {"name", text(gpu, "name", text(hw, "gpu_model", "unknown GPU"))}};
  if (gpu.contains("cc_major")) {
    int sm = gpu.value("cc_major", 0) * 100 + gpu.value("cc_minor", 0) * 10;
    d["sm_version"] = sm;
    d["ptx_version"] = sm;
  }
  auto copy = [&](const char* from, const char* to, double scale = 1) {
    if (gpu.contains(from) && gpu[from].is_number()) d[to] = static_cast<int64_t>(gpu[from].get<double>() * scale);
  };
  copy("sm_clock_max_mhz", "sm_default_clock_rate", 1e6);
  copy("sm_count", "number_of_sms");
  copy("max_threads_per_sm", "max_threads_per_sm");
  copy("regs_per_sm", "registers_per_sm");
  copy("global_memory_bytes", "global_memory_size");
  copy("mem_clock_max_mhz", "global_memory_bus_peak_clock_rate", 1e6);
  copy("memory_bus_width_bits", "global_memory_bus_width");
  if (d.contains("global_memory_bus_peak_clock_rate") && d.contains("global_memory_bus_width"))  // DDR: 2 per clock
    d["global_memory_bus_bandwidth"] = static_cast<int64_t>(2.0 * d["global_memory_bus_peak_clock_rate"].get<double>() *
                                                            d["global_memory_bus_width"].get<double>() / 8);
  copy("l2_bytes", "l2_cache_size");
  copy("max_shared_per_block_optin", "shared_memory_per_block");
  if (gpu.contains("ecc_enabled")) d["ecc_state"] = gpu["ecc_enabled"].is_number() ? gpu["ecc_enabled"].get<int>() != 0 : false;
  return d;
}

json time_summaries(const VariantResult& v, const std::string& mode, double bytes, double peak_bw) {
  json out = json::array();
  const Summary& s = v.timing;
  double sec = 1e-3;  // ms -> s
  if (mode != "cold") {
    // Hot and graph samples are back-to-back batches: nvbench's batch measurement (mean only).
    out.push_back(summary("nv/batch/sample_size", "Samples", "sample_size", "Number of batch samples",
                          datum("int64", std::to_string(s.n))));
    out.push_back(summary("nv/batch/time/gpu/mean", "Batch GPU", "duration",
                          "Mean batch kernel execution time (measured by CUDA events)", datum("float64", f64(s.mean * sec))));
    return out;
  }
  out.push_back(summary("nv/cold/sample_size", "Samples", "sample_size", "Number of isolated kernel executions",
                        datum("int64", std::to_string(s.n))));
  auto gpu_time = [&](const char* stat, const char* name, double ms, bool hide) {
    out.push_back(summary(fmt::format("nv/cold/time/gpu/{}", stat), name, "duration",
                          fmt::format("{} isolated kernel execution time (CUDA events, L2 flushed)", name),
                          datum("float64", f64(ms * sec)), hide));
  };
  gpu_time("mean", "GPU Time", s.mean, false);
  gpu_time("min", "Min GPU Time", s.min, true);
  gpu_time("max", "Max GPU Time", s.max, true);
  gpu_time("median", "Median GPU Time", s.median, true);
  if (!v.samples_ms.empty()) {
    double q1 = percentile(v.samples_ms, 25), q3 = percentile(v.samples_ms, 75);
    gpu_time("q1", "Q1 GPU Time", q1, true);
    gpu_time("q3", "Q3 GPU Time", q3, true);
    gpu_time("iqr/absolute", "GPU IQR", q3 - q1, true);
  }
  gpu_time("stdev/absolute", "GPU Stdev", s.stdev, true);
  // Like nvbench: no noise figure from fewer than 5 samples (nvbench's +inf, written as null).
  json noise = s.n >= 5 ? json(f64(s.rel_noise)) : json(nullptr);
  out.push_back(summary("nv/cold/time/gpu/stdev/relative", "Noise", "percentage",
                        "Relative standard deviation of isolated GPU times", datum("float64", noise)));
  if (v.wall_ms.size() == v.samples_ms.size() && !v.wall_ms.empty()) {
    Summary h = summarize(v.wall_ms);
    out.push_back(summary("nv/cold/time/cpu/mean", "CPU Time", "duration",
                          "Mean isolated kernel execution time (host wall clock around each sample)",
                          datum("float64", f64(h.mean * sec))));
    out.push_back(summary("nv/cold/time/cpu/stdev/relative", "Noise", "percentage",
                          "Relative standard deviation of isolated CPU times",
                          datum("float64", h.n >= 5 ? json(f64(h.rel_noise)) : json(nullptr))));
  }
  if (bytes > 0 && s.mean > 0) {
    double bw = bytes / (s.mean * sec);
    out.push_back(summary("nv/cold/bw/global/bytes_per_second", "GlobalMem BW", "byte_rate",
                          "Number of bytes read/written per second to the CUDA device's global memory",
                          datum("float64", f64(bw))));
    if (peak_bw > 0)
      out.push_back(summary("nv/cold/bw/global/utilization", "BWUtil", "percentage",
                            "Global device memory utilization as a percentage of peak", datum("float64", f64(bw / peak_bw))));
  }
  return out;
}

}  // namespace

json to_nvbench_json(const std::vector<TargetResult>& targets, const json& manifest, const ExportOptions& o) {
  json device = nvbench_device(manifest);
  int dev_id = device.value("id", 0);
  double peak_bw = device.value("global_memory_bus_bandwidth", 0.0);
  json git = manifest.value("git", json::object());
  json meta = {
      {"argv", json::array({text(manifest, "command", "aisp bench run")})},
      {"version", {{"json", {{"major", 1}, {"minor", 0}, {"patch", 0}, {"string", "1.0.0"}}},
                   {"aisp", {{"string", text(manifest.value("software", json::object()), "aisp_version", AISP_VERSION)},
                             {"git_sha", text(git, "commit")},
                             {"git_is_dirty", git.value("dirty", json(nullptr))}}}}},
      {"aisp", {{"source", o.source}, {"mode", text(manifest, "mode")}, {"start_time", text(manifest, "start_time")}}}};
  json benchmarks = json::array();
  int index = 0;
  for (auto& t : targets) {
    double bytes = t.workload.is_object() ? t.workload.value("bytes", 0.0) : 0.0;
    std::string mode = t.mode.empty() ? text(manifest, "mode", "cold") : t.mode;
    for (const VariantResult* v : variants_of(t)) {
      json state = {{"name", fmt::format("Device={}", dev_id)},
                    {"description", fmt::format("Device={}", dev_id)},  // older nvbench_compare matched on this
                    {"device", dev_id},
                    {"type_config_index", 0},
                    {"axis_values", nullptr}};
      if (exportable_timing(*v)) {
        json sums = time_summaries(*v, mode, bytes, peak_bw);
        auto hidden = [&](const char* tag, const char* name, const char* type, json value) {
          sums.push_back(summary(tag, name, "", name, datum(type, std::move(value)), true));
        };
        hidden("aisp/status", "Status", "string", v->status);
        if (v != &t.baseline && v->ci_high > 0) {
          hidden("aisp/speedup", "Speedup", "float64", f64(v->speedup));
          hidden("aisp/speedup/ci_low", "Speedup CI low", "float64", f64(v->ci_low));
          hidden("aisp/speedup/ci_high", "Speedup CI high", "float64", f64(v->ci_high));
          hidden("aisp/p_value", "Mann-Whitney p", "float64", f64(v->p_value));
          hidden("aisp/verdict", "Verdict", "string", v->verdict);
        }
        state["summaries"] = sums;
        state["is_skipped"] = false;
      } else {
        state["summaries"] = json::array();
        state["is_skipped"] = true;
        state["skip_reason"] = why_not_exported(*v);
      }
      benchmarks.push_back({{"name", export_name(t, *v)},
                            {"index", index++},
                            {"devices", json::array({dev_id})},
                            {"axes", nullptr},
                            {"states", json::array({state})}});
    }
  }
  return {{"meta", meta}, {"devices", json::array({device})}, {"benchmarks", benchmarks}};
}

}  // namespace aisp
