#include "core/json_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace aisp {

namespace {

[[noreturn]] void fail(const char* what, const std::filesystem::path& path, int err) {
  throw std::runtime_error(fmt::format("{} {}: {}", what, path.string(), std::strerror(err)));
}

// Owns a descriptor so every early throw still closes it.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view contents) {
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) fail("cannot create directory for", path, ec.value());
  }
  // The pid keeps two processes writing the same artifact from sharing (and corrupting) one temp file.
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp.{}", ::getpid());
  try {
    Fd f;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f.fd < 0) fail("cannot create", tmp, errno);
    const char* p = contents.data();
    size_t left = contents.size();
    while (left > 0) {
      ssize_t w = ::write(f.fd, p, left);
      if (w < 0) {
        if (errno == EINTR) continue;
        fail("cannot write", tmp, errno);
      }
      p += w;
      left -= static_cast<size_t>(w);
    }
    // Without fsync a crash after rename can leave the new name pointing at an empty file.
    if (::fsync(f.fd) != 0) fail("cannot fsync", tmp, errno);
    int fd = f.fd;
    f.fd = -1;
    if (::close(fd) != 0) fail("cannot close", tmp, errno);
    if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename temp file onto", path, errno);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  // Best effort: persist the rename itself. Failure here loses durability, not correctness.
  std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd >= 0) ::fsync(d.fd);
}

std::string read_file(const std::filesystem::path& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) fail("cannot open", path, errno);
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t r = ::read(f.fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno);  // EISDIR for a directory lands here
    }
    if (r == 0) break;
    out.append(buf, static_cast<size_t>(r));
  }
  return out;
}

void write_json_atomic(const std::filesystem::path& path, const nlohmann::json& j, int indent) {
  // Text from benchmarks (error messages, names) may not be UTF-8; never let that lose an artifact.
  std::string text = j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  text.push_back('\n');
  write_file_atomic(path, text);
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::string text = read_file(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(fmt::format("invalid JSON in {}: {}", path.string(), e.what()));
  }
}

}  // namespace aisp
