#include "profile/profile_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "profile/metrics_catalog.hpp"

namespace aisp::profile {
namespace {

bool is_counter(const std::string& name, const std::string& unit) {
  if (name == m::duration) return true;
  if (name.rfind("launch__", 0) == 0) return false;
  bool sum = name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
  return sum && unit != "%";
}

double ratio(const KernelProfile& k, const char* num, const char* den) {
  double n = k.get(num), d = k.get(den);
  return std::isfinite(n) && std::isfinite(d) && d > 0 ? n / d : kNaN;
}

std::string human_bytes(double b) {
  if (!std::isfinite(b)) return "n/a";
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

std::string human_ns(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  return fmt::format("{:.1f} us", ns / 1e3);
}

std::string signed_pct(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0) return "n/a";
  double c = 100 * (b - a) / a;
  return fmt::format("{}{:.0f}%", c < 0 ? "\u2212" : "+", std::fabs(c));
}

bool changed(double a, double b, double rel) {
  return std::isfinite(a) && std::isfinite(b) && std::fabs(b - a) > rel * std::max(std::fabs(a), 1e-12);
}

}  // namespace

KernelProfile aggregate(const std::vector<KernelProfile>& ks) {
  if (ks.size() == 1) return ks.front();
  KernelProfile out;
  out.name = fmt::format("{} kernels", ks.size());
  std::map<std::string, double> weight;
  const KernelProfile* longest = nullptr;
  for (auto& k : ks) {
    double w = k.get(m::duration);
    if (!std::isfinite(w)) w = 1;
    if (!longest || w > longest->get(m::duration)) longest = &k;
    for (auto& [name, v] : k.metrics) {
      auto& o = out.metrics[name];
      if (o.unit.empty()) o.unit = v.unit;
      if (!std::isfinite(v.value)) continue;
      if (!std::isfinite(o.value)) o.value = 0;
      if (is_counter(name, v.unit)) {
        o.value += v.value;
      } else {
        o.value += v.value * w;
        weight[name] += w;
      }
    }
  }
  for (auto& [name, w] : weight)
    if (w > 0) out.metrics[name].value /= w;
  if (longest)
    for (auto& [name, v] : longest->metrics)
      if (name.rfind("launch__", 0) == 0) out.metrics[name] = v;
  return out;
}

ProfileComparison compare_profiles(const std::string& an, const KernelProfile& a, const std::string& bn,
                                   const KernelProfile& b) {
  ProfileComparison c;
  c.a_name = an;
  c.b_name = bn;
  c.a_ns = a.get(m::duration);
  c.b_ns = b.get(m::duration);
  if (std::isfinite(c.a_ns) && std::isfinite(c.b_ns) && c.b_ns > 0) c.speedup = c.a_ns / c.b_ns;

  struct Row { std::string label; double a, b; std::string unit; bool lower; std::string metric; };
  auto m2 = [&](const char* metric, const char* label, bool lower) {
    auto it = a.metrics.find(metric);
    std::string unit = it != a.metrics.end() ? it->second.unit : "";
    return Row{label, a.get(metric), b.get(metric), unit, lower, metric};
  };
  double a_dram = a.get(m::dram_read) + a.get(m::dram_write), b_dram = b.get(m::dram_read) + b.get(m::dram_write);
  std::vector<Row> rows = {
      m2(m::duration, "kernel time", true),
      Row{"DRAM bytes (read + write)", a_dram, b_dram, "byte", true, "dram__bytes_read.sum + dram__bytes_write.sum"},
      m2(m::dram_throughput, "DRAM throughput", false),
      m2(m::l2_throughput, "L2 throughput", false),
      m2(m::sm_throughput, "SM throughput", false),
      m2(m::occupancy, "achieved occupancy", false),
      m2(m::ld_requests, "global load requests", true),
      m2(m::st_requests, "global store requests", true),
      Row{"global load sectors/request", ratio(a, m::ld_sectors, m::ld_requests), ratio(b, m::ld_sectors, m::ld_requests),
          "sector/request", true, "l1tex__t_sectors / l1tex__t_requests (global ld)"},
      Row{"global store sectors/request", ratio(a, m::st_sectors, m::st_requests), ratio(b, m::st_sectors, m::st_requests),
          "sector/request", true, "l1tex__t_sectors / l1tex__t_requests (global st)"},
      m2(m::ld_sectors, "global load sectors (L1)", true),
      m2(m::st_sectors, "global store sectors (L1)", true),
      m2(m::ld_efficiency, "load bytes used per sector", false),
      m2(m::st_efficiency, "store bytes used per sector", false),
      m2(m::local_ld, "local (spill) load sectors", true),
      m2(m::bank_conflicts_ld, "shared-load bank conflicts", true),
      m2(m::registers, "registers per thread", true),
  };
  for (auto& r : stall_reasons()) {
    std::string metric = stall_metric(r);
    if (std::isfinite(a.get(metric)) && (a.get(metric) > 10 || b.get(metric) > 10))
      rows.push_back(Row{r + " stall", a.get(metric), b.get(metric), "%", true, metric});
  }
  for (auto& r : rows) {
    if (!std::isfinite(r.a) && !std::isfinite(r.b)) continue;
    MetricDelta d{r.metric, r.label, r.unit, r.a, r.b, kNaN, r.lower, "same"};
    if (std::isfinite(r.a) && std::isfinite(r.b) && r.a != 0) d.change_pct = 100 * (r.b - r.a) / r.a;
    if (changed(r.a, r.b, 0.02)) d.better = (r.b < r.a) == r.lower ? "b" : "a";
    c.deltas.push_back(d);
  }

  // The explanation: the changes that account for the time, strongest evidence first.
  auto& e = c.explanation;
  if (std::isfinite(c.speedup))
    e.push_back(fmt::format("kernel time {} -> {} ({:.2f}x, ncu's one profiled run; the harness's timing is the "
                            "headline)", human_ns(c.a_ns), human_ns(c.b_ns), c.speedup));
  for (bool store : {true, false}) {
    const char* sec = store ? m::st_sectors : m::ld_sectors;
    const char* req = store ? m::st_requests : m::ld_requests;
    const char* eff = store ? m::st_efficiency : m::ld_efficiency;
    double ra = ratio(a, sec, req), rb = ratio(b, sec, req), ea = a.get(eff), eb = b.get(eff);
    const char* side = store ? "store" : "load";
    if (changed(ea, eb, 0.25)) {
      e.push_back(fmt::format("global {}s use {:.0f}% -> {:.0f}% of each sector they move ({} sectors/request "
                              "{:.1f} -> {:.1f}): {}", side, ea, eb, side, ra, rb,
                              eb > ea ? "the access became coalesced" : "the access became less coalesced"));
    } else if (changed(a.get(req), b.get(req), 0.25)) {
      e.push_back(fmt::format("global {} requests {} ({:.1f} -> {:.1f} sectors per request, same bytes used per "
                              "sector): {}", side, signed_pct(a.get(req), b.get(req)), ra, rb,
                              b.get(req) < a.get(req) ? "wider accesses, fewer memory instructions in flight for the "
                                                        "same bytes" : "narrower accesses"));
    }
  }
  if (changed(a_dram, b_dram, 0.05))
    e.push_back(fmt::format("DRAM bytes {} ({} -> {})", signed_pct(a_dram, b_dram), human_bytes(a_dram), human_bytes(b_dram)));
  else if (std::isfinite(a_dram) && std::isfinite(b_dram))
    e.push_back(fmt::format("DRAM bytes unchanged ({} -> {}): the gain is not from moving fewer bytes",
                            human_bytes(a_dram), human_bytes(b_dram)));
  double da = a.get(m::dram_throughput), db = b.get(m::dram_throughput);
  if (std::isfinite(da) && std::isfinite(db) && std::fabs(db - da) >= 5)
    e.push_back(fmt::format("DRAM throughput {:.1f}% -> {:.1f}% of peak", da, db));
  double oa = a.get(m::occupancy), ob = b.get(m::occupancy);
  if (std::isfinite(oa) && std::isfinite(ob) && std::fabs(ob - oa) >= 10)
    e.push_back(fmt::format("achieved occupancy {:.0f}% -> {:.0f}%", oa, ob));
  double sa = a.get(m::local_ld), sb = b.get(m::local_ld);
  if (std::isfinite(sa) && std::isfinite(sb) && (sa > 0) != (sb > 0))
    e.push_back(sb == 0 ? fmt::format("register spills removed ({:.0f} -> 0 local sectors)", sa)
                        : fmt::format("register spills appeared (0 -> {:.0f} local sectors)", sb));
  for (auto& r : stall_reasons()) {
    std::string metric = stall_metric(r);
    double x = a.get(metric), y = b.get(metric);
    if (std::isfinite(x) && std::isfinite(y) && std::max(x, y) > 20 && std::fabs(y - x) >= 15)
      e.push_back(fmt::format("{} stall {:.0f}% -> {:.0f}% of active warps", r, x, y));
  }
  return c;
}

}  // namespace aisp::profile
