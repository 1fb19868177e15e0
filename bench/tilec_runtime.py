#!/usr/bin/env python3
# ===- tilec_runtime.py - tilec's runtime from Python, through ctypes ---===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Launch tilec's kernels from Python through the runtime's C interface.

libtilec-runtime-c.so (runtime/include/tilec-c/Runtime.h) is loaded with
ctypes; kernels are launched through tilec::rt::Kernel::launch, so their
arguments are checked against the signature exactly as in C++. Arguments
are what a Triton launch takes: objects with data_ptr() (torch tensors,
or DeviceMemory from Context.alloc) for pointers, ints, floats, and
TensorDescriptor for `tensordesc<T[B...]>` parameters:

  rt = Runtime()                       # $TILEC_RUNTIME_C_LIBRARY, or found
  ctx = rt.context()
  kernel = ctx.load_module("vector_add.ptx").kernel("add_kernel")
  kernel[(n + 1023) // 1024](x, y, out, n)

Launches go on torch's current stream when torch is imported (so that
torch's events and triton.testing.do_bench time them), else on the default
stream. No torch or GPU is needed to import this module.
"""

import ctypes
import os
import pathlib
import sys

MAX_RANK = 5
SUCCESS, NO_DEVICE, ERROR = 0, 1, 2
ARG_POINTER, ARG_INT, ARG_FLOAT32, ARG_FLOAT64, ARG_DESCRIPTOR = range(5)
API_VERSION = 2
# tilecKernelLaunch's flag TILEC_LAUNCH_PROGRAMMATIC_DEPENDENT.
PROGRAMMATIC_DEPENDENT = 1


class TilecError(RuntimeError):
    """A failure the runtime reported; .no_device when there is no GPU."""

    def __init__(self, message, no_device=False):
        super().__init__(message)
        self.no_device = no_device


class _Arg(ctypes.Structure):
    _fields_ = [("Kind", ctypes.c_int32), ("Bits", ctypes.c_uint64),
                ("Real", ctypes.c_double), ("DType", ctypes.c_char_p),
                ("Rank", ctypes.c_int32),
                ("Shape", ctypes.c_int64 * MAX_RANK),
                ("Strides", ctypes.c_int64 * MAX_RANK),
                ("Block", ctypes.c_int64 * MAX_RANK)]


# Element types as signatures spell them, by torch dtype name.
TORCH_DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32",
                "float64": "fp64", "int8": "i8", "int16": "i16",
                "int32": "i32", "int64": "i64", "uint8": "u8",
                "uint16": "u16", "uint32": "u32", "uint64": "u64",
                "bool": "i1", "float8_e4m3fn": "fp8e4nv",
                "float8_e5m2": "fp8e5"}


def _dtype_name(dtype):
    """A signature's element type name for a torch dtype or a name."""
    if isinstance(dtype, str):
        return dtype
    name = str(dtype).rsplit(".", 1)[-1]
    if name not in TORCH_DTYPES:
        raise TypeError(f"tensor descriptors of {dtype} are not supported")
    return TORCH_DTYPES[name]


class TensorDescriptor:
    """Triton's TensorDescriptor.from_tensor: a tensor (with data_ptr(),
    shape, stride() and dtype, e.g. a torch tensor) and a block shape."""

    def __init__(self, tensor, block_shape, shape=None, strides=None,
                 dtype=None):
        self.base = tensor.data_ptr()
        self.shape = list(shape if shape is not None else tensor.shape)
        self.strides = list(strides if strides is not None
                            else tensor.stride())
        self.dtype = _dtype_name(dtype if dtype is not None else tensor.dtype)
        self.block_shape = list(block_shape)

    @staticmethod
    def from_tensor(tensor, block_shape):
        return TensorDescriptor(tensor, block_shape)

    def num_params(self):
        """How many kernel parameters it launches as."""
        return 1 + len(self.shape) + len(self.shape) - 1


def default_library():
    """$TILEC_RUNTIME_C_LIBRARY, else the library next to the usual build
    and device directories."""
    named = os.environ.get("TILEC_RUNTIME_C_LIBRARY")
    if named:
        return named
    root = pathlib.Path(__file__).resolve().parent.parent
    for candidate in (root / ".device" / "lib", root / "build" / "runtime",
                      root / "build" / "lib"):
        path = candidate / "libtilec-runtime-c.so"
        if path.exists():
            return str(path)
    return "libtilec-runtime-c.so"


class Runtime:
    """The loaded C library."""

    def __init__(self, library=None):
        self.lib = ctypes.CDLL(library or default_library())
        lib = self.lib
        p = ctypes.c_void_p
        pp = ctypes.POINTER(ctypes.c_void_p)
        status = ctypes.c_int
        signatures = {
            "tilecLastError": (ctypes.c_char_p, []),
            "tilecApiVersion": (ctypes.c_int, []),
            "tilecContextCreate": (status, [ctypes.c_int, pp]),
            "tilecContextDestroy": (None, [p]),
            "tilecContextDeviceSummary": (ctypes.c_char_p, [p]),
            "tilecContextSynchronize": (status, [p]),
            "tilecMemAlloc": (status, [p, ctypes.c_size_t,
                                       ctypes.POINTER(ctypes.c_uint64)]),
            "tilecMemFree": (None, [ctypes.c_uint64]),
            "tilecMemcpyHtoD": (status, [ctypes.c_uint64, p,
                                         ctypes.c_size_t]),
            "tilecMemcpyDtoH": (status, [p, ctypes.c_uint64,
                                         ctypes.c_size_t]),
            "tilecModuleLoadFile": (status, [p, ctypes.c_char_p, pp]),
            "tilecModuleLoadPtx": (status, [p, ctypes.c_char_p,
                                            ctypes.c_size_t, ctypes.c_char_p,
                                            pp]),
            "tilecModuleDestroy": (None, [p]),
            "tilecModuleGetKernel": (status, [p, ctypes.c_char_p, pp]),
            "tilecKernelDestroy": (None, [p]),
            "tilecKernelSignature": (ctypes.c_char_p, [p]),
            "tilecKernelNumWarps": (ctypes.c_int, [p]),
            "tilecKernelSharedBytes": (ctypes.c_int, [p]),
            "tilecKernelNumRegisters": (ctypes.c_int, [p]),
            "tilecKernelLaunch": (status, [p, ctypes.c_uint32,
                                           ctypes.c_uint32, ctypes.c_uint32,
                                           ctypes.POINTER(_Arg),
                                           ctypes.c_size_t, p,
                                           ctypes.c_uint32]),
        }
        for name, (restype, argtypes) in signatures.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        version = lib.tilecApiVersion()
        if version != API_VERSION:
            raise TilecError(f"libtilec-runtime-c has interface version "
                             f"{version}; this module speaks {API_VERSION}")

    def check(self, status):
        if status != SUCCESS:
            raise TilecError(self.lib.tilecLastError().decode(),
                             no_device=status == NO_DEVICE)

    def context(self, ordinal=0):
        return Context(self, ordinal)


class DeviceMemory:
    """Bytes of device memory from Context.alloc, freed with the object."""

    def __init__(self, ctx, nbytes):
        self._rt = ctx._rt
        address = ctypes.c_uint64()
        self._rt.check(self._rt.lib.tilecMemAlloc(ctx._handle, nbytes,
                                                   ctypes.byref(address)))
        self.address, self.nbytes = address.value, nbytes

    def data_ptr(self):
        return self.address

    def write(self, data, offset=0):
        """Copies bytes-like data to the memory at byte offset."""
        buffer = (ctypes.c_char * len(data)).from_buffer_copy(data)
        self._rt.check(self._rt.lib.tilecMemcpyHtoD(
            self.address + offset, buffer, len(data)))

    def read(self, nbytes=None, offset=0):
        """Returns nbytes (all by default) from byte offset."""
        nbytes = self.nbytes - offset if nbytes is None else nbytes
        buffer = ctypes.create_string_buffer(nbytes)
        self._rt.check(self._rt.lib.tilecMemcpyDtoH(
            buffer, self.address + offset, nbytes))
        return buffer.raw

    def __del__(self):
        if getattr(self, "address", None):
            self._rt.lib.tilecMemFree(self.address)


class Context:
    """The primary context of one device (torch's too)."""

    def __init__(self, rt, ordinal=0):
        self._rt = rt
        handle = ctypes.c_void_p()
        rt.check(rt.lib.tilecContextCreate(ordinal, ctypes.byref(handle)))
        self._handle = handle

    @property
    def device(self):
        return self._rt.lib.tilecContextDeviceSummary(self._handle).decode()

    def synchronize(self):
        self._rt.check(self._rt.lib.tilecContextSynchronize(self._handle))

    def alloc(self, nbytes):
        return DeviceMemory(self, nbytes)

    def load_module(self, path):
        return Module(self, path=str(path))

    def load_ptx(self, ptx, name="<memory>"):
        return Module(self, ptx=ptx, name=name)

    def __del__(self):
        if getattr(self, "_handle", None):
            self._rt.lib.tilecContextDestroy(self._handle)


class Module:
    def __init__(self, ctx, path=None, ptx=None, name="<memory>"):
        self._ctx, self._rt = ctx, ctx._rt
        handle = ctypes.c_void_p()
        if path is not None:
            status = self._rt.lib.tilecModuleLoadFile(
                ctx._handle, path.encode(), ctypes.byref(handle))
        else:
            data = ptx.encode() if isinstance(ptx, str) else ptx
            status = self._rt.lib.tilecModuleLoadPtx(
                ctx._handle, data, len(data), name.encode(),
                ctypes.byref(handle))
        self._rt.check(status)
        self._handle = handle

    def kernel(self, name):
        return Kernel(self, name)

    def __del__(self):
        if getattr(self, "_handle", None):
            self._rt.lib.tilecModuleDestroy(self._handle)


def _current_stream():
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_initialized():
        return None
    return torch.cuda.current_stream().cuda_stream


class Kernel:
    """A kernel; kernel[grid](*args) launches it as Triton's do."""

    def __init__(self, module, name):
        self._module, self._rt = module, module._rt
        handle = ctypes.c_void_p()
        self._rt.check(self._rt.lib.tilecModuleGetKernel(
            module._handle, name.encode(), ctypes.byref(handle)))
        self._handle = handle
        self.name = name
        lib = self._rt.lib
        signature = lib.tilecKernelSignature(handle).decode()
        self.signature = [e.strip() for e in signature.split(",")
                          if e.strip()]
        self.num_warps = lib.tilecKernelNumWarps(handle)
        self.shared = lib.tilecKernelSharedBytes(handle)
        self.num_registers = lib.tilecKernelNumRegisters(handle)

    def _convert(self, args):
        converted = (_Arg * max(len(args), 1))()
        param = 0  # The signature entry the argument starts at.
        for i, value in enumerate(args):
            arg = converted[i]
            entry = self.signature[param] if param < len(self.signature) \
                else ""
            if isinstance(value, TensorDescriptor):
                arg.Kind, arg.Bits = ARG_DESCRIPTOR, value.base
                arg.DType = value.dtype.encode()
                arg.Rank = len(value.shape)
                if arg.Rank > MAX_RANK or len(value.block_shape) != arg.Rank:
                    raise TilecError(f"kernel '{self.name}', argument {i}: "
                                     f"a descriptor of rank {arg.Rank}")
                for d in range(arg.Rank):
                    arg.Shape[d] = value.shape[d]
                    arg.Strides[d] = value.strides[d]
                    arg.Block[d] = value.block_shape[d]
                param += value.num_params()
                continue
            param += 1
            if hasattr(value, "data_ptr"):
                arg.Kind, arg.Bits = ARG_POINTER, value.data_ptr()
            elif isinstance(value, bool):
                arg.Kind, arg.Bits = ARG_INT, int(value)
            elif isinstance(value, int):
                arg.Kind, arg.Bits = ARG_INT, value & (2**64 - 1)
            elif isinstance(value, float):
                arg.Kind = ARG_FLOAT64 if entry == "fp64" else ARG_FLOAT32
                arg.Real = value
            else:
                raise TilecError(f"kernel '{self.name}', argument {i}: "
                                 f"{type(value).__name__} is not a kernel "
                                 f"argument")
        return converted

    def launch(self, grid, *args, stream=None, launch_pdl=False):
        """launch_pdl: programmatic dependent launch, as Triton's."""
        grid = tuple(grid) + (1,) * (3 - len(tuple(grid)))
        converted = self._convert(args)
        if stream is None:
            stream = _current_stream()
        self._rt.check(self._rt.lib.tilecKernelLaunch(
            self._handle, grid[0], grid[1], grid[2], converted, len(args),
            stream, PROGRAMMATIC_DEPENDENT if launch_pdl else 0))

    def __getitem__(self, grid):
        if isinstance(grid, int):
            grid = (grid,)
        return lambda *args, stream=None, launch_pdl=False: self.launch(
            grid, *args, stream=stream, launch_pdl=launch_pdl)

    def __del__(self):
        if getattr(self, "_handle", None):
            self._rt.lib.tilecKernelDestroy(self._handle)
