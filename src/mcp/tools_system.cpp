// aisp_status, aisp_triage, aisp_gpu_info, aisp_environment: what this machine is and whether it can run
// benchmarks. GPU facts come from `aisp info gpu --json` in a child process, so the server itself never
// creates a CUDA context (one stuck in a bad driver state would take every later call down with it), and
// a machine without a GPU gets an answer that says so instead of an error.
#include <fmt/format.h>

#include <gnu/libc-version.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>
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

// A one-line sysfs/procfs file, trimmed; "" when unreadable. Fixed kernel paths chosen by the server (from a
// PCI bus id the driver reported), never by a client.
std::string read_line(const fs::path& p) {
  std::ifstream f(p);
  std::string line;
  std::getline(f, line);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line.substr(0, 512);
}

// /sys/bus/pci/devices/<domain:bus:dev.fn>, from CUDA's bus id ("00000000:18:00.0"): lower case, and the
// domain cut to the 4 digits sysfs uses.
fs::path pci_sysfs_dir(std::string bus_id) {
  for (auto& c : bus_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (bus_id.size() == 16) bus_id = bus_id.substr(4);
  bool plain = !bus_id.empty() && std::all_of(bus_id.begin(), bus_id.end(), [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
  });
  return plain ? fs::path("/sys/bus/pci/devices") / bus_id : fs::path();
}

json topology_power(const ServerConfig& config, JobManager& jobs, GpuQueries& queries, ToolCall& call) {
  json facts = gpu_facts(config, jobs, queries, call);
  json gpus = json::array();
  for (auto& g : facts["gpus"]) {
    std::string bus = g.value("pci_bus_id", "");
    fs::path dir = pci_sysfs_dir(bus);
    std::string numa = dir.empty() ? "" : read_line(dir / "numa_node");
    double power = g.value("power_w", -1.0), limit = g.value("power_limit_w", -1.0);
    gpus.push_back({{"ordinal", g.value("ordinal", static_cast<int>(gpus.size()))},
                    {"name", g.value("name", "")},
                    {"pci_bus_id", bus.empty() ? json(nullptr) : json(bus)},
                    // -1 in sysfs: the platform does not say (single-socket hosts, most VMs).
                    {"numa_node", numa.empty() || numa == "-1" ? json(nullptr) : json(std::atoi(numa.c_str()))},
                    {"local_cpus", dir.empty() ? json(nullptr) : json(read_line(dir / "local_cpulist"))},
                    {"power_w", power >= 0 ? json(power) : json(nullptr)},
                    {"power_limit_w", limit > 0 ? json(limit) : json(nullptr)},
                    {"power_fraction", power >= 0 && limit > 0 ? json(power / limit) : json(nullptr)},
                    {"temperature_c", g.contains("temperature_c") ? g["temperature_c"] : json(nullptr)},
                    {"sm_clock_mhz", g.contains("sm_clock_mhz") ? g["sm_clock_mhz"] : json(nullptr)},
                    {"sm_clock_max_mhz", g.contains("sm_clock_max_mhz") ? g["sm_clock_max_mhz"] : json(nullptr)},
                    {"clocks_event_reasons", g.contains("clocks_event_reasons") ? g["clocks_event_reasons"] : json(nullptr)},
                    {"compute_processes", g.contains("compute_processes") ? g["compute_processes"] : json(nullptr)}});
  }
  int numa_nodes = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/sys/devices/system/node", ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string n = it->path().filename().string();
    numa_nodes += n.rfind("node", 0) == 0 && n.size() > 4 && std::isdigit(static_cast<unsigned char>(n[4]));
  }
  json notes = json::array();
  if (gpus.size() > 1)
    notes.push_back("GPU-to-GPU bandwidth is measured, not listed here: aisp_hw_p2p (copy engines) and aisp_hw_nccl");
  if (numa_nodes > 1)
    notes.push_back("several NUMA nodes: pin host threads and pinned buffers to the GPU's local_cpus (chapter 3)");
  return {{"gpu_count", facts["gpu_count"]},
          {"gpus", gpus},
          {"host", {{"cpus", std::thread::hardware_concurrency()}, {"numa_nodes", numa_nodes == 0 ? json(nullptr) : json(numa_nodes)}}},
          {"error", facts["error"]},
          {"cached_at", facts["cached_at"]},
          {"notes", notes}};
}

json topology_power_schema() {
  json gpu = s::object(
      {{"ordinal", s::integer("CUDA device ordinal", 0, 1024)},
       {"name", s::string("Device name", 256)},
       {"pci_bus_id", s::nullable(s::string("PCI bus id (domain:bus:device.function)", 64))},
       {"numa_node", s::nullable(s::integer("Host NUMA node the GPU hangs off (null: the platform does not say)", 0, 4096))},
       {"local_cpus", s::nullable(s::string("Host CPUs local to the GPU (sysfs local_cpulist)", 512))},
       {"power_w", s::nullable(s::number("Board power draw now (NVML)"))},
       {"power_limit_w", s::nullable(s::number("Enforced power limit"))},
       {"power_fraction", s::nullable(s::number("power_w / power_limit_w"))},
       {"temperature_c", s::any("GPU temperature")},
       {"sm_clock_mhz", s::any("SM clock now")},
       {"sm_clock_max_mhz", s::any("SM clock maximum")},
       {"clocks_event_reasons", s::any("Why clocks are below maximum (power cap, thermal, idle ...)")},
       {"compute_processes", s::any("Other compute processes on the GPU")}},
      {"ordinal", "name", "pci_bus_id", "numa_node", "power_w", "power_limit_w"});
  return s::object({{"gpu_count", s::nullable(s::integer("Visible GPUs (null: not queried, see error)", 0, 1024))},
                    {"gpus", s::array("Per GPU: where it sits on the host, and its power now", gpu, 1024)},
                    {"host", s::object({{"cpus", s::integer("Logical CPUs", 0, 1 << 20)},
                                        {"numa_nodes", s::nullable(s::integer("NUMA nodes", 0, 4096))}},
                                       {"cpus", "numa_nodes"})},
                    {"error", s::nullable(s::string("Why no GPU is usable", 4096))},
                    {"cached_at", s::nullable(s::string("From an earlier query (a GPU job is running)", 32))},
                    {"notes", s::array("What to look at next", s::string("", 1024), 16)}},
                   {"gpu_count", "gpus", "host", "error", "cached_at", "notes"});
}

json system_software(const ServerConfig& config, JobManager& jobs, GpuQueries& queries, ToolCall& call) {
  json facts = gpu_facts(config, jobs, queries, call);
  std::string os;
  {
    std::ifstream f("/etc/os-release");
    for (std::string line; std::getline(f, line);)
      if (line.rfind("PRETTY_NAME=", 0) == 0) {
        os = line.substr(12);
        std::erase(os, '"');
      }
  }
  utsname u{};
  std::string kernel = ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine : "";
  json deps = json::array();
  json missing = json::array();
  if (config.find_dependencies)
    for (const Dependency& d : config.find_dependencies()) {
      deps.push_back({{"name", d.name}, {"found", !d.path.empty()}, {"path", d.path.empty() ? json(nullptr) : json(d.path)},
                      {"override", d.env_var}, {"looked_in", d.looked_in}});
      if (d.path.empty()) missing.push_back(d.name);
    }
  json env = json::object();
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_HOME", "LD_LIBRARY_PATH", "AISP_SOURCE_DIR", "AISP_PLUGIN_DIR"}) {
    const char* v = std::getenv(name);
    env[name] = v ? json(std::string(v).substr(0, 1024)) : json(nullptr);
  }
  json notes = json::array();
  auto has = [&](const char* n) { return std::find(missing.begin(), missing.end(), n) == missing.end(); };
  if (!has("ncu")) notes.push_back("ncu not found: aisp_profile_ncu jobs fail; stored profiles can still be analysed");
  if (!has("nsys")) notes.push_back("nsys not found: aisp_profile_nsys jobs fail");
  if (!has("compute-sanitizer")) notes.push_back("compute-sanitizer not found: aisp_profile_sanitizer jobs fail");
  if (!has("nvcc")) notes.push_back("nvcc not found: --bench-root pairs cannot be compiled (built plugins still run)");
  if (facts["error"].is_string()) notes.push_back("the GPU software versions need a working driver: " + facts["error"].get<std::string>().substr(0, 300));
  return {{"aisp", {{"version", config.version}, {"executable", config.aisp_exe}}},
          {"gpu_software", facts["software"]},
          {"driver_version", facts["gpus"].empty() ? json(nullptr) : facts["gpus"][0].value("driver_version", json(nullptr))},
          {"os", {{"name", os}, {"kernel", kernel}, {"glibc", gnu_get_libc_version()}}},
          {"dependencies", deps},
          {"environment", env},
          {"cached_at", facts["cached_at"]},
          {"notes", notes}};
}

json system_software_schema() {
  json dep = s::object({{"name", s::string("Program", 64)},
                        {"found", s::boolean("Found")},
                        {"path", s::nullable(s::string("Where", 4096))},
                        {"override", s::string("Environment variable that names it explicitly", 64)},
                        {"looked_in", s::array("Where it was looked for, in order", s::string("", 8192), 64)}},
                       {"name", "found", "path"});
  return s::object(
      {{"aisp", s::object({{"version", s::string("aisp version", 64)}, {"executable", s::string("Binary", 4096)}},
                          {"version", "executable"})},
       {"gpu_software", s::object({}, {}, false, "CUDA runtime / driver API, cuBLAS, compiler, kernel (aisp info gpu)")},
       {"driver_version", s::any("NVIDIA driver version (null without a GPU)")},
       {"os", s::object({{"name", s::string("Distribution", 256)},
                         {"kernel", s::string("uname", 512)},
                         {"glibc", s::string("C library version", 64)}},
                        {"name", "kernel", "glibc"})},
       {"dependencies", s::array("External programs aisp runs", dep, 32)},
       {"environment", s::object({}, {}, false, "Variables that change what aisp finds (null: unset)")},
       {"cached_at", s::nullable(s::string("GPU facts from an earlier query (a GPU job is running)", 32))},
       {"notes", s::array("What a missing piece disables", s::string("", 1024), 16)}},
      {"aisp", "gpu_software", "os", "dependencies", "environment", "cached_at", "notes"});
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

  tools.push_back({"aisp_gpu_topology_power", "GPU topology and power",
                   "Where each GPU sits on the host (PCI bus id, NUMA node, local CPUs) and its power now (draw, "
                   "limit, fraction of the limit, temperature, clocks and why they are held back), with the host's "
                   "CPU and NUMA counts. Use before host-bound work (pinned buffers, CPU threads) or when clocks look "
                   "low. Measured GPU-to-GPU bandwidth is aisp_hw_p2p.",
                   no_args, topology_power_schema(), read_only_annotations(),
                   [&config, &jobs, queries](ToolCall& call) { return topology_power(config, jobs, *queries, call); }});

  tools.push_back({"aisp_system_software", "System software and dependencies",
                   "The software stack aisp runs on: aisp version, CUDA runtime/driver API, cuBLAS, NVIDIA driver, "
                   "compiler, OS, kernel, glibc; whether the external programs it uses are found (nvcc, ncu, nsys, "
                   "compute-sanitizer) and where it looked; the environment variables that change that; and what a "
                   "missing piece disables.",
                   no_args, system_software_schema(), read_only_annotations(),
                   [&config, &jobs, queries](ToolCall& call) { return system_software(config, jobs, *queries, call); }});
  return tools;
}

}  // namespace aisp::mcp
