// data_file: a temporary file of known contents for pairs that load data from storage (ch05's storage
// pairs, labs/async_input_pipeline), plus the read loop they share. Contents come from
// host_pipeline::pattern_value, never from the harness's seeds: the file is static data, fixed before
// setup(), and the pairs' outputs combine it with the harness's inputs on the device.
#pragma once
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "host_pipeline.hpp"

inline constexpr size_t kDataFileWriteBlock = size_t{1} << 20;  // bytes written per write() while creating the file

inline std::string storage_dir() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

// pread until `len` bytes are in (a regular file may return short reads); EOF early is an error.
inline void read_fully(int fd, char* dst, size_t len, size_t offset) {
  while (len > 0) {
    const ssize_t got = pread(fd, dst, len, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw std::runtime_error(std::string("data file: pread failed: ") + (got < 0 ? std::strerror(errno) : "EOF"));
    dst += got;
    len -= static_cast<size_t>(got);
    offset += static_cast<size_t>(got);
  }
}

// A data file of n floats, float i = pattern_value(i): written under storage_dir(), fsync'ed, opened (buffered,
// and O_DIRECT when asked and the file system takes it), then unlinked at once, so it disappears when the
// process exits however it exits. The file was just written, so buffered reads come from the page cache.
class TempDataFile {
 public:
  TempDataFile(int64_t n_floats, bool want_direct) : bytes_(static_cast<size_t>(n_floats) * sizeof(float)) {
    std::string path = storage_dir() + "/aisp_data_file_XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.push_back('\0');
    const int wfd = mkstemp(name.data());
    if (wfd < 0) throw std::runtime_error("data file: cannot create a file in " + storage_dir() + ": " + std::strerror(errno));
    path.assign(name.data());
    try {
      std::vector<float> block(kDataFileWriteBlock / sizeof(float));
      for (int64_t first = 0; first < n_floats; first += static_cast<int64_t>(block.size())) {
        const int64_t count = std::min<int64_t>(static_cast<int64_t>(block.size()), n_floats - first);
        for (int64_t i = 0; i < count; ++i) block[i] = host_pipeline::pattern_value(first + i);
        const char* p = reinterpret_cast<const char*>(block.data());
        size_t left = static_cast<size_t>(count) * sizeof(float);
        while (left > 0) {
          const ssize_t put = write(wfd, p, left);
          if (put < 0 && errno == EINTR) continue;
          if (put <= 0) throw std::runtime_error(std::string("data file: write failed: ") + std::strerror(errno));
          p += put;
          left -= static_cast<size_t>(put);
        }
      }
      if (fsync(wfd) != 0) throw std::runtime_error(std::string("data file: fsync failed: ") + std::strerror(errno));
      buffered_fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (buffered_fd_ < 0) throw std::runtime_error(std::string("data file: open failed: ") + std::strerror(errno));
      if (want_direct) {
        direct_fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
        if (direct_fd_ < 0) direct_error_ = std::strerror(errno);
      }
    } catch (...) {
      close(wfd);
      unlink(path.c_str());
      if (buffered_fd_ >= 0) close(buffered_fd_);
      throw;
    }
    close(wfd);
    unlink(path.c_str());  // the open descriptors keep the data alive; nothing is left behind on exit
  }
  TempDataFile(const TempDataFile&) = delete;
  TempDataFile& operator=(const TempDataFile&) = delete;
  ~TempDataFile() {
    if (buffered_fd_ >= 0) close(buffered_fd_);
    if (direct_fd_ >= 0) close(direct_fd_);
  }

  size_t bytes() const { return bytes_; }
  int buffered_fd() const { return buffered_fd_; }
  int direct_fd() const { return direct_fd_; }  // -1 if the file system refused O_DIRECT
  const std::string& direct_error() const { return direct_error_; }

 private:
  size_t bytes_;
  int buffered_fd_ = -1, direct_fd_ = -1;
  std::string direct_error_;
};

// For technique(), which runs before setup(): does the file system under storage_dir() take O_DIRECT?
inline bool storage_dir_takes_odirect() {
  std::string path = storage_dir() + "/aisp_odirect_probe_XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return false;
  close(fd);
  const int dfd = open(name.data(), O_RDONLY | O_DIRECT);
  unlink(name.data());
  if (dfd < 0) return false;
  close(dfd);
  return true;
}
