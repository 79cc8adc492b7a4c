// The tool set built from a server configuration: tools exist exactly for the commands a build has, every
// tool has the shapes clients require, CLI-derived arguments become safe argv (no option injection), the
// catalog merges sources and plugins, and a hardware-probe tool runs its command as a job. A stand-in
// script plays `aisp`, so no GPU and no real binary are needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "mcp/catalog.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"
#include "store/store.hpp"

namespace aisp::mcp {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aisp_mcp_tools_XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  void touch(const std::string& rel, const std::string& text = "") {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
  // A shell script that stands in for aisp (so no GPU and no real binary are needed); its path.
  std::string fake_aisp(const std::string& script) {
    touch("fake_aisp", script);
    fs::permissions(path / "fake_aisp", fs::perms::owner_all);
    return (path / "fake_aisp").string();
  }
};

Tool& tool_named(std::vector<Tool>& tools, const std::string& name) {
  for (auto& t : tools)
    if (t.name == name) return t;
  throw std::runtime_error("no tool " + name);
}

// One call as a client makes it: these arguments, never cancelled, progress ignored.
json call_tool(Tool& tool, const json& args) {
  std::atomic<bool> cancelled{false};
  ToolCall call{args, cancelled, [](double, double, const std::string&) {}};
  return tool.run(call);
}

CommandSpec probe_spec() {
  return {{"hw", "memory"},
          "HBM bandwidth.",
          {{"json", "--json", "boolean", false, false, "print JSON"},
           {"out", "--out", "string", false, false, "write JSON"},
           {"device", "--device", "integer", false, false, "CUDA device"},
           {"quick", "--quick", "boolean", false, false, "fewer samples"},
           {"gib", "--gib", "number", false, false, "GiB per buffer"}}};
}

TEST(McpTools, DerivedSchemaAndArgvAreSafe) {
  CommandSpec spec = {{"bench", "whatif"},
                      "Budgets.",
                      {{"vram", "--vram", "number", false, false, "GiB"},
                       {"labels", "--labels", "string", true, false, "labels"},
                       {"db", "--db", "string", false, false, "store"},
                       {"data", "--data", "string", false, false, "results"},
                       {"summary_to", "--summary-to", "string", false, false, "Also write the summary to this file"},
                       {"strict", "--strict", "boolean", false, false, "flag"},
                       {"stat", "--stat", "string", false, false, "statistic", {"p99", "median"}},
                       {"target", "", "string", false, true, "positional"}}};
  json in = input_schema_from(spec, {"vram"});
  EXPECT_EQ(in["type"], "object");
  EXPECT_EQ(in["additionalProperties"], false);
  // Server-owned (paths: the store, files read, and a later option documented as a file), and the tool's own.
  for (const char* hidden : {"db", "data", "summary_to", "vram"}) EXPECT_FALSE(in["properties"].contains(hidden)) << hidden;
  EXPECT_EQ(in["properties"]["labels"]["type"], "array");
  EXPECT_EQ(in["properties"]["strict"]["type"], "boolean");
  EXPECT_EQ(in["required"], json::array({"target"}));
  EXPECT_EQ(in["properties"]["stat"]["enum"], json::array({"p99", "median"}));
  EXPECT_FALSE(schema::validate(json{{"target", "x"}, {"stat", "p50"}}, in).empty());
  EXPECT_TRUE(schema::validate(json{{"target", "x"}, {"strict", true}}, in).empty());
  EXPECT_FALSE(schema::validate(json{{"target", "x"}, {"strict", "banana"}}, in).empty());  // flags are booleans
  EXPECT_FALSE(schema::validate(json{{"target", "x"}, {"db", "/etc/passwd"}}, in).empty());

  // A value that looks like an option stays a value: --flag=value, the server's options next, positionals
  // last after "--" (the server's --json after "--" would be a positional).
  auto argv = argv_from(spec, {{"vram", 2.5}, {"labels", {"a", "--evil"}}, {"strict", true}, {"target", "--help"}},
                        {}, {"--json"});
  EXPECT_EQ(argv, (std::vector<std::string>{"bench", "whatif", "--vram=2.5", "--labels=a", "--labels=--evil",
                                            "--strict", "--json", "--", "--help"}));
  EXPECT_EQ(argv_from(spec, {{"strict", false}}, {}), (std::vector<std::string>{"bench", "whatif"}));
  EXPECT_THROW(argv_from(spec, {{"target", std::string("a\0b", 3)}}, {}), ToolError);
  // Values that name a place in the file system are refused, without quoting them back.
  for (const char* path : {"/etc/shadow", "../../etc/shadow", "ch07/../../x", "~/.ssh/id_rsa"}) {
    try {
      argv_from(spec, {{"target", path}}, {});
      ADD_FAILURE() << path << " accepted";
    } catch (const ToolError& e) {
      EXPECT_EQ(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(argv_from(spec, {{"target", "labs/moe:router"}, {"labels", {"A/B test..."}}}, {}));
}

// The hw disk probe's file size is bounded; its directory is the server's.
TEST(McpTools, DiskProbeIsBoundedAndWritesOnlyToItsScratch) {
  TempDir dir;
  ServerConfig c;
  c.aisp_exe = dir.fake_aisp(
      "#!/bin/sh\nfor a in \"$@\"; do case $a in --dir=*) d=${a#--dir=};; esac; done\n"
      "touch \"$d/.aisp_disk_probe_$$\"\nprintf '{\"argv\":\"%s\",\"dir\":\"%s\"}\\n' \"$*\" \"$d\"\n");
  c.artifacts_dir = dir.path / "artifacts";
  c.commands = {{{"hw", "disk"},
                 "Disk.",
                 {{"json", "--json", "boolean", false, false, "print JSON"},
                  {"out", "--out", "string", false, false, "write JSON to FILE"},
                  {"dir", "--dir", "string", false, false, "directory to test"},
                  {"mib", "--mib", "number", false, false, "file size in MiB"}}}};
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  Tool& disk = tool_named(tools, "aisp_hw_disk");
  const json& props = disk.input_schema["properties"];
  EXPECT_FALSE(props.contains("dir"));
  EXPECT_FALSE(props.contains("out"));
  EXPECT_EQ(props["mib"]["maximum"], 4096.0);
  EXPECT_FALSE(schema::validate(json{{"mib", 1e9}}, disk.input_schema).empty());
  std::string id = call_tool(disk, {{"mib", 16}})["job_id"];
  ASSERT_TRUE(jobs.wait(id, 10));
  JobSnapshot snap = *jobs.snapshot(id, true);
  EXPECT_EQ(snap.state, "finished");
  std::string used = snap.result["dir"];
  EXPECT_EQ(used.rfind((c.artifacts_dir / "mcp" / "scratch").string(), 0), 0u) << used;
  EXPECT_FALSE(fs::exists(used));  // the job's scratch directory went with it
  EXPECT_NE(snap.result["argv"].get<std::string>().find("--mib=16"), std::string::npos);
}

// bottleneck/roofline/compare read stored profiles: no job, no GPU queue, and without a stored profile a
// clear answer instead of a profiler run.
TEST(McpTools, StoredProfileToolsAreSynchronousAndNeverProfile) {
  TempDir dir;
  ServerConfig c;
  c.aisp_exe = dir.fake_aisp("#!/bin/sh\necho called > '" + (dir.path / "called").string() + "'\necho '{}'\n");
  c.artifacts_dir = dir.path / "artifacts";
  c.db_path = dir.path / "artifacts" / "aisp.db";
  CommandOption target{"target", "", "string", false, false, "Target id"};
  CommandOption fresh{"fresh", "--fresh", "boolean", false, false, "Profile now"};
  CommandOption from{"from", "--from", "string", false, false, "A profile directory"};
  c.commands = {{{"profile", "compare"}, "Deltas.", {target, fresh, from}},
                {{"profile", "bottleneck"}, "Tree.", {fresh, from}},
                {{"profile", "ncu"}, "Profile.", {}}};
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  for (auto& t : tools) {
    if (t.name != "aisp_profile_compare" && t.name != "aisp_profile_bottleneck") continue;
    EXPECT_EQ(t.annotations["readOnlyHint"], true) << t.name;
    EXPECT_FALSE(t.input_schema["properties"].contains("fresh")) << t.name;
    EXPECT_FALSE(t.input_schema["properties"].contains("from")) << t.name;
    json args = t.name == "aisp_profile_compare" ? json{{"target", "ch07:copy_scalar"}} : json::object();
    try {
      call_tool(t, args);
      ADD_FAILURE() << t.name << " ran without a stored profile";
    } catch (const ToolError& e) {
      EXPECT_NE(std::string(e.what()).find("no stored ncu profile"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(fs::exists(dir.path / "called"));  // no child started
  EXPECT_TRUE(jobs.list().empty());                // and no job
  int ncu = 0;
  for (auto& t : tools) ncu += t.name == "aisp_profile_ncu";
  EXPECT_EQ(ncu, 1);
}

TEST(McpTools, ToolsFollowTheCommandsOfTheBuild) {
  JobManager jobs;
  ServerConfig bare;
  bare.aisp_exe = "/bin/false";
  std::vector<std::string> names;
  for (auto& t : make_tools(bare, jobs)) names.push_back(t.name);
  // Without bench run / hw / analysis commands: no tools for them.
  EXPECT_EQ(std::count(names.begin(), names.end(), "aisp_run_benchmarks"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "aisp_analyze"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "aisp_status"), 1);

  ServerConfig full = bare;
  full.commands = {{{"bench", "run"}, "Run.", {}}, probe_spec(), {{"bench", "analyze"}, "Leaderboards.", {}},
                   {{"profile", "ncu"}, "Nsight Compute.", {}}};
  std::regex valid_name("^aisp_[A-Za-z0-9_]{1,59}$");
  std::vector<std::string> with;
  for (auto& t : make_tools(full, jobs)) {
    with.push_back(t.name);
    EXPECT_TRUE(std::regex_match(t.name, valid_name)) << t.name;
    EXPECT_GT(t.description.size(), 30u) << t.name;
    EXPECT_EQ(t.input_schema["type"], "object") << t.name;
    EXPECT_EQ(t.input_schema["additionalProperties"], false) << t.name;
    EXPECT_EQ(t.output_schema["type"], "object") << t.name;
    EXPECT_TRUE(t.annotations.contains("readOnlyHint")) << t.name;
  }
  for (const char* n : {"aisp_run_benchmarks", "aisp_hw_memory", "aisp_analyze", "aisp_profile_ncu"})
    EXPECT_EQ(std::count(with.begin(), with.end(), n), 1) << n;
  EXPECT_EQ(std::count(with.begin(), with.end(), "aisp_analyze_whatif"), 0);
}

TEST(McpTools, CatalogMergesPluginsAndSources) {
  TempDir plugins, src;
  plugins.touch("ch07/baseline_copy.so");
  plugins.touch("ch07/optimized_copy.so");
  src.touch("chapters/ch07/baseline_copy.cu");
  src.touch("chapters/ch07/optimized_copy.cu");
  src.touch("chapters/ch07/optimized_copy_v2.cu");
  src.touch("chapters/ch07/README.md", "# Chapter 7: memory access\n");
  src.touch("labs/moe/baseline_router.cu");
  src.touch("labs/moe/optimized_router.cu");
  ServerConfig c;
  c.plugin_root = plugins.path;
  c.source_root = src.path;
  Catalog cat = load_catalog(c);
  ASSERT_EQ(cat.targets.size(), 2u);
  const CatalogEntry& copy = cat.targets.at("ch07:copy");
  EXPECT_TRUE(copy.built && copy.in_sources);
  EXPECT_EQ(copy.variants, (std::vector<std::string>{"copy", "copy_v2"}));
  const CatalogEntry& router = cat.targets.at("labs/moe:router");
  EXPECT_FALSE(router.built);
  EXPECT_TRUE(router.in_sources);
  EXPECT_EQ(cat.built_count(), 1u);
  EXPECT_EQ(readme_title(cat.chapter_dirs.at("ch07")), "Chapter 7: memory access");
}

TEST(McpTools, ProbeToolRunsItsCommandAsAJob) {
  TempDir dir;
  ServerConfig c;
  // Stands in for aisp: prints its arguments as the JSON document a probe would print.
  c.aisp_exe = dir.fake_aisp("#!/bin/sh\nprintf '{\"argv\":\"%s\"}\\n' \"$*\"\necho 'probe done' >&2\n");
  c.commands = {probe_spec()};
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  Tool& probe = tool_named(tools, "aisp_hw_memory");
  EXPECT_FALSE(probe.input_schema["properties"].contains("out"));  // output files are the server's business
  json started = call_tool(probe, {{"device", 1}, {"quick", true}});
  EXPECT_TRUE(schema::validate(started, probe.output_schema).empty());
  std::string id = started["job_id"];
  ASSERT_TRUE(jobs.wait(id, 10));

  Tool& result_tool = tool_named(tools, "aisp_job_result");
  json result = call_tool(result_tool, {{"job_id", id}});
  EXPECT_TRUE(schema::validate(result, result_tool.output_schema).empty()) << result.dump();
  EXPECT_EQ(result["ready"], true);
  EXPECT_EQ(result["job"]["state"], "finished");
  EXPECT_EQ(result["job"]["kind"], "hw_memory");
  EXPECT_EQ(result["result"]["argv"], "hw memory --device=1 --quick --json");
  EXPECT_EQ(result["job"]["log_tail"], json::array({"probe done"}));
}

// `bench run` played by a script that creates the run directory from --artifacts-dir/--label and prints a
// real results document (a reference H100 run): the job, its summary and its run directory.
TEST(McpTools, BenchmarkRunJobSummaryAndRunDirectory) {
  TempDir dir;
  fs::path results = fs::path(AISP_TEST_DATA_DIR).parent_path().parent_path() / "results" / "reference" /
                     "h100_80gb_hbm3" / "20261122_090130__bench__targets-ch07_ch01" / "results" /
                     "benchmark_test_results.json";
  ASSERT_TRUE(fs::exists(results)) << results;
  ServerConfig c;
  c.aisp_exe = dir.fake_aisp(
      "#!/bin/sh\nfor a in \"$@\"; do case $a in --label=*) l=${a#--label=};; "
      "--artifacts-dir=*) d=${a#--artifacts-dir=};; esac; done\n"
      "mkdir -p \"$d/runs/20260101_000000__bench__$l\"\necho 'stored run' >&2\n"
      "cat '" +
      results.string() + "'\nexit 1\n");
  c.artifacts_dir = dir.path / "artifacts";
  c.db_path = dir.path / "artifacts" / "aisp.db";
  c.commands = {{{"bench", "run"}, "Run.", {}}};
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  auto run = [&](const std::string& name, const json& args) {
    Tool& t = tool_named(tools, name);
    json out = call_tool(t, args);
    EXPECT_TRUE(schema::validate(out, t.output_schema).empty()) << name << ": " << out.dump().substr(0, 500);
    return out;
  };
  json started = run("aisp_run_benchmarks", {{"targets", {"ch07", "ch01:gemm_batched"}}, {"mode", "hot"},
                                              {"iterations", 20}, {"reproducible", true}});
  std::vector<std::string> command = started["command"];
  for (const char* want : {"--targets=ch07", "--targets=ch01:gemm_batched", "--mode=hot", "--iterations=20",
                           "--reproducible", "--json"})
    EXPECT_EQ(std::count(command.begin(), command.end(), want), 1) << want;
  std::string id = started["job_id"];
  json result = run("aisp_job_result", {{"job_id", id}, {"wait_s", 10}});
  EXPECT_EQ(result["ready"], true);
  EXPECT_EQ(result["job"]["state"], "finished");  // exit 1 with results: a regression to read, not a failure
  EXPECT_EQ(result["job"]["exit_code"], 1);
  EXPECT_NE(result["job"]["exit_meaning"].get<std::string>().find("regression"), std::string::npos);
  ASSERT_EQ(result["summary"].size(), 4u);  // the reference run's four targets
  EXPECT_TRUE(result["summary"][0]["variants"].size() > 0);
  EXPECT_NE(result["run_dir"].get<std::string>().find("__bench__mcp-"), std::string::npos);
  EXPECT_TRUE(result["result"].is_null());  // summary by default
  json full = run("aisp_job_result", {{"job_id", id}, {"detail", "full"}});
  EXPECT_TRUE(full["result"].contains("results"));
}

TEST(McpTools, NoCudaContextWhileAGpuJobRuns) {
  TempDir dir;
  ServerConfig c;
  c.aisp_exe = dir.fake_aisp("#!/bin/sh\nprintf '{\"gpus\":[],\"error\":\"asked: %s\"}\\n' \"$*\"\n");
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  Tool& gpu = tool_named(tools, "aisp_gpu_info");
  auto ask = [&] {
    json r = call_tool(gpu, json::object());
    EXPECT_TRUE(schema::validate(r, gpu.output_schema).empty()) << r.dump();
    return r;
  };
  auto run_gpu_job = [&] {
    std::string id = jobs.submit({"bench_run", {"/bin/sh", "-c", "sleep 30"}, true, 0, nullptr});
    for (int i = 0; i < 200 && !jobs.gpu_busy(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return id;
  };
  // A job is measuring and nothing was asked before: no query, and the answer says why.
  std::string first = run_gpu_job();
  json busy = ask();
  EXPECT_TRUE(busy["gpu_count"].is_null());
  EXPECT_NE(busy["error"].get<std::string>().find("GPU job is running"), std::string::npos);
  jobs.cancel(first);
  jobs.wait(first, 10);
  // Idle: queried now.
  json fresh = ask();
  EXPECT_EQ(fresh["gpu_count"], 0);
  EXPECT_EQ(fresh["error"], "asked: info gpu --json");
  EXPECT_TRUE(fresh["cached_at"].is_null());
  // Busy again: the earlier answer, marked with when it was taken.
  std::string second = run_gpu_job();
  json cached = ask();
  EXPECT_EQ(cached["error"], "asked: info gpu --json");
  EXPECT_TRUE(cached["cached_at"].is_string());
  jobs.cancel(second);
}

// A host-bound flag written in a chapter's expectations file shows in both expectation tools, and the
// report lists the pairs whose speedups differ between GPUs.
TEST(McpTools, ExpectationToolsShowTheBetweenMachineSpread) {
  TempDir src;
  auto entry = [](double speedup, double low, double high) {
    return json{{"example", "dbuf"}, {"target", "ch03:dbuf"}, {"optimization_goal", "speed"}, {"status", "succeeded"},
                {"metrics", {{"best_speedup", speedup}, {"best_speedup_ci_low", low}, {"best_speedup_ci_high", high},
                             {"baseline_time_ms", 2.0}, {"best_optimized_time_ms", 2.0 / speedup}}},
                {"metadata", {{"best_optimization", "dbuf"}}},
                {"provenance", {{"mode", "cold"}}}};
  };
  json h100 = {{"schema_version", 1}, {"hardware_key", "h100_80gb_hbm3"}, {"examples", {{"dbuf", entry(1.787, 1.414, 2.021)}}}};
  h100["examples"]["dbuf"]["host_bound"] = true;
  json h200 = {{"schema_version", 1}, {"hardware_key", "h200"}, {"examples", {{"dbuf", entry(1.201, 1.166, 1.236)}}}};
  src.touch("chapters/ch03/expectations_h100_80gb_hbm3.json", h100.dump());
  src.touch("chapters/ch03/expectations_h200.json", h200.dump());
  ServerConfig c;
  c.source_root = src.path;
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  auto run = [&](const std::string& name, const json& args) {
    Tool& t = tool_named(tools, name);
    json out = call_tool(t, args);
    EXPECT_TRUE(schema::validate(out, t.output_schema).empty()) << name << ": " << out.dump();
    return out;
  };
  json listed = run("aisp_benchmark_expectations", {{"show_all", true}});
  ASSERT_EQ(listed["entries"].size(), 2u);
  for (auto& e : listed["entries"]) {
    if (e["hardware_key"] == "h100_80gb_hbm3") EXPECT_EQ(e["between_machine"]["source"], "host_bound") << e.dump();
    else EXPECT_TRUE(e["between_machine"].is_null()) << e.dump();
  }
  json report = run("aisp_expectations_report", json::object());
  ASSERT_EQ(report["hardware"].size(), 2u);
  EXPECT_EQ(report["hardware"][0]["between_machine"].size(), 1u);  // h100_80gb_hbm3 sorts first
  ASSERT_EQ(report["across_machines"].size(), 1u);
  EXPECT_EQ(report["across_machines"][0]["target"], "ch03:dbuf");
  EXPECT_NEAR(report["across_machines"][0]["ratio"].get<double>(), 1.787 / 1.201, 1e-9);
  EXPECT_EQ(report["across_machines"][0]["cis_disjoint"], true);
}

// With a stored profile the analysis runs, over the server's store, with the server's options before the
// `--` of the positional target (the bug: `… -- ch07:transpose --json` is a usage error), and with ncu made
// unreachable so the command cannot fall back to profiling on the GPU.
TEST(McpTools, StoredProfileToolRunsOverTheServersStore) {
  TempDir dir;
  ServerConfig c;
  c.aisp_exe =
      dir.fake_aisp("#!/bin/sh\nprintf '{\"argv\":\"%s\",\"ncu\":\"%s\",\"cwd\":\"%s\"}\\n' \"$*\" \"$AISP_NCU\" \"$(pwd)\"\n");
  c.artifacts_dir = dir.path / "artifacts";
  c.db_path = dir.path / "artifacts" / "aisp.db";
  {
    Store store = Store::open(c.db_path);
    for (const char* variant : {"baseline", "transpose"})
      store.add_profile(json{{"tool", "ncu"}, {"preset", "deep_dive"}, {"target", "ch07:transpose"}, {"variant", variant},
                             {"kernels", json::array()}, {"hardware", json::object()}}.dump(),
                        "");
  }
  c.commands = {{{"profile", "compare"},
                 "Deltas.",
                 {{"target", "", "string", false, false, "Target id"},
                  {"json", "--json", "boolean", false, false, "Print JSON"},
                  {"db", "--db", "string", false, false, "Results store"},
                  {"artifacts_dir", "--artifacts-dir", "string", false, false, "Where profiles/ is written"},
                  {"fresh", "--fresh", "boolean", false, false, "Profile now"}}}};
  JobManager jobs;
  auto tools = make_tools(c, jobs);
  Tool& cmp = tool_named(tools, "aisp_profile_compare");
  json out = call_tool(cmp, {{"target", "ch07:transpose"}});
  EXPECT_TRUE(schema::validate(out, cmp.output_schema).empty()) << out.dump();
  EXPECT_EQ(out["document"]["argv"], "profile compare --json --db=" + c.db_path.string() + " --artifacts-dir=" +
                                         c.artifacts_dir.string() + " -- ch07:transpose");
  EXPECT_EQ(out["document"]["ncu"], "/nonexistent/aisp-mcp-store-only");
  EXPECT_EQ(fs::path(out["document"]["cwd"].get<std::string>()), c.work_dir());
  EXPECT_TRUE(jobs.list().empty());
  // Another target has no stored profile: refused before any child starts.
  EXPECT_THROW(call_tool(cmp, {{"target", "ch07:copy_scalar"}}), ToolError);
}

}  // namespace
}  // namespace aisp::mcp
