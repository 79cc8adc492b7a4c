// Profiles in the store: `aisp profile ncu|sanitizer` documents and their per-kernel ncu metrics.
#include <nlohmann/json.hpp>

#include <cmath>

#include "store/sqlite_db.hpp"
#include "store/store.hpp"

namespace aisp {

int64_t Store::add_profile(const std::string& doc_json, const std::string& dir, const std::string& bench_run) {
  using nlohmann::json;
  json d = json::parse(doc_json);
  const json& hw = d.value("hardware", json::object()).is_object() ? d["hardware"] : json::object();
  std::string tool = d.value("tool", "");
  std::string preset = tool == "ncu" ? d.value("preset", "") : d.value("sanitizer_tool", "");
  json findings = d.contains("sanitizer") ? d["sanitizer"].value("errors", json(nullptr)) : json(nullptr);
  sql::Transaction tx(*db_);
  sql::Statement ins(*db_, R"(INSERT INTO profiles (created_at, tool, preset, target, variant, hardware_key, gpu_model,
                               bench_run, ok, findings, dir, doc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?))");
  ins.bind(1, d.value("created_at", "")).bind(2, tool).bind(3, preset).bind(4, d.value("target", ""));
  ins.bind(5, d.value("variant", "")).bind(6, hw.value("hardware_key", "")).bind(7, hw.value("gpu_model", ""));
  ins.bind(8, bench_run).bind(9, !d.contains("error"));
  if (findings.is_number()) ins.bind(10, findings.get<int64_t>());
  else ins.bind_null(10);
  ins.bind(11, dir).bind(12, doc_json).run();
  int64_t id = db_->last_insert_id();
  sql::Statement metric(*db_, "INSERT OR REPLACE INTO profile_metrics (profile_id, kernel_seq, kernel, metric, unit, value) "
                              "VALUES (?,?,?,?,?,?)");
  int64_t seq = 0;
  const json kernels = d.value("kernels", json::array());
  for (auto& k : kernels) {
    const json metrics = k.value("metrics", json::object());  // a named copy: items() of a temporary dangles
    for (auto& [name, v] : metrics.items()) {
      double value = v.value("value", std::nan(""));
      metric.bind(1, id).bind(2, seq).bind(3, k.value("name", "")).bind(4, name).bind(5, v.value("unit", ""));
      if (std::isfinite(value)) metric.bind(6, value);
      else metric.bind_null(6);
      metric.run();
      metric.reset();
    }
    ++seq;
  }
  tx.commit();
  return id;
}

std::vector<ProfileRow> Store::profiles(const std::string& target, const std::string& variant, const std::string& tool,
                                        size_t limit, bool ok_only) {
  sql::Statement q(*db_, R"(SELECT id, created_at, tool, preset, target, variant, hardware_key, gpu_model, bench_run, dir,
                                   ok, doc FROM profiles
                            WHERE (?1 = '' OR target = ?1) AND (?2 = '' OR variant = ?2) AND (?3 = '' OR tool = ?3)
                              AND (?4 = 0 OR ok = 1)
                            ORDER BY id DESC LIMIT ?5)");
  q.bind(1, target).bind(2, variant).bind(3, tool).bind(4, ok_only).bind(5, static_cast<int64_t>(limit));
  std::vector<ProfileRow> out;
  while (q.step()) {
    ProfileRow r;
    r.id = q.int64(0);
    r.created_at = q.text(1);
    r.tool = q.text(2);
    r.preset = q.text(3);
    r.target = q.text(4);
    r.variant = q.text(5);
    r.hardware_key = q.text(6);
    r.gpu_model = q.text(7);
    r.bench_run = q.text(8);
    r.dir = q.text(9);
    r.ok = q.int64(10) != 0;
    r.doc = q.text(11);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace aisp
