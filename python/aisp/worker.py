"""`python3 -m aisp.worker --benchmark <file.py>`: the worker the supervisor starts for a Python variant,
in place of `aisp worker --plugin <file.so>`. It speaks the same protocol on fds 3/4 because it IS the
same worker: libaisp_worker.so's aisp_worker_serve() runs the C++ worker (CUDA/CUPTI setup, every op,
every check), with this process's benchmark supplied through C callbacks."""

import argparse
import json
import os
import sys
import traceback

from . import _abi
from .driver import Driver
from .harness import Harness
from .torch_support import preimport


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python3 -m aisp.worker")
    p.add_argument("--benchmark", required=True, help="baseline_<x>.py or optimized_<x>[_<suffix>].py")
    p.add_argument("--validity", choices=["on", "off"], default="on")
    p.add_argument("--library", default=None, help="libaisp_worker.so (default: $AISP_WORKER_LIBRARY or build/lib)")
    p.add_argument("--in-fd", type=int, default=3)
    p.add_argument("--out-fd", type=int, default=4)
    return p.parse_args(argv)


def error_text(exc):
    """The exception and the benchmark-side frame that raised it, short enough for a report line."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        f = frames[-1]
        where = " (%s:%d in %s)" % (os.path.basename(f.filename), f.lineno, f.name)
    return "%s: %s%s" % (type(exc).__name__, exc, where)


class CallbackTable:
    """The ctypes side: C-callable wrappers around the Driver, kept referenced while C may call them."""

    def __init__(self, lib, driver):
        self.lib, self.driver = lib, driver
        self.declarations = None
        self.setup_fn = _abi.HostCallback(self._host_call(driver.setup))
        self.run_fn = _abi.HostCallback(self._host_call(driver.run))
        self.teardown_fn = _abi.HostCallback(self._host_call(driver.teardown))
        self.factory_fn = _abi.Factory(self._factory)

    def _fail(self, exc):
        sys.stderr.write(traceback.format_exc())
        self.lib.aisp_set_error(error_text(exc).encode(errors="replace"))
        return 1

    def _host_call(self, method):
        def call(_user, host):
            try:
                method(Harness(self.lib, host))
                return 0
            except BaseException as exc:  # noqa: B902 - nothing may unwind into C
                return self._fail(exc)
        return call

    def _factory(self, _user, out):
        try:
            self.declarations = self.driver.create().encode()
            table = out.contents
            table.api_version = _abi.C_API_VERSION
            table.user = None
            table.declarations_json = self.declarations
            table.setup, table.run, table.teardown = self.setup_fn, self.run_fn, self.teardown_fn
            return 0
        except BaseException as exc:  # noqa: B902
            return self._fail(exc)


def report_load_error(out_fd, exc):
    """Before the runtime serves the protocol, a failure is still the protocol's first message (a load error
    the supervisor reports as such), not a silent exit."""
    message = {"event": "error", "kind": "load", "error": "python worker: " + error_text(exc)}
    os.write(out_fd, (json.dumps(message) + "\n").encode())


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        torch = preimport()
        lib = _abi.load(args.library)
        # Raises when `aisp profile torch` asked for a profile and torch is missing (torch_profile.py).
        driver = Driver(args.benchmark, torch)
    except Exception as exc:  # a missing or mismatched libaisp_worker.so, a torch that cannot load
        sys.stderr.write(traceback.format_exc())
        report_load_error(args.out_fd, exc)
        os._exit(3)
    table = CallbackTable(lib, driver)
    rc = lib.aisp_worker_serve(args.benchmark.encode(), 1 if args.validity == "on" else 0, args.in_fd, args.out_fd,
                               table.factory_fn, None)
    sys.stdout.flush()
    sys.stderr.flush()
    # The protocol is over; skip interpreter teardown (torch's CUDA destructors after the harness's own).
    os._exit(rc)


if __name__ == "__main__":
    main()
