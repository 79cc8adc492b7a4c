// `bench power` (energy per run and work per joule from NVML energy counters) and `bench cost` ($ per
// operation from a GPU-hour price, with the saving of each variant over its baseline).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analysis/power_cost.hpp"

namespace aisp::analysis {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Power power(const std::vector<VariantRow>& rows) {
  Power p;
  std::map<std::string, double> baseline_j;
  for (auto& r : rows)
    if (r.baseline && r.energy.present) baseline_j[r.target] = r.energy.joules_per_run;
  std::vector<PowerRow> with, without;
  for (auto& r : rows) {
    if (!r.usable) continue;
    PowerRow x{r.target, r.variant, r.energy, kNaN, kNaN, kNaN, kNaN};
    if (r.energy.present) {
      double j = r.energy.joules_per_run;
      x.ops_per_joule = r.flops / j;
      x.items_per_joule = r.items / j;
      x.bytes_per_joule = r.bytes / j;
      auto b = baseline_j.find(r.target);
      if (!r.baseline && b != baseline_j.end()) x.energy_saving_pct = 100.0 * (1.0 - j / b->second);
      p.any_energy = true;
      with.push_back(std::move(x));
    } else {
      without.push_back(std::move(x));
    }
  }
  std::stable_sort(with.begin(), with.end(), [](const PowerRow& a, const PowerRow& b) {
    return a.target != b.target ? a.target < b.target : a.energy.joules_per_run < b.energy.joules_per_run;
  });
  p.rows = std::move(with);
  p.rows.insert(p.rows.end(), without.begin(), without.end());
  if (!p.any_energy)
    p.notes.push_back("no energy data in this run: no variant carries NVML energy-counter figures (energy per run "
                      "needs the harness to read nvmlDeviceGetTotalEnergyConsumption around timed blocks; GPUs "
                      "before Volta do not report it)");
  else if (!without.empty())
    p.notes.push_back(fmt::format("{} variant(s) have no energy figures (listed last, with the reason)", without.size()));
  p.notes.push_back("energy is the whole GPU's (board counter), so it includes idle SMs and memory refresh; "
                    "ops per joule = declared FLOPs per run / joules per run");
  return p;
}

PriceTable price_table_from_json(const json& doc, const std::string& source) {
  PriceTable t;
  t.source = source;
  if (!doc.is_object() || !doc.contains("gpus") || !doc["gpus"].is_array())
    throw std::runtime_error(source + ": a price file needs a \"gpus\" array");
  for (auto& g : doc["gpus"]) {
    GpuPrice p;
    p.gpu = g.value("gpu", "");
    p.source = g.value("source", "");
    p.as_of = g.value("as_of", "");
    if (!g.contains("usd_per_hour") || !g["usd_per_hour"].is_number() || g["usd_per_hour"].get<double>() <= 0)
      throw std::runtime_error(fmt::format("{}: {}: usd_per_hour must be a positive number", source, p.gpu));
    p.usd_per_hour = g["usd_per_hour"].get<double>();
    for (auto& m : g.value("match", json::array()))
      if (m.is_string()) p.match.push_back(lower(m.get<std::string>()));
    if (p.gpu.empty()) throw std::runtime_error(source + ": every entry needs a \"gpu\" name");
    t.prices.push_back(std::move(p));
  }
  return t;
}

std::optional<GpuPrice> find_price(const PriceTable& t, const std::string& gpu) {
  std::string q = lower(gpu);
  for (auto& p : t.prices)
    if (lower(p.gpu) == q) return p;
  // "NVIDIA H100 80GB HBM3" matches both "h100" and "h100 80gb hbm3": the longest pattern is the most specific.
  const GpuPrice* best = nullptr;
  size_t best_len = 0;
  for (auto& p : t.prices)
    for (auto& m : p.match)
      if (!m.empty() && q.find(m) != std::string::npos && m.size() > best_len) best = &p, best_len = m.size();
  if (best) return *best;
  return std::nullopt;
}

Cost cost(const std::vector<VariantRow>& rows, const PriceTable& prices, const std::string& gpu,
          const std::string& measured_gpu, double rate_override, size_t top_n) {
  Cost c;
  c.measured_on = measured_gpu;
  c.gpu = gpu.empty() ? measured_gpu : gpu;
  if (known(rate_override)) {
    if (rate_override <= 0) throw std::invalid_argument("--rate must be a positive USD per GPU-hour");
    c.usd_per_hour = rate_override;
    c.rate_source = "--rate on the command line";
  } else {
    if (c.gpu.empty())
      throw std::runtime_error("the GPU these runs were measured on is unknown (no manifest): pass --gpu NAME or --rate");
    auto p = find_price(prices, c.gpu);
    if (!p) {
      std::vector<std::string> names;
      for (auto& x : prices.prices) names.push_back(x.gpu);
      throw std::runtime_error(fmt::format("no price for GPU '{}' in {} (known: {}); add it there or pass --rate",
                                           c.gpu.empty() ? "?" : c.gpu, prices.source, fmt::join(names, ", ")));
    }
    c.usd_per_hour = p->usd_per_hour;
    c.gpu = p->gpu;
    c.rate_source = fmt::format("{} ({}{})", prices.source, p->source.empty() ? "no source given" : p->source,
                                p->as_of.empty() ? "" : ", as of " + p->as_of);
  }
  auto measured_entry = find_price(prices, measured_gpu);
  if (!gpu.empty() && !measured_gpu.empty() && (!measured_entry || lower(measured_entry->gpu) != lower(c.gpu)))
    c.notes.push_back(fmt::format("times were measured on {}; {}'s price is applied to them, which is what these "
                                  "runs would cost at that rate, not a prediction of {}'s speed", measured_gpu, gpu, gpu));
  double usd_per_ms = c.usd_per_hour / 3.6e6;
  std::map<std::string, double> baseline_ms;
  for (auto& r : rows)
    if (r.baseline && r.usable) baseline_ms[r.target] = r.median_ms;
  for (auto& r : rows) {
    if (r.baseline || !r.usable) continue;
    CostRow x;
    x.target = r.target;
    x.variant = r.variant;
    x.median_ms = r.median_ms;
    x.item_unit = r.item_unit;
    x.usd_per_op = r.median_ms * usd_per_ms;
    x.usd_per_million_ops = x.usd_per_op * 1e6;
    if (known(r.items)) x.usd_per_million_items = x.usd_per_op / r.items * 1e6;
    auto b = baseline_ms.find(r.target);
    if (b != baseline_ms.end()) {
      x.baseline_usd_per_million_ops = b->second * usd_per_ms * 1e6;
      x.saving_pct = 100.0 * (1.0 - r.median_ms / b->second);
      x.usd_saved_per_million_ops = x.baseline_usd_per_million_ops - x.usd_per_million_ops;
    }
    c.rows.push_back(std::move(x));
  }
  std::stable_sort(c.rows.begin(), c.rows.end(), [](const CostRow& a, const CostRow& b) {
    double sa = known(a.usd_saved_per_million_ops) ? a.usd_saved_per_million_ops : -1e300;
    double sb = known(b.usd_saved_per_million_ops) ? b.usd_saved_per_million_ops : -1e300;
    return sa > sb;
  });
  if (top_n > 0 && c.rows.size() > top_n) c.rows.resize(top_n);
  c.notes.push_back("one operation = one run() of the benchmark's workload, billed for its median GPU time at the "
                    "GPU-hour rate (the GPU is assumed busy with this work only)");
  return c;
}

}  // namespace aisp::analysis
