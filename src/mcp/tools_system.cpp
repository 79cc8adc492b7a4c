// aisp_status, aisp_triage, aisp_gpu_info, aisp_environment: what this machine is and whether it can run
// benchmarks. GPU facts come from `aisp info gpu --json` in a child process, so the server itself never
// creates a CUDA context (one stuck in a bad driver state would take every later call down with it), and
// a machine without a GPU gets an answer that says so instead of an error.
#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "mcp/catalog.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"
#include "store/store.hpp"

namespace aisp::mcp {

namespace fs = std::filesystem;
namespace s = schema;

namespace {

// `aisp info gpu` and `aisp info env` create a CUDA context. While a GPU job runs they are not started:
// a context on the GPU being measured would disturb its timing, and the run's environment gate would count
// it as a foreign GPU process. The last answer is served instead, with the time it was taken.
class GpuQueries {
 public:
  struct Answer {
    json document;        // the command's JSON output, or null
    std::string failure;  // why there is no document (the command failed, or it was not run)
    json cached_at;       // null: queried now; else when the served answer was taken
  };

  Answer get(const ServerConfig& config, JobManager& jobs, ToolCall& call, const std::vector<std::string>& args) {
    std::string key = fmt::format("{}", fmt::join(args, " "));
    if (jobs.gpu_busy()) {
      std::lock_guard lock(mutex_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
      return {nullptr,
              "not queried: a GPU job is running, and `aisp " + key + "` would put a CUDA context on the GPU it is "
              "measuring; ask again when aisp_job_status shows it has ended",
              nullptr};
    }
    AispOutput r = run_aisp(config, args, call);
    Answer a{r.document.is_object() ? r.document : json(nullptr),
             r.document.is_object() ? "" : failure_text("aisp " + key, r.child), nullptr};
    std::lock_guard lock(mutex_);
    Answer cached = a;
    cached.cached_at = utc_now();
    cache_[key] = cached;
    return a;
  }

 private:
  static std::string utc_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
  }
  std::mutex mutex_;
  std::map<std::string, Answer> cache_;
};

json gpu_facts(const ServerConfig& config, JobManager& jobs, GpuQueries& queries, ToolCall& call) {
  GpuQueries::Answer a = queries.get(config, jobs, call, {"info", "gpu", "--json"});
  json out = {{"gpu_count", 0}, {"gpus", json::array()}, {"warnings", json::array()}, {"error", nullptr},
              {"hardware", nullptr}, {"software", json::object()}, {"environment", json::object()},
              {"cached_at", a.cached_at}};
  if (!a.document.is_object()) {
    // `aisp info gpu` itself failed (missing libcudart, a crash) or was not run: still an answer, with why.
    out["gpu_count"] = nullptr;
    out["error"] = a.failure;
    return out;
  }
  const json& d = a.document;
  if (d.contains("gpus") && d["gpus"].is_array()) out["gpus"] = d["gpus"];
  out["gpu_count"] = out["gpus"].size();
  if (d.contains("warnings") && d["warnings"].is_array()) out["warnings"] = d["warnings"];
  if (d.contains("error") && d["error"].is_string()) out["error"] = d["error"];
  for (const char* k : {"hardware", "software", "environment"})
    if (d.contains(k) && d[k].is_object()) out[k] = d[k];
  return out;
}

json gpu_schema() {
  json gpu = s::object({{"ordinal", s::integer("CUDA device ordinal", 0, 1024)},
                        {"name", s::string("Device name", 256)},
                        {"uuid", s::string("GPU UUID", 128)},
                        {"hardware_key", s::string("Key for expectations and stored results (h100_80gb_hbm3)", 128)}},
                       {}, false, "One visible GPU: properties, clocks, power, driver (aisp info gpu)");
  return s::object(
      {{"gpu_count", s::nullable(s::integer("Visible CUDA devices: 0 on a machine without a usable GPU; null when "
                                            "they could not be queried (see error)", 0, 1024))},
       {"gpus", s::array("The devices", gpu, 1024)},
       {"error", s::nullable(s::string("Why no GPU is usable (driver missing, no device)", 4096))},
       {"warnings", s::array("Things that affect timings (virtualization, other GPU processes)", s::string("", 1024))},
       {"hardware", s::nullable(s::object({}, {}, false, "GPU 0 as a run manifest records it"))},
       {"software", s::object({}, {}, false, "aisp, CUDA runtime/driver API, cuBLAS, compiler, kernel versions")},
       {"environment", s::object({}, {}, false, "Host facts: hostname, virtualization, NVML availability")},
       {"cached_at", s::nullable(s::string("Set when these facts are from an earlier query (taken then): a GPU job "
                                           "is running and a new query would disturb it", 32))}},
      {"gpu_count", "gpus", "error", "warnings", "cached_at"});
}

json store_summary(const ServerConfig& config) {
  json out = {{"path", config.db_path.string()}, {"exists", fs::exists(config.db_path)}, {"runs", 0},
              {"latest_run", nullptr}, {"error", nullptr}};
  if (!out["exists"].get<bool>()) return out;
  try {
    Store store = Store::open_read_only(config.db_path);
    auto runs = store.list_runs();
    out["runs"] = runs.size();
    if (!runs.empty()) {
      const RunInfo& r = runs.back();
      out["latest_run"] = {{"id", r.id}, {"run", r.key}, {"hardware_key", r.hardware_key}, {"mode", r.mode},
                           {"targets", r.targets}, {"complete", r.complete}, {"git_commit", r.git_commit}};
    }
  } catch (const std::exception& e) {
    out["error"] = e.what();
  }
  return out;
}

json store_schema() {
  return s::object({{"path", s::string("Results store (SQLite)", 4096)},
                    {"exists", s::boolean("Whether the file exists")},
                    {"runs", s::integer("Stored runs", 0, 1LL << 40)},
                    {"latest_run", s::nullable(s::object({{"id", s::integer("Run id", 0, 1LL << 62)},
                                                           {"run", s::string("Run directory name", 512)}},
                                                          {}, false, "The newest stored run"))},
                    {"error", s::nullable(s::string("Why the store could not be read", 4096))}},
                   {"path", "exists", "runs", "latest_run", "error"});
}

json status_body(const ServerConfig& config, JobManager& jobs, GpuQueries& queries, ToolCall& call) {
  Catalog cat = load_catalog(config);
  json gpu = gpu_facts(config, jobs, queries, call);
  json names = json::array();
  for (auto& g : gpu["gpus"]) names.push_back(g.value("name", "?"));
  int running = 0, queued = 0;
  for (auto& j : jobs.list()) {
    running += j.state == "running";
    queued += j.state == "queued";
  }
  return {{"aisp_version", config.version},
          {"executable", config.aisp_exe},
          {"gpu", {{"count", gpu["gpu_count"]}, {"names", names}, {"error", gpu["error"]}, {"cached_at", gpu["cached_at"]}}},
          {"targets", {{"plugin_root", config.plugin_root.string()},
                       {"built", cat.built_count()},
                       {"in_sources", cat.source_count()},
                       {"source_root", config.source_root.empty() ? json(nullptr) : json(config.source_root.string())}}},
          {"store", store_summary(config)},
          {"jobs", {{"running", running}, {"queued", queued}}}};
}

json status_schema() {
  return s::object(
      {{"aisp_version", s::string("aisp version", 64)},
       {"executable", s::string("The aisp binary the tools run", 4096)},
       {"gpu", s::object({{"count", s::nullable(s::integer("Visible GPUs (null: not queried, see error)", 0, 1024))},
                          {"names", s::array("Device names", s::string("", 256), 1024)},
                          {"error", s::nullable(s::string("Why no GPU is usable", 4096))},
                          {"cached_at", s::nullable(s::string("From an earlier query (a GPU job is running)", 32))}},
                         {"count", "names", "error", "cached_at"})},
       {"targets", s::object({{"plugin_root", s::string("Built benchmark plugins", 4096)},
                              {"built", s::integer("Targets with built plugins (runnable)", 0, 1 << 30)},
                              {"in_sources", s::integer("Targets found in chapters/ and labs/", 0, 1 << 30)},
                              {"source_root", s::nullable(s::string("Checkout with chapters/ and labs/", 4096))}},
                             {"plugin_root", "built", "in_sources", "source_root"})},
       {"store", store_schema()},
       {"jobs", s::object({{"running", s::integer("Jobs running", 0, 1 << 20)},
                           {"queued", s::integer("Jobs waiting for the GPU", 0, 1 << 20)}},
                          {"running", "queued"})}},
      {"aisp_version", "executable", "gpu", "targets", "store", "jobs"});
}

// What to do next, from the facts gathered: the first thing that blocks a useful run comes first.
json next_steps(const json& status, const json& env) {
  json steps = json::array();
  if (status["gpu"]["count"] == 0)
    steps.push_back("No usable GPU here: benchmark runs and hw probes will fail. Stored results can still be read "
                    "(aisp_benchmark_runs, aisp_benchmark_history, aisp_analyze*).");
  if (env.is_object() && env.contains("summary") && env["summary"].value("fail", 0) > 0)
    steps.push_back("The environment gate has failed checks (see environment.failed): timings may be disturbed; "
                    "a strict run would refuse to start.");
  if (status["targets"]["built"] == 0)
    steps.push_back("No built benchmark plugins: build the project (cmake --build build) or set AISP_PLUGIN_DIR.");
  if (status["store"]["runs"] == 0)
    steps.push_back("The results store is empty: run benchmarks (aisp_run_benchmarks) or ingest run directories "
                    "with `aisp bench ingest`.");
  else
    steps.push_back("Compare the two newest runs with aisp_benchmark_compare_runs, or look at a target's trend with "
                    "aisp_benchmark_history.");
  if (status["gpu"]["count"].is_number() && status["gpu"]["count"] != 0 && status["targets"]["built"] != 0)
    steps.push_back("Start a run with aisp_run_benchmarks (returns a job id; poll aisp_job_status, then "
                    "aisp_job_result).");
  return steps;
}

}  // namespace

std::vector<Tool> system_tools(const ServerConfig& config, JobManager& jobs) {
  std::vector<Tool> tools;
  auto queries = std::make_shared<GpuQueries>();  // shared by the tools below, lives as long as they do
  json no_args = s::object({}, {}, true);

  tools.push_back({"aisp_status", "Status",
                   "Fast health check: aisp version, visible GPUs (or why there are none), how many benchmark targets "
                   "are built and in the sources, the results store (runs, newest run) and jobs running. Start here.",
                   no_args, status_schema(), read_only_annotations(),
                   [&config, &jobs, queries](ToolCall& call) { return status_body(config, jobs, *queries, call); }});

  json env_check = s::object({{"name", s::string("Check", 128)},
                              {"status", s::string_enum("Outcome", {"ok", "warn", "fail", "unknown"})},
                              {"detail", s::string("Why", 4096)}},
                             {"name", "status"});
  json triage_out = status_schema();
  triage_out["properties"]["environment"] = s::object(
      {{"summary", s::object({}, {}, false, "Counts per outcome: ok, warn, fail, unknown")},
       {"failed", s::array("Checks that failed", env_check, 256)},
       {"warnings", s::array("Checks that warn", env_check, 256)},
       {"error", s::nullable(s::string("Why the gate could not be evaluated", 4096))},
       {"cached_at", s::nullable(s::string("From an earlier query (a GPU job is running)", 32))}},
      {"summary", "failed", "warnings", "error", "cached_at"},
      false, "The environment gate `aisp bench run` applies (aisp info env)");
  triage_out["properties"]["next_steps"] = s::array("What to do next, most blocking first", s::string("", 1024), 32);
  triage_out["required"].push_back("environment");
  triage_out["required"].push_back("next_steps");
  tools.push_back({"aisp_triage", "Triage",
                   "Status plus the environment gate a benchmark run applies (GPU clocks, other GPU processes, ECC, "
                   "persistence, CPU governor, swap, virtualization, versions) and concrete next steps. Use when "
                   "something looks wrong or before trusting a run.",
                   no_args, triage_out, read_only_annotations(), [&config, &jobs, queries](ToolCall& call) {
                     json out = status_body(config, jobs, *queries, call);
                     GpuQueries::Answer env = queries->get(config, jobs, call, {"info", "env", "--json"});
                     json e = {{"summary", json::object()}, {"failed", json::array()}, {"warnings", json::array()},
                               {"error", nullptr}, {"cached_at", env.cached_at}};
                     if (env.document.is_object()) {
                       e["summary"] = env.document.value("summary", json::object());
                       for (auto& c : env.document.value("checks", json::array())) {
                         json row = {{"name", c.value("name", "?")}, {"status", c.value("status", "unknown")},
                                     {"detail", c.value("detail", "")}};
                         if (row["status"] == "fail") e["failed"].push_back(row);
                         if (row["status"] == "warn") e["warnings"].push_back(row);
                       }
                     } else {
                       e["error"] = env.failure;
                     }
                     out["environment"] = e;
                     out["next_steps"] = next_steps(out, env.document);
                     return out;
                   }});

  tools.push_back({"aisp_gpu_info", "GPU information",
                   "Visible NVIDIA GPUs: name, UUID, SMs, memory, L2, clocks (current and max), temperature, power "
                   "and limit, ECC, persistence, other compute processes, driver/CUDA/cuBLAS versions. On a "
                   "machine without a GPU it returns gpu_count 0 and the reason in `error` (not a tool error).",
                   no_args, gpu_schema(), read_only_annotations(),
                   [&config, &jobs, queries](ToolCall& call) { return gpu_facts(config, jobs, *queries, call); }});

  json check = s::object({{"name", s::string("Check", 128)},
                          {"status", s::string_enum("Outcome", {"ok", "warn", "fail", "unknown"})},
                          {"value", s::any("Observed value")},
                          {"detail", s::string("Why it matters / what was seen", 4096)}},
                         {"name", "status"});
  tools.push_back(
      {"aisp_environment", "Environment gate",
       "Every check of the environment gate (`aisp info env`): status ok/warn/fail/unknown, observed value and why "
       "it matters. Works without a GPU (GPU checks are then unknown).",
       s::object({{"validity_profile", s::string_enum("portable records failures as warnings; strict is what a "
                                                      "--validity-profile strict run would refuse on",
                                                      {"portable", "strict"})}},
                 {}, true),
       s::object({{"profile", s::string("Validity profile evaluated", 32)},
                  {"summary", s::object({}, {}, false, "Counts per outcome")},
                  {"decision", s::any("What a run with this profile would do")},
                  {"checks", s::array("All checks", check, 256)},
                  {"cached_at", s::nullable(s::string("From an earlier query (a GPU job is running)", 32))}},
                 {"checks", "cached_at"}),
       read_only_annotations(), [&config, &jobs, queries](ToolCall& call) {
         std::string profile = arg_string(call.arguments, "validity_profile", "portable");
         GpuQueries::Answer a = queries->get(config, jobs, call, {"info", "env", "--json", "--validity-profile=" + profile});
         if (!a.document.is_object()) throw ToolError(a.failure);
         json out = a.document;
         out["cached_at"] = a.cached_at;
         return out;
       }});
  return tools;
}

}  // namespace aisp::mcp
