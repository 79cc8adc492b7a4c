#include "core/tolerance_contract.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace aisp {

std::string tolerance_difference(const Tolerance& a, const Tolerance& b) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (a.rtol != b.rtol) add(fmt::format("rtol {:g} vs the pair's {:g}", b.rtol, a.rtol));
  if (a.atol != b.atol) add(fmt::format("atol {:g} vs the pair's {:g}", b.atol, a.atol));
  if (a.justification != b.justification)
    add(fmt::format("justification \"{}\" vs the pair's \"{}\"", b.justification, a.justification));
  return out;
}

double round_to(double x, DType to) {
  if (!std::isfinite(x) || x == 0) return x;
  int bits = 8, min_exp = -133, max_exp = 127;  // bf16: fp32's exponent range, 8 significant bits
  double max_finite = std::numeric_limits<float>::max();
  if (to == DType::f16) {
    bits = 11;
    min_exp = -24;  // quantum of the subnormals
    max_exp = 15;
    max_finite = 65504.0;
  }
  int e = 0;
  std::frexp(x, &e);  // x = m 2^e, 0.5 <= |m| < 1
  int quantum_exp = std::max(e - bits, min_exp);
  double r = std::ldexp(std::nearbyint(std::ldexp(x, -quantum_exp)), quantum_exp);
  if (std::abs(r) > max_finite || e - 1 > max_exp) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

RoundingProbe probe_rounding(const void* data, int64_t count, DType dtype, ToleranceValues tol, DType to) {
  RoundingProbe p;
  for (int64_t i = 0; i < count; ++i) {
    double x;
    if (dtype == DType::f64) {
      std::memcpy(&x, static_cast<const char*>(data) + i * 8, 8);
    } else {
      float f;
      std::memcpy(&f, static_cast<const char*>(data) + i * 4, 4);
      x = f;
    }
    if (!std::isfinite(x)) continue;
    ++p.elements;
    double r = round_to(x, to);
    if (r == x) continue;
    ++p.changed;
    if (!(std::abs(r - x) <= tol.atol + tol.rtol * std::abs(x))) ++p.failing;
  }
  return p;
}

std::optional<DType> rounding_to_refuse(DType precision) {
  switch (precision) {
    case DType::f64: case DType::f32: case DType::tf32: return DType::bf16;
    default: return std::nullopt;
  }
}

}  // namespace aisp
