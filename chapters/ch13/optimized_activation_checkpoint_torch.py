"""ch13 activation_checkpoint_torch, optimized: checkpoints every 4 layers, the rest recomputed.

Technique: the forward pass keeps only a_4, a_8, a_12 (and y = a_16); the backward pass walks the four
segments from the last, recomputing the segment's 3 inner activations from its checkpoint, then running the
segment's 4 backward layers, then dropping them (torch.utils.checkpoint's schedule, written out).
Why it saves memory: at most 3 checkpoints + 3 recomputed activations live (96 MiB) instead of 15 (240 MiB),
for 12 extra forward GEMMs on top of 32 GEMMs: ~0.73x the speed.
Expected on Hopper: peak ~-30% against the baseline (the C++ pair measured 510 -> 348 MiB, -31.8%), 0.73x
the time.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 8.419 ms, 0.739x
[0.726, 0.753] SLOWER; H100 80GB HBM3 8.606 ms, 0.742x [0.729, 0.755] SLOWER; peak 486 MiB (-21%) on both."""

from activation_checkpoint_torch_common import ActivationCheckpointTorchBase

SEGMENT = 4


class OptimizedActivationCheckpointTorch(ActivationCheckpointTorchBase):
    def benchmark_fn(self):
        layers = self.layers
        checkpoints = {0: self.x}
        a = self.x
        for layer in range(1, layers):
            a = self.forward_layer(a, layer)
            if layer % SEGMENT == 0:
                checkpoints[layer] = a
        self.forward_layer(a, layers, out=self.y)
        del a
        g = self.dy
        for top in range(layers, 0, -SEGMENT):
            base = top - SEGMENT
            segment = {top: self.y if top == layers else checkpoints[top]}
            a = checkpoints[base]
            for layer in range(base + 1, top):
                a = self.forward_layer(a, layer)
                segment[layer] = a
            g = self.backward_range(top, base + 1, g, segment.__getitem__)
            del segment, a

    def technique(self):
        return "checkpoints every 4 layers; 3 activations per segment recomputed in the backward pass"


def get_benchmark():
    return OptimizedActivationCheckpointTorch()
