#include "runner/output_access.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "core/element_rule.hpp"
#include "core/json_io.hpp"
#include "core/schema.hpp"

namespace aisp {

std::vector<OutputView> OutputReader::views(const json& reply_outputs,
                                            const std::map<std::string, const void*>& mapped) const {
  std::vector<OutputView> out;
  for (auto& o : reply_outputs) {
    OutputView v;
    v.name = o.at("name").get<std::string>();
    std::string dtype = o.at("dtype").get<std::string>();
    auto dt = dtype_from_name(dtype);
    if (!dt) throw std::runtime_error(fmt::format("output '{}' has an unknown dtype '{}'", v.name, dtype));
    v.dtype = *dt;
    v.shape = o.at("shape");
    v.count = 1;
    for (auto& d : v.shape) v.count *= d.get<int64_t>();
    v.reported_unwritten = o.value("unwritten", int64_t{0});
    v.file = o.value("file", "");
    if (auto it = mapped.find(v.name); it != mapped.end() && device_) v.device = it->second;
    if (!v.device && v.file.empty())
      throw std::runtime_error(fmt::format("output '{}' came back neither mapped nor dumped", v.name));
    out.push_back(std::move(v));
  }
  return out;
}

CompareResult OutputReader::compare(const OutputView& baseline, const OutputView& candidate, ToleranceValues tol) const {
  if (baseline.device && candidate.device)
    return device_->compare(baseline.device, candidate.device, baseline.count, baseline.dtype, tol);
  std::string a = host_bytes(baseline), b = host_bytes(candidate);
  if (a.size() != b.size()) throw std::runtime_error(fmt::format("output '{}' differs in size", baseline.name));
  return compare_buffers(a.data(), b.data(), static_cast<int64_t>(a.size() / dtype_size(baseline.dtype)),
                         baseline.dtype, tol);
}

int64_t OutputReader::unwritten(const OutputView& v) const {
  return v.device ? device_->count_poison(v.device, v.count, v.dtype) : v.reported_unwritten;
}

double OutputReader::element(const OutputView& v, int64_t i) const {
  const size_t size = dtype_size(v.dtype);
  if (i < 0 || i >= v.count) return std::nan("");
  std::string bytes = v.device ? device_->to_host(static_cast<const char*>(v.device) + i * size, size)
                               : host_bytes(v).substr(static_cast<size_t>(i) * size, size);
  return element_rule::decode(bytes.data(), 0, v.dtype);
}

std::string OutputReader::host_bytes(const OutputView& v) const {
  if (v.host) return *v.host;
  if (v.device) return device_->to_host(v.device, v.bytes());
  return read_file(v.file);
}

OutputView OutputReader::keep(const OutputView& v) const {
  OutputView k = v;
  if (!v.device) return k;  // a file or host bytes do not change when the worker runs again
  k.reported_unwritten = unwritten(v);
  if ((k.kept = device_->copy(v.device, v.bytes()))) {
    k.device = k.kept.get();
    return k;
  }
  k.host = std::make_shared<const std::string>(device_->to_host(v.device, v.bytes()));
  k.device = nullptr;
  return k;
}

}  // namespace aisp
