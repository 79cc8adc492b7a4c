#include "insight/evidence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "profile/profile_compare.hpp"
#include "profile/profile_run.hpp"

namespace aisp::insight {

namespace fs = std::filesystem;
namespace an = aisp::analysis;

Citation RunEvidence::citation() const {
  return {fmt::format("run {}", run.id), "run",
          fmt::format("stored run {} ({}, {}, {} mode, commit {}{})", run.id, run.key,
                      run.gpu_model.empty() ? run.hardware_key : run.gpu_model, run.mode, run.git_commit.substr(0, 8),
                      run.git_dirty ? " dirty" : "")};
}

Citation RunEvidence::ceilings_citation() const {
  an::RooflineCeilings c = an::roofline_ceilings(hardware, "f32");
  std::string detail =
      c.bandwidth_source.empty() ? "no roofline ceilings known for this GPU" : "bandwidth: " + c.bandwidth_source;
  return {"ceilings", "ceilings", detail};
}

std::vector<const an::VariantRow*> RunEvidence::rows_of(const std::string& target) const {
  std::vector<const an::VariantRow*> out;
  for (auto& r : rows)
    if (r.target == target) out.push_back(&r);
  return out;
}

std::vector<std::string> RunEvidence::targets() const {
  std::vector<std::string> out;
  for (auto& r : rows)
    if (std::find(out.begin(), out.end(), r.target) == out.end()) out.push_back(r.target);
  return out;
}

namespace {

// Chronological position of each run (list_runs order), so "newest" means the same as everywhere else.
std::map<int64_t, size_t> run_order(const std::vector<RunInfo>& runs) {
  std::map<int64_t, size_t> pos;
  for (size_t i = 0; i < runs.size(); ++i) pos[runs[i].id] = i;
  return pos;
}

// The newest complete, non-calibration run holding `target` (any run when `target` is empty).
int64_t choose_run(Store& store, const EvidenceSource& src, const std::string& target, std::vector<LatestResult>& elsewhere) {
  std::vector<RunInfo> runs = store.list_runs();
  auto pos = run_order(runs);
  if (target.empty()) {
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
      if (it->complete && !is_calibration(it->label, it->key) &&
          (src.hardware_key.empty() || it->hardware_key == src.hardware_key))
        return it->id;
    throw std::runtime_error("the store holds no complete benchmark run" +
                             (src.hardware_key.empty() ? std::string() : " on hardware " + src.hardware_key));
  }
  int64_t best = 0;
  std::vector<LatestResult> found;
  for (auto& l : store.latest_results())
    if (l.target == target) found.push_back(l);
  for (auto& l : found)
    if ((src.hardware_key.empty() || l.hardware_key == src.hardware_key) && (!best || pos[l.run_id] > pos[best]))
      best = l.run_id;
  for (auto& l : found)
    if (l.run_id != best) elsewhere.push_back(l);
  if (!best) {
    auto near = nearest_names(store.target_ids(), target);
    throw std::runtime_error(fmt::format("no stored result for target {}{}{}", target,
                                         src.hardware_key.empty() ? "" : " on hardware " + src.hardware_key,
                                         near.empty() ? "" : fmt::format(" (nearest: {})", fmt::join(near, ", "))));
  }
  return best;
}

}  // namespace

RunEvidence load_run_evidence(const EvidenceSource& src, const std::string& target, bool keep_all) {
  RunEvidence e;
  int64_t id = 0;
  {
    Store store = Store::open_read_only(src.db);
    id = src.run.empty() ? choose_run(store, src, target, e.elsewhere) : store.resolve_run(src.run).id;
    e.run = store.resolve_run(std::to_string(id));
  }
  an::Dataset d = an::load_store(src.db, std::to_string(id), 0);
  an::attach_capabilities(d.hardware, src.caps, src.caps_dirs);
  e.hardware = d.hardware;
  std::vector<TargetResult> targets;
  for (auto& t : d.current().targets)
    if (target.empty() || keep_all || t.id == target) targets.push_back(t);
  bool holds = std::any_of(targets.begin(), targets.end(), [&](auto& t) { return target.empty() || t.id == target; });
  if (!holds) throw std::runtime_error(fmt::format("run {} ({}) holds no result for {}", e.run.id, e.run.key, target));
  e.rows = an::variant_rows(targets, an::derivation_inputs(d));
  e.source = (src.label.empty() ? "" : src.label + "; ") + d.source;
  return e;
}

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

ProfileEvidence evidence_of(const std::string& variant, std::vector<profile::KernelProfile> kernels, Citation c) {
  ProfileEvidence p;
  p.variant = variant;
  p.kernel = profile::aggregate(kernels);
  p.kernels = std::move(kernels);
  p.citation = std::move(c);
  return p;
}

// A profile directory: documents (<variant>.profile.json) or, where there are none, raw ncu CSVs.
std::vector<ProfileEvidence> from_directory(const fs::path& dir, const std::string& target) {
  std::vector<fs::path> docs, csvs;
  for (auto& e : fs::directory_iterator(dir)) {
    if (e.path().string().ends_with(".profile.json")) docs.push_back(e.path());
    else if (e.path().extension() == ".csv") csvs.push_back(e.path());
  }
  std::vector<ProfileEvidence> out;
  for (auto& f : docs) {
    json d = json::parse(read_text(f), nullptr, false);
    if (d.is_discarded() || d.value("tool", "") != "ncu" || d.contains("error")) continue;
    if (!target.empty() && d.value("target", target) != target) continue;
    out.push_back(evidence_of(d.value("variant", f.stem().stem().string()),
                              profile::kernels_from_json(d.value("kernels", json::array())),
                              {"profile " + f.filename().string(), "profile", "ncu profile document " + f.string()}));
  }
  if (docs.empty())
    for (auto& f : csvs)
      out.push_back(evidence_of(f.stem().string(), profile::parse_ncu_csv(read_text(f)).kernels,
                                {"profile " + f.filename().string(), "profile", "ncu raw CSV " + f.string()}));
  return out;
}

std::vector<ProfileEvidence> from_store(const fs::path& db, const std::string& target) {
  std::vector<ProfileEvidence> out;
  Store store = Store::open_read_only(db);
  for (auto& r : store.profiles(target, "", "ncu", 500, true)) {
    if (std::any_of(out.begin(), out.end(), [&](auto& p) { return p.variant == r.variant; })) continue;
    json d = json::parse(r.doc, nullptr, false);
    if (d.is_discarded()) continue;
    out.push_back(evidence_of(r.variant, profile::kernels_from_json(d.value("kernels", json::array())),
                              {fmt::format("profile {}", r.id), "profile",
                               fmt::format("stored ncu profile {} ({} preset, {}, {}, {})", r.id, r.preset, r.target, r.variant,
                                           r.created_at + (r.hardware_key.empty() ? "" : ", " + r.hardware_key))}));
  }
  return out;
}

}  // namespace

std::vector<ProfileEvidence> load_profile_evidence(const EvidenceSource& src, const std::string& target) {
  std::vector<ProfileEvidence> out =
      src.profiles_dir.empty() ? from_store(src.db, target) : from_directory(src.profiles_dir, target);
  out.erase(std::remove_if(out.begin(), out.end(), [](auto& p) { return p.kernels.empty(); }), out.end());
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) {
    return (a.variant == "baseline" ? "0" : "1") + a.variant < (b.variant == "baseline" ? "0" : "1") + b.variant;
  });
  return out;
}

}  // namespace aisp::insight
