// Fixed-width text tables for the terminal (nccl-tests / nvbandwidth style): one header row, a rule, rows.
// Header-only and CUDA-free so the unit tests can check alignment and number formatting.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace aisp::probes {

// Display width of a UTF-8 string (counts code points; our tables use only narrow characters).
inline size_t display_width(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;
  return w;
}

// Numbers for tables: NaN prints as "-", magnitudes pick their decimals so columns stay short.
inline std::string fmt_num(double v, int decimals = -1) {
  if (!std::isfinite(v)) return "-";
  if (decimals < 0) {
    double a = std::fabs(v);
    decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 2 : 3;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
inline std::string fmt_pct(double v) { return std::isfinite(v) ? fmt_num(v, 1) + "%" : "-"; }

class TextTable {
 public:
  // align: 'l' or 'r' per column.
  TextTable(std::vector<std::string> header, std::string align) : header_(std::move(header)), align_(std::move(align)) {
    align_.resize(header_.size(), 'l');
  }
  void add(std::vector<std::string> row) {
    row.resize(header_.size());
    rows_.push_back(std::move(row));
  }
  size_t size() const { return rows_.size(); }

  std::string render(const std::string& indent = "") const {
    std::vector<size_t> w(header_.size());
    for (size_t c = 0; c < header_.size(); ++c) {
      w[c] = display_width(header_[c]);
      for (auto& r : rows_) w[c] = std::max(w[c], display_width(r[c]));
    }
    auto line = [&](const std::vector<std::string>& r) {
      std::string s = indent;
      for (size_t c = 0; c < r.size(); ++c) {
        size_t pad = w[c] - display_width(r[c]);
        if (c) s += "  ";
        if (align_[c] == 'r') s += std::string(pad, ' ') + r[c];
        else s += r[c] + (c + 1 == r.size() ? "" : std::string(pad, ' '));
      }
      while (!s.empty() && s.back() == ' ') s.pop_back();
      return s + "\n";
    };
    std::string out = line(header_);
    size_t total = 0;
    for (size_t c = 0; c < w.size(); ++c) total += w[c] + (c ? 2 : 0);
    out += indent + std::string(total, '-') + "\n";
    for (auto& r : rows_) out += line(r);
    return out;
  }

 private:
  std::vector<std::string> header_;
  std::string align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace aisp::probes
