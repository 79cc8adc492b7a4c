#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/output_comparison.hpp"

namespace aisp {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
double decode(T bits, DType t) {
  return element_as_double(&bits, 0, t);
}

TEST(Decode, Half) {
  EXPECT_EQ(decode<uint16_t>(0x3C00, DType::f16), 1.0);
  EXPECT_EQ(decode<uint16_t>(0xC000, DType::f16), -2.0);
  EXPECT_EQ(decode<uint16_t>(0x3555, DType::f16), 0.333251953125);
  EXPECT_EQ(decode<uint16_t>(0x7BFF, DType::f16), 65504.0);
  EXPECT_EQ(decode<uint16_t>(0x0400, DType::f16), std::ldexp(1.0, -14));  // smallest normal
  EXPECT_EQ(decode<uint16_t>(0x0001, DType::f16), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(decode<uint16_t>(0x8000, DType::f16), 0.0);
  EXPECT_TRUE(std::signbit(decode<uint16_t>(0x8000, DType::f16)));
  EXPECT_EQ(decode<uint16_t>(0x7C00, DType::f16), kInf);
  EXPECT_EQ(decode<uint16_t>(0xFC00, DType::f16), -kInf);
  EXPECT_TRUE(std::isnan(decode<uint16_t>(0x7E00, DType::f16)));
  EXPECT_TRUE(std::isnan(decode<uint16_t>(0xFFFF, DType::f16)));
}

TEST(Decode, BFloat16) {
  EXPECT_EQ(decode<uint16_t>(0x3F80, DType::bf16), 1.0);
  EXPECT_EQ(decode<uint16_t>(0xC049, DType::bf16), -3.140625);
  EXPECT_EQ(decode<uint16_t>(0x7F7F, DType::bf16), 0x1.FEp127);  // max finite
  EXPECT_EQ(decode<uint16_t>(0x0001, DType::bf16), std::ldexp(1.0, -133));
  EXPECT_EQ(decode<uint16_t>(0x7F80, DType::bf16), kInf);
  EXPECT_TRUE(std::isnan(decode<uint16_t>(0x7FC0, DType::bf16)));
}

TEST(Decode, Fp8E4M3FN) {
  EXPECT_EQ(decode<uint8_t>(0x38, DType::fp8_e4m3), 1.0);
  EXPECT_EQ(decode<uint8_t>(0xB8, DType::fp8_e4m3), -1.0);
  EXPECT_EQ(decode<uint8_t>(0x7E, DType::fp8_e4m3), 448.0);   // max finite: S.1111.110
  EXPECT_EQ(decode<uint8_t>(0x78, DType::fp8_e4m3), 256.0);   // exponent 1111 is finite in E4M3FN
  EXPECT_EQ(decode<uint8_t>(0x08, DType::fp8_e4m3), std::ldexp(1.0, -6));
  EXPECT_EQ(decode<uint8_t>(0x01, DType::fp8_e4m3), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(decode<uint8_t>(0x7F, DType::fp8_e4m3)));
  EXPECT_TRUE(std::isnan(decode<uint8_t>(0xFF, DType::fp8_e4m3)));
}

TEST(Decode, Fp8E5M2) {
  EXPECT_EQ(decode<uint8_t>(0x3C, DType::fp8_e5m2), 1.0);
  EXPECT_EQ(decode<uint8_t>(0xC0, DType::fp8_e5m2), -2.0);
  EXPECT_EQ(decode<uint8_t>(0x7B, DType::fp8_e5m2), 57344.0);
  EXPECT_EQ(decode<uint8_t>(0x01, DType::fp8_e5m2), std::ldexp(1.0, -16));
  EXPECT_EQ(decode<uint8_t>(0x7C, DType::fp8_e5m2), kInf);
  EXPECT_EQ(decode<uint8_t>(0xFC, DType::fp8_e5m2), -kInf);
  EXPECT_TRUE(std::isnan(decode<uint8_t>(0x7D, DType::fp8_e5m2)));
  EXPECT_TRUE(std::isnan(decode<uint8_t>(0xFF, DType::fp8_e5m2)));
}

TEST(Decode, WideAndIntegerTypes) {
  EXPECT_EQ(decode<float>(1.5f, DType::tf32), 1.5);
  EXPECT_EQ(decode<double>(-2.25, DType::f64), -2.25);
  EXPECT_EQ(decode<int64_t>(-(int64_t{1} << 40), DType::i64), -std::ldexp(1.0, 40));
  EXPECT_EQ(decode<int32_t>(-7, DType::i32), -7.0);
  EXPECT_EQ(decode<int8_t>(-128, DType::i8), -128.0);
  EXPECT_EQ(decode<uint8_t>(255, DType::u8), 255.0);
  // Unaligned element access (buffers may be read from byte streams).
  unsigned char bytes[9] = {};
  float f = 3.0f;
  std::memcpy(bytes + 1, &f, 4);
  EXPECT_EQ(element_as_double(bytes + 1, 0, DType::f32), 3.0);
}

TEST(DefaultTolerance, SeedValues) {
  EXPECT_EQ(default_tolerance(DType::f32).rtol, 1e-5);
  EXPECT_EQ(default_tolerance(DType::f32).atol, 1e-8);
  EXPECT_EQ(default_tolerance(DType::f64).rtol, 1e-12);
  EXPECT_EQ(default_tolerance(DType::f16).rtol, 1e-3);
  EXPECT_EQ(default_tolerance(DType::bf16).atol, 1e-5);
  EXPECT_EQ(default_tolerance(DType::tf32).rtol, default_tolerance(DType::f16).rtol);
  EXPECT_EQ(default_tolerance(DType::fp8_e4m3).rtol, 1e-2);
  EXPECT_EQ(default_tolerance(DType::fp8_e5m2).atol, 1e-3);
  for (DType t : {DType::i64, DType::i32, DType::i8, DType::u8}) {
    EXPECT_EQ(default_tolerance(t).rtol, 0);
    EXPECT_EQ(default_tolerance(t).atol, 0);
  }
}

TEST(Compare, IdenticalAndEmpty) {
  std::vector<float> a{1, 2, 3};
  CompareResult r = compare_buffers(a.data(), a.data(), 3, DType::f32, default_tolerance(DType::f32));
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.first_mismatch, -1);
  EXPECT_EQ(r.max_abs_error, 0);
  EXPECT_TRUE(compare_buffers(nullptr, nullptr, 0, DType::f32, {}).passed());
}

TEST(Compare, ToleranceEdgeIsInclusive) {
  // Allowed error at baseline 2: 0.25 + 0.5 * 2 = 1.25 (all exact in binary).
  ToleranceValues tol{0.5, 0.25};
  float base = 2.0f, at_edge = 3.25f, past_edge = std::nextafter(3.25f, 4.0f);
  EXPECT_TRUE(compare_buffers(&base, &at_edge, 1, DType::f32, tol).passed());
  CompareResult r = compare_buffers(&base, &past_edge, 1, DType::f32, tol);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.first_mismatch, 0);
  EXPECT_EQ(r.baseline_value_at_first, 2.0);
  EXPECT_EQ(r.candidate_value_at_first, static_cast<double>(past_edge));
}

TEST(Compare, RelativeToleranceScalesWithBaselineNotCandidate) {
  ToleranceValues tol{0.5, 0};
  double small = 1.0, big = 1.9;  // |diff| = 0.9
  EXPECT_FALSE(compare_buffers(&small, &big, 1, DType::f64, tol).passed());  // 0.9 > 0.5 * 1.0
  EXPECT_TRUE(compare_buffers(&big, &small, 1, DType::f64, tol).passed());   // 0.9 <= 0.5 * 1.9
}

TEST(Compare, ErrorMaximaAndFirstMismatch) {
  std::vector<double> base{2, 4, 8, 0, 1};
  std::vector<double> cand{2.5, 4, 7, 1e-3, 1};
  CompareResult r = compare_buffers(base.data(), cand.data(), 5, DType::f64, {0, 0});
  EXPECT_EQ(r.mismatches, 3);
  EXPECT_EQ(r.first_mismatch, 0);
  EXPECT_EQ(r.baseline_value_at_first, 2);
  EXPECT_EQ(r.candidate_value_at_first, 2.5);
  EXPECT_EQ(r.max_abs_error, 1.0);
  EXPECT_GT(r.max_rel_error, 1e300);  // baseline 0: divided by the tiny floor, not by zero
  EXPECT_FALSE(std::isinf(r.max_rel_error));
  CompareResult nz = compare_buffers(base.data(), cand.data(), 3, DType::f64, {0, 0});
  EXPECT_EQ(nz.max_rel_error, 0.25);
}

TEST(Compare, NaNMatchesOnlyNaN) {
  std::vector<double> base{kNaN, kNaN, 1.0, 5.0};
  std::vector<double> cand{kNaN, 1.0, kNaN, 5.0};
  CompareResult r = compare_buffers(base.data(), cand.data(), 4, DType::f64, {1, 1});
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.first_mismatch, 1);
  EXPECT_TRUE(std::isnan(r.baseline_value_at_first));
  EXPECT_EQ(r.candidate_value_at_first, 1.0);
  EXPECT_EQ(r.max_abs_error, 0);  // NaN pairs do not pollute the error maxima
}

TEST(Compare, InfMustMatchExactly) {
  std::vector<float> base{INFINITY, INFINITY, -INFINITY, 1e38f};
  std::vector<float> cand{INFINITY, -INFINITY, -INFINITY, INFINITY};
  CompareResult r = compare_buffers(base.data(), cand.data(), 4, DType::f32, {1e9, 1e9});
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.first_mismatch, 1);
  EXPECT_EQ(r.max_abs_error, 0);
}

TEST(Compare, PoisonedOutputsAllMismatch) {
  // 0xFF bytes: NaN in every float format, -1 / 255 in the integer ones.
  struct Case {
    DType t;
    size_t n;
  };
  for (Case c : {Case{DType::f32, 4}, Case{DType::f16, 4}, Case{DType::bf16, 4}, Case{DType::fp8_e4m3, 4},
                 Case{DType::fp8_e5m2, 4}, Case{DType::i32, 4}, Case{DType::u8, 4}}) {
    std::vector<unsigned char> base(c.n * dtype_size(c.t), 0);  // zeros: valid in every format
    std::vector<unsigned char> poison(base.size(), 0xFF);
    CompareResult r = compare_buffers(base.data(), poison.data(), static_cast<int64_t>(c.n), c.t,
                                      default_tolerance(c.t));
    EXPECT_EQ(r.mismatches, static_cast<int64_t>(c.n)) << dtype_name(c.t);
    EXPECT_EQ(r.first_mismatch, 0) << dtype_name(c.t);
  }
}

TEST(Compare, HalfToleranceOnBitPatterns) {
  // 1.0 vs next half up (1 + 2^-10 ~ 9.8e-4 apart) passes f16 default 1e-3 + 1e-5; two ulps do not.
  std::vector<uint16_t> base{0x3C00, 0x3C00};
  std::vector<uint16_t> cand{0x3C01, 0x3C02};
  CompareResult r = compare_buffers(base.data(), cand.data(), 2, DType::f16, default_tolerance(DType::f16));
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.first_mismatch, 1);
  EXPECT_EQ(r.max_abs_error, std::ldexp(1.0, -9));
}

TEST(Compare, Fp8AndBf16) {
  uint8_t e4_base[2] = {0x38, 0x7E}, e4_cand[2] = {0x38, 0x7F};  // 448 vs NaN
  CompareResult r = compare_buffers(e4_base, e4_cand, 2, DType::fp8_e4m3, default_tolerance(DType::fp8_e4m3));
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.baseline_value_at_first, 448.0);

  uint8_t e5_base[2] = {0x7C, 0x3C}, e5_cand[2] = {0x7C, 0x3D};  // inf==inf; 1.0 vs 1.25
  r = compare_buffers(e5_base, e5_cand, 2, DType::fp8_e5m2, default_tolerance(DType::fp8_e5m2));
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.first_mismatch, 1);
  EXPECT_EQ(r.max_abs_error, 0.25);

  uint16_t b_base = 0x3F80, b_cand = 0x3F81;  // bf16 1.0 vs 1.0078125: beyond 1e-3 rtol
  EXPECT_FALSE(compare_buffers(&b_base, &b_cand, 1, DType::bf16, default_tolerance(DType::bf16)).passed());
  EXPECT_TRUE(compare_buffers(&b_base, &b_cand, 1, DType::bf16, {1e-2, 0}).passed());
}

TEST(Compare, IntegersAreExactBeyondDoublePrecision) {
  int64_t base = int64_t{1} << 53, cand = (int64_t{1} << 53) + 1;  // equal once converted to double
  CompareResult r = compare_buffers(&base, &cand, 1, DType::i64, default_tolerance(DType::i64));
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.max_abs_error, 1.0);
  std::vector<int8_t> a{-128, 0, 127}, b{-128, 0, 127};
  EXPECT_TRUE(compare_buffers(a.data(), b.data(), 3, DType::i8, {}).passed());
  int32_t x = 100, y = 101;
  EXPECT_TRUE(compare_buffers(&x, &y, 1, DType::i32, {0, 1}).passed());  // explicit tolerance still applies
}

TEST(Compare, NullBufferThrows) {
  float a = 1;
  EXPECT_THROW(compare_buffers(&a, nullptr, 1, DType::f32, {}), std::invalid_argument);
}

}  // namespace
}  // namespace aisp
