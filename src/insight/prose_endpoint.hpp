// Optional: an OpenAI-compatible chat-completions endpoint rewrites an answer's grounded facts into prose.
// The model gets only the summary, facts, missing data and citations, with an instruction to add nothing
// else; the facts and citations are returned unchanged beside its text, so a reader can check it.
//
// The request goes through `curl` (any http/https URL, proxies as curl handles them). The API key is read
// from the environment variable the caller names and handed to curl on its stdin as a config line, so it
// never appears in a command line (/proc/<pid>/cmdline), a file, the answer, or a log; every error text is
// scrubbed of it before it is returned.
#pragma once
#include <string>

#include "insight/answer.hpp"

namespace aisp::insight {

struct Endpoint {
  std::string url;  // base (".../v1") or the full ".../chat/completions" URL
  std::string model = "gpt-4o-mini";
  std::string api_key_env;  // name of the variable holding the key; "" = send no Authorization header
  double timeout_s = 60;
  std::string curl = "curl";  // the program used (tests may point it elsewhere)
};

struct ProseResult {
  bool ok = false;
  std::string text;   // the model's prose
  std::string error;  // why not (the key never appears in it)
};

// The chat-completions URL for `url` ("/chat/completions" appended unless already there).
std::string completions_url(const std::string& url);
// The request body: a system message with the grounding rules, the answer's facts as JSON in the user message.
nlohmann::json prose_request(const Answer& a, const std::string& model);
ProseResult rewrite_as_prose(const Answer& a, const Endpoint& e);

}  // namespace aisp::insight
