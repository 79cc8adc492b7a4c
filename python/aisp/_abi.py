"""ctypes bindings of runtime/c_api.h (libaisp_worker.so). Kept in step with the header by hand: the
struct layouts are checked in tests/python (sizes and offsets) and the library reports its version."""

import ctypes
import os

C_API_VERSION = 2
MAX_RANK = 8


class BufferInfo(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_char * 16), ("rank", ctypes.c_int32),
                ("dims", ctypes.c_int64 * MAX_RANK), ("bytes", ctypes.c_uint64)]


HostCallback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


class Callbacks(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_int32), ("user", ctypes.c_void_p), ("declarations_json", ctypes.c_char_p),
                ("setup", HostCallback), ("run", HostCallback), ("teardown", HostCallback)]


Factory = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(Callbacks))


def default_library_path():
    """$AISP_WORKER_LIBRARY, else build/lib/libaisp_worker.so beside this checkout's python/ folder."""
    env = os.environ.get("AISP_WORKER_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "build", "lib", "libaisp_worker.so")


def load(path=None):
    """The runtime library with every entry point typed. CDLL: the GIL is released while C runs (ctypes
    takes it back for each Python callback)."""
    lib = ctypes.CDLL(path or default_library_path())
    vp, cp, i32, i64p = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_int64)
    info_p = ctypes.POINTER(BufferInfo)
    sigs = {
        "aisp_c_api_version": (ctypes.c_int, []),
        "aisp_worker_serve": (ctypes.c_int, [cp, ctypes.c_int, ctypes.c_int, ctypes.c_int, Factory, vp]),
        "aisp_host_input": (ctypes.c_int, [vp, cp, cp, i32, i64p, cp, ctypes.c_double, ctypes.c_double, cp, info_p]),
        "aisp_host_output": (ctypes.c_int, [vp, cp, cp, i32, i64p, info_p]),
        "aisp_host_scratch": (ctypes.c_int, [vp, cp, ctypes.c_uint64, ctypes.POINTER(ctypes.c_void_p)]),
        "aisp_host_buffer": (ctypes.c_int, [vp, cp, info_p]),
        "aisp_host_param": (ctypes.c_int, [vp, cp, i64p]),
        "aisp_host_stream": (vp, [vp]),
        "aisp_host_finding": (ctypes.c_int, [vp, cp, cp]),
        "aisp_last_error": (cp, []),
        "aisp_set_error": (None, [cp]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    version = lib.aisp_c_api_version()
    if version != C_API_VERSION:
        raise RuntimeError("%s speaks C API v%d, this package v%d: rebuild or update python/aisp"
                           % (path, version, C_API_VERSION))
    return lib
