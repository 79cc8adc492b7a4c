// The web UI's files, served from one directory. A request path can only ever name a regular file
// inside that directory: "..", "." and other dot-segments (hidden files), backslashes and NUL bytes are
// refused before the file system is touched, and the resolved path (symlinks followed) must still lie
// under the root, so neither "/../../etc/passwd", its percent-encoded forms nor a symlink planted in the
// directory lead out of it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace aisp::serve {

class StaticFiles {
 public:
  // `root` must exist; it is canonicalised once here.
  explicit StaticFiles(const std::filesystem::path& root);
  const std::filesystem::path& root() const { return root_; }
  // `path` is the decoded request path ("/", "/js/app.js"). "/" means index.html.
  std::optional<std::filesystem::path> resolve(const std::string& path) const;

 private:
  std::filesystem::path root_;
};

std::string content_type_for(const std::filesystem::path& file);

}  // namespace aisp::serve
