#include "report/svg_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

namespace aisp::report::svg {
namespace {

bool finite(double v) { return std::isfinite(v); }

// A value axis mapped onto pixels, linear or base-10 logarithmic.
struct Scale {
  double lo, hi, p0, p1;
  bool log;
  double operator()(double v) const {
    double a = log ? std::log10(std::max(v, 1e-300)) : v, l = log ? std::log10(lo) : lo, h = log ? std::log10(hi) : hi;
    double t = h > l ? (a - l) / (h - l) : 0.5;
    return p0 + std::clamp(t, -0.02, 1.02) * (p1 - p0);
  }
  // Ticks: 1-2-5 per decade on a log axis (only 1s when the range spans many decades), a "nice" step else.
  std::vector<double> ticks() const {
    std::vector<double> out;
    if (log) {
      double decades = std::log10(hi) - std::log10(lo);
      std::vector<double> mult = decades > 4 ? std::vector<double>{1} : std::vector<double>{1, 2, 5};
      for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
        for (double m : mult) {
          double v = m * std::pow(10.0, e);
          if (v >= lo * 0.999 && v <= hi * 1.001) out.push_back(v);
        }
      return out;
    }
    double span = hi - lo, raw = span / 6, mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6; v += step) out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
};

std::string tick_text(double v) {
  double a = std::abs(v);
  if (a == 0) return "0";
  if (a >= 1e15 || a < 1e-3) return fmt::format("{:.0e}", v);
  if (a >= 1e12) return fmt::format("{:g}T", v / 1e12);
  if (a >= 1e9) return fmt::format("{:g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

std::string open_svg(int w, int h, const std::string& title) {
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                     R"(font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12" role="img" aria-label="{2}">)"
                     R"(<rect width="{0}" height="{1}" fill="#ffffff"/>)"
                     R"(<text x="{3}" y="20" font-size="14" font-weight="bold" text-anchor="middle">{2}</text>)",
                     w, h, escape(title), w / 2);
}

// Grid lines and tick labels of a horizontal axis at pixel row `y0`, spanning rows [y_top, y0].
std::string x_axis(const Scale& s, double y_top, double y0, const std::string& label) {
  std::string out;
  for (double t : s.ticks()) {
    double x = s(t);
    out += fmt::format(R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#e3e3e3"/>)", x, y_top, y0);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="#444">{}</text>)", x, y0 + 15, tick_text(t));
  }
  out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#333"/>)", s.p0, y0, s.p1, y0);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" font-weight="bold">{}</text>)", (s.p0 + s.p1) / 2,
                     y0 + 34, escape(label));
  return out;
}

std::string y_axis(const Scale& s, double x_left, double x_right, const std::string& label) {
  std::string out;
  for (double t : s.ticks()) {
    double y = s(t);
    out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#e3e3e3"/>)", x_left, y, x_right, y);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="end" fill="#444">{}</text>)", x_left - 6, y + 4, tick_text(t));
  }
  out += fmt::format(R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#333"/>)", x_left, s.p0, s.p1);
  double mid = (s.p0 + s.p1) / 2;
  out += fmt::format(R"~(<text x="16" y="{0:.1f}" transform="rotate(-90 16 {0:.1f})" text-anchor="middle" font-weight="bold">{1}</text>)~",
                     mid, escape(label));
  return out;
}

// Log-axis range covering `lo..hi` with some margin, snapped outward to 1-2-5 values.
std::pair<double, double> log_range(double lo, double hi) {
  lo = std::max(lo, 1e-300);
  hi = std::max(hi, lo * 1.0001);
  auto down = [](double v) {
    double d = std::pow(10.0, std::floor(std::log10(v)));
    return v / d >= 5 ? 5 * d : v / d >= 2 ? 2 * d : d;
  };
  auto up = [](double v) {
    double d = std::pow(10.0, std::floor(std::log10(v)));
    return v / d <= 1 ? d : v / d <= 2 ? 2 * d : v / d <= 5 ? 5 * d : 10 * d;
  };
  return {down(lo / 1.15), up(hi * 1.15)};
}

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// Approximate text width at 12 px DejaVu Sans (~0.6 em per glyph): enough to keep labels apart.
double text_width(const std::string& s, double px = 12) { return 0.6 * px * static_cast<double>(s.size()); }

}  // namespace

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  return o;
}

std::string bar_chart(const std::vector<Bar>& bars, const BarChartOptions& o) {
  const int width = 940, label_w = 300, right_w = 190, row = 28, top = 56 + (o.legend.empty() ? 0 : 18);
  int height = top + static_cast<int>(bars.size()) * row + 56;
  double lo = o.log_x ? std::numeric_limits<double>::max() : std::min(0.0, o.origin), hi = o.origin;
  for (auto& b : bars)
    for (double v : {b.value, b.low, b.high})
      if (finite(v) && (!o.log_x || v > 0)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (o.reference > 0) lo = std::min(lo, o.reference), hi = std::max(hi, o.reference);
  if (o.log_x) {
    std::tie(lo, hi) = log_range(std::min(lo, o.origin > 0 ? o.origin : lo), hi);
  } else {
    hi = hi * 1.08;
  }
  Scale sx{lo, hi, static_cast<double>(label_w), static_cast<double>(width - right_w), o.log_x};
  double y_end = top + bars.size() * row;
  std::string out = open_svg(width, height, o.title);
  if (!o.legend.empty()) {
    double x = label_w;
    for (auto& [color, text] : o.legend) {
      out += fmt::format(R"(<rect x="{:.0f}" y="30" width="12" height="12" fill="{}"/><text x="{:.0f}" y="40">{}</text>)", x,
                         color, x + 16, escape(text));
      x += 16 + text_width(text) + 18;
    }
  }
  out += x_axis(sx, top - 4, y_end + 4, o.x_label);
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    double yc = top + i * row + row / 2.0;
    std::string label = b.label.size() > 46 ? b.label.substr(0, 45) + "…" : b.label;
    out += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">{}</text>)", label_w - 8, yc + 4, escape(label));
    if (finite(b.value) && (!o.log_x || b.value > 0)) {
      double x0 = sx(o.origin > 0 || !o.log_x ? o.origin : lo), x1 = sx(b.value);
      out += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" opacity="0.85"/>)",
                         std::min(x0, x1), yc - 9, std::max(1.0, std::abs(x1 - x0)), 18, b.color.empty() ? "#4c78a8" : b.color);
    }
    if (finite(b.low) && finite(b.high) && (!o.log_x || b.low > 0)) {
      double a = sx(b.low), c = sx(b.high);
      out += fmt::format(R"(<path d="M{0:.1f} {1:.1f}V{2:.1f}M{0:.1f} {3:.1f}H{4:.1f}M{4:.1f} {1:.1f}V{2:.1f}" stroke="#111" )"
                         R"(stroke-width="1.5" fill="none"/>)", a, yc - 6, yc + 6, yc, c);
    }
    out += fmt::format(R"(<text x="{}" y="{:.1f}" fill="#222">{}</text>)", width - right_w + 8, yc + 4, escape(b.value_text));
  }
  if (o.reference > 0) {
    double x = sx(o.reference);
    out += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2:.1f}" stroke="#c0392b" stroke-dasharray="5 3"/>)", x,
                       top - 4, y_end + 4);
    // Above the plot area, so it never sits on a bar.
    out += fmt::format(R"(<text x="{:.1f}" y="{}" fill="#c0392b" font-size="11" text-anchor="middle">{}</text>)", x,
                       top - 8, escape(o.reference_label));
  }
  return out + "</svg>";
}

std::string scatter(const std::vector<Point>& pts, const ScatterOptions& o) {
  const int width = 940, height = 440, left = 80, right = 40, top = 40, bottom = 60;
  double xlo = std::numeric_limits<double>::max(), xhi = -xlo, ylo = 0, yhi = 0;
  for (auto& p : pts) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  }
  if (pts.empty()) xlo = 0.5, xhi = 2;
  if (o.log_x) std::tie(xlo, xhi) = log_range(std::min(xlo, 0.9), std::max(xhi, 1.1));
  else xlo = std::min(xlo, 0.0), xhi = xhi * 1.1 + 1e-9;
  double pad = std::max(5.0, (yhi - ylo) * 0.12);
  ylo -= pad, yhi += pad;
  Scale sx{xlo, xhi, static_cast<double>(left), static_cast<double>(width - right), o.log_x};
  Scale sy{ylo, yhi, static_cast<double>(height - bottom), static_cast<double>(top), false};
  std::string out = open_svg(width, height, o.title);
  out += x_axis(sx, top, height - bottom, o.x_label);
  out += y_axis(sy, left, width - right, o.y_label);
  // Reference lines: no speedup (x = 1) and no memory change (y = 0).
  if (o.log_x && xlo < 1 && xhi > 1)
    out += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#999" stroke-dasharray="4 3"/>)", sx(1.0),
                       top, height - bottom);
  if (ylo < 0 && yhi > 0)
    out += fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#999" stroke-dasharray="4 3"/>)", left, sy(0.0),
                       width - right, sy(0.0));
  std::vector<const Point*> front;
  for (auto& p : pts)
    if (p.frontier) front.push_back(&p);
  std::sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->x < b->x; });
  if (front.size() > 1) {
    std::string d = fmt::format("M{:.1f} {:.1f}", sx(front[0]->x), sy(front[0]->y));
    for (size_t i = 1; i < front.size(); ++i) d += fmt::format("L{:.1f} {:.1f}", sx(front[i]->x), sy(front[i]->y));
    out += fmt::format(R"(<path d="{}" stroke="#e45756" stroke-width="1.5" fill="none" stroke-dasharray="6 3"/>)", d);
  }
  // Labels: right of the point, moved down (then up) until they clear the labels already placed.
  std::vector<Box> placed;
  for (auto& p : pts) {
    double x = sx(p.x), y = sy(p.y);
    placed.push_back({x - 6, y - 6, x + 6, y + 6});
  }
  for (auto& p : pts) {
    double x = sx(p.x), y = sy(p.y);
    std::string color = p.color.empty() ? "#4c78a8" : p.color;
    out += p.frontier ? fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="6" fill="{}" stroke="#111"/>)", x, y, color)
                      : fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="5" fill="#fff" stroke="{}" stroke-width="2"/>)", x, y, color);
    double w = text_width(p.label, 11);
    double lx = x + 9 + w > width - 4 ? x - 9 - w : x + 9;
    Box b{lx, y - 11, lx + w, y + 3};
    for (int k = 1; k < 12 && std::any_of(placed.begin(), placed.end(), [&](const Box& q) { return q.overlaps(b); }); ++k) {
      double dy = (k % 2 ? 1 : -1) * 14.0 * ((k + 1) / 2);
      b = {lx, y - 11 + dy, lx + w, y + 3 + dy};
    }
    placed.push_back(b);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11">{}</text>)", b.x0, b.y1 - 2, escape(p.label));
  }
  return out + "</svg>";
}

std::string roofline(const std::vector<RooflineKernel>& kernels, double peak_flops, double peak_bw, const std::string& title) {
  const int width = 940, height = 460, left = 80, right = 40, top = 40, bottom = 60;
  double ridge = peak_flops / peak_bw;
  double ilo = ridge / 100, ihi = ridge * 20, flo = peak_flops / 1e4, fhi = peak_flops;
  for (auto& k : kernels) {
    ilo = std::min(ilo, k.intensity), ihi = std::max(ihi, k.intensity);
    if (k.flops_per_s > 0) flo = std::min(flo, k.flops_per_s);
  }
  std::tie(ilo, ihi) = log_range(ilo, ihi);
  std::tie(flo, fhi) = log_range(flo, fhi);
  Scale sx{ilo, ihi, static_cast<double>(left), static_cast<double>(width - right), true};
  Scale sy{flo, fhi, static_cast<double>(height - bottom), static_cast<double>(top), true};
  std::string out = open_svg(width, height, title);
  out += x_axis(sx, top, height - bottom, "arithmetic intensity (FLOP per DRAM byte, declared workload), log scale");
  out += y_axis(sy, left, width - right, "achieved FLOP/s, log scale");
  // The roof: bandwidth slope up to the ridge point, then the compute ceiling.
  double i0 = std::max(ilo, flo / peak_bw);
  out += fmt::format(R"(<path d="M{:.1f} {:.1f}L{:.1f} {:.1f}L{:.1f} {:.1f}" stroke="#333" stroke-width="2.5" fill="none"/>)",
                     sx(i0), sy(i0 * peak_bw), sx(ridge), sy(peak_flops), sx(ihi), sy(peak_flops));
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11" fill="#333">compute roof {:.1f} TFLOP/s</text>)",
                     sx(ridge) + 8, sy(peak_flops) - 6, peak_flops / 1e12);
  // The slope label follows the bandwidth line; its on-screen angle depends on the axes' pixel aspect.
  double ax = sx(ridge / 20), ay = sy(ridge / 20 * peak_bw) - 6;
  double angle = std::atan2(sy(ridge / 20 * peak_bw) - sy(peak_flops), sx(ridge) - sx(ridge / 20)) * 180 / std::numbers::pi;
  if (ridge / 20 > ilo)
    out += fmt::format(R"~(<text x="{0:.1f}" y="{1:.1f}" font-size="11" fill="#333" transform="rotate({2:.1f} {0:.1f} {1:.1f})">)~"
                       R"(DRAM roof {3:.0f} GB/s</text>)", ax, ay, -angle, peak_bw / 1e9);
  std::vector<Box> placed;
  for (auto& k : kernels) {
    if (!(k.intensity > 0) || !(k.flops_per_s > 0)) continue;
    double x = sx(k.intensity), y = sy(k.flops_per_s);
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="6" fill="{}" stroke="#111"/>)", x, y,
                       k.color.empty() ? "#4c78a8" : k.color);
    double w = text_width(k.label, 11);
    double lx = x + 10 + w > width - 4 ? x - 10 - w : x + 10;
    Box b{lx, y - 11, lx + w, y + 3};
    for (int n = 1; n < 12 && std::any_of(placed.begin(), placed.end(), [&](const Box& q) { return q.overlaps(b); }); ++n) {
      double dy = (n % 2 ? 1 : -1) * 14.0 * ((n + 1) / 2);
      b = {lx, y - 11 + dy, lx + w, y + 3 + dy};
    }
    placed.push_back(b);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11">{}</text>)", b.x0, b.y1 - 2, escape(k.label));
  }
  return out + "</svg>";
}

std::string sparkline(const std::vector<double>& y, const std::vector<double>& low, const std::vector<double>& high,
                      const std::string& unit) {
  const int width = 260, height = 56, left = 46, right = 10, top = 6, bottom = 16;
  double lo = std::numeric_limits<double>::max(), hi = -lo;
  for (size_t i = 0; i < y.size(); ++i)
    for (double v : {y[i], i < low.size() ? low[i] : y[i], i < high.size() ? high[i] : y[i]})
      if (finite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(hi >= lo)) return "";
  if (hi - lo < 1e-9 * std::max(1.0, std::abs(hi))) lo -= 0.5 * std::abs(lo) * 0.01 + 1e-9, hi += 0.5 * std::abs(hi) * 0.01 + 1e-9;
  auto px = [&](size_t i) { return y.size() > 1 ? left + (width - left - right) * double(i) / double(y.size() - 1) : (left + width - right) / 2.0; };
  auto py = [&](double v) { return top + (height - top - bottom) * (hi - v) / (hi - lo); };
  std::string out = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
                                R"(font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="10">)", width, height);
  out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#999"/><line x1="{0}" y1="{2}" x2="{3}" y2="{2}" stroke="#999"/>)",
                     left, top, height - bottom, width - right);
  out += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">{:.4g}{}</text>)", left - 3, py(hi) + 4, hi, unit);
  out += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">{:.4g}{}</text>)", left - 3, py(lo) + 2, lo, unit);
  out += fmt::format(R"(<text x="{}" y="{}" >run 1</text><text x="{}" y="{}" text-anchor="end">run {}</text>)", left,
                     height - 4, width - right, height - 4, y.size());
  if (low.size() == y.size() && high.size() == y.size() && y.size() > 1) {
    std::string band;
    for (size_t i = 0; i < y.size(); ++i) band += fmt::format("{}{:.1f} {:.1f}", i ? "L" : "M", px(i), py(high[i]));
    for (size_t i = y.size(); i-- > 0;) band += fmt::format("L{:.1f} {:.1f}", px(i), py(low[i]));
    out += R"(<path d=")" + band + R"(Z" fill="#4c78a8" opacity="0.2"/>)";
  }
  std::string line;
  for (size_t i = 0; i < y.size(); ++i) line += fmt::format("{}{:.1f} {:.1f}", i ? "L" : "M", px(i), py(y[i]));
  out += R"(<path d=")" + line + R"(" stroke="#4c78a8" stroke-width="1.5" fill="none"/>)";
  for (size_t i = 0; i < y.size(); ++i)
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="#4c78a8"/>)", px(i), py(y[i]));
  return out + "</svg>";
}

}  // namespace aisp::report::svg
