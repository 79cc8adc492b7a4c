#include "core/sample_projection.hpp"

#include "core/seed_mix.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace aisp {

std::optional<std::string> projection_mismatch(const SampleProjection& ref, const SampleProjection& got,
                                               const std::vector<ProjectionTolerance>& tol,
                                               const std::vector<std::string>& names) {
  if (ref.size() != got.size() || ref.size() != tol.size())
    return fmt::format("{} outputs reduced, the baseline's {}", got.size(), ref.size());
  for (size_t o = 0; o < ref.size(); ++o) {
    const OutputProjection &r = ref[o], &g = got[o];
    const ProjectionTolerance& t = tol[o];
    const std::string name = o < names.size() ? names[o] : fmt::format("#{}", o);
    if (r.nonfinite != g.nonfinite)
      return fmt::format("output '{}' has {:.0f} NaN/Inf elements, the baseline's {:.0f} (poison left unwritten, "
                         "or values out of range)", name, g.nonfinite, r.nonfinite);
    const double n = static_cast<double>(t.count);
    const double sum_t2 = n * t.atol * t.atol + 2.0 * t.atol * t.rtol * r.abs_sum + t.rtol * t.rtol * r.sq_sum;
    const double bound = kProjectionSigmas * std::sqrt(std::max(sum_t2, 0.0)) +
                         kReductionSlack * (r.abs_sum + g.abs_sum) + 1e-300;
    for (int k = 0; k < kProjections; ++k) {
      const double d = std::abs(g.proj[k] - r.proj[k]);
      if (!(d <= bound))
        return fmt::format("output '{}': random projection {} differs from the baseline's by {:.4g}, above the "
                           "{:.4g} that rounding within the tolerance (rtol {:g}, atol {:g}) can explain",
                           name, k, d, bound, t.rtol, t.atol);
    }
  }
  return std::nullopt;
}

nlohmann::json to_json(const SampleProjection& p) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& o : p) {
    nlohmann::json row = nlohmann::json::array();
    for (double v : o.proj) row.push_back(v);
    row.push_back(o.abs_sum);
    row.push_back(o.sq_sum);
    row.push_back(o.nonfinite);
    out.push_back(row);
  }
  return out;
}

SampleProjection sample_projection_from_json(const nlohmann::json& j) {
  SampleProjection p;
  if (!j.is_array()) throw std::invalid_argument("sample projection: not an array");
  for (auto& row : j) {
    if (!row.is_array() || row.size() != kProjections + 3)
      throw std::invalid_argument(fmt::format("sample projection: a row needs {} numbers", kProjections + 3));
    OutputProjection o;
    // A NaN sum travels as JSON null: keep it NaN so it never compares equal.
    auto num = [&](size_t i) { return row[i].is_number() ? row[i].get<double>() : std::nan(""); };
    for (int k = 0; k < kProjections; ++k) o.proj[k] = num(k);
    o.abs_sum = num(kProjections);
    o.sq_sum = num(kProjections + 1);
    o.nonfinite = num(kProjections + 2);
    p.push_back(o);
  }
  return p;
}

uint64_t sample_seed(uint64_t base, int64_t index) {
  return splitmix64(base + 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(index));
}

}  // namespace aisp
