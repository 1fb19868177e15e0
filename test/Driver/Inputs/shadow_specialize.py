"""Specializes one launch of a kernel of FILE as tools/gpu/shadow.py does
(without torch or a GPU: tensors are stand-ins with data_ptr() and dtype),
prints the tilec command, then runs it with the arguments after FILE.

  python3 shadow_specialize.py TOOLS_GPU_DIR FILE TILEC [TILEC_ARGS...]
"""
import inspect
import subprocess
import sys

sys.path.insert(0, sys.argv[1])
import shadow  # noqa: E402

path, tilec, extra = sys.argv[2], sys.argv[3], sys.argv[4:]


class Tensor:
    def __init__(self, dtype, address):
        self.dtype, self.address = dtype, address

    def data_ptr(self):
        return self.address


class dtype:  # noqa: N801 - named as triton.language.dtype
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Param:
    def __init__(self, name, constexpr, no_specialize=False):
        self.name, self.is_constexpr = name, constexpr
        self.do_not_specialize = no_specialize
        self.do_not_specialize_on_alignment = False


class JITFunction:
    """What shadow reads of Triton's JITFunction: the Python function (its
    name and file), its parameters and its signature."""

    def __init__(self, name, parameters, constexprs, no_specialize):
        namespace = {}
        exec(compile(f"def {name}({', '.join(parameters)}): pass", path,
                     "exec"), namespace)
        self.fn = namespace[name]
        self.signature = inspect.signature(self.fn)
        self.params = [Param(p, p in constexprs, p in no_specialize)
                       for p in parameters]


fn = JITFunction("scale", ["x_ptr", "y_ptr", "n", "one", "stride", "big",
                           "maybe", "alpha", "flag", "shape", "count",
                           "BLOCK", "DTYPE", "MODE"],
                 constexprs={"BLOCK", "DTYPE", "MODE"},
                 no_specialize={"count"})
args = (Tensor("torch.float16", 0x7f0000001000),
        Tensor("torch.float32", 0x7f0000002004), 1000, 1, 4096, 2**40, None,
        0.5, True, (64, 3), 32)
command, launch, _ = shadow.specialize(
    tilec, fn, args, dict(BLOCK=128, DTYPE=dtype("fp16"), MODE="fast",
                          num_warps=8, num_stages=2))
print("COMMAND " + " ".join(command[1:]).replace(path, "FILE"))
print(f"LAUNCH {len(launch)} arguments")
sys.stdout.flush()
sys.exit(subprocess.run(command + extra).returncode)
