#include "probes/probe_core.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/json_io.hpp"
#include "probes/report_table.hpp"
#include "runtime/device.hpp"

namespace aisp::probes {

using nlohmann::json;

// ---------------------------------------------------------------- clocks

ClockMonitor::ClockMonitor(std::string uuid, int period_ms) : uuid_(std::move(uuid)), period_ms_(period_ms) {
  if (uuid_.empty() || !Nvml::instance().available()) return;
  running_ = true;
  thread_ = std::thread([this] { loop(); });
}

ClockMonitor::~ClockMonitor() { stop(); }

void ClockMonitor::loop() {
  while (running_) {
    NvmlSample s = Nvml::instance().sample(uuid_);
    if (s.valid) {
      std::lock_guard<std::mutex> lock(mu_);
      samples_.push_back(s);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
  }
}

ClockStats ClockMonitor::stop() {
  if (stopped_) return result_;
  stopped_ = true;
  if (running_) {
    running_ = false;
    thread_.join();
  }
  std::vector<double> sm, mem, pw, temp;
  ClockStats c;
  for (auto& s : samples_) {
    sm.push_back(s.sm_clock_mhz);
    mem.push_back(s.mem_clock_mhz);
    pw.push_back(s.power_w);
    temp.push_back(s.temperature_c);
    c.throttle_any |= s.throttle_reasons;
    if (s.throttle_reasons & throttle::slowdown_mask) ++c.slowdown_samples;
  }
  c.n = static_cast<int>(samples_.size());
  if (c.n) {
    c.sm_mhz_median = median(sm);
    c.sm_mhz_min = *std::min_element(sm.begin(), sm.end());
    c.sm_mhz_max = *std::max_element(sm.begin(), sm.end());
    c.mem_mhz_median = median(mem);
    c.power_w_median = median(pw);
    c.power_w_max = *std::max_element(pw.begin(), pw.end());
    c.temp_c_max = *std::max_element(temp.begin(), temp.end());
  }
  result_ = c;
  return c;
}

// ---------------------------------------------------------------- context

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

ProbeContext make_context(const ProbeOptions& opt) {
  ProbeContext ctx;
  ctx.opt = opt;
  ctx.dev = query_device(opt.device);
  ctx.hwkey = hardware_key(ctx.dev.name);
  ctx.family = family_of(ctx.dev.name, ctx.dev.sm_count);
  ctx.sheet = datasheet_for(ctx.family, ctx.dev.sm_count, ctx.dev.sm_clock_max_mhz, ctx.dev.mem_clock_max_mhz,
                            ctx.dev.memory_bus_width_bits);
  ctx.nvml_static = Nvml::instance().static_info(ctx.dev.uuid);
  ctx.started_utc = utc_now();
  return ctx;
}

void ProbeContext::finish(Figure& f) const {
  Anchor a = anchor_for(f.key, family);
  if (!has(f.best_public) && f.best_public_source.empty()) {
    f.best_public = a.best_public;
    f.best_public_source = a.source;
  }
  if (f.goal.kind == Goal::Kind::none) f.goal = a.goal;
  if (!f.samples.empty()) f.summary = summarize(f.samples);
  f.verdict = f.ok() ? judge(f.goal, f.value, pct(f.value, f.clock_ceiling)) : Verdict{"n/a", kNaN};
}

void measure(const ProbeContext& ctx, Figure& f, const std::function<void(Figure&)>& body) {
  ClockMonitor mon(ctx.dev.uuid);
  try {
    body(f);
  } catch (const std::exception& e) {
    f.status = std::string("error: ") + e.what();
    f.value = kNaN;
  }
  ClockStats window = mon.stop();
  if (f.clocks.n == 0) f.clocks = window;  // a body may record a narrower window (timed part only)
  ctx.finish(f);
}

// ---------------------------------------------------------------- text

static std::string clocks_line(const ClockStats& c) {
  if (c.n == 0) return "clocks: NVML not available";
  return fmt::format("clocks (NVML, {} samples): SM {:.0f} MHz median (min {:.0f}, max {:.0f}), mem {:.0f} MHz, "
                     "power {:.0f} W median / {:.0f} W max, {:.0f} C max, clocks-event reasons: {}",
                     c.n, c.sm_mhz_median, c.sm_mhz_min, c.sm_mhz_max, c.mem_mhz_median, c.power_w_median,
                     c.power_w_max, c.temp_c_max, throttle::describe(c.throttle_any));
}

static std::string device_header(const ProbeContext& ctx) {
  const auto& d = ctx.dev;
  if (d.sm_count == 0) return "# no GPU (host-only probe)\n";
  std::string s = fmt::format(
      "# GPU {}: {} [{}], key {}, {} SMs, L2 {:.0f} MiB, bus {}-bit, max SM {:.0f} MHz, mem {:.0f} MHz\n", d.ordinal,
      d.name, family_name(ctx.family), ctx.hwkey, d.sm_count, d.l2_bytes / 1048576.0, d.memory_bus_width_bits,
      d.sm_clock_max_mhz, d.mem_clock_max_mhz);
  const auto& st = ctx.nvml_static;
  if (st.valid)
    s += fmt::format("# driver {}, power limit {:.0f} W, ECC {}, persistence {}, other compute processes {}\n",
                     st.driver_version, st.power_limit_w, st.ecc_enabled, st.persistence_mode,
                     st.foreign_compute_processes);
  s += "# ceilings: " + ctx.sheet.basis + "\n";
  s += "# units: GB/s = 1e9 B/s, TFLOP/s = 1e12 flop/s; '% clk' = % of the ceiling recomputed at the measured clock\n";
  return s;
}

std::string render_text(const ProbeContext& ctx, const std::vector<ProbeResult>& results) {
  std::string out = device_header(ctx);
  const bool multi = results.size() > 1;  // `hw peak`: one table over all probes, probe in the first column
  std::vector<std::string> header = {"figure", "value", "unit", "% sheet", "% clk", "best public", "goal", "status", "m"};
  std::string align = "lrlrrrllr";
  if (multi) header.insert(header.begin(), "probe"), align = "l" + align;
  TextTable t(header, align);
  std::vector<std::string> methods;
  for (auto& r : results)
    for (auto& f : r.figures) {
      std::string status = f.ok() ? f.verdict.status : f.status.substr(0, f.status.find(':'));
      if (f.ok() && f.verdict.status != "met" && f.verdict.status != "n/a" && has(f.verdict.shortfall_pct))
        status += f.verdict.shortfall_pct < 0.05 ? std::string(" (<0.1% off)")
                                                 : fmt::format(" ({:.1f}% off)", f.verdict.shortfall_pct);
      methods.push_back((multi ? r.name + ": " : "") + (f.ok() ? f.method : f.status));
      std::vector<std::string> row = {f.label, fmt_num(f.value), f.unit, fmt_pct(pct(f.value, f.datasheet)),
                                      fmt_pct(pct(f.value, f.clock_ceiling)), fmt_num(f.best_public),
                                      f.goal.text.empty() ? "-" : f.goal.text, status,
                                      fmt::format("[{}]", methods.size())};
      if (multi) row.insert(row.begin(), r.name);
      t.add(row);
    }
  if (t.size()) {
    out += "\n" + t.render() + "\nmethods:\n";
    for (size_t i = 0; i < methods.size(); ++i) out += fmt::format("  [{}] {}\n", i + 1, methods[i]);
  }
  for (auto& r : results) {
    if (!multi)
      for (auto& s : r.series) {
        out += fmt::format("\n-- {} --\n", s.name);
        TextTable st(s.columns, std::string(s.columns.size(), 'r'));
        for (auto& row : s.rows) {
          std::vector<std::string> cells;
          for (double v : row) cells.push_back(fmt_num(v));
          st.add(cells);
        }
        out += st.render("  ");
      }
    out += fmt::format("\n{} ({:.1f} s): {}\n", r.name, r.wall_s, clocks_line(r.clocks));
    for (auto& n : r.notes) out += "  note: " + n + "\n";
  }
  if (multi) out += "\n(curves: bandwidth vs footprint, latency vs size, GEMM shapes, roofline points: --json / --out)\n";
  return out;
}

// ---------------------------------------------------------------- JSON

static json num(double v) { return has(v) ? json(v) : json(nullptr); }

static json clocks_json(const ClockStats& c) {
  return {{"samples", c.n},
          {"sm_mhz_median", num(c.sm_mhz_median)}, {"sm_mhz_min", num(c.sm_mhz_min)}, {"sm_mhz_max", num(c.sm_mhz_max)},
          {"mem_mhz_median", num(c.mem_mhz_median)}, {"power_w_median", num(c.power_w_median)},
          {"power_w_max", num(c.power_w_max)}, {"temp_c_max", num(c.temp_c_max)},
          {"clocks_event_reasons", c.throttle_any}, {"clocks_event_reasons_text", throttle::describe(c.throttle_any)},
          {"slowdown_samples", c.slowdown_samples}};
}

static json device_json(const ProbeContext& ctx) {
  const auto& d = ctx.dev;
  json j = {{"ordinal", d.ordinal}, {"name", d.name}, {"uuid", d.uuid}, {"family", family_name(ctx.family)},
            {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)}, {"sm_count", d.sm_count},
            {"l2_bytes", d.l2_bytes}, {"global_memory_bytes", d.global_memory_bytes},
            {"memory_bus_width_bits", d.memory_bus_width_bits}, {"sm_clock_max_mhz", d.sm_clock_max_mhz},
            {"mem_clock_max_mhz", d.mem_clock_max_mhz}};
  const auto& st = ctx.nvml_static;
  if (st.valid)
    j["nvml"] = {{"driver_version", st.driver_version}, {"power_limit_w", st.power_limit_w},
                 {"ecc_enabled", st.ecc_enabled}, {"persistence_mode", st.persistence_mode},
                 {"virtualization_mode", st.virtualization_mode},
                 {"foreign_compute_processes", st.foreign_compute_processes}};
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  j["cuda_runtime_version"] = rt;
  j["cuda_driver_version"] = drv;
  return j;
}

static json datasheet_json(const ProbeContext& ctx) {
  const auto& s = ctx.sheet;
  return {{"basis", s.basis},
          {"compute_clock_mhz", num(s.compute_clock_mhz)}, {"tensor_clock_mhz", num(s.tensor_clock_mhz)},
          {"hbm_gbs", num(s.hbm_gbs)}, {"pcie_gbs_per_dir", num(s.pcie_gbs_per_dir)}, {"l2_gbs_unofficial", num(s.l2_gbs)},
          {"smem_gbs", num(s.smem_gbs())},
          {"tflops_fp32", num(s.tflops(per_sm::fp32_fma, false))}, {"tflops_fp64", num(s.tflops(per_sm::fp64_fma, false))},
          {"tflops_fp64_tc", num(s.tflops(per_sm::fp64_tc, false))}, {"tflops_tf32", num(s.tflops(per_sm::tf32_tc, true))},
          {"tflops_bf16", num(s.tflops(per_sm::bf16_tc, true))}, {"tflops_fp16", num(s.tflops(per_sm::fp16_tc, true))},
          {"tflops_fp8_e4m3", num(s.tflops(per_sm::fp8_tc, true))}, {"tops_int8", num(s.tflops(per_sm::int8_tc, true))}};
}

static json figure_json(const Figure& f) {
  json params = json::object();
  for (auto& [k, v] : f.params) params[k] = v;
  json j = {{"key", f.key}, {"label", f.label}, {"value", num(f.value)}, {"unit", f.unit}, {"status", f.status},
            {"datasheet", num(f.datasheet)}, {"pct_datasheet", num(pct(f.value, f.datasheet))},
            {"clock_ceiling", num(f.clock_ceiling)}, {"clock_basis", f.clock_basis},
            {"pct_clock_ceiling", num(pct(f.value, f.clock_ceiling))}, {"kernel_clock_mhz", num(f.kernel_clock_mhz)},
            {"best_public", num(f.best_public)}, {"best_public_source", f.best_public_source},
            {"goal", f.goal.text}, {"verdict", f.verdict.status}, {"shortfall_pct", num(f.verdict.shortfall_pct)},
            {"method", f.method}, {"caps_key", f.caps_key}, {"params", params}, {"clocks", clocks_json(f.clocks)}};
  json samples = json::array();
  for (double v : f.samples) samples.push_back(num(v));
  j["samples"] = {{"unit", f.samples_unit}, {"values", samples}};
  if (f.summary.n)
    j["summary"] = {{"n", f.summary.n}, {"median", f.summary.median}, {"mean", f.summary.mean}, {"stdev", f.summary.stdev},
                    {"min", f.summary.min}, {"max", f.summary.max}, {"p10", f.summary.p10}, {"p90", f.summary.p90},
                    {"rel_noise", f.summary.rel_noise}};
  return j;
}

std::string render_json(const ProbeContext& ctx, const std::string& command, const std::vector<ProbeResult>& results) {
  json probes = json::array();
  for (auto& r : results) {
    json figs = json::array(), series = json::array();
    for (auto& f : r.figures) figs.push_back(figure_json(f));
    for (auto& s : r.series) {
      json rows = json::array();
      for (auto& row : s.rows) {
        json jr = json::array();
        for (double v : row) jr.push_back(num(v));
        rows.push_back(jr);
      }
      series.push_back({{"name", s.name}, {"columns", s.columns}, {"rows", rows}});
    }
    probes.push_back({{"name", r.name}, {"wall_s", r.wall_s}, {"figures", figs}, {"series", series},
                      {"notes", r.notes}, {"clocks", clocks_json(r.clocks)}});
  }
  json doc = {{"schema", "aisp.hw/1"}, {"command", "hw " + command}, {"started_utc", ctx.started_utc},
              {"finished_utc", utc_now()}, {"hardware_key", ctx.hwkey}, {"device", device_json(ctx)},
              {"datasheet", datasheet_json(ctx)}, {"units", "GB/s = 1e9 B/s; TFLOP/s = 1e12 flop/s"},
              {"probes", probes}};
  return doc.dump(2);
}

// ---------------------------------------------------------------- hardware_capabilities.json

static std::string caps_path(const ProbeContext& ctx) {
  return ctx.opt.caps_path.empty() ? "artifacts/hw/hardware_capabilities_" + ctx.hwkey + ".json" : ctx.opt.caps_path;
}

// Derived "best measured" ceilings: what the plausibility check should compare a benchmark against.
static void derive_best(json& ceilings) {
  auto value = [&](const std::string& k) {
    return ceilings.contains(k) && ceilings[k]["value"].is_number() ? ceilings[k]["value"].get<double>() : kNaN;
  };
  auto best_of = [&](const std::string& out, const std::vector<std::string>& keys, const std::string& unit) {
    double best = kNaN;
    std::string from;
    for (auto& k : keys) {
      double v = value(k);
      if (has(v) && (!has(best) || v > best)) best = v, from = k;
    }
    std::string all;
    for (auto& k : keys) all += (all.empty() ? "" : ", ") + k;
    if (has(best)) ceilings[out] = {{"value", best}, {"unit", unit}, {"derived_from", from}, {"method", "max of " + all}};
  };
  best_of("hbm_gbs", {"hbm_read_gbs", "hbm_write_gbs", "hbm_copy_gbs", "memcpy_d2d_gbs"}, "GB/s");
  for (std::string dt : {"bf16", "fp16", "tf32", "fp8_e4m3"})
    best_of("tflops_" + dt, {"tflops_" + dt + "_cublaslt", "tflops_" + dt + "_cublaslt_fastaccum", "tflops_" + dt + "_wgmma"},
            "TFLOP/s");
  best_of("tops_int8", {"tops_int8_cublaslt", "tops_int8_wgmma"}, "TOP/s");
  best_of("tflops_fp64_tc", {"tflops_fp64_cublaslt", "tflops_fp64_dmma"}, "TFLOP/s");
  best_of("tflops_fp32", {"tflops_fp32_fma"}, "TFLOP/s");
  best_of("tflops_fp64", {"tflops_fp64_fma"}, "TFLOP/s");
}

std::string update_capabilities(const ProbeContext& ctx, const std::vector<ProbeResult>& results) {
  namespace fs = std::filesystem;
  std::string path = caps_path(ctx);
  json doc = json::object();
  if (fs::exists(path)) {
    try {
      doc = read_json(path);
    } catch (const std::exception&) {
      doc = json::object();  // unreadable file: start over rather than fail the probe
    }
    if (doc.value("hardware_key", "") != ctx.hwkey) doc = json::object();
  }
  json& ceilings = doc["ceilings"];
  if (!ceilings.is_object()) ceilings = json::object();
  int n = 0;
  for (auto& r : results)
    for (auto& f : r.figures) {
      if (f.caps_key.empty() || !f.ok() || !has(f.value)) continue;
      ceilings[f.caps_key] = {{"value", f.value}, {"unit", f.unit}, {"label", f.label}, {"method", f.method},
                              {"probe", r.name}, {"measured_utc", utc_now()},
                              {"sm_clock_mhz", num(has(f.kernel_clock_mhz) ? f.kernel_clock_mhz : f.clocks.sm_mhz_median)},
                              {"datasheet", num(f.datasheet)}, {"pct_datasheet", num(pct(f.value, f.datasheet))}};
      ++n;
    }
  if (n == 0 && !fs::exists(path)) return "";
  derive_best(ceilings);
  doc["schema"] = "aisp.hardware_capabilities/1";
  doc["hardware_key"] = ctx.hwkey;
  doc["device"] = device_json(ctx);
  doc["datasheet"] = datasheet_json(ctx);
  doc["updated_utc"] = utc_now();
  doc["units"] = "GB/s = 1e9 B/s; TFLOP/s = 1e12 flop/s; bandwidths count bytes read + bytes written";
  write_json_atomic(path, doc);
  return path;
}

std::vector<std::pair<std::string, double>> read_capabilities(const ProbeContext& ctx) {
  std::vector<std::pair<std::string, double>> out;
  std::string path = caps_path(ctx);
  if (!std::filesystem::exists(path)) return out;
  try {
    json doc = read_json(path);
    if (doc.value("hardware_key", "") != ctx.hwkey) return out;
    for (auto& [k, v] : doc["ceilings"].items())
      if (v.contains("value") && v["value"].is_number()) out.emplace_back(k, v["value"].get<double>());
  } catch (const std::exception&) {
  }
  return out;
}

}  // namespace aisp::probes
