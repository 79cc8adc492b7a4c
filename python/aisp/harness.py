"""The harness as a benchmark sees it during one callback: declarations and lookups forwarded to the C++
worker's Context through the C ABI (aisp_host_*), buffers returned as DeviceBuffer descriptions."""

import ctypes

from . import _abi
from .buffers import DeviceBuffer


class HarnessError(RuntimeError):
    pass


class Harness:
    def __init__(self, lib, host):
        self.lib = lib
        self.host = host  # aisp_host*, valid for the callback that received it

    def _check(self, rc, what):
        if rc != 0:
            raise HarnessError("%s: %s" % (what, self.lib.aisp_last_error().decode(errors="replace")))

    @staticmethod
    def _dims(shape):
        if len(shape) > _abi.MAX_RANK:
            raise HarnessError("rank %d exceeds %d" % (len(shape), _abi.MAX_RANK))
        return len(shape), (ctypes.c_int64 * max(1, len(shape)))(*shape)

    @staticmethod
    def _describe(name, info):
        dims = tuple(info.dims[i] for i in range(info.rank))
        return DeviceBuffer(name, info.data or 0, info.dtype.decode(), dims)

    def input(self, name, dtype, shape, fill, role):
        rank, dims = self._dims(shape)
        info = _abi.BufferInfo()
        rc = self.lib.aisp_host_input(self.host, name.encode(), dtype.encode(), rank, dims, fill.kind.encode(),
                                      fill.a, fill.b, role.encode(), ctypes.byref(info))
        self._check(rc, "input %r" % name)
        return self._describe(name, info)

    def output(self, name, dtype, shape):
        rank, dims = self._dims(shape)
        info = _abi.BufferInfo()
        self._check(self.lib.aisp_host_output(self.host, name.encode(), dtype.encode(), rank, dims, ctypes.byref(info)),
                    "output %r" % name)
        return self._describe(name, info)

    def scratch(self, name, nbytes):
        ptr = ctypes.c_void_p()
        self._check(self.lib.aisp_host_scratch(self.host, name.encode(), nbytes, ctypes.byref(ptr)), "scratch %r" % name)
        return DeviceBuffer(name, ptr.value or 0, "u8", (nbytes,))

    def buffer(self, name):
        info = _abi.BufferInfo()
        self._check(self.lib.aisp_host_buffer(self.host, name.encode(), ctypes.byref(info)), "buffer %r" % name)
        return self._describe(name, info)

    def param(self, name):
        value = ctypes.c_int64()
        self._check(self.lib.aisp_host_param(self.host, name.encode(), ctypes.byref(value)), "param %r" % name)
        return value.value

    def finding(self, check, detail):
        """A validity finding (check id of core/checks.hpp, one line) for the reply of the request in progress."""
        self._check(self.lib.aisp_host_finding(self.host, check.encode(), detail.encode(errors="replace")),
                    "finding %s" % check)

    def stream_handle(self):
        return self.lib.aisp_host_stream(self.host) or 0
