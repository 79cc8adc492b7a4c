"""PyTorch, when it is installed: imported once, before any benchmark module, so torch's own import (its
threads, its libraries) happens before the worker snapshots the process; None when it is absent (CI
has Debian's python3 only: benchmarks that do not need torch still run)."""

import importlib

_torch = None
_tried = False


def torch_or_none():
    global _torch, _tried
    if not _tried:
        _tried = True
        try:
            _torch = importlib.import_module("torch")
        except ImportError:
            _torch = None
    return _torch


def preimport():
    """Imports torch (and triton, which torch.compile and Triton kernels load lazily) up front."""
    torch = torch_or_none()
    if torch is not None:
        try:
            importlib.import_module("triton")
        except ImportError:
            pass
    return torch
