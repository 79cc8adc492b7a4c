// Names derived from target ids and labels that are safe as file names ("labs/x:y" -> "labs_x_y").
#pragma once
#include <cctype>
#include <string>

namespace aisp {

inline std::string file_slug(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return o;
}

}  // namespace aisp
