"""aisp._abi against the real libaisp_worker.so (AISP_WORKER_LIBRARY, set by CTest): the ctypes layouts
match runtime/c_api.h, the version agrees, and aisp_worker_serve() speaks the protocol on the given fds.
Without a GPU (CI) the worker's first message must be the no_gpu error; with one, a stand-in benchmark
must come up ready with its declarations and leave on the exit request."""

import ctypes
import json
import os
import unittest

from aisp import _abi

LIB = os.environ.get("AISP_WORKER_LIBRARY", "")


class LayoutTest(unittest.TestCase):
    def test_struct_layouts_match_the_header(self):
        # void* 8 | char[16] | int32 (+4 padding) | int64[8] | uint64
        self.assertEqual(ctypes.sizeof(_abi.BufferInfo), 8 + 16 + 4 + 4 + 64 + 8)
        self.assertEqual(_abi.BufferInfo.dims.offset, 32)
        # int32 (+4) | void* | char* | 3 function pointers
        self.assertEqual(ctypes.sizeof(_abi.Callbacks), 8 + 8 + 8 + 3 * 8)
        self.assertEqual(_abi.Callbacks.setup.offset, 24)


@unittest.skipUnless(os.path.isfile(LIB), "libaisp_worker.so not built (set AISP_WORKER_LIBRARY)")
class LibraryTest(unittest.TestCase):
    def test_version(self):
        self.assertEqual(_abi.load(LIB).aisp_c_api_version(), _abi.C_API_VERSION)

    def test_serve_speaks_the_protocol(self):
        lib = _abi.load(LIB)
        decl = json.dumps({"workload": {"params": {"n": 1}, "precision": "f32", "bytes": 8, "flops": 0, "items": 1,
                                        "item_unit": "items"},
                           "tolerance": {"rtol": -1, "atol": -1, "justification": ""}, "goal": "speed",
                           "requirements": {"min_compute_capability": 0, "gpus": 1, "min_memory_bytes": 0},
                           "min_speedup": 0, "technique": "stand-in", "informational": "",
                           "latency_percentile": 99}).encode()
        noop = _abi.HostCallback(lambda user, host: 0)

        def factory(user, out):
            t = out.contents
            t.api_version, t.declarations_json = _abi.C_API_VERSION, decl
            t.setup = t.run = t.teardown = noop
            return 0
        factory_fn = _abi.Factory(factory)
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        os.write(req_w, b'{"op": "exit", "id": 1}\n')
        os.close(req_w)
        rc = lib.aisp_worker_serve(b"stand-in.py", 0, req_r, resp_w, factory_fn, None)
        os.close(req_r)
        os.close(resp_w)
        with os.fdopen(resp_r) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        first = lines[0]
        if first.get("event") == "error":
            self.assertEqual(first["kind"], "no_gpu")
            self.assertEqual(rc, 2)
        else:
            self.assertEqual(first["event"], "ready")
            self.assertEqual(first["technique"], "stand-in")
            self.assertEqual(first["workload"]["params"], {"n": 1})
            self.assertEqual(lines[1]["ok"], True)
            self.assertEqual(rc, 0)

    def test_a_finding_needs_a_host(self):
        lib = _abi.load(LIB)
        self.assertNotEqual(lib.aisp_host_finding(None, b"K16", b"x"), 0)
        self.assertIn(b"no host", lib.aisp_last_error())

    def test_host_findings_join_the_reply_of_the_request(self):
        """A finding a setup() callback reports (K16) is in the setup reply's findings; an unknown id is
        refused. Without a GPU the worker stops at no_gpu before any callback runs."""
        lib = _abi.load(LIB)
        decl = json.dumps({"workload": {"params": {"n": 1}, "precision": "f32", "bytes": 8, "flops": 0, "items": 1,
                                        "item_unit": "items"},
                           "tolerance": {"rtol": -1, "atol": -1, "justification": ""}, "goal": "speed",
                           "requirements": {"min_compute_capability": 0, "gpus": 1, "min_memory_bytes": 0},
                           "min_speedup": 0, "technique": "stand-in", "informational": "",
                           "latency_percentile": 99}).encode()
        refused = []

        def setup(user, host):
            refused.append(lib.aisp_host_finding(host, b"K99", b"no such check"))
            return lib.aisp_host_finding(host, b"K16", b"stand-in: a flag changed")
        setup_fn, noop = _abi.HostCallback(setup), _abi.HostCallback(lambda user, host: 0)

        def factory(user, out):
            t = out.contents
            t.api_version, t.declarations_json = _abi.C_API_VERSION, decl
            t.setup, t.run, t.teardown = setup_fn, noop, noop
            return 0
        factory_fn = _abi.Factory(factory)
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        os.write(req_w, b'{"op": "setup", "id": 1, "static_seed": 1, "dynamic_seed": 2}\n{"op": "exit", "id": 2}\n')
        os.close(req_w)
        lib.aisp_worker_serve(b"stand-in.py", 1, req_r, resp_w, factory_fn, None)
        os.close(req_r)
        os.close(resp_w)
        with os.fdopen(resp_r) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if lines[0].get("event") == "error":
            self.assertEqual(lines[0]["kind"], "no_gpu")
            return
        setup_reply = lines[1]
        self.assertTrue(setup_reply["ok"], setup_reply)
        self.assertEqual(refused, [1])
        self.assertIn({"check": "K16", "detail": "stand-in: a flag changed"}, setup_reply["findings"])


if __name__ == "__main__":
    unittest.main()
