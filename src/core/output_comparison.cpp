#include "core/output_comparison.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace aisp {

namespace {

template <typename T>
T load(const void* data, int64_t i) {
  T v;  // memcpy: buffers come from files/byte vectors with no alignment promise
  std::memcpy(&v, static_cast<const unsigned char*>(data) + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Generic minifloat decode: `mbits` mantissa bits, exponent `bias`; special handling is the caller's.
double minifloat(uint32_t sign, uint32_t exp, uint32_t mant, int mbits, int bias) {
  double m = static_cast<double>(mant) / static_cast<double>(1u << mbits);
  double v = exp == 0 ? std::ldexp(m, 1 - bias) : std::ldexp(1.0 + m, static_cast<int>(exp) - bias);
  return sign ? -v : v;
}

double decode_f16(uint16_t h) {
  uint32_t s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return m ? kNaN : (s ? -kInf : kInf);
  return minifloat(s, e, m, 10, 15);
}

// OCP FP8 E4M3 ("FN"): no infinities; only S.1111.111 is NaN, so the top binade is usable (max 448).
double decode_e4m3(uint8_t b) {
  uint32_t s = b >> 7, e = (b >> 3) & 0xf, m = b & 0x7;
  if (e == 0xf && m == 0x7) return kNaN;
  return minifloat(s, e, m, 3, 7);
}

// OCP FP8 E5M2: IEEE-like, the top exponent holds Inf (mantissa 0) and NaN.
double decode_e5m2(uint8_t b) {
  uint32_t s = b >> 7, e = (b >> 2) & 0x1f, m = b & 0x3;
  if (e == 0x1f) return m ? kNaN : (s ? -kInf : kInf);
  return minifloat(s, e, m, 2, 15);
}

bool is_integer(DType t) { return !dtype_is_float(t); }

int64_t integer_at(const void* data, int64_t i, DType t) {
  switch (t) {
    case DType::i64: return load<int64_t>(data, i);
    case DType::i32: return load<int32_t>(data, i);
    case DType::i8: return load<int8_t>(data, i);
    case DType::u8: return load<uint8_t>(data, i);
    default: throw std::logic_error("integer_at on a float dtype");
  }
}

}  // namespace

ToleranceValues default_tolerance(DType t) {
  switch (t) {
    case DType::f64: return {1e-12, 1e-15};
    case DType::f32: return {1e-5, 1e-8};
    // tf32 keeps 10 mantissa bits, the same precision as fp16.
    case DType::tf32: case DType::f16: case DType::bf16: return {1e-3, 1e-5};
    case DType::fp8_e4m3: case DType::fp8_e5m2: return {1e-2, 1e-3};
    default: return {0, 0};
  }
}

double element_as_double(const void* data, int64_t i, DType dtype) {
  switch (dtype) {
    case DType::f64: return load<double>(data, i);
    case DType::f32: case DType::tf32: return load<float>(data, i);
    case DType::f16: return decode_f16(load<uint16_t>(data, i));
    case DType::bf16: return std::bit_cast<float>(static_cast<uint32_t>(load<uint16_t>(data, i)) << 16);
    case DType::fp8_e4m3: return decode_e4m3(load<uint8_t>(data, i));
    case DType::fp8_e5m2: return decode_e5m2(load<uint8_t>(data, i));
    default: return static_cast<double>(integer_at(data, i, dtype));
  }
}

CompareResult compare_buffers(const void* baseline, const void* candidate, int64_t count, DType dtype,
                              ToleranceValues tol) {
  CompareResult r;
  if (count <= 0) return r;
  if (!baseline || !candidate) throw std::invalid_argument("compare_buffers: null buffer");
  r.count = count;
  constexpr double kTiny = std::numeric_limits<double>::min();
  const bool integral = is_integer(dtype);
  for (int64_t i = 0; i < count; ++i) {
    double b = element_as_double(baseline, i, dtype), c = element_as_double(candidate, i, dtype);
    bool ok;
    if (std::isnan(b) || std::isnan(c)) {
      ok = std::isnan(b) && std::isnan(c);
    } else if (std::isinf(b) || std::isinf(c)) {
      ok = b == c;
    } else {
      double abs_err = std::fabs(c - b);
      if (integral) {
        // Exact integer difference: distinct i64 values above 2^53 can round to the same double.
        __int128 d = static_cast<__int128>(integer_at(candidate, i, dtype)) - integer_at(baseline, i, dtype);
        abs_err = static_cast<double>(d < 0 ? -d : d);
      }
      ok = abs_err <= tol.atol + tol.rtol * std::fabs(b);
      r.max_abs_error = std::max(r.max_abs_error, abs_err);
      r.max_rel_error = std::max(r.max_rel_error, abs_err / std::max(std::fabs(b), kTiny));
    }
    if (!ok) {
      if (r.mismatches == 0) {
        r.first_mismatch = i;
        r.baseline_value_at_first = b;
        r.candidate_value_at_first = c;
      }
      ++r.mismatches;
    }
  }
  return r;
}

}  // namespace aisp
