/* The C ABI of the measurement runtime (libaisp_worker.so), for a host process that supplies the
 * benchmark itself instead of a dlopen'd plugin: the Python worker (python/aisp, loaded with ctypes)
 * is the one user. The host calls aisp_worker_serve(), which runs the same worker as `aisp worker`
 * (CUDA and CUPTI set up first, then the line-delimited JSON protocol on two fds, every op, check and
 * audit in C++) with the benchmark given as a table of C callbacks. Plain C so any FFI can bind it.
 *
 * Threading: everything happens on the thread that called aisp_worker_serve(); callbacks are invoked
 * from it. Strings passed in are copied before the call returns. */
#ifndef AISP_C_API_H
#define AISP_C_API_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AISP_C_API_VERSION 2
#define AISP_MAX_RANK 8

/* The harness during setup() and run(): an aisp::Context. Valid only inside the callback it was passed to. */
typedef struct aisp_host aisp_host;

/* A harness-owned device buffer. dtype is aisp's name ("f32", "bf16", "fp8_e4m3", "i64", ...). */
typedef struct aisp_buffer_info {
  void* data;
  char dtype[16];
  int32_t rank;
  int64_t dims[AISP_MAX_RANK];
  uint64_t bytes;
} aisp_buffer_info;

/* The benchmark. `declarations_json` is read once, before setup: an object with "workload" (params,
 * precision, bytes, flops, items, item_unit), "tolerance" (rtol, atol, justification), "goal", "requirements"
 * (min_compute_capability, gpus, min_memory_bytes), "min_speedup", "technique", "informational", "latency_percentile": the
 * fields and spellings of the worker's ready message, all required (no silent defaults).
 * Each callback returns 0 on success; otherwise it calls aisp_set_error() first. */
typedef struct aisp_benchmark_callbacks {
  int32_t api_version; /* AISP_C_API_VERSION */
  void* user;
  const char* declarations_json;
  int (*setup)(void* user, aisp_host* host);
  int (*run)(void* user, aisp_host* host);
  int (*teardown)(void* user, aisp_host* host); /* may be NULL */
} aisp_benchmark_callbacks;

/* Makes the benchmark: called once by the worker after CUDA and CUPTI are initialized and the process
 * state is captured (so whatever the benchmark's loading changes is seen), before the ready message.
 * Fills *out and returns 0, or calls aisp_set_error() and returns nonzero. */
typedef int (*aisp_benchmark_factory)(void* factory_user, aisp_benchmark_callbacks* out);

int aisp_c_api_version(void);

/* Serves the worker protocol on in_fd/out_fd until exit or EOF; returns the worker's exit code (0 clean).
 * `name` labels the benchmark in messages (its file); `validity` 0 turns off the audit and fresh inputs
 * exactly as `aisp worker --validity off` does. */
int aisp_worker_serve(const char* name, int validity, int in_fd, int out_fd, aisp_benchmark_factory factory,
                      void* factory_user);

/* Calls a callback makes on its host. Each returns 0, or nonzero with the reason in aisp_last_error().
 * fill_kind: "uniform" [a, b), "normal" (mean a, stddev b), "int_range" [a, b]. role: "dynamic" or "static". */
int aisp_host_input(aisp_host* host, const char* name, const char* dtype, int32_t rank, const int64_t* dims,
                    const char* fill_kind, double a, double b, const char* role, aisp_buffer_info* out);
int aisp_host_output(aisp_host* host, const char* name, const char* dtype, int32_t rank, const int64_t* dims,
                     aisp_buffer_info* out);
int aisp_host_scratch(aisp_host* host, const char* name, uint64_t bytes, void** out);
int aisp_host_buffer(aisp_host* host, const char* name, aisp_buffer_info* out);
int aisp_host_param(aisp_host* host, const char* name, int64_t* out);
/* The harness stream (a cudaStream_t): timed work starts here; torch sees it as an ExternalStream. */
void* aisp_host_stream(aisp_host* host);

/* A validity finding the host observed itself (state the C++ worker cannot see from outside, e.g. PyTorch's
 * precision flags or torch.compile's recompiles): `check` is an id of core/checks.hpp ("K16", "K24"),
 * `detail` one line. It joins the findings of the request in progress (setup, check, replay, time) exactly
 * as the worker's own do, so the supervisor fails the check and the variant is INVALID. A finding made
 * in a request whose reply carries no findings (warmup, reference, sensitivity) is reported with the next
 * one that does. Returns nonzero for an unknown check id. */
int aisp_host_finding(aisp_host* host, const char* check, const char* detail);

/* The message of the last failed aisp_host_* call on this thread ("" if none). */
const char* aisp_last_error(void);
/* A callback's failure message, read by the worker when the callback returns nonzero. */
void aisp_set_error(const char* message);

#ifdef __cplusplus
}
#endif
#endif
