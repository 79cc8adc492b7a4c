"""A stand-in for torch and triton that is enough to *import* a Python pair on CI (Debian's python3 has
neither): every attribute is a permissive object that can be called, used as a decorator, subscripted or
used as a type annotation, so module-level code (imports, @triton.jit, @torch.compile(...), constants) runs
and the benchmark's declarations (workload(), tolerance(), ...) can be read. Nothing that touches a tensor
can run against it; the tests that need real behaviour skip without torch."""

import contextlib
import sys
import types

MODULES = ("torch", "torch.nn", "torch.nn.functional", "torch.nn.attention", "torch.nn.attention.flex_attention",
           "torch.cuda", "torch.backends", "triton", "triton.language")


class Anything:
    def __init__(self, name="stub"):
        self._name = name

    def __call__(self, *args, **kwargs):
        return Anything(self._name + "()")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything(self._name + "." + name)

    def __getitem__(self, key):
        return Anything(self._name + "[]")

    def __repr__(self):
        return "<stub %s>" % self._name


class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything(self.__name__ + "." + name)


@contextlib.contextmanager
def stub_torch():
    """torch and triton stubbed in sys.modules for the duration; modules imported meanwhile are dropped
    afterwards, so nothing imported against the stub survives into other tests."""
    if any(m in sys.modules for m in ("torch", "triton")):
        raise RuntimeError("a real torch/triton is imported: the stub would shadow it")
    before = set(sys.modules)
    for name in MODULES:
        sys.modules[name] = StubModule(name)
    for name in MODULES:  # parents expose children as attributes, as real packages do
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, sys.modules[name])
    try:
        yield
    finally:
        for name in set(sys.modules) - before:
            del sys.modules[name]
