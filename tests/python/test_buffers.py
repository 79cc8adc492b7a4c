"""aisp.buffers: harness buffers described for PyTorch through __cuda_array_interface__ (no copy)."""

import unittest

from aisp.buffers import DeviceBuffer, as_tensor


class FakeTensor:
    def __init__(self, source):
        iface = source.__cuda_array_interface__
        self.ptr = iface["data"][0]
        self.views = []

    def data_ptr(self):
        return self.ptr

    def view(self, dtype):
        self.views.append(dtype)
        return self


class FakeTorch:
    """Stands in for torch.as_tensor / torch dtypes (CI has no torch)."""
    bfloat16 = "torch.bfloat16"
    float8_e4m3fn = "torch.float8_e4m3fn"

    def __init__(self, copies=False):
        self.copies = copies
        self.devices = []

    def as_tensor(self, source, device):
        self.devices.append(device)
        t = FakeTensor(source)
        if self.copies:
            t.ptr += 4096
        return t


class BufferTest(unittest.TestCase):
    def test_interface_for_numpy_typed_dtypes(self):
        b = DeviceBuffer("x", 0x7F0000001000, "f32", (4, 3))
        iface = b.__cuda_array_interface__
        self.assertEqual(iface, {"shape": (4, 3), "typestr": "<f4", "data": (0x7F0000001000, False), "version": 3,
                                 "strides": None, "stream": None})
        self.assertEqual(b.nbytes, 48)
        self.assertEqual(DeviceBuffer("h", 16, "f16", (2,)).__cuda_array_interface__["typestr"], "<f2")
        self.assertEqual(DeviceBuffer("i", 16, "i64", (2,)).__cuda_array_interface__["typestr"], "<i8")

    def test_bf16_and_fp8_travel_as_integers_and_are_viewed_back(self):
        torch = FakeTorch()
        b = DeviceBuffer("w", 0x1000, "bf16", (8,))
        self.assertEqual(b.__cuda_array_interface__["typestr"], "<i2")
        t = as_tensor(b, torch)
        self.assertEqual(t.views, ["torch.bfloat16"])
        self.assertEqual(torch.devices, ["cuda"])
        f8 = as_tensor(DeviceBuffer("q", 0x2000, "fp8_e4m3", (8,)), torch)
        self.assertEqual(f8.views, ["torch.float8_e4m3fn"])
        self.assertEqual(as_tensor(DeviceBuffer("y", 0x3000, "f32", (8,)), torch).views, [])

    def test_a_copy_instead_of_a_view_is_refused(self):
        with self.assertRaisesRegex(RuntimeError, "copied harness buffer 'x'"):
            as_tensor(DeviceBuffer("x", 0x1000, "f32", (8,)), FakeTorch(copies=True))

    def test_empty_buffer_and_unknown_dtype(self):
        self.assertEqual(DeviceBuffer("e", 0x1000, "f32", (0,)).__cuda_array_interface__["data"], (0, False))
        with self.assertRaises(ValueError):
            DeviceBuffer("x", 0, "float", (1,))


if __name__ == "__main__":
    unittest.main()
