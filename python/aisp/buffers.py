"""Harness buffers as seen from Python: a DeviceBuffer describes one cudaMalloc'd buffer the C++ worker
owns (it fills, poisons, fingerprints and compares it); as_tensor() hands it to PyTorch without a copy.

The bridge is __cuda_array_interface__ (v3), which torch.as_tensor() consumes zero-copy. Its typestr
follows NumPy, which has no bf16 or fp8, so those buffers are exposed as same-width integers and
reinterpreted with Tensor.view(dtype) (also zero-copy). "stream" is None: the harness orders all work on
its own stream, so the consumer must not add a synchronization of its own."""

from .declarations import DTYPES, check_dtype

# dtype -> (typestr of the interface, torch dtype name to view it as, or None when the typestr is exact)
_INTERFACE = {
    "f64": ("<f8", None), "f32": ("<f4", None), "tf32": ("<f4", None), "f16": ("<f2", None),
    "bf16": ("<i2", "bfloat16"), "fp8_e4m3": ("|u1", "float8_e4m3fn"), "fp8_e5m2": ("|u1", "float8_e5m2"),
    "i64": ("<i8", None), "i32": ("<i4", None), "i8": ("|i1", None), "u8": ("|u1", None),
}


class DeviceBuffer:
    """One harness buffer: device address, aisp dtype name, shape (C-contiguous)."""

    def __init__(self, name, data, dtype, shape):
        self.name = name
        self.data = int(data)
        self.dtype = check_dtype(dtype)
        self.shape = tuple(int(d) for d in shape)

    @property
    def nbytes(self):
        n = DTYPES[self.dtype]
        for d in self.shape:
            n *= d
        return n

    @property
    def __cuda_array_interface__(self):
        typestr, _ = _INTERFACE[self.dtype]
        # A zero-size buffer may have no address; the interface wants 0 there.
        return {"shape": self.shape, "typestr": typestr, "data": (self.data if self.nbytes else 0, False),
                "version": 3, "strides": None, "stream": None}

    def __repr__(self):
        return "DeviceBuffer(%r, 0x%x, %s, %s)" % (self.name, self.data, self.dtype, self.shape)


def as_tensor(buffer, torch):
    """The buffer as a torch tensor on the current CUDA device, sharing its memory."""
    tensor = torch.as_tensor(buffer, device="cuda")
    view = _INTERFACE[buffer.dtype][1]
    if view is not None:
        tensor = tensor.view(getattr(torch, view))
    if tensor.data_ptr() != buffer.data and buffer.nbytes:
        raise RuntimeError("torch copied harness buffer %r instead of sharing it" % buffer.name)
    return tensor
