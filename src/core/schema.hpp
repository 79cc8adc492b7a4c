// JSON forms of the API's declarative types, shared by worker (writes) and supervisor (reads), plus the
// workload comparison that decides whether a baseline and a variant may be compared at all.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "aisp/device_info.hpp"
#include "aisp/workload.hpp"

namespace aisp {

using json = nlohmann::json;

json to_json(const Workload& w);
Workload workload_from_json(const json& j);
json to_json(const Tolerance& t);
Tolerance tolerance_from_json(const json& j);
json to_json(const Requirements& r);
Requirements requirements_from_json(const json& j);
json to_json(const DeviceInfo& d);
DeviceInfo device_from_json(const json& j);
const char* goal_name(Goal g);
Goal goal_from_name(const std::string& s);

// Empty when equal; otherwise one line per difference ("params.n: 1048576 vs 2097152").
std::string workload_difference(const Workload& baseline, const Workload& candidate);

}  // namespace aisp
