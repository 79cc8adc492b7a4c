"""Honest baseline of a Python validity fixture: eager fp32 matmul with PyTorch's default precision."""

from torch_fixture_common import HonestMatmul


def get_benchmark():
    return HonestMatmul()
