// Inline SVG charts for the HTML report: plain strings, no script, no external font or stylesheet, so the
// report is one file that renders the same offline. Internal to src/report.
#pragma once
#include <string>
#include <vector>

namespace aisp::report::svg {

std::string escape(const std::string& s);  // XML/HTML text and attribute escaping

// Horizontal bars with optional CI whiskers, one row per entry.
struct Bar {
  std::string label, value_text, color;
  double value = 0, low = 0, high = 0;  // low/high NaN: no whisker
};
struct BarChartOptions {
  std::string title, x_label;
  bool log_x = false;
  double reference = 0;            // a dashed vertical line (e.g. 1x = the baseline); <= 0: none
  std::string reference_label;
  double origin = 0;               // where bars start (1 for speedups on a log axis, 0 for linear)
  std::vector<std::pair<std::string, std::string>> legend;  // (color, text)
};
std::string bar_chart(const std::vector<Bar>& bars, const BarChartOptions& o);

// Scatter with labelled points; `frontier` points are filled and joined by a dashed line.
struct Point {
  std::string label, color;
  double x = 0, y = 0;
  bool frontier = false;
};
struct ScatterOptions {
  std::string title, x_label, y_label;
  bool log_x = false;
};
std::string scatter(const std::vector<Point>& points, const ScatterOptions& o);

// Log-log roofline: the bandwidth slope and the compute roof, with each kernel at its intensity.
struct RooflineKernel {
  std::string label, color;
  double intensity = 0, flops_per_s = 0;
};
std::string roofline(const std::vector<RooflineKernel>& kernels, double peak_flops_per_s, double peak_bytes_per_s,
                     const std::string& title);

// A small line chart of one series over runs (oldest left) with its CI band and min/max labels.
std::string sparkline(const std::vector<double>& y, const std::vector<double>& low, const std::vector<double>& high,
                      const std::string& unit);

}  // namespace aisp::report::svg
