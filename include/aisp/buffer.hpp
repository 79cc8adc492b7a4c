// Buffers the harness owns: shapes, fills (a pure function of a seed) and roles.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "aisp/dtype.hpp"

namespace aisp {

struct Shape {
  std::vector<int64_t> dims;
  Shape() = default;
  Shape(std::initializer_list<int64_t> d) : dims(d) {}
  explicit Shape(std::vector<int64_t> d) : dims(std::move(d)) {}
  int64_t count() const {
    return std::accumulate(dims.begin(), dims.end(), int64_t{1}, [](int64_t a, int64_t b) { return a * b; });
  }
  int64_t operator[](size_t i) const { return dims.at(i); }
  size_t rank() const { return dims.size(); }
};

// How the harness fills an input. Every fill is a pure function of (seed, element index), so the harness
// can refill inputs at any time (fresh-input checks) and two workers produce identical inputs.
struct Fill {
  enum class Kind : uint8_t { uniform, normal, int_range, custom };
  // A custom generator writes `count` elements of the buffer's dtype to host memory, deterministically from seed.
  using Generator = void (*)(uint64_t seed, void* host_values, int64_t count);

  Kind kind = Kind::uniform;
  double a = -1.0, b = 1.0;  // uniform [a,b), normal (mean a, stddev b), int_range [a,b]
  Generator generator = nullptr;

  static Fill uniform(double lo, double hi) { return {Kind::uniform, lo, hi, nullptr}; }
  static Fill normal(double mean, double stddev) { return {Kind::normal, mean, stddev, nullptr}; }
  static Fill int_range(int64_t lo, int64_t hi) {
    return {Kind::int_range, static_cast<double>(lo), static_cast<double>(hi), nullptr};
  }
  static Fill custom(Generator g) { return {Kind::custom, 0, 0, g}; }
};

// `dynamic` inputs are activations: refilled between samples and by fresh-input checks; the outputs must
// follow them. `static_` inputs are weights/tables: filled before setup(), which may pre-pack them once.
enum class Role : uint8_t { dynamic, static_ };

struct Buffer {
  void* data = nullptr;
  DType dtype = DType::f32;
  Shape shape;
  std::string name;

  int64_t count() const { return shape.count(); }
  size_t bytes() const { return static_cast<size_t>(count()) * dtype_size(dtype); }
  template <class T> T* as() const { return static_cast<T*>(data); }
};

}  // namespace aisp
