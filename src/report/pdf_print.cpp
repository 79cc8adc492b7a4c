#include "report/pdf_print.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace aisp::report {
namespace fs = std::filesystem;
namespace {

bool executable(const fs::path& p) { return !p.empty() && access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

std::string tail_of(const fs::path& log, size_t lines = 6) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += all[i] + "\n";
  return out;
}

}  // namespace

BrowserLocation find_chromium() {
  BrowserLocation b;
  if (const char* env = std::getenv("AISP_CHROMIUM"); env && *env) {
    b.looked_in.push_back(std::string("$AISP_CHROMIUM (") + env + ")");
    if (executable(env)) b.path = env;
    return b;  // when set, the only place looked in
  }
  b.looked_in.push_back("$AISP_CHROMIUM (unset)");
  const char* path = std::getenv("PATH");
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / name)) {
        b.path = (fs::path(dir) / name).string();
        return b;
      }
    b.looked_in.push_back(std::string("PATH (") + name + ")");
  }
  b.looked_in.push_back("/usr/bin/chromium");
  if (executable("/usr/bin/chromium")) b.path = "/usr/bin/chromium";
  return b;
}

std::vector<std::string> chromium_pdf_argv(const std::string& browser, const fs::path& html, const fs::path& pdf,
                                           const fs::path& profile_dir) {
  // --no-pdf-header-footer (current) and --print-to-pdf-no-header (older releases): the browser ignores
  // the one it does not know. --no-sandbox: containers and CI run as root, where the sandbox refuses.
  return {browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run", "--no-pdf-header-footer",
          "--print-to-pdf-no-header", "--user-data-dir=" + profile_dir.string(), "--print-to-pdf=" + pdf.string(),
          "file://" + fs::absolute(html).string()};
}

void print_html_to_pdf(const std::string& browser, const fs::path& html, const fs::path& pdf, double timeout_s) {
  fs::path work = fs::temp_directory_path() / ("aisp_pdf_" + std::to_string(getpid()));
  fs::create_directories(work);
  fs::path log = work / "chromium.log";
  std::vector<std::string> argv = chromium_pdf_argv(browser, html, pdf, work / "profile");
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group: a timeout kills every renderer
  pid_t pid = 0;
  int rc = posix_spawn(&pid, browser.c_str(), &fa, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start " + browser);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw std::runtime_error("chromium did not finish within " + std::to_string(int(timeout_s)) + " s (killed)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::string output = tail_of(log);
  std::error_code ec;
  fs::remove_all(work, ec);
  char magic[5] = {};
  std::ifstream(pdf, std::ios::binary).read(magic, 4);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || std::string(magic) != "%PDF")
    throw std::runtime_error("chromium did not print a PDF (exit " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "):\n" + output);
}

}  // namespace aisp::report
