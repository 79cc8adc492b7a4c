#include "profile/ncu_csv.hpp"

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace aisp::profile {
namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// Columns with facts about the device or the profiler rather than the kernel: hundreds of them in every
// row, useless to the analyses and noise in the store.
bool dropped_column(const std::string& name) {
  for (const char* p : {"device__attribute_", "nvlink__", "numa__", "profiler__", "c2clink__"})
    if (starts_with(name, p)) return true;
  return false;
}

// Without --print-units base, ncu scales each column to a readable prefix. Fold it back so a stored value
// always means the same thing: time in ns, sizes in bytes, counts unscaled. Units we do not know stay as
// printed (factor 1).
double unit_factor(std::string& unit) {
  struct Prefix { const char* unit; const char* base; double factor; };
  static const Prefix table[] = {
      {"nsecond", "ns", 1}, {"usecond", "ns", 1e3}, {"msecond", "ns", 1e6}, {"second", "ns", 1e9},
      {"us", "ns", 1e3}, {"ms", "ns", 1e6}, {"s", "ns", 1e9},
      {"Kbyte", "byte", 1e3}, {"Mbyte", "byte", 1e6}, {"Gbyte", "byte", 1e9}, {"Tbyte", "byte", 1e12},
      {"Kcycle", "cycle", 1e3}, {"Mcycle", "cycle", 1e6}, {"Gcycle", "cycle", 1e9},
      {"Ksector", "sector", 1e3}, {"Msector", "sector", 1e6}, {"Kinst", "inst", 1e3}, {"Minst", "inst", 1e6},
      {"Ginst", "inst", 1e9}, {"Kwarp", "warp", 1e3}, {"Mwarp", "warp", 1e6},
  };
  for (auto& p : table)
    if (unit == p.unit) {
      unit = p.base;
      return p.factor;
    }
  return 1;
}

}  // namespace

double KernelProfile::get(const std::string& metric) const {
  auto it = metrics.find(metric);
  return it == metrics.end() ? kNaN : it->second.value;
}

std::string KernelProfile::short_name() const {
  auto paren = name.find('(');
  std::string s = paren == std::string::npos ? name : name.substr(0, paren);
  // "void ns::kernel<float>" -> keep it whole but drop a leading return type.
  if (starts_with(s, "void ")) s = s.substr(5);
  return s;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double parse_number(const std::string& cell) {
  std::string s;
  for (char c : cell)
    if (c != ',' && !std::isspace(static_cast<unsigned char>(c))) s += c;
  if (s.empty()) return kNaN;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return kNaN;
  return v;
}

NcuCsv parse_ncu_csv(const std::string& text) {
  NcuCsv out;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header, units;
  while (std::getline(in, line)) {
    if (starts_with(line, "==")) {
      out.messages.push_back(line);
      continue;
    }
    if (line.empty() || line == "\r") continue;
    auto fields = split_csv_line(line);
    if (header.empty()) {
      if (!fields.empty() && fields[0] == "ID") header = fields;
      continue;  // anything before the header is the application's own output
    }
    if (units.empty()) {
      units = fields;
      units.resize(header.size());
      continue;
    }
    fields.resize(header.size());
    KernelProfile k;
    k.id = static_cast<int>(parse_number(fields[0]));
    for (size_t i = 1; i < header.size(); ++i) {
      const std::string& col = header[i];
      if (col == "Kernel Name") k.name = fields[i];
      else if (col == "Block Size") k.block = fields[i];
      else if (col == "Grid Size") k.grid = fields[i];
      else if (col.find("Push/Pop_Range") != std::string::npos) k.nvtx = fields[i];
      if (col.find("__") == std::string::npos || dropped_column(col)) continue;
      MetricValue m;
      m.unit = units[i];
      m.text = fields[i];
      m.value = parse_number(fields[i]);
      if (std::isfinite(m.value)) m.value *= unit_factor(m.unit);
      k.metrics.emplace(col, std::move(m));
    }
    out.kernels.push_back(std::move(k));
  }
  if (header.empty())
    throw std::runtime_error("no ncu CSV table in the text (expected a header row starting with \"ID\")");
  return out;
}

}  // namespace aisp::profile
