#include "mcp/option_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include "mcp/tool.hpp"

namespace aisp::mcp {

namespace {

// Options whose value is a place in the file system or a mode the server always sets itself.
constexpr std::array kServerOwned = {
    "json",           // the server always asks for JSON
    "db",             // the server's results store
    "artifacts_dir",  // the server's artifacts directory
    "out", "output",  // files written on the side
    "caps",           // hardware_capabilities file: read, and written by hw probes
    "dir",            // hw disk: where its test file goes (the job's scratch directory)
    "data", "from",   // files or directories read instead of the store
    "tags", "prices", // data files read by the analyses (the checkout's data/ is used)
    "format",         // bench report: the tool returns Markdown
};

// Whole words only: "the newest profiled target" mentions no file.
bool mentions_a_path(const std::string& help) {
  std::string h = help;
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (h.find(".json") != std::string::npos) return true;
  std::string word;
  for (size_t i = 0; i <= h.size(); ++i) {
    if (i < h.size() && std::isalpha(static_cast<unsigned char>(h[i]))) {
      word += h[i];
      continue;
    }
    for (const char* w : {"file", "files", "directory", "directories", "dir", "path", "paths", "folder"})
      if (word == w) return true;
    word.clear();
  }
  return false;
}

}  // namespace

bool server_owned(const CommandSpec& command, const CommandOption& option) {
  // hw network: a client neither opens a listening socket on the server's host nor makes it connect to a
  // host of the client's choosing; the tool measures loopback only.
  if (command.path == std::vector<std::string>{"hw", "network"} &&
      (option.name == "address" || option.name == "listen" || option.name == "listen_count" || option.name == "bind"))
    return true;
  if (std::find(kServerOwned.begin(), kServerOwned.end(), option.name) != kServerOwned.end()) return true;
  // A free-text option documented as a file or directory: hidden until reviewed (the header says why).
  // Enums are not free text, and numbers ("file size in MiB") name no place.
  return option.type == "string" && option.choices.empty() && mentions_a_path(option.description);
}

std::optional<std::pair<double, double>> option_bounds(const CommandSpec& command, const CommandOption& option) {
  // hw disk writes and reads a file of --mib MiB: 4 GiB is enough to get past most write caches, and a
  // client cannot fill the disk with it.
  if (command.path == std::vector<std::string>{"hw", "disk"} && option.name == "mib") return std::make_pair(1.0, 4096.0);
  // hw network sends 3-5 samples of --mib MiB over loopback: 4 GiB a sample is seconds, not hours.
  if (command.path == std::vector<std::string>{"hw", "network"} && option.name == "mib") return std::make_pair(1.0, 4096.0);
  // A profiler run's own limit: an hour is far beyond any target's profile.
  if (command.path.size() == 2 && command.path[0] == "profile" && option.name == "timeout")
    return std::make_pair(1.0, 3600.0);
  if (option.name == "device") return std::make_pair(0.0, 255.0);
  return std::nullopt;
}

void check_option_value(const CommandOption& option, const std::string& value) {
  if (value.find('\0') != std::string::npos) throw ToolError("argument values cannot contain NUL characters");
  bool outside = !value.empty() && (value[0] == '/' || value[0] == '~' || value[0] == '\\');
  std::stringstream parts(value);
  for (std::string seg; !outside && std::getline(parts, seg, '/');) outside = seg == ".." || seg == "..\\";
  outside = outside || value.find("\\..") != std::string::npos;
  if (outside)
    throw ToolError(fmt::format("argument `{}`: values that name a place in the file system (an absolute path, "
                                "`~`, a `..` segment) are not accepted; the server decides which files its tools "
                                "read and write",
                                option.name));
}

}  // namespace aisp::mcp
