#!/usr/bin/env python3
"""The peer side of scripts/peer_wall.sh: Triton's do_bench over the same five kernel shapes as aisp's
peer set (tests/timing/fidelity: vadd 2^16 and 2^24 floats, copies of 4 Mi and 19 Mi floats, a ~2 ms
compute kernel), one fresh process, timed end to end by the caller. Prints one line per kernel."""
import time

import torch
import triton
from triton.testing import do_bench


def main():
    dev = "cuda"
    t0 = time.time()
    cases = []
    for name, n in (("vadd_small", 1 << 16), ("vadd_71us", 1 << 24)):
        a, b = torch.randn(n, device=dev), torch.randn(n, device=dev)
        cases.append((name, lambda a=a, b=b: torch.add(a, b)))
    for name, n in (("copy_10us", 4 << 20), ("copy_50us", 19 << 20)):
        x, y = torch.randn(n, device=dev), torch.empty(n, device=dev)
        cases.append((name, lambda x=x, y=y: y.copy_(x)))
    m = torch.randn(8192, 8192, device=dev)  # fp32 GEMM without TF32: ~2 ms class on an H100
    torch.backends.cuda.matmul.allow_tf32 = False
    cases.append(("compute_2ms", lambda m=m: m @ m))
    for name, fn in cases:
        ms = do_bench(fn)  # triton's defaults: 25 ms warm-up, 100 ms of repetitions, L2 flushed
        print(f"{name} {ms:.4f} ms")
    print(f"do_bench total {time.time() - t0:.1f} s (triton {triton.__version__}, torch {torch.__version__})")


if __name__ == "__main__":
    main()
