// hw disk: sequential write then read of one file in a directory (default: the current one), 4 MiB
// requests, O_DIRECT so the page cache is not what is measured; where the filesystem refuses O_DIRECT
// (tmpfs, some overlays) it falls back to buffered I/O with fsync after writing and
// posix_fadvise(DONTNEED) before reading, and says so. GB/s = 1e9 B/s, host steady_clock.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

constexpr size_t kBlock = 4 << 20;

struct AlignedBuf {
  void* p = nullptr;
  explicit AlignedBuf(size_t n) {
    if (posix_memalign(&p, 4096, n)) throw std::runtime_error("posix_memalign failed");
    // Random-ish content so a compressing/deduplicating filesystem cannot shortcut the writes.
    auto* w = static_cast<uint64_t*>(p);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n / 8; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17, w[i] = x;
  }
  ~AlignedBuf() { std::free(p); }
};

std::string err(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

ProbeResult probe_disk(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "disk";
  double t0 = now_seconds();
  namespace fs = std::filesystem;
  const size_t total = static_cast<size_t>(ctx.opt.disk_mib * (1 << 20)) / kBlock * kBlock;
  fs::path path = fs::path(ctx.opt.disk_dir) / (".aisp_disk_probe_" + std::to_string(getpid()));
  AlignedBuf buf(kBlock);
  bool direct = true;
  Figure fw, fr;
  fw.key = "disk_write";
  fw.label = "sequential write";
  fw.unit = "GB/s";
  fr.key = "disk_read";
  fr.label = "sequential read";
  fr.unit = "GB/s";
  measure(ctx, fw, [&](Figure& f) {
    int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT, 0600);
    if (fd < 0) {
      direct = false;
      fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    }
    if (fd < 0) throw std::runtime_error(err("open " + path.string()));
    double a = now_seconds();
    for (size_t done = 0; done < total; done += kBlock) {
      ssize_t w = write(fd, buf.p, kBlock);
      if (w != static_cast<ssize_t>(kBlock)) {
        close(fd);
        throw std::runtime_error(err("write"));
      }
    }
    fsync(fd);
    double b = now_seconds();
    close(fd);
    f.samples = {(b - a) * 1e3};
    f.samples_unit = "ms for the whole file";
    f.value = gb_per_s(double(total), (b - a) * 1e3);
    f.method = std::to_string(total >> 20) + " MiB in 4 MiB writes to " + ctx.opt.disk_dir +
               (direct ? " with O_DIRECT" : " buffered (O_DIRECT refused)") + ", then fsync; host clock";
  });
  measure(ctx, fr, [&](Figure& f) {
    if (!fw.ok()) throw std::runtime_error("write phase failed");
    int fd = open(path.c_str(), O_RDONLY | (direct ? O_DIRECT : 0));
    if (fd < 0) throw std::runtime_error(err("open " + path.string()));
    if (!direct) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    double a = now_seconds();
    size_t done = 0;
    for (;;) {
      ssize_t got = read(fd, buf.p, kBlock);
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    double b = now_seconds();
    close(fd);
    f.samples = {(b - a) * 1e3};
    f.samples_unit = "ms for the whole file";
    f.value = gb_per_s(double(done), (b - a) * 1e3);
    f.method = std::to_string(done >> 20) + " MiB in 4 MiB reads" +
               (direct ? " with O_DIRECT" : " buffered after posix_fadvise(DONTNEED) — may still hit the page cache") +
               "; host clock";
  });
  std::error_code ec;
  fs::remove(path, ec);
  r.figures.push_back(fw);
  r.figures.push_back(fr);
  r.notes.push_back("directory " + fs::absolute(ctx.opt.disk_dir).string() + (direct ? ", O_DIRECT" : ", buffered"));
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
