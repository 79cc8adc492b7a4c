#include "runner/ranked_worker.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aisp {
namespace {

// Every rank's outputs in one list, rank r >= 1's renamed (rank 0's first, as the baseline's are).
json concat_outputs(const std::vector<const json*>& lists) {
  json out = json::array();
  for (size_t r = 0; r < lists.size(); ++r) {
    if (!lists[r] || !lists[r]->is_array()) continue;
    for (json o : *lists[r]) {
      if (o.contains("name") && o["name"].is_string())
        o["name"] = rank_output_name(o["name"].get<std::string>(), static_cast<int>(r));
      out.push_back(std::move(o));
    }
  }
  return out;
}

// Per sample, every rank's output projections one after another (the order of concat_outputs).
json concat_projections(const std::vector<Reply>& replies, const char* key) {
  const json& first = replies[0].body.value(key, json());
  if (!first.is_array()) return first;
  json out = json::array();
  for (size_t k = 0; k < first.size(); ++k) {
    json row = json::array();
    for (const Reply& r : replies) {
      const json& p = r.body.value(key, json());
      if (!p.is_array() || k >= p.size()) return json();  // a rank without projections: none for anyone
      for (const json& o : p[k]) row.push_back(o);
    }
    out.push_back(std::move(row));
  }
  return out;
}

// The slowest rank's sample k for every k all ranks timed.
json slowest_samples(const std::vector<Reply>& replies) {
  size_t steps = SIZE_MAX;
  for (const Reply& r : replies) steps = std::min(steps, r.body.value("samples", json::array()).size());
  json out = json::array();
  for (size_t k = 0; k < steps; ++k) {
    json s = replies[0].body["samples"][k];
    for (size_t r = 1; r < replies.size(); ++r) {
      const json& o = replies[r].body["samples"][k];
      for (const char* f : {"gpu_ms", "wall_ms", "enqueue_ms", "drain_us", "latency_ms"})
        if (s.contains(f) && o.contains(f) && s[f].is_number() && o[f].is_number())
          s[f] = std::max(s[f].get<double>(), o[f].get<double>());
      if (s.contains("sm_mhz") && o.contains("sm_mhz") && o["sm_mhz"].is_number())
        s["sm_mhz"] = std::min(s["sm_mhz"].get<double>(), o["sm_mhz"].get<double>());
      if (s.contains("throttle") && o.contains("throttle"))
        s["throttle"] = s["throttle"].get<uint64_t>() | o["throttle"].get<uint64_t>();
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::string rank_output_name(const std::string& name, int rank) {
  return rank == 0 ? name : fmt::format("{}@rank{}", name, rank);
}

json rank_request(const json& req) {
  json out = req;
  if (out.value("op", "") == "warmup") {
    // A fixed count: the worker's warm-up ends at `count` runs once max_time_s (0) has passed.
    out["count"] = std::max(out.value("count", 1), 5);
    out["min_time_s"] = 0.0;
    out["max_time_s"] = 0.0;
  }
  return out;
}

json merge_rank_replies(const std::string& op, const std::vector<Reply>& replies) {
  json out = replies.at(0).body;
  const size_t n = replies.size();
  if (out.contains("findings") && out["findings"].is_array())
    for (size_t r = 1; r < n; ++r)
      for (json f : replies[r].body.value("findings", json::array())) {
        f["detail"] = fmt::format("rank {}: {}", r, f.value("detail", ""));
        out["findings"].push_back(std::move(f));
      }
  if (op == "setup") {
    // Rank 0's buffers and every other rank's outputs; no IPC handles (they name buffers on other GPUs than
    // the supervisor's mapping reaches): every rank's outputs go through files.
    json buffers = json::array();
    for (size_t r = 0; r < n; ++r)
      for (json b : replies[r].body.value("buffers", json::array())) {
        if (r > 0 && b.value("kind", "") != "output") continue;
        b.erase("ipc");
        if (r > 0) b["name"] = rank_output_name(b.value("name", ""), static_cast<int>(r));
        buffers.push_back(std::move(b));
      }
    out["buffers"] = std::move(buffers);
  } else if (op == "check" || op == "replay") {
    std::vector<const json*> lists;
    for (const Reply& r : replies) lists.push_back(r.body.contains("outputs") ? &r.body["outputs"] : nullptr);
    if (out.contains("outputs")) out["outputs"] = concat_outputs(lists);
    if (out.contains("inputs_changed") && out["inputs_changed"].is_array())
      for (size_t r = 1; r < n; ++r)
        for (const json& name : replies[r].body.value("inputs_changed", json::array()))
          out["inputs_changed"].push_back(rank_output_name(name.get<std::string>(), static_cast<int>(r)));
    for (size_t r = 1; r < n; ++r)
      if (out.value("captured", true) && !replies[r].body.value("captured", true)) {
        out["captured"] = false;
        out["reason"] = fmt::format("rank {}: {}", r, replies[r].body.value("reason", ""));
      }
    if (out.contains("wall_ms"))
      for (size_t r = 1; r < n; ++r)
        out["wall_ms"] = std::max(out["wall_ms"].get<double>(), replies[r].body.value("wall_ms", 0.0));
  } else if (op == "warmup") {
    for (size_t r = 1; r < n; ++r) {
      out["estimate_ms"] = std::max(out.value("estimate_ms", 0.0), replies[r].body.value("estimate_ms", 0.0));
      out["stable"] = out.value("stable", false) && replies[r].body.value("stable", false);
    }
  } else if (op == "time") {
    out["samples"] = slowest_samples(replies);
    if (out.contains("projections")) out["projections"] = concat_projections(replies, "projections");
    if (out.contains("verified") && out["verified"].is_object()) {
      std::vector<const json*> lists;
      for (const Reply& r : replies) {
        const json& v = r.body.value("verified", json());
        lists.push_back(v.is_object() && v.contains("outputs") ? &r.body["verified"]["outputs"] : nullptr);
      }
      out["verified"]["outputs"] = concat_outputs(lists);
    }
    for (size_t r = 1; r < n; ++r)
      if (!replies[r].body.value("blocking", true)) {
        out["blocking"] = false;
        out["blocking_note"] = fmt::format("rank {}: {}", r, replies[r].body.value("blocking_note", ""));
      }
  } else if (op == "reference") {
    out["projections"] = concat_projections(replies, "projections");
  } else if (op == "sensitivity") {
    for (size_t r = 1; r < n; ++r) {
      const json changed = replies[r].body.value("changed", json::object());  // items() must not outlive it
      for (const auto& [name, moved] : changed.items()) out["changed"][rank_output_name(name, static_cast<int>(r))] = moved;
    }
  }
  return out;
}

Reply RankedWorker::wait_ready(double timeout_s) {
  std::vector<Reply> replies = group_.wait_ready(timeout_s);
  for (const Reply& r : replies) ready_.push_back(r.body);
  samples_.assign(replies.size(), {});
  for (size_t r = 0; r < replies.size(); ++r)
    if (!replies[r].ok()) {
      Reply failed = replies[r];
      failed.reason = fmt::format("rank {}: {}", r, failed.reason);
      return failed;
    }
  // Every rank is the same plugin: a rank that declares another workload, tolerance or requirement is
  // another program (e.g. one that sized itself from its rank), not a rank of this one.
  for (size_t r = 1; r < replies.size(); ++r)
    for (const char* key : {"workload", "tolerance", "requirements", "goal"})
      if (replies[r].body.value(key, json()) != replies[0].body.value(key, json())) {
        Reply bad = replies[r];
        bad.status = Reply::Status::error;
        bad.kind = "load";
        bad.reason = fmt::format("rank {} declared another {} than rank 0 (ranks of one variant must agree)", r, key);
        return bad;
      }
  return replies[0];
}

Reply RankedWorker::request(json req, double timeout_s) {
  const std::string op = req.value("op", "");
  last_ = group_.request(rank_request(req), timeout_s);
  for (size_t r = 0; r < last_.size(); ++r)
    if (!last_[r].ok()) {
      Reply failed = last_[r];
      failed.reason = fmt::format("rank {}: {}", r, failed.reason);
      return failed;
    }
  Reply merged = last_[0];
  for (const Reply& r : last_) merged.wall_s = std::max(merged.wall_s, r.wall_s);
  try {
    merged.body = merge_rank_replies(op, last_);
  } catch (const std::exception& e) {
    // A rank's reply whose fields have the wrong types: the variant fails as a protocol error saying so.
    merged.status = Reply::Status::protocol_error;
    merged.kind = "protocol";
    merged.reason = "merging the ranks' replies to '" + op + "': " + e.what();
  }
  if (op == "time")
    for (size_t r = 0; r < last_.size(); ++r)
      for (const json& s : last_[r].body.value("samples", json::array())) samples_[r].push_back(s.value("gpu_ms", 0.0));
  return merged;
}

}  // namespace aisp
