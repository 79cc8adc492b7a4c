#include "mcp/redact.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

extern char** environ;

namespace aisp::mcp {

namespace {
constexpr size_t kMinSecretLength = 6;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

bool Redactor::is_secret_name(const std::string& name) {
  static const char* const kMarkers[] = {"SECRET", "TOKEN",      "PASSWORD",   "PASSWD", "API_KEY", "APIKEY",
                                         "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"};
  std::string n = upper(name);
  return std::any_of(std::begin(kMarkers), std::end(kMarkers),
                     [&](const char* m) { return n.find(m) != std::string::npos; });
}

Redactor Redactor::from_environment() {
  std::vector<std::string> extra;
  if (const char* list = std::getenv("AISP_MCP_REDACT")) {
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) extra.push_back(item);
  }
  std::vector<std::pair<std::string, std::string>> secrets;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq), value = entry.substr(eq + 1);
    bool listed = std::find(extra.begin(), extra.end(), name) != extra.end();
    if ((listed || is_secret_name(name)) && value.size() >= kMinSecretLength) secrets.emplace_back(name, value);
  }
  return Redactor(std::move(secrets));
}

Redactor::Redactor(std::vector<std::pair<std::string, std::string>> secrets) : secrets_(std::move(secrets)) {
  std::erase_if(secrets_, [](auto& s) { return s.second.size() < kMinSecretLength; });
  // Longest first, so a secret containing another is replaced whole.
  std::sort(secrets_.begin(), secrets_.end(), [](auto& a, auto& b) { return a.second.size() > b.second.size(); });
}

std::string Redactor::redact(std::string text) const {
  for (auto& [name, value] : secrets_) {
    std::string mark = "[redacted:" + name + "]";
    for (size_t pos = text.find(value); pos != std::string::npos; pos = text.find(value, pos + mark.size()))
      text.replace(pos, value.size(), mark);
  }
  return text;
}

void Redactor::redact_in_place(nlohmann::json& value) const {
  if (secrets_.empty()) return;
  if (value.is_string()) {
    value = redact(value.get<std::string>());
  } else if (value.is_array()) {
    for (auto& v : value) redact_in_place(v);
  } else if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto& [k, v] : value.items()) {
      redact_in_place(v);
      out[redact(k)] = std::move(v);
    }
    value = std::move(out);
  }
}

std::string hide_parser_context(std::string line) {
  if (size_t at = line.find("last read:"); at != std::string::npos) line = line.substr(0, at) + "(input not shown)";
  return line;
}

}  // namespace aisp::mcp
