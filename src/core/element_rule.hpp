// The element-wise comparison rule of K2, written once for the host (core/output_comparison.cpp) and the
// device (runtime/device_compare.cu): decoding every dtype to double and judging one baseline/candidate
// pair. Plain arithmetic only, so nvcc compiles it for the GPU and a host compiler for the CPU; core
// stays free of CUDA (AISP_HD is empty outside nvcc).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "aisp/dtype.hpp"

#ifdef __CUDACC__
#define AISP_HD __host__ __device__
#else
#define AISP_HD
#endif

namespace aisp::element_rule {

AISP_HD inline double nan_value() { return NAN; }
AISP_HD inline double inf_value() { return INFINITY; }

template <typename T>
AISP_HD inline T load(const void* data, int64_t i) {
#ifdef __CUDA_ARCH__
  return static_cast<const T*>(data)[i];  // device buffers are allocation-aligned
#else
  T v;  // memcpy: host buffers come from files/byte vectors with no alignment promise
  memcpy(&v, static_cast<const unsigned char*>(data) + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
#endif
}

// Generic minifloat decode: `mbits` mantissa bits, exponent `bias`; special values are the caller's.
AISP_HD inline double minifloat(uint32_t sign, uint32_t exp, uint32_t mant, int mbits, int bias) {
  double m = static_cast<double>(mant) / static_cast<double>(1u << mbits);
  double v = exp == 0 ? std::ldexp(m, 1 - bias) : std::ldexp(1.0 + m, static_cast<int>(exp) - bias);
  return sign ? -v : v;
}

AISP_HD inline double decode_f16(uint16_t h) {
  uint32_t s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return m ? nan_value() : (s ? -inf_value() : inf_value());
  return minifloat(s, e, m, 10, 15);
}

// OCP FP8 E4M3 ("FN"): no infinities; only S.1111.111 is NaN, so the top binade is usable (max 448).
AISP_HD inline double decode_e4m3(uint8_t b) {
  uint32_t s = b >> 7, e = (b >> 3) & 0xf, m = b & 0x7;
  if (e == 0xf && m == 0x7) return nan_value();
  return minifloat(s, e, m, 3, 7);
}

// OCP FP8 E5M2: IEEE-like, the top exponent holds Inf (mantissa 0) and NaN.
AISP_HD inline double decode_e5m2(uint8_t b) {
  uint32_t s = b >> 7, e = (b >> 2) & 0x1f, m = b & 0x3;
  if (e == 0x1f) return m ? nan_value() : (s ? -inf_value() : inf_value());
  return minifloat(s, e, m, 2, 15);
}

AISP_HD inline double decode_bf16(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

AISP_HD inline int64_t integer_at(const void* data, int64_t i, DType t) {
  switch (t) {
    case DType::i64: return load<int64_t>(data, i);
    case DType::i32: return load<int32_t>(data, i);
    case DType::i8: return load<int8_t>(data, i);
    default: return load<uint8_t>(data, i);
  }
}

AISP_HD inline double decode(const void* data, int64_t i, DType dtype) {
  switch (dtype) {
    case DType::f64: return load<double>(data, i);
    case DType::f32: case DType::tf32: return load<float>(data, i);
    case DType::f16: return decode_f16(load<uint16_t>(data, i));
    case DType::bf16: return decode_bf16(load<uint16_t>(data, i));
    case DType::fp8_e4m3: return decode_e4m3(load<uint8_t>(data, i));
    case DType::fp8_e5m2: return decode_e5m2(load<uint8_t>(data, i));
    default: return static_cast<double>(integer_at(data, i, dtype));
  }
}

// One element judged: |c - b| <= atol + rtol * |b| (b = baseline); NaN matches NaN only where both are
// NaN; +/-Inf must match exactly. Errors are reported for finite pairs only (has_error).
struct ElementVerdict {
  bool ok = true;
  bool has_error = false;
  double abs_err = 0, rel_err = 0;
};

AISP_HD inline ElementVerdict judge_element(const void* baseline, const void* candidate, int64_t i, DType dtype,
                                            double rtol, double atol) {
  constexpr double kTiny = 2.2250738585072014e-308;  // smallest normal double
  ElementVerdict v;
  double b = decode(baseline, i, dtype), c = decode(candidate, i, dtype);
  if (std::isnan(b) || std::isnan(c)) {
    v.ok = std::isnan(b) && std::isnan(c);
    return v;
  }
  if (std::isinf(b) || std::isinf(c)) {
    v.ok = b == c;
    return v;
  }
  double abs_err = std::fabs(c - b);
  if (!dtype_is_float(dtype)) {
    // Exact integer difference: distinct i64 values above 2^53 can round to the same double.
    int64_t x = integer_at(candidate, i, dtype), y = integer_at(baseline, i, dtype);
    uint64_t d = x >= y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y) : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
    abs_err = static_cast<double>(d);
  }
  v.ok = abs_err <= atol + rtol * std::fabs(b);
  v.has_error = true;
  v.abs_err = abs_err;
  v.rel_err = abs_err / (std::fabs(b) > kTiny ? std::fabs(b) : kTiny);
  return v;
}

}  // namespace aisp::element_rule
