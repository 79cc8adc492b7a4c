"""ch13 activation_checkpoint_torch, baseline: every activation kept for the backward pass.

Technique: the forward pass keeps a_1 ... a_15 (15 x 16 MiB; a_16 is the output y), the backward pass reads
them in reverse. What autograd does by default.
Why it costs memory: 240 MiB of activations live at the turn from forward to backward, besides the weights
(64 MiB), the harness's inputs and outputs and the backward pass's temporaries.
Expected on Hopper: peak ~0.45 GiB for the step (the C++ pair measured 510 MiB); ~6 ms per step.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 6.223 ms; H100 80GB
HBM3 6.385 ms; peak 614 MiB on both."""

from activation_checkpoint_torch_common import ActivationCheckpointTorchBase


class BaselineActivationCheckpointTorch(ActivationCheckpointTorchBase):
    def benchmark_fn(self):
        kept = {0: self.x}
        for layer in range(1, self.layers):
            kept[layer] = self.forward_layer(kept[layer - 1], layer)
        kept[self.layers] = self.forward_layer(kept[self.layers - 1], self.layers, out=self.y)
        self.backward_range(self.layers, 1, self.dy, kept.__getitem__)

    def technique(self):
        return "all 15 activations stored during the forward pass"


def get_benchmark():
    return BaselineActivationCheckpointTorch()
