// `aisp ai explain|ask|suggest`: answers grounded in what aisp measured (src/insight), printed as text or
// JSON; `--endpoint` optionally has an OpenAI-compatible model rewrite the grounded facts into prose.
#pragma once
#include <CLI/CLI.hpp>

namespace aisp {
void add_ai_commands(CLI::App& root);
}  // namespace aisp
