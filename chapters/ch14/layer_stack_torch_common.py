"""layer_stack_torch: a stack of 4 identical Llama-style decoder layers (the block of
transformer_block_torch_common.py: RMSNorm, RoPE, causal flash attention, SwiGLU MLP of 2816; d 1024, 16 heads of
64), BF16, 4 sequences x 1024 tokens, each layer with its own weights. Shared by
baseline_layer_stack_torch.py (eager), optimized_layer_stack_torch_regional.py (regional compile: the layer
compiled once and that one compiled graph called for every layer) and optimized_layer_stack_torch_whole.py
(the whole stack compiled as one graph).

What regional compilation is for: a model is a loop over N identical layers, and torch.compile on the whole model
traces and compiles all N copies (compile time grows with N: minutes for a 32- or 80-layer model). Compiling the
repeated layer instead compiles one graph whatever N is, at the runtime cost of the fusions across layer
boundaries it cannot see (the last residual add of a layer with the next layer's RMSNorm) and one extra copy of
the result into the output. The timed window holds the model's forward pass only; each compiled variant times its
first call (the compilation) in setup() and prints it with the number of graphs Dynamo compiled to its worker log:
compile time is reported apart, never inside a measured run (a recompile there is K24).

Tolerance: that of transformer_block_torch (BF16 intermediates rounded after every eager op vs once per fused
chain), declared per layer; over 4 layers the differences add in quadrature (~2x the one-layer rms, still ~5e-3 on
outputs of rms ~0.6), inside rtol 2e-2, atol 3e-2."""

from transformer_block_torch_common import TransformerBlockTorchBase


class LayerStackTorchBase(TransformerBlockTorchBase):
    """transformer_block_torch's base with LAYERS layers and half its batch (workload, tolerance, declarations)."""
    LAYERS, BATCH, SEQ, DIM, HEADS, HIDDEN = 4, 4, 1024, 1024, 16, 2816


def time_first_call(bench, label):
    """The compiled variants' first call (Dynamo trace, Inductor compile, Triton builds), timed in setup() and
    printed to the worker log with the graphs Dynamo compiled: the compile cost, apart from every measured run."""
    import time

    import torch
    torch.cuda.synchronize()
    start = time.perf_counter()
    bench.benchmark_fn()
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    graphs = -1
    try:
        from torch._dynamo.utils import counters
        graphs = int(counters["stats"]["unique_graphs"])
    except Exception:  # noqa: BLE001 - a report line, not a check
        pass
    print("aisp-compile: %s: first call (compilation) %.1f s, %d Dynamo graph(s) for %d layers" %
          (label, seconds, graphs, len(bench.layers)), flush=True)
