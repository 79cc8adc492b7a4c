"""Loading a benchmark file: baseline_<x>.py / optimized_<x>[_<suffix>].py with get_benchmark()."""

import importlib.util
import os
import sys

from .benchmark import Benchmark


class LoadError(RuntimeError):
    pass


def load_benchmark(path):
    """Imports the file as a module of its own (its folder first on sys.path, so helpers beside it import)
    and returns get_benchmark()'s object, checked to be an aisp.Benchmark."""
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise LoadError("%s: no such file" % path)
    folder = os.path.dirname(os.path.realpath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location("aisp_bench_" + stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    factory = getattr(module, "get_benchmark", None)
    if not callable(factory):
        raise LoadError("%s has no get_benchmark() function" % path)
    bench = factory()
    if not isinstance(bench, Benchmark):
        raise LoadError("%s: get_benchmark() returned %s, not an aisp.Benchmark subclass instance"
                        % (path, type(bench).__name__))
    return bench
