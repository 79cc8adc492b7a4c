#include "core/schema.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/json_fields.hpp"

namespace aisp {

json to_json(const Workload& w) {
  return {{"params", w.params}, {"precision", std::string(dtype_name(w.precision))},
          {"bytes", w.bytes},   {"flops", w.flops},
          {"items", w.items},   {"item_unit", w.item_unit}};
}

Workload workload_from_json(const json& j) {
  Workload w;
  w.params = j.at("params").get<std::map<std::string, int64_t>>();
  auto p = dtype_from_name(j.at("precision").get<std::string>());
  if (!p) throw std::invalid_argument("unknown precision " + j.at("precision").dump());
  w.precision = *p;
  w.bytes = j.at("bytes").get<double>();
  w.flops = j.at("flops").get<double>();
  w.items = j.at("items").get<double>();
  w.item_unit = j.at("item_unit").get<std::string>();
  return w;
}

json to_json(const Tolerance& t) { return {{"rtol", t.rtol}, {"atol", t.atol}, {"justification", t.justification}}; }

Tolerance tolerance_from_json(const json& j) {
  return {j.at("rtol").get<double>(), j.at("atol").get<double>(), j.at("justification").get<std::string>()};
}

json to_json(const Requirements& r) {
  return {{"min_compute_capability", r.min_compute_capability}, {"gpus", r.gpus}, {"min_memory_bytes", r.min_memory_bytes}};
}

Requirements requirements_from_json(const json& j) {
  return {j.at("min_compute_capability").get<int>(), j.at("gpus").get<int>(), j.at("min_memory_bytes").get<int64_t>()};
}

namespace {

// DeviceInfo's keys, once for writing and reading (core/json_fields.hpp).
constexpr auto device_fields = [](auto& d, const auto& f) {
  f("ordinal", d.ordinal);
  f("name", d.name);
  f("uuid", d.uuid);
  f("cc_major", d.cc_major);
  f("cc_minor", d.cc_minor);
  f("sm_count", d.sm_count);
  f("global_memory_bytes", d.global_memory_bytes);
  f("l2_bytes", d.l2_bytes);
  f("max_shared_per_block_optin", d.max_shared_per_block_optin);
  f("max_threads_per_sm", d.max_threads_per_sm);
  f("regs_per_sm", d.regs_per_sm);
  f("warp_size", d.warp_size);
  f("memory_bus_width_bits", d.memory_bus_width_bits);
  f("sm_clock_max_mhz", d.sm_clock_max_mhz);
  f("mem_clock_max_mhz", d.mem_clock_max_mhz);
};

}  // namespace

// "compute_capability" ("9.0") is for readers of the document; device_from_json reads cc_major/cc_minor.
json to_json(const DeviceInfo& d) {
  json j = write_record(d, device_fields);
  j["compute_capability"] = fmt::format("{}.{}", d.cc_major, d.cc_minor);
  return j;
}

DeviceInfo device_from_json(const json& j) { return read_record<DeviceInfo>(j, device_fields); }

const char* goal_name(Goal g) {
  switch (g) {
    case Goal::speed: return "speed";
    case Goal::memory: return "memory";
    case Goal::throughput: return "throughput";
    case Goal::latency: return "latency";
  }
  return "speed";
}

Goal goal_from_name(const std::string& s) {
  for (Goal g : {Goal::speed, Goal::memory, Goal::throughput, Goal::latency})
    if (s == goal_name(g)) return g;
  throw std::invalid_argument("unknown goal '" + s + "'");
}

std::string workload_difference(const Workload& a, const Workload& b) {
  std::string out;
  auto add = [&](const std::string& line) { out += (out.empty() ? "" : "; ") + line; };
  for (auto& [k, v] : a.params) {
    auto it = b.params.find(k);
    if (it == b.params.end()) add(fmt::format("params.{}: {} vs (missing)", k, v));
    else if (it->second != v) add(fmt::format("params.{}: {} vs {}", k, v, it->second));
  }
  for (auto& [k, v] : b.params)
    if (!a.params.count(k)) add(fmt::format("params.{}: (missing) vs {}", k, v));
  if (a.precision != b.precision) add(fmt::format("precision: {} vs {}", dtype_name(a.precision), dtype_name(b.precision)));
  if (a.bytes != b.bytes) add(fmt::format("bytes: {} vs {}", a.bytes, b.bytes));
  if (a.flops != b.flops) add(fmt::format("flops: {} vs {}", a.flops, b.flops));
  if (a.items != b.items || a.item_unit != b.item_unit)
    add(fmt::format("items: {} {} vs {} {}", a.items, a.item_unit, b.items, b.item_unit));
  return out;
}

}  // namespace aisp
