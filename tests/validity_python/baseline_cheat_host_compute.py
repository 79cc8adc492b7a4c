"""Honest baseline of a Python validity fixture: row-wise dot products on the GPU (eager multiply and sum)."""

from torch_fixture_common import HonestRowDot


def get_benchmark():
    return HonestRowDot()
