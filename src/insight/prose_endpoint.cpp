#include "insight/prose_endpoint.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

extern char** environ;

namespace aisp::insight {

std::string completions_url(const std::string& url) {
  std::string u = url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  return u.ends_with("/chat/completions") ? u : u + "/chat/completions";
}

nlohmann::json prose_request(const Answer& a, const std::string& model) {
  json facts = to_json(a);
  facts.erase("prose");
  facts.erase("prose_model");
  std::string rules =
      "You rewrite measured benchmark facts into a short explanation for an engineer. Use only the facts given; "
      "do not add numbers, causes or advice that are not in them. Keep every number as given. After each "
      "sentence, cite the fact's source id in square brackets exactly as given (e.g. [run 8]). If the facts do "
      "not answer the question, say so and list what is missing.";
  return {{"model", model},
          {"temperature", 0},
          {"messages", json::array({{{"role", "system"}, {"content", rules}},
                                    {{"role", "user"},
                                     {"content", "Question or target: " + a.subject + "\nFacts (JSON):\n" + facts.dump(1)}}})}};
}

namespace {

std::string scrub(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
    text.replace(at, secret.size(), "[redacted]");
  return text;
}

struct CurlRun {
  int status = -1;
  std::string out;
};

// curl with `args`; `config` written to its stdin (`-K -`), stdout and stderr captured together.
CurlRun run_curl(const std::string& curl, const std::vector<std::string>& args, const std::string& config) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) return {};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  std::vector<std::string> argv_s = {curl};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, curl.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  CurlRun r;
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    r.out = fmt::format("cannot start {} ({})", curl, std::strerror(rc));
    return r;
  }
  (void)!write(in[1], config.data(), config.size());
  close(in[1]);
  char buf[65536];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<size_t>(n));
  close(out[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

}  // namespace

ProseResult rewrite_as_prose(const Answer& a, const Endpoint& e) {
  ProseResult r;
  std::string key;
  if (!e.api_key_env.empty()) {
    const char* v = std::getenv(e.api_key_env.c_str());
    if (!v || !*v) {
      r.error = fmt::format("--api-key-env {}: the variable is not set", e.api_key_env);
      return r;
    }
    key = v;
  }
  // The body goes through a private temporary file (0600), removed right after the call.
  char path[] = "/tmp/aisp-ai-request-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    r.error = "cannot create a temporary request file";
    return r;
  }
  std::string body = prose_request(a, e.model).dump();
  (void)!write(fd, body.data(), body.size());
  close(fd);
  std::string config = "header = \"Content-Type: application/json\"\n";
  if (!key.empty()) config += "header = \"Authorization: Bearer " + key + "\"\n";
  CurlRun c = run_curl(e.curl,
                       {"-s", "-S", "-X", "POST", "--max-time", fmt::format("{:.0f}", e.timeout_s), "--data-binary",
                        std::string("@") + path, "-w", "\n%{http_code}", "-K", "-", completions_url(e.url)},
                       config);
  std::filesystem::remove(path);
  size_t nl = c.out.rfind('\n');
  std::string code = nl == std::string::npos ? "" : c.out.substr(nl + 1),
              payload = nl == std::string::npos ? c.out : c.out.substr(0, nl);
  if (c.status != 0 || code.rfind("2", 0) != 0) {
    r.error = scrub(fmt::format("endpoint {} failed (curl exit {}, HTTP {}): {}", completions_url(e.url), c.status,
                                code.empty() ? "-" : code, payload.substr(0, 400)),
                    key);
    return r;
  }
  json doc = json::parse(payload, nullptr, false);
  if (doc.is_discarded() || !doc.contains("choices") || !doc["choices"].is_array() || doc["choices"].empty() ||
      !doc["choices"][0].contains("message") || !doc["choices"][0]["message"].value("content", json()).is_string()) {
    r.error = scrub("endpoint reply is not a chat completion (no choices[0].message.content): " + payload.substr(0, 200), key);
    return r;
  }
  r.text = scrub(doc["choices"][0]["message"]["content"].get<std::string>(), key);
  r.ok = true;
  return r;
}

}  // namespace aisp::insight
