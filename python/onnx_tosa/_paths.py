"""Where the runtime library and the compiler tools are.

Looked up in this order: the environment (ONNX_TOSA_LIBRARY, the runtime's
shared library; ONNX_TOSA_BIN_DIR, the tools' folder), the installed package
(onnx_tosa/lib, onnx_tosa/bin, as `pip install .` lays them out), a source
checkout's build folder (python/onnx_tosa used in place: <repo>/build, or
ONNX_TOSA_BUILD_DIR), and for the tools the PATH.
"""
import os
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
LIBRARY = "libonnx_tosa_runtime.so"


def _build_dir():
    env = os.environ.get("ONNX_TOSA_BUILD_DIR")
    return Path(env) if env else PACKAGE.parents[1] / "build"


def runtime_library():
    env = os.environ.get("ONNX_TOSA_LIBRARY")
    candidates = [Path(env)] if env else []
    candidates += [PACKAGE / "lib" / LIBRARY, _build_dir() / "lib" / LIBRARY]
    for path in candidates:
        if path.is_file():
            return path
    raise ImportError(
        "onnx_tosa: cannot find the runtime library; looked at "
        + ", ".join(map(str, candidates))
        + " (install the package with `pip install .` from a clone, or set "
        "ONNX_TOSA_LIBRARY)")


def tool(name):
    env = os.environ.get("ONNX_TOSA_BIN_DIR")
    candidates = [Path(env) / name] if env else []
    candidates += [PACKAGE / "bin" / name, _build_dir() / "bin" / name]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if found:
        return Path(found)
    raise FileNotFoundError(
        f"onnx_tosa: cannot find {name}; looked at "
        + ", ".join(map(str, candidates)) + " and the PATH (set "
        "ONNX_TOSA_BIN_DIR to the folder that holds it)")
