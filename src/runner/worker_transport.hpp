// What every transport to a worker shares (a forked worker, runner/worker_process.hpp; an mpirun job's
// ranks, runner/mpirun_job.hpp): the child started in a process group of its own with its output in a log,
// a reply awaited with a timeout, the first message read as ready or a load error, and the polite exit.
// What each does when a worker hangs or dies differs on purpose (one process, or the whole job) and stays
// with the transport.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "core/protocol.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

// Starts argv[0] (looked up on PATH) in a process group of its own, so a hang is killed with every thread
// and child it made; stdout and stderr appended to log_file, stdin from /dev/null. `in_child` runs in the
// child before that (async-signal-safe calls and setenv only). Throws std::runtime_error when the log or
// the process cannot be made.
pid_t spawn_in_own_group(const std::vector<std::string>& argv, const std::string& log_file,
                         const std::function<void()>& in_child = {});

// One message awaited up to timeout_s, and how long that took.
struct Received {
  LineChannel::Status status;
  json message;
  double wall_s = 0;
};
Received receive_timed(LineChannel& channel, double timeout_s);

// A request that got no answer: its kind follows the status (timeout, crashed, protocol).
Reply no_answer(Reply::Status status, std::string reason, double wall_s = 0);

// The worker's first message: ready, or the load error it reported (kind and text from the message).
Reply as_ready(Reply first);

// The exit request, and its answer awaited up to timeout_s (the worker leaves after it).
void send_exit(LineChannel& channel, double timeout_s);

}  // namespace aisp
