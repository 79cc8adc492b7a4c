// `--launch-via mpirun` as a transport (issue 26): one Open MPI job whose ranks are `aisp worker`s, each
// spoken to through two named pipes instead of the fds 3/4 a forked worker inherits. mpirun's daemon starts
// the ranks, so no descriptor of the supervisor reaches them; each rank's app context therefore runs
// `sh -c 'exec "$@" 4>REPLIES 3<REQUESTS'`, which opens the pipes as fds 4 and 3 and becomes the worker: the
// worker's protocol code is unchanged. One node only (the pipes are local files).
// A timeout kills the whole job (its process group): a rank stuck in a collective leaves its peers stuck too.
#pragma once
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "runner/rank_plan.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

// The per-rank pipe paths under `dir`: <dir>/rank<r>.req (supervisor -> rank) and <dir>/rank<r>.rep.
std::string rank_request_pipe(const std::string& dir, int rank);
std::string rank_reply_pipe(const std::string& dir, int rank);

// The mpirun command line of mpirun_argv, each rank's worker wrapped to open its two pipes as fds 4 and 3.
std::vector<std::string> mpirun_pipe_argv(const RankPlan& plan, const std::string& mpirun, const WorkerCommand& command,
                                          const std::string& pipe_dir);

class MpirunJob;

// One rank of the job as a VariantWorker (what the phases and RankGroup talk to).
class MpirunRank final : public VariantWorker {
 public:
  MpirunRank(std::shared_ptr<MpirunJob> job, int rank);
  ~MpirunRank() override;
  Reply wait_ready(double timeout_s) override;
  Reply request(json req, double timeout_s) override;
  void shutdown(double timeout_s) override;

 private:
  Reply read_reply(double timeout_s, const std::string& what);
  bool connect(double timeout_s, std::string& why);
  std::shared_ptr<MpirunJob> job_;
  int rank_;
  int to_rank_ = -1, from_rank_ = -1;
  std::unique_ptr<LineChannel> channel_;
  int next_id_ = 1;
  bool done_ = false;
};

// Starts mpirun (its own process group, stdout and stderr to `log_file`) for `plan` and returns one worker per
// rank. The pipes are made in `pipe_dir` (created; must be local). Throws std::runtime_error when the pipes or
// the process cannot be made.
std::vector<std::unique_ptr<VariantWorker>> start_mpirun_job(const RankPlan& plan, const std::string& mpirun,
                                                             const WorkerCommand& command, const std::string& pipe_dir,
                                                             const std::string& log_file);

}  // namespace aisp
