// aisp: one binary for the harness, probes, reports, dashboard and MCP server.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <csignal>
#include <iostream>

#include "cli/ai_commands.hpp"
#include "cli/analysis_commands.hpp"
#include "cli/bench_commands.hpp"
#include "cli/clean_commands.hpp"
#include "cli/cluster_commands.hpp"
#include "cli/export_commands.hpp"
#include "cli/info_commands.hpp"
#include "cli/info_host_commands.hpp"
#include "cli/mcp_commands.hpp"
#include "cli/serve_commands.hpp"
#include "cli/profile_commands.hpp"
#include "runtime/profiled_run.hpp"
#include "runtime/worker.hpp"
#ifdef AISP_HAVE_PROBES
#include "probes/hw_commands.hpp"
#endif

int main(int argc, char** argv) {
  // Workers die (that is what the crash fixtures test); writing to a dead worker's pipe must be an error
  // return, not a SIGPIPE that kills the supervisor with every finished result.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"aisp: AI systems performance engineering toolkit (baseline/optimized CUDA pairs with verdicts you can defend)"};
  app.set_version_flag("--version", std::string("aisp ") + AISP_VERSION);
  app.require_subcommand(1);
  aisp::add_bench_commands(app);
  aisp::add_export_commands(*app.get_subcommand("bench"));
  aisp::add_expectation_commands(*app.get_subcommand("bench"));
  aisp::add_analysis_commands(*app.get_subcommand("bench"));
  aisp::add_info_commands(app);
  aisp::add_info_host_commands(*app.get_subcommand("info"));
  aisp::add_serve_commands(app);
#ifdef AISP_HAVE_PROBES
  aisp::add_hw_commands(app);
#endif
  aisp::add_profile_commands(app);
  aisp::add_ai_commands(app);
  aisp::add_clean_commands(app);
  aisp::add_cluster_commands(app);
  aisp::add_mcp_commands(app);  // reads the command tree when it runs: its tools follow what is registered
  static std::string plugin;
  auto* worker = app.add_subcommand("worker", "Internal: serve one benchmark plugin to the supervisor over fds 3/4");
  static std::string validity = "on";
  worker->add_option("--plugin", plugin, "Plugin .so")->required();
  worker->add_option("--validity", validity, "on|off")->check(CLI::IsMember({"on", "off"}));
  // --once: one setup + warm-up + a single run() in an NVTX range, for ncu / compute-sanitizer to watch
  // (runtime/profiled_run.hpp); no protocol, the result goes to --result.
  static bool once = false;
  static aisp::ProfiledRunOptions one_shot;
  worker->add_flag("--once", once, "Run setup, warm-ups and one run() inside an NVTX range, then exit");
  worker->add_option("--result", one_shot.result_file, "--once: JSON result file (default stdout)");
  worker->add_option("--warmup", one_shot.warmup, "--once: untimed runs before the ranged one");
  worker->add_option("--nvtx-range", one_shot.nvtx_range, "--once: NVTX push/pop range around the run");
  worker->add_option("--seed", one_shot.seed, "--once: input seed");
  worker->group("");  // hidden from --help: not for humans
  worker->callback([] {
    if (once) {
      one_shot.plugin = plugin;
      std::exit(aisp::profiled_run_main(one_shot));
    }
    std::exit(aisp::worker_main({plugin, validity == "on"}));
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const CLI::Error& e) {
    std::cerr << "aisp: " << e.what() << "\n";
    return e.get_exit_code();
  } catch (const std::exception& e) {
    std::cerr << "aisp: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
