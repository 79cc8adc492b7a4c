// Work that takes longer than a client waits for one request: benchmark runs and hardware probes start a
// job (src/mcp/jobs.hpp) and return its id at once; aisp_job_status / aisp_job_result / aisp_job_cancel /
// aisp_job_list follow it.
#include <fmt/format.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "core/result.hpp"
#include "mcp/json_rpc.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"

namespace aisp::mcp {

namespace fs = std::filesystem;
namespace s = schema;

namespace {

json job_schema() {
  return s::object(
      {{"job_id", s::string("Job id", 64)},
       {"kind", s::string("bench_run, hw_<probe>, profile_<tool>", 64)},
       {"state", s::string_enum("queued (waiting for the GPU), running, finished (the command exited and printed "
                                "its JSON, whatever its exit code), failed (no result: see error), cancelled",
                                {"queued", "running", "finished", "failed", "cancelled"})},
       {"command", s::array("The aisp command line", s::string("", 4096), 512)},
       {"created_at", s::string("ISO 8601 UTC", 32)},
       {"started_at", s::nullable(s::string("ISO 8601 UTC", 32))},
       {"ended_at", s::nullable(s::string("ISO 8601 UTC", 32))},
       {"elapsed_s", s::number("Seconds running so far (or in all)")},
       {"queue_position", s::integer("1 = next to run on the GPU; 0 when not queued", 0, 1 << 20)},
       {"exit_code", s::nullable(s::integer("The command's exit code", -1, 255))},
       {"exit_meaning", s::string("What the exit code means for this command", 512)},
       {"outcome", s::string("How the process ended (empty while it runs)", 512)},
       {"error", s::string("Why there is no result (failed or cancelled); empty otherwise", 1 << 16)},
       {"log_tail", s::array("Last lines the command wrote to stderr", s::string("", 1024), 64)}},
      {"job_id", "kind", "state", "command", "created_at", "elapsed_s", "queue_position", "exit_code", "error",
       "log_tail"});
}

json job_json(const JobSnapshot& j) {
  auto or_null = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
  return {{"job_id", j.id},
          {"kind", j.kind},
          {"state", j.state},
          {"command", j.command},
          {"created_at", j.created_at},
          {"started_at", or_null(j.started_at)},
          {"ended_at", or_null(j.ended_at)},
          {"elapsed_s", j.elapsed_s},
          {"queue_position", j.queue_position},
          {"exit_code", j.exit_code ? json(*j.exit_code) : json(nullptr)},
          {"exit_meaning", j.exit_meaning},
          {"outcome", j.outcome},
          {"error", j.error},
          {"log_tail", j.log_tail}};
}

json started_schema() {
  return s::object({{"job_id", s::string("Pass to aisp_job_status / aisp_job_result / aisp_job_cancel", 64)},
                    {"state", s::string("queued or running", 16)},
                    {"command", s::array("The aisp command line the job runs", s::string("", 4096), 512)},
                    {"next", s::string("What to call next", 512)}},
                   {"job_id", "state", "command", "next"});
}

json started(JobManager& jobs, const std::string& id) {
  auto snap = jobs.snapshot(id);
  return {{"job_id", id},
          {"state", snap ? snap->state : "queued"},
          {"command", snap ? json(snap->command) : json::array()},
          {"next", "poll aisp_job_status with this job_id (every 10-30 s), then read aisp_job_result"}};
}

// Target selectors are ids like ch07:copy_scalar, labs/moe:router or `all`; anything else (a leading
// '-' that would read as an option, spaces, quotes) is refused before it reaches a command line.
void check_selector(const std::string& t) {
  bool ok = !t.empty() && t.size() <= 200 && t[0] != '-' && t[0] != '/' && t.find("..") == std::string::npos &&
            std::all_of(t.begin(), t.end(), [](char c) {
              return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '/' || c == '.' || c == '-';
            });
  if (!ok)
    throw ToolError("invalid target " + quote_input(t, 64) + ": expected `all`, a chapter (ch07, labs/<lab>) or a "
                    "target id (ch07:copy_scalar); list them with aisp_benchmark_targets");
}

// submit(), with a full queue as a tool error the caller can act on.
std::string submit(JobManager& jobs, JobSpec spec) {
  try {
    // The work directory must exist, or the child could not start in it (a misleading "No such file").
    if (!spec.cwd.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(spec.cwd, ec);
      if (!std::filesystem::is_directory(spec.cwd, ec))
        throw ToolError("cannot create the server's work directory " + spec.cwd +
                        " (aisp mcp --artifacts-dir must be writable)");
    }
    return jobs.submit(std::move(spec));
  } catch (const JobQueueFull& e) {
    throw ToolError(e.what());
  }
}

// A scratch directory for one job, named after this server's pid so a later server can tell an
// orphan (its server was killed before it could clean up) from a live one.
std::string new_scratch_dir(const ServerConfig& config) {
  if (config.scratch_root().empty()) throw ToolError("the server has no artifacts directory for this job's files");
  static std::atomic<int> counter{0};
  return (config.scratch_root() / fmt::format("{}-{}", ::getpid(), ++counter)).string();
}

// `aisp profile <sub>` subcommands that only read stored profiles: synchronous tools (tools_commands.cpp).
bool reads_stored_profiles(const CommandSpec& spec) {
  return spec.path.size() == 2 && spec.path[0] == "profile" &&
         (spec.path[1] == "bottleneck" || spec.path[1] == "roofline" || spec.path[1] == "compare");
}

// Per target: status, best speedup and each variant's verdict — what a caller usually wants first.
json run_summary(const json& results) {
  json out = json::array();
  std::vector<TargetResult> targets;
  try {
    targets = targets_from_document(results);
  } catch (const std::exception&) {
    return out;  // not a results document; the raw result is still returned
  }
  for (auto& t : targets) {
    json variants = json::array();
    for (auto& v : t.optimizations)
      variants.push_back({{"variant", v.name}, {"status", v.status}, {"verdict", v.verdict},
                          {"median_ms", number_or_null(v.timing.median)}, {"speedup", number_or_null(v.speedup)},
                          {"speedup_ci", {number_or_null(v.ci_low), number_or_null(v.ci_high)}},
                          {"error", v.error}});
    out.push_back({{"target", t.id}, {"status", t.status}, {"error", t.error},
                   {"baseline_ms", number_or_null(t.baseline.timing.median)},
                   {"best_variant", t.best_optimization}, {"best_speedup", number_or_null(t.best_speedup)},
                   {"variants", variants}});
  }
  return out;
}

// The run directory of a job started with --label <label>: artifacts/runs/<stamp>__bench__<label>.
std::string find_run_dir(const fs::path& artifacts, const std::string& label) {
  std::error_code ec;
  std::string suffix = "__bench__" + label;
  for (auto it = fs::directory_iterator(artifacts / "runs", ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return it->path().string();
  }
  return "";
}

std::string job_id_arg(const json& args, JobManager& jobs) {
  std::string id = arg_string(args, "job_id");
  if (!jobs.snapshot(id))
    throw ToolError("unknown job_id '" + id + "' (jobs live as long as the server; list them with aisp_job_list)");
  return id;
}

json job_id_input() {
  return s::object({{"job_id", s::string("Job id from the tool that started it", 64)}}, {"job_id"}, true);
}

}  // namespace

void remove_stale_scratch(const ServerConfig& config) {
  std::error_code ec;
  for (auto it = fs::directory_iterator(config.scratch_root(), ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    long pid = std::strtol(name.c_str(), nullptr, 10);
    // kill(pid, 0) fails with ESRCH when no such process exists: its server is gone.
    if (pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code rm;
      fs::remove_all(it->path(), rm);
    }
  }
}

std::vector<Tool> job_tools(const ServerConfig& config, JobManager& jobs) {
  std::vector<Tool> tools;

  if (config.find({"bench", "run"})) {
    tools.push_back(
        {"aisp_run_benchmarks", "Run benchmarks (job)",
         "Verify and time baseline/optimized pairs (`aisp bench run --json`): outputs checked against the baseline, "
         "interleaved timing, speedup with 95% CI, validity checks, verdicts; the run is stored in the results "
         "store and compared with this GPU's expectations. Takes minutes, so it starts a JOB and returns its id at "
         "once: poll aisp_job_status, then aisp_job_result. GPU jobs run one at a time. Needs an NVIDIA GPU (without "
         "one the job fails with the reason).",
         s::object(
             {{"targets", s::array("`all`, chapters (ch07, labs/<lab>), targets (ch07:copy_scalar) or a variant "
                                   "(ch07:copy_scalar_v2)", s::string("", 200), 64)},
              {"mode", s::string_enum("cold: L2 flushed before each sample (default); hot: back-to-back; graph: "
                                      "CUDA graph replay", {"cold", "hot", "graph"})},
              {"iterations", s::integer("Exactly N timed samples per variant (disables adaptive stopping)", 1, 100000)},
              {"time_limit", s::number("Seconds of sampling per variant before stopping anyway (default 15)", 0.1, 3600)},
              {"validity_profile", s::string_enum("portable: environment failures are warnings (default); strict: "
                                                  "refuse to start on a failed environment check",
                                                  {"portable", "strict"})},
              {"reproducible", s::boolean("Fixed seeds (recorded in the manifest)")},
              {"accept_regressions", s::boolean("A slowdown against the expectation does not fail the run")}},
             {"targets"}, true),
         started_schema(), starts_work_annotations(), [&config, &jobs](ToolCall& call) {
           const json& a = call.arguments;
           if (a["targets"].empty()) throw ToolError("targets is empty: name at least one (or `all`)");
           std::vector<std::string> argv = {config.aisp_exe, "bench", "run"};
           for (auto& t : a["targets"]) {
             check_selector(t.get<std::string>());
             argv.push_back("--targets=" + t.get<std::string>());
           }
           // A label unique to this job, so its run directory can be found again for the result.
           static std::atomic<int> counter{0};
           std::string label = fmt::format("mcp-{}-{}", ::getpid(), ++counter);
           argv.insert(argv.end(), {"--json", "--label=" + label, "--artifacts-dir=" + config.artifacts_dir.string(),
                                    "--db=" + config.db_path.string()});
           if (!config.bench_root.empty()) argv.push_back("--bench-root=" + config.bench_root);
           if (a.contains("mode")) argv.push_back("--mode=" + a["mode"].get<std::string>());
           if (a.contains("iterations")) argv.push_back(fmt::format("--iterations={}", a["iterations"].get<long long>()));
           if (a.contains("time_limit")) argv.push_back(fmt::format("--time-limit={}", a["time_limit"].get<double>()));
           if (a.contains("validity_profile"))
             argv.push_back("--validity-profile=" + a["validity_profile"].get<std::string>());
           // --update-expectations is not offered: it rewrites the committed chNN/expectations_<hwkey>.json
           // files in the checkout, and the server writes nowhere but its artifacts directory.
           for (const char* flag : {"reproducible", "accept_regressions"})
             if (arg_bool(a, flag)) {
               std::string f = flag;
               std::replace(f.begin(), f.end(), '_', '-');
               argv.push_back("--" + f);
             }
           JobSpec spec{"bench_run", argv, true, 0, bench_exit_meaning, config.work_dir().string(), {}, ""};
           // --bench-root pairs are compiled into a cache, by default under $HOME; from the server it goes
           // under the artifacts directory, unless whoever started the server chose one ($AISP_CACHE_DIR).
           if (!std::getenv("AISP_CACHE_DIR") && !config.artifacts_dir.empty())
             spec.env.push_back("AISP_CACHE_DIR=" + (config.artifacts_dir / "mcp" / "plugin-cache").string());
           return started(jobs, submit(jobs, std::move(spec)));
         }});
  }

  // Hardware probes and profilers, as present in this build: `aisp hw <probe> --json`, `aisp profile <tool>`.
  for (auto& spec : config.commands) {
    if (spec.path.size() != 2 || (spec.path[0] != "hw" && spec.path[0] != "profile")) continue;
    if (reads_stored_profiles(spec)) continue;
    bool probe = spec.path[0] == "hw";
    const std::vector<std::string> hidden;  // the server-owned options (option_policy.hpp) are all it hides
    std::string kind = spec.path[0] + "_" + spec.path[1];
    std::string name = "aisp_" + kind;
    std::replace(name.begin(), name.end(), '-', '_');
    std::string what = probe ? "Hardware probe" : "Profiler";
    tools.push_back(
        {name, fmt::format("{}: {} (job)", what, spec.path[1]),
         fmt::format("{} Runs `aisp {} {} --json` as a JOB: returns a job id at once; poll aisp_job_status, then "
                     "aisp_job_result for the JSON document. {}",
                     spec.description, spec.path[0], spec.path[1],
                     probe ? "GPU probes run one at a time and need an NVIDIA GPU (without one the job fails with "
                             "the reason)."
                           : "Needs an NVIDIA GPU and the profiler installed."),
         input_schema_from(spec, hidden), started_schema(), starts_work_annotations(),
         [&config, &jobs, &spec, hidden, kind, probe](ToolCall& call) {
           // The server's own values: JSON out; profiles go to its artifacts directory and store; the disk
           // probe's test file goes to the job's scratch directory (removed when the job ends).
           std::vector<std::string> server = {"--json"};
           std::string scratch;
           if (!probe) {
             server.push_back("--db=" + config.db_path.string());
             server.push_back("--artifacts-dir=" + config.artifacts_dir.string());
           }
           for (auto& o : spec.options)
             if (probe && o.name == "dir") {
               scratch = new_scratch_dir(config);
               server.push_back(o.flag + "=" + scratch);
             }
           std::vector<std::string> argv = {config.aisp_exe};
           for (auto& a : argv_from(spec, call.arguments, hidden, server)) argv.push_back(a);
           // Every measurement waits its turn, `hw disk` too: its I/O would compete with the storage
           // benchmarks (ch05) and with the host side of any timed run.
           const bool gpu = true;
           JobSpec job{kind, argv, gpu, 0, [](int code) {
                         return code == 0 ? std::string("0: ok")
                                          : fmt::format("{}: {}", code, code == 2 ? "needs a GPU or bad arguments"
                                                                                  : "a measurement failed (see the log)");
                       },
                       config.work_dir().string(), {}, scratch};
           return started(jobs, submit(jobs, std::move(job)));
         }});
  }

  tools.push_back({"aisp_job_status", "Job status",
                   "State of a job (queued with its place in the GPU queue, running with elapsed time, finished, "
                   "failed, cancelled), its exit code and meaning, and the last lines of its log.",
                   job_id_input(), job_schema(), read_only_annotations(), [&jobs](ToolCall& call) {
                     return job_json(*jobs.snapshot(job_id_arg(call.arguments, jobs)));
                   }});

  tools.push_back(
      {"aisp_job_result", "Job result",
       "The result of a job: for a benchmark run a per-target summary (status, best speedup, each variant's verdict "
       "and CI) plus the run directory; with detail=full the whole JSON document the command printed (large arrays "
       "are trimmed). While the job runs, `ready` is false: call again later, or pass wait_s to wait up to 50 s.",
       s::object({{"job_id", s::string("Job id", 64)},
                  {"detail", s::string_enum("summary (default) or full: include the command's whole JSON output",
                                            {"summary", "full"})},
                  {"wait_s", s::number("Wait up to this many seconds for the job to end (default 0)", 0, 50)}},
                 {"job_id"}, true),
       s::object({{"job", job_schema()},
                  {"ready", s::boolean("The job has ended; result/summary are final")},
                  {"summary", s::array("Benchmark runs: per target status, best speedup, variants", s::object({}), 100000)},
                  {"run_dir", s::nullable(s::string("Artifacts of a benchmark run", 4096))},
                  {"result", s::any("The command's JSON output (detail=full, or a probe/profile job); null otherwise")}},
                 {"job", "ready", "summary", "run_dir", "result"}),
       read_only_annotations(), [&config, &jobs](ToolCall& call) {
         std::string id = job_id_arg(call.arguments, jobs);
         double wait_s = arg_number(call.arguments, "wait_s", 0);
         // Wait in short slices so a cancelled call returns promptly.
         for (double waited = 0; waited < wait_s && !call.cancelled; waited += 0.5)
           if (jobs.wait(id, std::min(0.5, wait_s - waited))) break;
         JobSnapshot snap = *jobs.snapshot(id, true);
         bool ready = snap.state != "queued" && snap.state != "running";
         bool full = arg_string(call.arguments, "detail", "summary") == "full";
         json out = {{"job", job_json(snap)}, {"ready", ready}, {"summary", json::array()}, {"run_dir", nullptr},
                     {"result", nullptr}};
         if (snap.kind == "bench_run") {
           out["summary"] = run_summary(snap.result);
           for (auto& arg : snap.command)
             if (arg.rfind("--label=", 0) == 0) {
               std::string dir = find_run_dir(config.artifacts_dir, arg.substr(8));
               if (!dir.empty()) out["run_dir"] = dir;
             }
           if (full) out["result"] = snap.result;
         } else {
           out["result"] = snap.result;  // probe/profile documents are compact
         }
         return out;
       }});

  tools.push_back({"aisp_job_cancel", "Cancel a job",
                   "Stop a queued or running job: its process group gets SIGTERM, then SIGKILL after 3 s, and the "
                   "job's temporary files (the disk probe's test file) are removed before it reports `cancelled`. A "
                   "benchmark run's directory written so far stays (it is labelled as the job's). Cancelling an ended "
                   "job changes nothing.",
                   job_id_input(), job_schema(), starts_work_annotations(), [&jobs](ToolCall& call) {
                     std::string id = job_id_arg(call.arguments, jobs);
                     jobs.cancel(id);
                     jobs.wait(id, 5);  // usually ends within the grace period; report what is true now
                     return job_json(*jobs.snapshot(id));
                   }});

  tools.push_back({"aisp_job_list", "List jobs",
                   "Every job this server started (oldest first) with its state; finished jobs are kept until 64 "
                   "jobs exist.",
                   s::object({}, {}, true), s::object({{"jobs", s::array("Jobs", job_schema(), 1000)}}, {"jobs"}),
                   read_only_annotations(), [&jobs](ToolCall&) {
                     json out = json::array();
                     for (auto& j : jobs.list()) out.push_back(job_json(j));
                     return json{{"jobs", out}};
                   }});
  return tools;
}

}  // namespace aisp::mcp
