"""Honest baseline of a Python validity fixture: eager torch.add into the harness output."""

from torch_fixture_common import HonestAdd


def get_benchmark():
    return HonestAdd()
