#include "core/expectations.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/json_io.hpp"
#include "core/verdict.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

json to_json(const ExpectationProvenance& p) {
  json j = {{"hardware_key", p.hardware_key},
            {"gpu", p.gpu},
            {"driver_version", p.driver_version},
            {"cuda_version", p.cuda_version},
            {"git_commit", p.git_commit},
            {"git_dirty", p.git_dirty},
            {"timestamp", p.timestamp},
            {"mode", p.mode},
            {"run_dir", p.run_dir},
            {"aisp_version", p.aisp_version},
            {"baseline_samples", p.baseline_samples},
            {"optimized_samples", p.optimized_samples}};
  if (!p.workload_params.empty()) j["workload_params"] = p.workload_params;
  return j;
}

// A workload's declared params (TargetResult::workload["params"]): the numbers only.
std::map<std::string, double> numeric_params(const json& params) {
  std::map<std::string, double> out;
  if (!params.is_object()) return out;
  for (auto it = params.begin(); it != params.end(); ++it)
    if (it.value().is_number()) out[it.key()] = it.value().get<double>();
  return out;
}

// "seq 6144 -> 16384, batch 1 -> 2": the params that differ between the recorded workload and this run's.
std::string param_changes(const std::map<std::string, double>& was, const std::map<std::string, double>& now) {
  std::string out;
  auto add = [&](const std::string& k, const std::string& a, const std::string& b) {
    out += fmt::format("{}{} {} -> {}", out.empty() ? "" : ", ", k, a, b);
  };
  for (const auto& [k, v] : was) {
    auto it = now.find(k);
    if (it == now.end()) add(k, fmt::format("{:g}", v), "(absent)");
    else if (it->second != v) add(k, fmt::format("{:g}", v), fmt::format("{:g}", it->second));
  }
  for (const auto& [k, v] : now)
    if (!was.count(k)) add(k, "(absent)", fmt::format("{:g}", v));
  return out;
}

// Strict readers: a field of the wrong type is corruption, not a default.
double num(const json& j, const char* key, double fallback = 0) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  if (!j[key].is_number()) throw std::runtime_error(fmt::format("'{}' is not a number", key));
  return j[key].get<double>();
}
std::string str(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return "";
  if (!j[key].is_string()) throw std::runtime_error(fmt::format("'{}' is not a string", key));
  return j[key].get<std::string>();
}
const json& obj(const json& j, const char* key) {
  static const json empty = json::object();
  if (!j.contains(key)) return empty;
  if (!j[key].is_object()) throw std::runtime_error(fmt::format("'{}' is not an object", key));
  return j[key];
}

ExpectationEntry entry_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("entry is not an object");
  ExpectationEntry e;
  e.example = str(j, "example");
  e.target = str(j, "target");
  e.goal = j.contains("optimization_goal") ? str(j, "optimization_goal") : "speed";
  e.status = str(j, "status");
  e.minimum_required_speedup = num(j, "minimum_required_speedup");
  const json& m = obj(j, "metrics");
  if (!m.contains("best_speedup")) throw std::runtime_error("metrics.best_speedup is missing");
  e.baseline_time_ms = num(m, "baseline_time_ms");
  e.best_optimized_time_ms = num(m, "best_optimized_time_ms");
  e.best_speedup = num(m, "best_speedup");
  e.ci_low = num(m, "best_speedup_ci_low", e.best_speedup);
  e.ci_high = num(m, "best_speedup_ci_high", e.best_speedup);
  e.p_value = num(m, "p_value", 1);
  e.baseline_memory_mb = num(m, "baseline_memory_mb");
  e.best_optimized_memory_mb = num(m, "best_optimized_memory_mb");
  e.best_memory_savings_pct = num(m, "best_memory_savings_pct");
  const json& md = obj(j, "metadata");
  e.best_optimization = str(md, "best_optimization");
  e.best_optimization_file = str(md, "best_optimization_file");
  e.best_optimization_technique = str(md, "best_optimization_technique");
  e.verdict = str(md, "verdict");
  for (auto& [name, v] : obj(j, "variants").items()) {
    if (!v.is_object()) throw std::runtime_error(fmt::format("variants.{} is not an object", name));
    ExpectedVariant x;
    x.time_ms = num(v, "time_ms");
    x.speedup = num(v, "speedup");
    x.ci_low = num(v, "ci_low");
    x.ci_high = num(v, "ci_high");
    x.samples = static_cast<int64_t>(num(v, "samples"));
    x.status = str(v, "status");
    x.verdict = str(v, "verdict");
    e.variants[name] = x;
  }
  const json& p = obj(j, "provenance");
  e.provenance.hardware_key = str(p, "hardware_key");
  e.provenance.gpu = str(p, "gpu");
  e.provenance.driver_version = str(p, "driver_version");
  e.provenance.cuda_version = str(p, "cuda_version");
  e.provenance.git_commit = str(p, "git_commit");
  e.provenance.git_dirty = p.contains("git_dirty") && p["git_dirty"].is_boolean() && p["git_dirty"].get<bool>();
  e.provenance.timestamp = str(p, "timestamp");
  e.provenance.mode = str(p, "mode");
  e.provenance.run_dir = str(p, "run_dir");
  e.provenance.aisp_version = str(p, "aisp_version");
  e.provenance.baseline_samples = static_cast<int64_t>(num(p, "baseline_samples"));
  e.provenance.optimized_samples = static_cast<int64_t>(num(p, "optimized_samples"));
  if (p.contains("workload_params")) {
    if (!p["workload_params"].is_object()) throw std::runtime_error("'workload_params' is not an object");
    e.provenance.workload_params = numeric_params(p["workload_params"]);
  }
  if (!(e.ci_low <= e.best_speedup && e.best_speedup <= e.ci_high))
    throw std::runtime_error(fmt::format("best_speedup {} lies outside its CI [{}, {}]", e.best_speedup, e.ci_low, e.ci_high));
  return e;
}

const VariantResult* find_variant(const TargetResult& t, const std::string& name) {
  for (auto& o : t.optimizations)
    if (o.name == name) return &o;
  return nullptr;
}

// A variant whose numbers can be compared: measured, verified, not invalid.
bool measured(const VariantResult* v) {
  return v && (v->status == status::succeeded || v->status == status::failed_no_speedup) && v->ci_high > 0 &&
         !v->samples_ms.empty();
}

}  // namespace

json to_json(const ExpectationEntry& e) {
  json variants = json::object();
  for (auto& [name, v] : e.variants)
    variants[name] = {{"time_ms", v.time_ms}, {"speedup", v.speedup}, {"ci_low", v.ci_low}, {"ci_high", v.ci_high},
                      {"samples", v.samples}, {"status", v.status},   {"verdict", v.verdict}};
  return {{"example", e.example},
          {"target", e.target},
          {"type", "cuda"},
          {"optimization_goal", e.goal},
          {"status", e.status},
          {"minimum_required_speedup", e.minimum_required_speedup},
          {"metrics", {{"baseline_time_ms", e.baseline_time_ms},
                       {"best_optimized_time_ms", e.best_optimized_time_ms},
                       {"best_speedup", e.best_speedup},
                       {"best_speedup_ci_low", e.ci_low},
                       {"best_speedup_ci_high", e.ci_high},
                       {"p_value", e.p_value},
                       {"baseline_memory_mb", e.baseline_memory_mb},
                       {"best_optimized_memory_mb", e.best_optimized_memory_mb},
                       {"best_memory_savings_pct", e.best_memory_savings_pct}}},
          {"metadata", {{"best_optimization", e.best_optimization},
                        {"best_optimization_file", e.best_optimization_file},
                        {"best_optimization_technique", e.best_optimization_technique},
                        {"best_optimization_speedup", e.best_speedup},
                        {"best_optimization_time_ms", e.best_optimized_time_ms},
                        {"verdict", e.verdict}}},
          {"variants", variants},
          {"provenance", to_json(e.provenance)}};
}

json to_json(const ExpectationFile& f) {
  json examples = json::object();
  for (auto& [name, e] : f.examples) examples[name] = to_json(e);
  return {{"schema_version", kExpectationsSchemaVersion}, {"hardware_key", f.hardware_key}, {"examples", examples}};
}

ExpectationFile expectation_file_from_json(const json& j, const std::string& source) {
  auto bad = [&](const std::string& why) {
    return std::runtime_error(fmt::format("{}: not a valid expectations file ({}); fix or delete it by hand, "
                                          "aisp will not overwrite it", source, why));
  };
  if (!j.is_object()) throw bad("the top level is not an object");
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer())
    throw bad("schema_version is missing");
  if (j["schema_version"].get<int>() != kExpectationsSchemaVersion)
    throw bad(fmt::format("schema_version {} (this aisp reads {})", j["schema_version"].get<int>(), kExpectationsSchemaVersion));
  if (!j.contains("examples") || !j["examples"].is_object()) throw bad("'examples' is missing or not an object");
  ExpectationFile f;
  f.hardware_key = j.value("hardware_key", "");
  for (auto& [name, e] : j["examples"].items()) {
    try {
      f.examples[name] = entry_from_json(e);
      if (f.examples[name].example.empty()) f.examples[name].example = name;
    } catch (const std::exception& ex) {
      throw bad(fmt::format("examples.{}: {}", name, ex.what()));
    }
  }
  return f;
}

fs::path expectations_path(const fs::path& chapter_dir, const std::string& hardware_key) {
  return chapter_dir / ("expectations_" + hardware_key + ".json");
}

ExpectationFile load_expectations(const fs::path& file, const std::string& hardware_key) {
  if (!fs::exists(file)) return ExpectationFile{hardware_key, {}};
  json j;
  try {
    j = read_json(file);  // parse errors (a truncated file) name the file
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}; fix or delete it by hand, aisp will not overwrite it", e.what()));
  }
  ExpectationFile f = expectation_file_from_json(j, file.string());
  if (!f.hardware_key.empty() && f.hardware_key != hardware_key)
    throw std::runtime_error(fmt::format("{}: holds hardware_key '{}', expected '{}'; aisp will not overwrite it",
                                         file.string(), f.hardware_key, hardware_key));
  f.hardware_key = hardware_key;
  return f;
}

void save_expectations(const fs::path& file, const ExpectationFile& f) { write_json_atomic(file, to_json(f)); }

std::string expectation_key(const TargetResult& t) {
  const std::string prefix = t.chapter + ":";
  if (t.id.rfind(prefix, 0) == 0 && t.id.size() > prefix.size()) return t.id.substr(prefix.size());
  return t.example;
}

std::optional<ExpectationEntry> entry_from_result(const TargetResult& t, const ExpectationProvenance& p,
                                                  std::string* why) {
  auto no = [&](std::string reason) -> std::optional<ExpectationEntry> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (t.status != status::succeeded && t.status != status::failed_no_speedup)
    return no(fmt::format("status {}", t.status.empty() ? "unknown" : t.status));
  const VariantResult* best = find_variant(t, t.best_optimization);
  if (!measured(best)) return no("no measured optimized variant");
  if (!best->validity_enabled || !t.baseline.validity_enabled) return no("run with --validity off (unvalidated)");
  ExpectationEntry e;
  e.example = expectation_key(t);
  e.target = t.id;
  e.goal = t.goal;
  e.status = t.status;
  e.minimum_required_speedup = t.minimum_required_speedup;
  e.baseline_time_ms = t.baseline.timing.median;
  e.best_optimized_time_ms = best->timing.median;
  e.best_speedup = best->speedup;
  e.ci_low = best->ci_low;
  e.ci_high = best->ci_high;
  e.p_value = best->p_value;
  e.baseline_memory_mb = t.baseline.memory.peak_mb;
  e.best_optimized_memory_mb = best->memory.peak_mb;
  e.best_memory_savings_pct = t.best_memory_savings_pct;
  e.best_optimization = best->name;
  e.best_optimization_file = best->file;
  e.best_optimization_technique = best->technique;
  e.verdict = best->verdict;
  for (auto& o : t.optimizations)
    if (measured(&o))
      e.variants[o.name] = {o.timing.median, o.speedup, o.ci_low, o.ci_high,
                            static_cast<int64_t>(o.samples_ms.size()), o.status, o.verdict};
  e.provenance = p;
  e.provenance.baseline_samples = static_cast<int64_t>(t.baseline.samples_ms.size());
  e.provenance.optimized_samples = static_cast<int64_t>(best->samples_ms.size());
  if (e.provenance.mode.empty()) e.provenance.mode = t.mode;
  if (t.workload.is_object() && t.workload.contains("params"))
    e.provenance.workload_params = numeric_params(t.workload["params"]);
  return e;
}

const char* expectation_status_name(ExpectationStatus s) {
  switch (s) {
    case ExpectationStatus::ok: return "ok";
    case ExpectationStatus::regression: return "regression";
    case ExpectationStatus::improvement: return "improvement";
    case ExpectationStatus::new_entry: return "new";
    case ExpectationStatus::not_comparable: return "not_comparable";
  }
  return "?";
}

ExpectationComparison compare_expectation(const TargetResult& t, const ExpectationEntry* expected, double tolerance) {
  ExpectationComparison c;
  c.tolerance = tolerance;
  if (t.status != status::succeeded && t.status != status::failed_no_speedup) {
    c.message = fmt::format("not compared: target status {}", t.status);
    return c;
  }
  // Prefer the variant the expectation was recorded for; fall back to this run's best.
  const VariantResult* v = expected ? find_variant(t, expected->best_optimization) : nullptr;
  if (!measured(v)) v = find_variant(t, t.best_optimization);
  if (!measured(v)) {
    c.message = "not compared: no measured optimized variant";
    return c;
  }
  c.variant = v->name;
  c.speedup = v->speedup;
  c.ci_low = v->ci_low;
  c.ci_high = v->ci_high;
  if (!expected) {
    c.status = ExpectationStatus::new_entry;
    c.message = "no expectation recorded for this hardware yet";
    return c;
  }
  c.expected_speedup = expected->best_speedup;
  c.expected_ci_low = expected->ci_low;
  c.expected_ci_high = expected->ci_high;
  if (!expected->provenance.mode.empty() && !t.mode.empty() && expected->provenance.mode != t.mode) {
    c.status = ExpectationStatus::not_comparable;
    c.message = fmt::format("not compared: expectation measured in {} mode, this run in {} mode",
                            expected->provenance.mode, t.mode);
    return c;
  }
  if (!expected->provenance.workload_params.empty() && t.workload.is_object() && t.workload.contains("params")) {
    if (std::string changed = param_changes(expected->provenance.workload_params, numeric_params(t.workload["params"]));
        !changed.empty()) {
      c.status = ExpectationStatus::not_comparable;
      c.workload_changed = true;
      c.message = fmt::format(
          "not compared: the expectation measured another workload ({}); record this one with "
          "--update-expectations",
          changed);
      return c;
    }
  }
  std::string other = v->name == expected->best_optimization
                          ? ""
                          : fmt::format(" (expected variant {} not measured; compared {})", expected->best_optimization, v->name);
  if (t.goal == "memory") {
    double points = 100 * tolerance;
    double now = t.best_memory_savings_pct, was = expected->best_memory_savings_pct;
    c.status = now < was - points   ? ExpectationStatus::regression
               : now > was + points ? ExpectationStatus::improvement
                                    : ExpectationStatus::ok;
    c.message = fmt::format("peak-memory saving {:.1f}% vs expected {:.1f}% (tolerance {:.0f} points){}", now, was,
                            points, other);
    return c;
  }
  if (c.ci_high < c.expected_ci_low * (1 - tolerance)) {
    c.status = ExpectationStatus::regression;
    c.message = fmt::format("speedup {:.3f}x [{:.3f}, {:.3f}] is below the expected {:.3f}x [{:.3f}, {:.3f}] by more "
                            "than {:.0f}% (whole CI below){}",
                            c.speedup, c.ci_low, c.ci_high, c.expected_speedup, c.expected_ci_low, c.expected_ci_high,
                            100 * tolerance, other);
  } else if (c.ci_low > c.expected_ci_high * (1 + tolerance)) {
    c.status = ExpectationStatus::improvement;
    c.message = fmt::format("speedup {:.3f}x [{:.3f}, {:.3f}] is above the expected {:.3f}x [{:.3f}, {:.3f}] by more "
                            "than {:.0f}%{}",
                            c.speedup, c.ci_low, c.ci_high, c.expected_speedup, c.expected_ci_low, c.expected_ci_high,
                            100 * tolerance, other);
  } else {
    c.status = ExpectationStatus::ok;
    c.message = fmt::format("speedup {:.3f}x [{:.3f}, {:.3f}] consistent with the expected {:.3f}x [{:.3f}, {:.3f}]{}",
                            c.speedup, c.ci_low, c.ci_high, c.expected_speedup, c.expected_ci_low, c.expected_ci_high,
                            other);
  }
  return c;
}

bool may_write_expectation(const ExpectationComparison& c, bool accept_regressions) {
  return c.workload_changed || may_write_expectation(c.status, accept_regressions);
}

bool may_write_expectation(ExpectationStatus s, bool accept_regressions) {
  switch (s) {
    case ExpectationStatus::new_entry:
    case ExpectationStatus::ok:
    case ExpectationStatus::improvement: return true;
    case ExpectationStatus::regression: return accept_regressions;
    case ExpectationStatus::not_comparable: return false;
  }
  return false;
}

}  // namespace aisp
