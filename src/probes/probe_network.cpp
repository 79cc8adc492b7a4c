// hw network: TCP throughput and round-trip time, measured by aisp itself on both ends so the numbers
// say exactly what was counted. Loopback (127.0.0.1, a sink in a child process) always: it measures
// the kernel's TCP stack and memory copies, the ceiling any NIC test on this host is bounded by. A NIC
// path when --address HOST:PORT names a peer running `aisp hw network --listen PORT`: the same test over
// the wire. Without an address the NIC figures are skipped with the command that would measure them, and
// the host's interfaces (/sys/class/net: state, link speed, MTU) are listed so the reader knows what
// a NIC test could reach.
//
// Protocol (one TCP connection per sample): the client sends 'T' then N bytes and shuts down its write
// side; the sink counts until EOF and answers the 8-byte count; the client's clock runs from the first
// byte to that answer, so the figure includes the drain. 'P': 1-byte ping-pong with TCP_NODELAY.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "probes/probes.hpp"
#include "probes/report_table.hpp"

namespace aisp::probes {
namespace {

constexpr size_t kChunk = 1 << 20;  // 1 MiB writes: large enough that syscall cost is not the limit
constexpr int kPings = 2000;

std::string sys_error(const std::string& what) { return what + ": " + std::strerror(errno); }

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() { if (fd >= 0) close(fd); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

void write_all(int fd, const void* p, size_t n) {
  auto* c = static_cast<const char*>(p);
  while (n > 0) {
    ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
    if (w <= 0) throw std::runtime_error(sys_error("send"));
    c += w;
    n -= static_cast<size_t>(w);
  }
}

void read_exact(int fd, void* p, size_t n) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    ssize_t r = recv(fd, c, n, 0);
    if (r <= 0) throw std::runtime_error(r == 0 ? "connection closed early" : sys_error("recv"));
    c += r;
    n -= static_cast<size_t>(r);
  }
}

// One accepted connection of the sink: a throughput sample or a ping-pong run.
void serve_connection(int fd) {
  char kind = 0;
  read_exact(fd, &kind, 1);
  if (kind == 'T') {
    std::vector<char> buf(kChunk);
    uint64_t total = 0;
    for (ssize_t r; (r = recv(fd, buf.data(), buf.size(), 0)) > 0;) total += static_cast<uint64_t>(r);
    write_all(fd, &total, sizeof total);
  } else if (kind == 'P') {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char b;
    while (recv(fd, &b, 1, 0) == 1) write_all(fd, &b, 1);
  }
}

int listen_on(const std::string& host, int port, int* bound_port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(sys_error("socket"));
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) throw std::runtime_error("not an IPv4 address: " + host);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || listen(fd, 16) < 0) {
    close(fd);
    throw std::runtime_error(sys_error("bind/listen on " + host + ":" + std::to_string(port)));
  }
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  *bound_port = ntohs(a.sin_port);
  return fd;
}

int connect_to(const std::string& host, int port) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) throw std::runtime_error("cannot resolve " + host + ": " + gai_strerror(rc));
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
    std::string why = sys_error("connect to " + host + ":" + std::to_string(port));
    freeaddrinfo(res);
    if (fd >= 0) close(fd);
    throw std::runtime_error(why + " (is `aisp hw network --listen " + std::to_string(port) + "` running there?)");
  }
  freeaddrinfo(res);
  return fd;
}

// One throughput sample: ms from the first byte sent to the sink's count received.
double send_sample(const std::string& host, int port, size_t bytes) {
  Fd s(connect_to(host, port));
  static std::vector<char> buf = [] {
    std::vector<char> b(kChunk);
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>(i * 2654435761u >> 13);
    return b;
  }();
  double t0 = now_seconds();
  write_all(s.fd, "T", 1);
  for (size_t done = 0; done < bytes; done += kChunk) write_all(s.fd, buf.data(), std::min(kChunk, bytes - done));
  shutdown(s.fd, SHUT_WR);
  uint64_t got = 0;
  read_exact(s.fd, &got, sizeof got);
  double ms = (now_seconds() - t0) * 1e3;
  if (got != bytes) throw std::runtime_error("the sink counted " + std::to_string(got) + " of " + std::to_string(bytes) + " bytes");
  return ms;
}

// Round trips of one byte, in microseconds.
std::vector<double> ping_samples(const std::string& host, int port) {
  Fd s(connect_to(host, port));
  int one = 1;
  setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  write_all(s.fd, "P", 1);
  std::vector<double> us;
  char b = 'x';
  for (int i = 0; i < kPings; ++i) {
    double t0 = now_seconds();
    write_all(s.fd, &b, 1);
    read_exact(s.fd, &b, 1);
    us.push_back((now_seconds() - t0) * 1e6);
  }
  return us;
}

void measure_path(const ProbeContext& ctx, const std::string& host, int port, const std::string& where,
                  const std::string& key, std::vector<Figure>& out) {
  size_t bytes = static_cast<size_t>(ctx.opt.net_mib * (1 << 20));
  int reps = ctx.opt.quick ? 3 : 5;
  Figure bw, rtt;
  bw.key = key + "_tcp";
  bw.label = where + " TCP throughput";
  bw.unit = "Gbit/s";
  rtt.key = key + "_rtt";
  rtt.label = where + " TCP round trip";
  rtt.unit = "us";
  measure(ctx, bw, [&](Figure& f) {
    for (int i = 0; i < reps; ++i) f.samples.push_back(send_sample(host, port, bytes));
    f.samples_unit = "ms per " + std::to_string(bytes >> 20) + " MiB";
    f.summary = summarize(f.samples);
    f.value = bytes * 8.0 / (f.summary.median * 1e-3) / 1e9;
    f.method = std::to_string(reps) + " connections to " + host + ":" + std::to_string(port) + ", each " +
               std::to_string(bytes >> 20) + " MiB in 1 MiB send()s, timed from the first byte to the sink's byte "
               "count (drain included); median; 1 Gbit/s = 1e9 bit/s; host clock";
  });
  measure(ctx, rtt, [&](Figure& f) {
    f.samples = ping_samples(host, port);
    f.samples_unit = "us";
    f.summary = summarize(f.samples);
    f.value = f.summary.median;
    f.method = std::to_string(kPings) + " one-byte ping-pongs with TCP_NODELAY on one connection; median";
  });
  out.push_back(bw);
  out.push_back(rtt);
}

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// The host's interfaces as notes: name, operstate, link speed (Mb/s, -1 when the driver does not say).
void list_interfaces(ProbeResult& r) {
  namespace fs = std::filesystem;
  fs::path net = sysfs_root() / "class" / "net";
  std::error_code ec;
  if (!fs::is_directory(net, ec)) {
    r.notes.push_back("no " + net.string() + ": interfaces not listed");
    return;
  }
  std::vector<std::string> lines;
  for (auto& e : fs::directory_iterator(net, ec)) {
    std::string name = e.path().filename().string();
    std::string speed = read_line(e.path() / "speed");
    lines.push_back(name + ": " + read_line(e.path() / "operstate") + ", " +
                    (speed.empty() || speed[0] == '-' ? "link speed not reported" : speed + " Mb/s") + ", mtu " +
                    read_line(e.path() / "mtu"));
  }
  std::sort(lines.begin(), lines.end());
  for (auto& l : lines) r.notes.push_back("interface " + l);
}

}  // namespace

std::filesystem::path sysfs_root() {
  const char* env = std::getenv("AISP_SYSFS_ROOT");  // tests point this at a fake tree
  return env && *env ? env : "/sys";
}

int serve_network_sink(const ProbeOptions& opt) {
  int port = 0;
  Fd s(listen_on(opt.net_bind, opt.net_listen, &port));
  std::cout << "aisp hw network: listening on " << opt.net_bind << ":" << port << " ("
            << (opt.net_listen_count > 0 ? std::to_string(opt.net_listen_count) + " connections" : "until killed")
            << "); on the other host: aisp hw network --address <this host>:" << port << std::endl;
  for (int served = 0; opt.net_listen_count <= 0 || served < opt.net_listen_count; ++served) {
    int c = accept(s.fd, nullptr, nullptr);
    if (c < 0) throw std::runtime_error(sys_error("accept"));
    Fd conn(c);
    try {
      serve_connection(c);
    } catch (const std::exception& e) {
      std::cerr << "aisp hw network: a connection failed: " << e.what() << "\n";
    }
  }
  return 0;
}

ProbeResult probe_network(const ProbeContext& ctx) {
  ProbeResult r;
  r.name = "network";
  double t0 = now_seconds();
  // Loopback: the sink in a child process, as a peer would be, so both ends are scheduled independently.
  int port = 0;
  int listener = listen_on("127.0.0.1", 0, &port);
  pid_t child = fork();
  if (child == 0) {  // only syscalls from here on: safe after fork in a threaded process
    for (;;) {
      int c = accept(listener, nullptr, nullptr);
      if (c < 0) _exit(0);
      try {
        serve_connection(c);
      } catch (...) {
      }
      close(c);
    }
  }
  close(listener);
  if (child < 0) throw std::runtime_error(sys_error("fork"));
  measure_path(ctx, "127.0.0.1", port, "loopback", "net_loopback", r.figures);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);

  if (ctx.opt.net_address.empty()) {
    Figure nic;
    nic.key = "net_nic_tcp";
    nic.label = "NIC TCP throughput";
    nic.unit = "Gbit/s";
    nic.status = "skipped: no --address given (on the peer: aisp hw network --listen 5201; here: aisp hw network "
                 "--address PEER:5201)";
    ctx.finish(nic);
    r.figures.push_back(nic);
  } else {
    auto colon = ctx.opt.net_address.rfind(':');
    std::string host = colon == std::string::npos ? ctx.opt.net_address : ctx.opt.net_address.substr(0, colon);
    int peer_port = colon == std::string::npos ? 5201 : std::atoi(ctx.opt.net_address.c_str() + colon + 1);
    measure_path(ctx, host, peer_port, "NIC (" + host + ")", "net_nic", r.figures);
  }
  list_interfaces(r);
  r.notes.push_back("loopback measures the TCP stack and memory copies of this host (no NIC): an upper bound for "
                    "any NIC test here, not a network number");
  r.wall_s = now_seconds() - t0;
  return r;
}

}  // namespace aisp::probes
