"""onnx-tosa: compile ONNX models to GPU kernels (CUDA, Vulkan) and run them.

    import onnx_tosa
    sess = onnx_tosa.InferenceSession("model.onnx")      # compiles, caches
    y, = sess.run(None, {"x": x})

    blob = onnx_tosa.compile("model.onnx", target="vulkan", precision="fp16")
    sess = onnx_tosa.InferenceSession(blob, device="vulkan")
"""
from ._capi import (InvalidArgument, NotFound, OnnxTosaError, Unavailable,
                    runtime_version)
from .compiler import (CompileError, compile, compiler_options,
                       compiler_version)
from .session import (Device, InferenceSession, IOBinding, NodeArg,
                      available_devices)
from .tensor import DeviceTensor

__version__ = "0.1.0"

__all__ = [
    "CompileError", "Device", "DeviceTensor", "InferenceSession",
    "IOBinding", "InvalidArgument",
    "NodeArg", "NotFound", "OnnxTosaError", "Unavailable",
    "available_devices", "compile", "compiler_options", "compiler_version",
    "runtime_version", "__version__",
]
