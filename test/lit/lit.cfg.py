# lit configuration for the per-stage FileCheck tests.
import os
import shutil

import lit.formats

config.name = "onnx-tosa"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.onnx_tosa_bin_dir), "test", "lit")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# Our tools first, then LLVM's (mlir-opt, FileCheck, not), then CUDA's ptxas.
path = [config.onnx_tosa_bin_dir, config.llvm_tools_dir]
for cuda in ("/usr/local/cuda/bin", "/usr/local/cuda-13.0/bin"):
    if os.path.isdir(cuda):
        path.append(cuda)
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", os.environ.get("PATH", ""))])

config.substitutions.append(("%plugin", os.path.join(config.onnx_tosa_lib_dir, "OnnxTosaPlugin.so")))

# Optional validators become lit features, so a test that needs one says so.
env_path = config.environment["PATH"]
if shutil.which("ptxas", path=env_path):
    config.available_features.add("ptxas")
if shutil.which("spirv-val", path=env_path):
    config.available_features.add("spirv-val")
