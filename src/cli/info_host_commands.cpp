#include "cli/info_host_commands.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/info_commands.hpp"
#include "cli/paths.hpp"
#include "cli/store_commands.hpp"
#include "core/gpu_topology.hpp"
#include "core/software_inventory.hpp"
#include "profile/tools.hpp"
#include "store/store.hpp"

namespace aisp {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A program on PATH (or at an absolute path): its full path, "" when absent.
std::string which(const std::string& program) {
  return program.find('/') != std::string::npos ? (fs::exists(program) ? program : "") : [&] {
    std::string p = capture_stdout("command -v " + program + " 2>/dev/null");
    while (!p.empty() && (p.back() == '\n' || p.back() == ' ')) p.pop_back();
    return p;
  }();
}

// ---------------------------------------------------------------- status

json store_status(const fs::path& db) {
  json s = {{"path", db.string()}, {"exists", fs::exists(db)}};
  if (!fs::exists(db)) {
    s["note"] =
        "not found: no run stored yet (aisp bench run stores each finished run; aisp bench ingest stores existing ones)";
    return s;
  }
  try {
    Store store = Store::open_read_only(db);
    auto runs = store.list_runs();
    s["runs"] = runs.size();
    if (!runs.empty())
      s["newest_run"] = {{"id", runs.back().id},
                         {"key", runs.back().key},
                         {"hardware_key", runs.back().hardware_key},
                         {"targets", runs.back().targets},
                         {"complete", runs.back().complete}};
  } catch (const std::exception& e) { s["error"] = e.what(); }
  return s;
}

json last_run_dir(const fs::path& artifacts) {
  std::vector<fs::path> runs;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(artifacts / "runs", ec))
    if (e.is_directory(ec)) runs.push_back(e.path());
  if (runs.empty()) return {{"path", nullptr}, {"note", "not found: no run directory under " + (artifacts / "runs").string()}};
  std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.filename() < b.filename(); });
  json progress = json::parse(read_text(runs.back() / "progress" / "run_progress.json"), nullptr, false);
  return {{"path", runs.back().string()}, {"state", progress.is_object() ? progress.value("state", "unknown") : "unknown"}};
}

json status_doc(const std::string& db, const std::string& artifacts) {
  json sys = collect_system_info();
  json gpus = json::array();
  for (auto& g : sys["gpus"])
    gpus.push_back({{"ordinal", g.value("ordinal", 0)},
                    {"name", g.value("name", "")},
                    {"driver_version", g.value("driver_version", "")},
                    {"temperature_c", g.value("temperature_c", 0.0)},
                    {"power_w", g.value("power_w", 0.0)},
                    {"compute_processes", g.value("compute_processes", 0)}});
  std::string driver = driver_from_proc(read_text("/proc/driver/nvidia/version"));
  return {{"gpus", gpus},
          {"gpu_error", sys.value("error", "")},
          {"driver",
           driver.empty() ? json("not found (no /proc/driver/nvidia/version: no NVIDIA kernel module loaded)") : json(driver)},
          {"cuda_runtime", sys["software"].value("cuda_runtime_version", "")},
          {"store", store_status(store_path(db, artifacts))},
          {"last_run", last_run_dir(artifacts)}};
}

void print_status(const json& s) {
  if (s["gpus"].empty()) std::cout << "GPU:      none (" << s["gpu_error"].get<std::string>() << ")\n";
  for (auto& g : s["gpus"])
    std::cout << fmt::format("GPU {}:    {}, {:.0f} °C, {:.0f} W, {} other compute process(es)\n", g["ordinal"].get<int>(),
                             g["name"].get<std::string>(), g["temperature_c"].get<double>(), g["power_w"].get<double>(),
                             g["compute_processes"].get<int>());
  std::cout << "driver:   " << s["driver"].get<std::string>() << "\n";
  std::cout << "CUDA:     runtime " << s["cuda_runtime"].get<std::string>() << " (linked into aisp)\n";
  const json& st = s["store"];
  if (!st["exists"].get<bool>())
    std::cout << "store:    " << st["path"].get<std::string>() << ": " << st["note"].get<std::string>() << "\n";
  else if (st.contains("error"))
    std::cout << "store:    " << st["path"].get<std::string>() << ": " << st["error"].get<std::string>() << "\n";
  else {
    std::cout << fmt::format("store:    {} ({} runs)\n", st["path"].get<std::string>(), st.value("runs", 0));
    if (st.contains("newest_run"))
      std::cout << fmt::format("          newest: run {} {} ({}, {} targets)\n", st["newest_run"]["id"].get<int64_t>(),
                               st["newest_run"]["key"].get<std::string>(), st["newest_run"]["hardware_key"].get<std::string>(),
                               st["newest_run"]["targets"].get<int64_t>());
  }
  const json& lr = s["last_run"];
  std::cout << "last run: "
            << (lr["path"].is_null() ? lr["note"].get<std::string>()
                                     : lr["path"].get<std::string>() + " (" + lr["state"].get<std::string>() + ")")
            << "\n";
}

// ---------------------------------------------------------------- topology

json topology_doc(const std::string& from) {
  json out;
  std::string text, source;
  if (!from.empty()) {
    if (!fs::is_regular_file(from)) throw CLI::Error("InfoError", from + ": no such file", 2);
    text = read_text(from);
    source = from;
  } else if (std::string smi = which("nvidia-smi"); !smi.empty()) {
    text = capture_stdout(smi + " topo -m 2>&1");
    source = smi + " topo -m";
  }
  if (text.empty()) {
    out["matrix"] = nullptr;
    out["matrix_note"] = "not found: nvidia-smi is not on PATH (no NVIDIA driver utilities): no GPU/NIC link matrix";
  } else {
    try {
      out["matrix"] = to_json(parse_nvidia_smi_topo(text));
      out["matrix_source"] = source;
    } catch (const std::exception& e) {
      out["matrix"] = nullptr;
      out["matrix_note"] = fmt::format("{} gave no link matrix ({}): {}", source, e.what(), text.substr(0, 200));
    }
  }
  json nodes = json::array();
  for (auto& n : numa_nodes()) nodes.push_back({{"id", n.id}, {"cpus", n.cpus}, {"mem_total_gib", n.mem_total_gib}});
  out["numa_nodes"] = nodes;
  if (nodes.empty()) out["numa_note"] = "not found: /sys/devices/system/node lists no NUMA node";
  return out;
}

void print_topology(const json& t) {
  if (t["matrix"].is_null()) {
    std::cout << t["matrix_note"].get<std::string>() << "\n";
  } else {
    const json& m = t["matrix"];
    std::string head = fmt::format("{:<7}", "");
    for (auto& d : m["devices"]) head += fmt::format("{:<7}", d.get<std::string>());
    std::cout << head << "CPU affinity   NUMA\n";
    for (auto& d : m["devices"]) {
      std::string line = fmt::format("{:<7}", d.get<std::string>());
      for (auto& e : m["devices"])
        line += fmt::format("{:<7}", m["links"][d.get<std::string>()][e.get<std::string>()].get<std::string>());
      json aff = m["affinity"].value(d.get<std::string>(), json::object());
      std::cout << line << fmt::format("{:<15}{}\n", aff.value("CPU Affinity", "-"), aff.value("NUMA Affinity", "-"));
    }
    for (auto& [code, meaning] : m["legend"].items())
      std::cout << fmt::format("  {:<5} {}\n", code, meaning.get<std::string>());
    for (auto& [nic, name] : m["nic_names"].items()) std::cout << fmt::format("  {}: {}\n", nic, name.get<std::string>());
    std::cout << "(from " << t["matrix_source"].get<std::string>() << ")\n";
  }
  if (t["numa_nodes"].empty()) std::cout << t["numa_note"].get<std::string>() << "\n";
  for (auto& n : t["numa_nodes"])
    std::cout << fmt::format("NUMA node {}: CPUs {}, {:.1f} GiB\n", n["id"].get<int>(), n["cpus"].get<std::string>(),
                             n["mem_total_gib"].get<double>());
}

// ---------------------------------------------------------------- software

json item_json(const SoftwareItem& i) {
  return {{"name", i.name},
          {"found", i.found},
          {"version", i.found ? json(i.version) : json(nullptr)},
          {"path", i.path.empty() ? json(nullptr) : json(i.path)},
          {"note", i.note}};
}

SoftwareItem toolkit_item() {
  for (std::string nvcc :
       {which("nvcc"), std::string(std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda") + "/bin/nvcc",
        std::string("/usr/local/cuda/bin/nvcc")}) {
    if (nvcc.empty() || !fs::exists(nvcc)) continue;
    std::string v = nvcc_release(capture_stdout(nvcc + " --version 2>&1"));
    return {"CUDA toolkit (nvcc)", true, v, nvcc, v.empty() ? "nvcc --version printed no release" : "nvcc --version"};
  }
  return {"CUDA toolkit (nvcc)", false, "", "", "not found: nvcc not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin"};
}

// A Python module's version through python3 (20 s at most: a first torch import can be slow).
SoftwareItem python_module(const std::string& python, const std::string& module) {
  if (python.empty()) return {module, false, "", "", "not found: no python3"};
  int code = 0;
  std::string out =
      capture_stdout(fmt::format("timeout 20 {} -c 'import {} as m; print(m.__version__)' 2>&1", python, module), &code);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  if (code != 0) {
    std::string last = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    return {module, false, "", "", "not importable by " + python + (last.empty() ? "" : ": " + last)};
  }
  return {module, true, out, python, "import " + module};
}

json software_doc() {
  json items = json::array();
  std::string driver = driver_from_proc(read_text("/proc/driver/nvidia/version"));
  items.push_back(item_json({"NVIDIA driver", !driver.empty(), driver, driver.empty() ? "" : "/proc/driver/nvidia/version",
                             driver.empty() ? "not found: no /proc/driver/nvidia/version (no NVIDIA kernel module loaded)"
                                            : "kernel module version"}));
  items.push_back(item_json(toolkit_item()));
  auto libs = default_lib_dirs();
  auto incs = default_include_dirs();
  for (auto& spec : cuda_libraries()) items.push_back(item_json(find_library(spec, libs, incs)));
  for (auto [name, env] : {std::pair{"ncu", "AISP_NCU"}, std::pair{"nsys", "AISP_NSYS"},
                           std::pair{"compute-sanitizer", "AISP_COMPUTE_SANITIZER"}}) {
    profile::ToolLocation t = profile::find_tool(name, env);
    items.push_back(item_json({name, t.found(), "", t.path, t.found() ? "" : t.missing_message()}));
  }
  std::string python = which("python3");
  std::string pyver =
      python.empty() ? "" : capture_stdout(python + " -c 'import platform; print(platform.python_version())' 2>/dev/null");
  while (!pyver.empty() && pyver.back() == '\n') pyver.pop_back();
  items.push_back(
      item_json({"python3", !python.empty(), pyver, python, python.empty() ? "not found: python3 not on PATH" : ""}));
  for (const char* m : {"torch", "triton"}) items.push_back(item_json(python_module(python, m)));
  return {{"items", items}};
}

// A multi-line "looked in" list as one table cell.
std::string one_line(std::string s) {
  for (size_t at; (at = s.find("\n  ")) != std::string::npos;) s.replace(at, 3, "; ");
  return s.size() > 200 ? s.substr(0, 197) + "..." : s;
}

void print_software(const json& s) {
  for (auto& i : s["items"])
    std::cout << fmt::format(
        "{:<24} {:<12} {}\n", i["name"].get<std::string>(),
        i["found"].get<bool>()
            ? (i["version"].is_string() && !i["version"].get<std::string>().empty() ? i["version"].get<std::string>() : "found")
            : "not found",
        i["found"].get<bool>() ? i["path"].get<std::string>() : one_line(i["note"].get<std::string>()));
}

}  // namespace

void add_info_host_commands(CLI::App& info) {
  static bool as_json = false;
  static std::string db, artifacts = "artifacts", from;
  auto* status = info.add_subcommand("status", "GPU, driver, results store and the last run, in one screen");
  status->add_flag("--json", as_json, "Print JSON");
  status->add_option("--db", db, "Results store (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  status->add_option("--artifacts-dir", artifacts, "Artifacts directory (runs/)")->capture_default_str();
  status->callback([] {
    json s = status_doc(db, artifacts);
    if (as_json) std::cout << s.dump(2) << "\n";
    else print_status(s);
  });
  auto* topo = info.add_subcommand("topology", "GPU/NIC link matrix (nvidia-smi topo -m) and the host's NUMA nodes");
  topo->add_flag("--json", as_json, "Print JSON");
  topo->add_option("--from", from, "Parse a saved `nvidia-smi topo -m` output file instead of running nvidia-smi");
  topo->callback([] {
    json t = topology_doc(from);
    if (as_json) std::cout << t.dump(2) << "\n";
    else print_topology(t);
  });
  auto* sw = info.add_subcommand("software", "Driver, CUDA toolkit, cudart/cuBLAS/cuDNN/NCCL, profilers, python3/torch/triton");
  sw->add_flag("--json", as_json, "Print JSON");
  sw->callback([] {
    json s = software_doc();
    if (as_json) std::cout << s.dump(2) << "\n";
    else print_software(s);
  });
}

}  // namespace aisp
