// `bench whatif`: which measured variants fit a memory budget, a latency budget, a throughput floor and a
// minimum speedup. The seed answered from a hard-coded table of techniques; this reads each variant's
// measured peak memory and latency percentiles, so the answer is about the code that was run.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/whatif.hpp"

namespace aisp::analysis {

WhatIf whatif(const std::vector<VariantRow>& rows, const WhatIfConstraints& c) {
  WhatIf w;
  w.constraints = c;
  bool use_median = c.latency_stat == "median";
  for (auto& r : rows) {
    WhatIfRow x{r, false, {}};
    if (!r.usable) x.violations.push_back("not usable: " + r.unusable_reason);
    if (known(c.max_vram_gb)) {
      // peak_mb is MiB (2^20 bytes); the budget is GiB (2^30 bytes), as GPU memory sizes are quoted.
      if (!known(r.peak_mb)) x.violations.push_back("no peak memory measured");
      else if (r.peak_mb > c.max_vram_gb * 1024.0)
        x.violations.push_back(fmt::format("peak memory {:.0f} MiB > {:.4g} GiB", r.peak_mb, c.max_vram_gb));
    }
    if (known(c.max_latency_ms)) {
      double lat = use_median ? r.median_ms : r.p99_ms;
      if (!known(lat)) x.violations.push_back(fmt::format("no {} latency measured", c.latency_stat));
      else if (lat > c.max_latency_ms)
        x.violations.push_back(fmt::format("{} latency {:.4g} ms > {:.4g} ms", c.latency_stat, lat, c.max_latency_ms));
    }
    if (known(c.min_throughput)) {
      if (!known(r.items_per_s)) x.violations.push_back("no throughput (the workload declares no items)");
      else if (r.items_per_s < c.min_throughput)
        x.violations.push_back(fmt::format("throughput {:.4g} {}/s < {:.4g}", r.items_per_s, r.item_unit, c.min_throughput));
    }
    if (known(c.min_speedup)) {
      if (!known(r.speedup)) x.violations.push_back("no speedup measured");
      else if (r.speedup < c.min_speedup)
        x.violations.push_back(fmt::format("speedup {:.3g}x < {:.3g}x", r.speedup, c.min_speedup));
    }
    x.fits = x.violations.empty();
    (x.fits ? w.fits : w.rejected).push_back(std::move(x));
  }
  std::stable_sort(w.fits.begin(), w.fits.end(), [](const WhatIfRow& a, const WhatIfRow& b) {
    return a.row.target != b.row.target ? a.row.target < b.row.target : a.row.median_ms < b.row.median_ms;
  });
  std::string last;
  for (auto& f : w.fits) {
    if (f.row.target == last) continue;  // the first fit of each target is its fastest
    last = f.row.target;
    w.best_per_target.push_back(fmt::format("{}: {} ({:.4g} ms median, {:.4g} ms p99, {} MiB peak)", f.row.target,
                                            f.row.variant, f.row.median_ms, f.row.p99_ms,
                                            known(f.row.peak_mb) ? fmt::format("{:.0f}", f.row.peak_mb) : "-"));
  }
  return w;
}

}  // namespace aisp::analysis
