// Where the binary finds its own pieces when run from a build tree or an install.
#pragma once
#include <filesystem>
#include <string>

namespace aisp {

std::filesystem::path self_exe();
// $AISP_PLUGIN_DIR, else <dir of aisp>/plugins.
std::filesystem::path default_plugin_root();
// The source tree the chapters live in (chapters/chNN/, labs/<lab>/), for expectations files:
// $AISP_SOURCE_DIR, else the checkout around the binary's build directory, else the project root this
// binary was configured from. Empty when none of them holds a chapters/ directory.
std::filesystem::path project_source_root();
// Runs a shell command and returns its stdout (empty on failure).
std::string capture_stdout(const std::string& cmd, int* exit_code = nullptr);

}  // namespace aisp
