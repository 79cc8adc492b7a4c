// Parser for Nsight Compute's raw CSV page (`ncu --import r.ncu-rep --csv --page raw --print-units base`):
// one header row of column names, one row of units, then one row per profiled kernel. Host-only (no CUDA),
// so the parser and everything built on it is unit-tested on CPU with recorded output (tests/data/profile).
#pragma once
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace aisp::profile {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct MetricValue {
  double value = kNaN;  // NaN when the cell is not a number ("n/a", an enum like "PolicySpread")
  std::string unit;     // as ncu printed it ("byte", "ns", "%", "" ...)
  std::string text;     // the cell as printed
};

struct KernelProfile {
  int id = 0;                // ncu's running kernel number within the report
  std::string name;          // demangled signature: "copy_scalar_kernel(const float *, float *, long)"
  std::string block, grid;   // "(256, 1, 1)"
  std::string nvtx;          // the push/pop range column ("<default domain>:aisp_timed:...")
  std::map<std::string, MetricValue> metrics;
  // The value of `metric`, or NaN when it was not collected (so a rule can say "not measured").
  double get(const std::string& metric) const;
  bool has(const std::string& metric) const { return std::isfinite(get(metric)); }
  std::string short_name() const;  // the name up to the parameter list
};

struct NcuCsv {
  std::vector<KernelProfile> kernels;
  std::vector<std::string> messages;  // ==PROF== / ==ERROR== / ==WARNING== lines found in the text
};

// Tolerates ncu's own ==PROF== lines before the table, thousands separators ("6,711,571.20"), and SI
// prefixes in the unit row when --print-units base was not given (values are then scaled to the base
// unit: "Mbyte" -> byte, "ms"/"us" -> ns, "Kcycle" -> cycle). Columns that only describe the device or
// the profiler (device__attribute_*, nvlink__*, numa__*, profiler__*) are dropped. Throws
// std::runtime_error when the text holds no header row.
NcuCsv parse_ncu_csv(const std::string& text);

// One CSV record split into fields (RFC 4180 quoting, as ncu writes it).
std::vector<std::string> split_csv_line(const std::string& line);
// "6,711,571.20" -> 6711571.2; "n/a", "" or text -> NaN.
double parse_number(const std::string& cell);

}  // namespace aisp::profile
