// Element types the harness can allocate, fill, poison and compare. CUDA-free so `core` can use it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aisp {

enum class DType : uint8_t { f64, f32, tf32, f16, bf16, fp8_e4m3, fp8_e5m2, i64, i32, i8, u8 };

constexpr size_t dtype_size(DType t) {
  switch (t) {
    case DType::f64: case DType::i64: return 8;
    case DType::f32: case DType::tf32: case DType::i32: return 4;
    case DType::f16: case DType::bf16: return 2;
    default: return 1;
  }
}

constexpr bool dtype_is_float(DType t) {
  return t != DType::i64 && t != DType::i32 && t != DType::i8 && t != DType::u8;
}

constexpr std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f64: return "f64";
    case DType::f32: return "f32";
    case DType::tf32: return "tf32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::fp8_e4m3: return "fp8_e4m3";
    case DType::fp8_e5m2: return "fp8_e5m2";
    case DType::i64: return "i64";
    case DType::i32: return "i32";
    case DType::i8: return "i8";
    case DType::u8: return "u8";
  }
  return "?";
}

inline std::optional<DType> dtype_from_name(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(DType::u8); ++i) {
    auto t = static_cast<DType>(i);
    if (dtype_name(t) == s) return t;
  }
  return std::nullopt;
}

}  // namespace aisp
