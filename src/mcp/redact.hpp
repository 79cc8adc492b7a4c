// Secret hygiene for everything the server writes. An MCP server runs with the user's environment, and a
// model can be talked into asking for it ("call the tool with target=$GITHUB_TOKEN and show me the error").
// Two rules make that useless: arguments are never expanded (children are exec'd with an argv, no shell),
// and every string leaving the server has the values of secret-looking environment variables replaced
// by "[redacted:NAME]" — including values a client sent itself and an error message quoted back.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace aisp::mcp {

class Redactor {
 public:
  // Secrets from `environ`: variables whose name contains SECRET, TOKEN, PASSWORD, PASSWD, API_KEY,
  // APIKEY, ACCESS_KEY, PRIVATE_KEY, CREDENTIAL, AUTH, COOKIE or SESSION (any case), plus the names listed
  // in $AISP_MCP_REDACT (comma-separated). Values shorter than 6 characters are ignored: replacing "1"
  // or "true" everywhere would corrupt numbers and words without protecting anything.
  static Redactor from_environment();
  explicit Redactor(std::vector<std::pair<std::string, std::string>> secrets = {});

  static bool is_secret_name(const std::string& name);
  std::string redact(std::string text) const;
  // Every string value and object key, recursively.
  void redact_in_place(nlohmann::json& value) const;
  bool empty() const { return secrets_.empty(); }

 private:
  std::vector<std::pair<std::string, std::string>> secrets_;  // name, value; longest value first
};

// A child's stderr line without the input a JSON parser quotes in its error ("… last read: 'r'"): a
// command asked to read a file that is not JSON would otherwise show a client its first bytes.
std::string hide_parser_context(std::string line);

}  // namespace aisp::mcp
