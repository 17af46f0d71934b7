"""ctypes declarations of the runtime's C API (runtime/include/onnx_tosa/runtime.h).

The Python package binds the C API itself rather than a C++ extension: the C
API is already the runtime's stable contract, ctypes is in every CPython, and
one pure-Python wheel then serves every Python 3 version.
"""
import ctypes
import os
from pathlib import Path

import numpy as np

from . import _paths


class OnnxTosaError(RuntimeError):
    """An error reported by the onnx-tosa runtime or compiler. `code` is the
    runtime's status name ("INVALID_ARGUMENT", "NOT_FOUND", ...)."""

    def __init__(self, message, code="INTERNAL"):
        super().__init__(message)
        self.code = code


class InvalidArgument(OnnxTosaError, ValueError):
    """A wrong input name, shape or dtype, a malformed device name, ..."""


class NotFound(OnnxTosaError, FileNotFoundError):
    """A file or device that does not exist."""


class Unavailable(OnnxTosaError):
    """A missing or failing driver or device."""


_ERRORS = {1: InvalidArgument, 2: NotFound, 3: Unavailable}

# ONNX TensorProto.DataType numbers (ot_dtype) <-> numpy.
DTYPES = {
    1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
    6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64,
    12: np.uint32, 13: np.uint64,
}
OT_DTYPE_OF = {np.dtype(t): code for code, t in DTYPES.items()}
# onnxruntime's NodeArg.type spelling.
ONNX_TYPE_NAMES = {
    1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
    7: "int64", 9: "bool", 10: "float16", 11: "double", 12: "uint32",
    13: "uint64", 16: "bfloat16", 17: "float8e4m3fn", 18: "float8e4m3fnuz",
    19: "float8e5m2", 20: "float8e5m2fnuz", 21: "uint4", 22: "int4",
    23: "float4e2m1", 24: "float8e8m0", 25: "uint2", 26: "int2",
}

OT_BACKEND_CUDA, OT_BACKEND_VULKAN = 1, 2


class TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_size_t),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("byte_size", ctypes.c_size_t)]


class HostTensor(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("index", ctypes.c_size_t),
                ("dtype", ctypes.c_int), ("rank", ctypes.c_size_t),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p), ("byte_size", ctypes.c_size_t)]


class TensorBinding(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("index", ctypes.c_size_t),
                ("tensor", ctypes.c_void_p)]


class SessionMemory(ctypes.Structure):
    _fields_ = [("weight_bytes", ctypes.c_uint64),
                ("shared_weight_bytes", ctypes.c_uint64),
                ("input_bytes", ctypes.c_uint64),
                ("intermediate_bytes", ctypes.c_uint64)]


class RunTiming(ctypes.Structure):
    _fields_ = [("upload_ms", ctypes.c_double),
                ("execute_ms", ctypes.c_double),
                ("download_ms", ctypes.c_double),
                ("device_ms", ctypes.c_double)]


class LaunchProfile(ctypes.Structure):
    _fields_ = [("module", ctypes.c_char_p), ("entry", ctypes.c_char_p),
                ("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3),
                ("median_ms", ctypes.c_double), ("nodes", ctypes.c_char_p)]


_status = ctypes.c_void_p
_handle = ctypes.c_void_p
_SIGNATURES = {
    "ot_version": (ctypes.c_char_p, []),
    "ot_status_get_code": (ctypes.c_int, [_status]),
    "ot_status_get_message": (ctypes.c_char_p, [_status]),
    "ot_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
    "ot_status_free": (None, [_status]),
    "ot_device_open": (_status, [ctypes.c_char_p, ctypes.POINTER(_handle)]),
    "ot_device_release": (None, [_handle]),
    "ot_device_name": (ctypes.c_char_p, [_handle]),
    "ot_device_id": (ctypes.c_char_p, [_handle]),
    "ot_device_backend": (ctypes.c_int, [_handle]),
    "ot_device_architecture": (ctypes.c_char_p, [_handle]),
    "ot_session_load": (_status, [_handle, ctypes.c_char_p,
                                  ctypes.POINTER(_handle)]),
    "ot_session_load_from_memory": (_status, [_handle, ctypes.c_void_p,
                                              ctypes.c_size_t,
                                              ctypes.POINTER(_handle)]),
    "ot_session_release": (None, [_handle]),
    "ot_session_model_name": (ctypes.c_char_p, [_handle]),
    "ot_session_input_count": (ctypes.c_size_t, [_handle]),
    "ot_session_output_count": (ctypes.c_size_t, [_handle]),
    "ot_session_input_info": (_status, [_handle, ctypes.c_size_t,
                                        ctypes.POINTER(TensorInfo)]),
    "ot_session_output_info": (_status, [_handle, ctypes.c_size_t,
                                         ctypes.POINTER(TensorInfo)]),
    "ot_session_output_bounded_dim": (ctypes.c_int64, [_handle,
                                                       ctypes.c_size_t]),
    "ot_session_last_output_info": (_status, [_handle, ctypes.c_size_t,
                                              ctypes.POINTER(TensorInfo)]),
    "ot_session_variant_count": (ctypes.c_size_t, [_handle]),
    "ot_session_variant_input_info": (_status, [_handle, ctypes.c_size_t,
                                                ctypes.c_size_t,
                                                ctypes.POINTER(TensorInfo)]),
    "ot_session_variant_output_info": (_status, [_handle, ctypes.c_size_t,
                                                 ctypes.c_size_t,
                                                 ctypes.POINTER(TensorInfo)]),
    "ot_session_select_variant": (_status, [
        _handle, ctypes.POINTER(HostTensor), ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_size_t)]),
    "ot_session_run": (_status, [_handle, ctypes.POINTER(HostTensor),
                                 ctypes.c_size_t, ctypes.POINTER(HostTensor),
                                 ctypes.c_size_t]),
    "ot_tensor_create": (_status, [_handle, ctypes.c_int, ctypes.c_size_t,
                                   ctypes.POINTER(ctypes.c_int64),
                                   ctypes.POINTER(_handle)]),
    "ot_tensor_wrap_device_address": (_status, [
        _handle, ctypes.c_uint64, ctypes.c_int, ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(_handle)]),
    "ot_tensor_release": (None, [_handle]),
    "ot_tensor_get_info": (_status, [_handle, ctypes.POINTER(TensorInfo)]),
    "ot_tensor_device_address": (ctypes.c_uint64, [_handle]),
    "ot_tensor_write": (_status, [_handle, ctypes.c_void_p, ctypes.c_size_t]),
    "ot_tensor_read": (_status, [_handle, ctypes.c_void_p, ctypes.c_size_t]),
    "ot_session_input_tensor": (_status, [_handle, ctypes.c_size_t,
                                          ctypes.POINTER(_handle)]),
    "ot_session_output_tensor": (_status, [_handle, ctypes.c_size_t,
                                           ctypes.POINTER(_handle)]),
    "ot_session_run_tensors": (_status, [
        _handle, ctypes.POINTER(TensorBinding), ctypes.c_size_t,
        ctypes.POINTER(TensorBinding), ctypes.c_size_t]),
    "ot_session_memory": (_status, [_handle, ctypes.POINTER(SessionMemory)]),
    "ot_session_last_run_timing": (_status, [_handle,
                                             ctypes.POINTER(RunTiming)]),
    "ot_session_profile": (_status, [_handle, ctypes.c_uint32,
                                     ctypes.POINTER(
                                         ctypes.POINTER(LaunchProfile)),
                                     ctypes.POINTER(ctypes.c_size_t)]),
}

_lib = None


def lib():
    """The runtime library, loaded on first use."""
    global _lib
    if _lib is None:
        path = _paths.runtime_library()
        loaded = ctypes.CDLL(str(path))
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(loaded, name)
            fn.restype, fn.argtypes = restype, argtypes
        _lib = loaded
    return _lib


def check(status):
    """Raises the exception for a non-NULL ot_status (and frees it)."""
    if not status:
        return
    L = lib()
    code = L.ot_status_get_code(status)
    message = L.ot_status_get_message(status).decode(errors="replace")
    name = L.ot_status_code_name(code).decode()
    L.ot_status_free(status)
    raise _ERRORS.get(code, OnnxTosaError)(message, name)


def runtime_version():
    return lib().ot_version().decode()
