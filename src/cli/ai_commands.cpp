// The CLI side of `aisp ai`: finds the store (as the analysis commands do: --db, $AISP_DB,
// artifacts/aisp.db, else the shipped reference runs), the ceilings, the data tables, then calls
// src/insight and prints. Exit: 0 answered; 1 the answer was printed but the endpoint's prose failed;
// 2 usage or data errors (no store, unknown target).
#include "cli/ai_commands.hpp"

#include <fmt/format.h>

#include <iostream>

#include "analysis/stacking.hpp"
#include "cli/paths.hpp"
#include "cli/store_commands.hpp"
#include "core/json_io.hpp"
#include "insight/ask.hpp"
#include "insight/explain.hpp"
#include "insight/prose_endpoint.hpp"
#include "insight/suggest.hpp"
#include "serve/reference_dataset.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace in = aisp::insight;

namespace {

struct AiArgs {
  std::string target, question, db, run, hardware, caps, profiles, endpoint, api_key_env, model = "gpt-4o-mini";
  bool as_json = false;
  size_t top = 10;
};

[[noreturn]] void fail(const std::string& msg) { throw CLI::Error("AiError", msg, 2); }

std::vector<fs::path> capability_dirs(const fs::path& db) {
  std::vector<fs::path> dirs = {"artifacts/hw", db.parent_path() / "hw"};
  if (fs::path root = project_source_root(); !root.empty()) {
    dirs.push_back(root / "artifacts" / "hw");
    std::error_code ec;
    for (auto& e : fs::directory_iterator(root / "results" / "reference", ec))
      if (e.is_directory()) dirs.push_back(e.path());
  }
  return dirs;
}

in::EvidenceSource source_of(const AiArgs& a) {
  in::EvidenceSource s;
  s.db = store_path(a.db, "artifacts");
  if (!fs::exists(s.db) && a.db.empty() && !std::getenv("AISP_DB")) {
    std::vector<fs::path> roots = {fs::path("results") / "reference"};
    if (fs::path root = project_source_root(); !root.empty()) roots.push_back(root / "results" / "reference");
    try {
      auto ref = reference::open(roots);
      std::cerr << fmt::format("aisp: no results store at {}: answering from the {}\n", s.db.string(), ref.label());
      s.db = ref.store;
      s.label = ref.label();
    } catch (const std::exception& e) {
      fail(fmt::format("no results store at {} (store runs with `aisp bench ingest <run dir>`), and {}", s.db.string(),
                       e.what()));
    }
  } else if (!fs::exists(s.db)) {
    fail(fmt::format("no results store at {} (store runs with `aisp bench ingest <run dir> --db {}`)", s.db.string(),
                     s.db.string()));
  }
  s.run = a.run;
  s.hardware_key = a.hardware;
  s.caps = a.caps;
  s.caps_dirs = capability_dirs(s.db);
  s.profiles_dir = a.profiles;
  if (!a.profiles.empty() && !fs::is_directory(a.profiles)) fail("--profiles " + a.profiles + ": not a directory");
  return s;
}

// data/<name>: $AISP_DATA_DIR/<name>, ./data/<name>, the checkout's data/<name>.
json data_table(const std::string& name, std::string* path) {
  std::vector<fs::path> c;
  if (const char* env = std::getenv("AISP_DATA_DIR")) c.push_back(fs::path(env) / name);
  c.push_back(fs::path("data") / name);
  if (fs::path root = project_source_root(); !root.empty()) c.push_back(root / "data" / name);
  for (auto& p : c)
    if (fs::is_regular_file(p)) {
      *path = p.string();
      return read_json(p);
    }
  fail(name + " not found (looked in $AISP_DATA_DIR, ./data and the checkout's data/)");
}

std::map<std::string, std::vector<in::ProfileEvidence>> profiles_of(const in::EvidenceSource& s,
                                                                    const std::vector<std::string>& targets) {
  std::map<std::string, std::vector<in::ProfileEvidence>> out;
  for (auto& t : targets)
    if (auto p = in::load_profile_evidence(s, t); !p.empty()) out[t] = std::move(p);
  return out;
}

int print(in::Answer a, const AiArgs& args) {
  int code = 0;
  if (!args.endpoint.empty()) {
    in::ProseResult p = in::rewrite_as_prose(a, {args.endpoint, args.model, args.api_key_env});
    if (p.ok) {
      a.prose = p.text;
      a.prose_model = args.model + " at " + in::completions_url(args.endpoint);
    } else {
      std::cerr << "aisp: " << p.error << " (the grounded answer follows)\n";
      code = 1;
    }
  }
  if (args.as_json) std::cout << in::to_json(a).dump(2) << "\n";
  else std::cout << in::to_text(a);
  return code;
}

template <class F>
void guarded(F f) {
  int code = 0;
  try {
    code = f();
  } catch (const CLI::Error&) { throw; } catch (const std::exception& e) {
    fail(e.what());
  }
  if (code) throw CLI::RuntimeError(code);
}

int explain_command(const AiArgs& a) {
  in::EvidenceSource s = source_of(a);
  in::RunEvidence run = in::load_run_evidence(s, a.target);
  return print(in::explain(run, in::load_profile_evidence(s, a.target), a.target), a);
}

int suggest_command(const AiArgs& a) {
  in::EvidenceSource s = source_of(a);
  in::RunEvidence run = in::load_run_evidence(s, a.target);
  std::string patterns_path, tags_path;
  in::PatternTable patterns = in::patterns_from_json(data_table("optimization_patterns.json", &patterns_path), patterns_path);
  analysis::TagVocabulary tags = analysis::vocabulary_from_json(data_table("technique_tags.json", &tags_path), tags_path);
  std::vector<std::string> targets = a.target.empty() ? run.targets() : std::vector<std::string>{a.target};
  return print(in::suggest(run, profiles_of(s, targets), a.target.empty() ? std::vector<std::string>{} : targets,
                           {patterns, tags}, a.top),
               a);
}

int ask_command(const AiArgs& a) {
  in::EvidenceSource s = source_of(a);
  std::vector<std::string> known;
  {
    Store store = Store::open_read_only(s.db);
    known = store.target_ids();
  }
  in::Question q = in::parse_question(a.question, known);
  // Named targets: the newest run holding the first of them (all its targets kept, for a chapter); none:
  // the run asked for, else the newest run.
  in::RunEvidence run = in::load_run_evidence(s, q.targets.empty() ? "" : q.targets.front(), /*keep_all=*/true);
  std::string patterns_path, tags_path;
  in::PatternTable patterns = in::patterns_from_json(data_table("optimization_patterns.json", &patterns_path), patterns_path);
  analysis::TagVocabulary tags = analysis::vocabulary_from_json(data_table("technique_tags.json", &tags_path), tags_path);
  return print(in::ask(a.question, q, run, profiles_of(s, q.targets), {patterns, tags}), a);
}

void common_options(CLI::App* c, AiArgs& a) {
  c->add_option("--db", a.db, "Results store (default: $AISP_DB, else artifacts/aisp.db, else the shipped reference runs)");
  c->add_option("--run", a.run,
                "Stored run: id, key, unique prefix, latest, previous (default: the newest run holding the target)");
  c->add_option("--hardware", a.hardware, "Hardware key the run must be from (e.g. h100_80gb_hbm3)");
  c->add_option("--caps", a.caps, "hardware_capabilities_<hwkey>.json with the measured ceilings (default: looked for)");
  c->add_option("--profiles", a.profiles,
                "Directory of ncu profiles (<variant>.profile.json or raw <variant>.csv) instead of the store's");
  c->add_flag("--json", a.as_json, "Print the answer as JSON (schema aisp.ai_answer/1)");
  c->add_option("--endpoint", a.endpoint, "OpenAI-compatible base URL (…/v1): rewrite the grounded facts into prose");
  c->add_option("--api-key-env", a.api_key_env, "Name of the environment variable holding the endpoint's API key");
  c->add_option("--model", a.model, "Model name sent to the endpoint")->capture_default_str();
}

}  // namespace

void add_ai_commands(CLI::App& root) {
  auto* ai = root.add_subcommand("ai",
                                 "Answers grounded in what aisp measured: explain a speedup, ask about stored results, "
                                 "suggest next optimizations (rule-based, offline; --endpoint for prose)");
  ai->require_subcommand(1);
  static AiArgs a;
  auto* explain = ai->add_subcommand("explain",
                                     "Why a target's optimized variants are faster or not: verdict and CI, roofline "
                                     "placement, stored ncu counters and bottleneck");
  explain->add_option("target", a.target, "Target id (ch07:transpose)")->required();
  common_options(explain, a);
  explain->callback([] { guarded([] { return explain_command(a); }); });

  auto* ask = ai->add_subcommand("ask", "Select the stored facts that answer a question (targets and keywords in it)");
  ask->add_option("question", a.question, "The question, quoted")->required();
  common_options(ask, a);
  ask->callback([] { guarded([] { return ask_command(a); }); });

  auto* suggest = ai->add_subcommand("suggest",
                                     "Rank next optimizations from the bottleneck (ncu tree or roofline) and the "
                                     "optimization-patterns table");
  suggest->add_option("target", a.target, "Target id (default: every target of the run)");
  suggest->add_option("--top", a.top, "Suggestions kept (0 = all)")->capture_default_str();
  common_options(suggest, a);
  suggest->callback([] { guarded([] { return suggest_command(a); }); });
}

}  // namespace aisp
