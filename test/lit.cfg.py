# -*- Python -*- lit configuration of tilec's compiler tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tilec"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")
config.excludes = ["Inputs", "unit", "gpu", "tools", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%examples", os.path.join(config.tilec_src_root,
                                                      "examples")))
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["tilec", "tilec-opt", "tilec-fuzz-replay",
                                    "tilec-load-ptx"],
                                   [config.tilec_tools_dir])
# The CPU stand-in for libcuda.so.1 (test/gpu/FakeCuda.cpp): the runtime
# loads PTX through it.
config.substitutions.append(("%fake_cuda", config.fake_cuda))

# tilec finds libdevice through CUDA_HOME, CUDA_PATH, TILEC_LIBDEVICE or the
# toolkit it was configured with.
for var in ("CUDA_HOME", "CUDA_PATH", "TILEC_LIBDEVICE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
libdevice_roots = [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH")]
libdevice_roots += [config.cuda_root, "/usr/local/cuda"]
if os.path.exists(os.environ.get("TILEC_LIBDEVICE", "")) or any(
    r and os.path.exists(os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc"))
    for r in libdevice_roots
):
    config.available_features.add("libdevice")
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
