#include "cli/serve_commands.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "cli/paths.hpp"
#include "serve/serve_options.hpp"

namespace aisp {

void add_serve_commands(CLI::App& root) {
  static ServeOptions options;
  auto* serve = root.add_subcommand(
      "serve", "Dashboard: REST API (/api/...) and web UI over the results store, read-only, on 127.0.0.1:8100");
  add_serve_options(*serve, options);
  serve->callback([] {
    std::filesystem::path server = self_exe().parent_path() / "aisp-serve";
    std::vector<std::string> args = serve_arguments(options);
    args.insert(args.begin(), server.string());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::cout.flush();
    execv(server.c_str(), argv.data());
    // Only reached when the exec failed.
    std::cerr << fmt::format("aisp serve: cannot start {}: {} (it is built with aisp when libcpp-httplib-dev is "
                             "installed: cmake --build <build dir> --target aisp-serve)\n",
                             server.string(), std::strerror(errno));
    std::exit(2);
  });
}

}  // namespace aisp
