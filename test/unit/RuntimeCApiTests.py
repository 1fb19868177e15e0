#!/usr/bin/env python3
# ===- RuntimeCApiTests.py - The runtime's C interface from Python ------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Tests of libtilec-runtime-c through bench/tilec_runtime.py on the fake
driver of test/gpu (TILEC_CUDA_LIBRARY), which emulates add_kernel of
examples/vector_add.tile (BLOCK=1024).

  RuntimeCApiTests.py LIBRARY VECTOR_ADD_PTX
"""

import os
import pathlib
import struct
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import tilec_runtime  # noqa: E402

LIBRARY = None
PTX = None


def floats(values):
    return struct.pack(f"<{len(values)}f", *values)


class CApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = tilec_runtime.Runtime(LIBRARY)
        cls.ctx = cls.rt.context()
        cls.kernel = cls.ctx.load_module(PTX).kernel("add_kernel")

    def inputs(self, n):
        x = self.ctx.alloc(4 * n)
        y = self.ctx.alloc(4 * n)
        out = self.ctx.alloc(4 * n)
        x.write(floats([float(i) for i in range(n)]))
        y.write(floats([2.0 * i for i in range(n)]))
        out.write(b"\xff" * (4 * n))  # NaN poison.
        return x, y, out

    def test_device_and_metadata(self):
        self.assertTrue(self.ctx.device)
        self.assertEqual(self.kernel.signature,
                         ["*fp32:16", "*fp32:16", "*fp32:16", "i32"])
        self.assertEqual(self.kernel.num_warps, 4)

    def test_launch_ragged(self):
        n = 3000  # Not a multiple of BLOCK.
        x, y, out = self.inputs(n)
        self.kernel[(n + 1023) // 1024](x, y, out, n)
        self.ctx.synchronize()
        got = struct.unpack(f"<{n}f", out.read())
        self.assertEqual(list(got), [3.0 * i for i in range(n)])

    def test_module_from_memory(self):
        kernel = self.ctx.load_ptx(pathlib.Path(PTX).read_text(),
                                   "vector_add").kernel("add_kernel")
        n = 1024
        x, y, out = self.inputs(n)
        kernel[1](x, y, out, n)
        self.ctx.synchronize()
        self.assertEqual(struct.unpack("<f", out.read(4, 4 * 1023))[0],
                         3.0 * 1023)

    def expect_error(self, text, fn):
        with self.assertRaises(tilec_runtime.TilecError) as caught:
            fn()
        self.assertIn(text, str(caught.exception))
        self.assertFalse(caught.exception.no_device)

    def test_argument_errors_name_the_kernel(self):
        x, y, out = self.inputs(16)
        self.expect_error("add_kernel", lambda: self.kernel[1](x, y, out))
        self.expect_error("add_kernel",
                          lambda: self.kernel[1](x, y, 1.5, 16))

        class Misaligned:
            def data_ptr(self):
                return x.data_ptr() + 4

        self.expect_error("16", lambda: self.kernel[1](Misaligned(), y, out,
                                                       16))
        self.expect_error("does not fit in i32", lambda: self.kernel[1](x, y, out, 2**40))
        desc = tilec_runtime.TensorDescriptor(x, [16], shape=[16],
                                              strides=[1], dtype="fp32")
        self.expect_error("tensordesc<fp32[16]>",
                          lambda: self.kernel[1](x, y, out, desc))
        self.expect_error("not a kernel argument",
                          lambda: self.kernel[1](x, y, out, "16"))

    def test_errors(self):
        self.expect_error("no_such_kernel",
                          lambda: self.ctx.load_module(PTX).kernel(
                              "no_such_kernel"))
        self.expect_error("/no/such.ptx",
                          lambda: self.ctx.load_module("/no/such.ptx"))
        memory = self.ctx.alloc(16)
        self.expect_error("not inside one",
                          lambda: memory.write(b"\0" * 32))

    def test_no_driver_is_no_device(self):
        script = ("import sys; sys.path.insert(0, sys.argv[1]); "
                  "import tilec_runtime as t\n"
                  "try:\n"
                  "    t.Runtime(sys.argv[2]).context()\n"
                  "except t.TilecError as e:\n"
                  "    sys.exit(3 if e.no_device else 4)\n")
        env = dict(os.environ, TILEC_CUDA_LIBRARY="/no/libcuda.so.1",
                   PYTHONDONTWRITEBYTECODE="1")
        bench = str(pathlib.Path(tilec_runtime.__file__).parent)
        code = subprocess.run([sys.executable, "-c", script, bench, LIBRARY],
                              env=env).returncode
        self.assertEqual(code, 3)


if __name__ == "__main__":
    LIBRARY, PTX = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
