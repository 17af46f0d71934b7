"""DLPack (https://dmlc.github.io/dlpack/latest/) for device tensors, with
ctypes: exporting a CUDA DeviceTensor as a "dltensor" capsule, and reading
the capsule another library exports. Only CUDA memory has an address other
libraries can use; Vulkan tensors are not exportable."""
import ctypes

import numpy as np

KDL_CPU, KDL_CUDA = 1, 2
# DLDataTypeCode
_INT, _UINT, _FLOAT, _BOOL = 0, 1, 2, 6


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor),
                            ("manager_ctx", ctypes.c_void_p),
                            ("deleter", _Deleter)]

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                               ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor gets the dying capsule as a bare pointer: it must not be
# turned into a Python reference again.
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                                  ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


def dl_dtype(dtype):
    dtype = np.dtype(dtype)
    code = {"f": _FLOAT, "i": _INT, "u": _UINT, "b": _BOOL}[dtype.kind]
    return DLDataType(code, dtype.itemsize * 8, 1)


def np_dtype(dl):
    if dl.lanes != 1:
        raise BufferError(f"DLPack: vector dtypes (lanes={dl.lanes}) are not "
                          "supported")
    kind = {_FLOAT: "f", _INT: "i", _UINT: "u", _BOOL: "b"}.get(dl.code)
    if kind is None:
        raise BufferError(f"DLPack: dtype code {dl.code} is not supported")
    return np.dtype("?" if kind == "b" else f"{kind}{dl.bits // 8}")


# Exported tensors stay alive until their consumer calls the deleter: the
# managed struct's address -> (the struct, its shape, the DeviceTensor).
_exported = {}


@_Deleter
def _delete(managed):
    _exported.pop(ctypes.addressof(managed.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # An unconsumed capsule still owns the tensor (the DLPack rule).
    if _raw_is_valid(capsule, b"dltensor"):
        _exported.pop(_raw_get_pointer(capsule, b"dltensor"), None)


def export(owner, address, shape, dtype, device_id):
    """A "dltensor" capsule over CUDA memory at `address`, keeping `owner`
    alive until the consumer is done."""
    managed = DLManagedTensor()
    dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    t = managed.dl_tensor
    t.data = address
    t.device = DLDevice(KDL_CUDA, device_id)
    t.ndim = len(shape)
    t.dtype = dl_dtype(dtype)
    t.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
    t.strides = None  # C-contiguous
    t.byte_offset = 0
    managed.deleter = _delete
    address_of = ctypes.addressof(managed)
    _exported[address_of] = (managed, dims, owner)
    return _api.PyCapsule_New(address_of, b"dltensor",
                              ctypes.cast(_capsule_destructor,
                                          ctypes.c_void_p))


class Imported:
    """A capsule taken from another library: its device, address, shape and
    dtype; `release()` (or garbage collection) hands it back."""

    def __init__(self, capsule):
        address = _api.PyCapsule_GetPointer(capsule, b"dltensor")
        self._managed = ctypes.cast(address,
                                    ctypes.POINTER(DLManagedTensor)).contents
        _api.PyCapsule_SetName(capsule, b"used_dltensor")
        t = self._managed.dl_tensor
        self.device_type = t.device.device_type
        self.device_id = t.device.device_id
        self.shape = tuple(t.shape[i] for i in range(t.ndim))
        self.dtype = np_dtype(t.dtype)
        self.address = (t.data or 0) + t.byte_offset
        if t.strides:
            expected, step = [], 1
            for d in reversed(self.shape):
                expected.insert(0, step)
                step *= d
            strides = [t.strides[i] for i in range(t.ndim)]
            if any(s != e for s, e, d in zip(strides, expected, self.shape)
                   if d > 1):
                raise BufferError("DLPack: only C-contiguous tensors can be "
                                  f"used (strides {strides})")

    def release(self):
        if self._managed is not None:
            managed, self._managed = self._managed, None
            if managed.deleter:
                managed.deleter(ctypes.pointer(managed))

    def __del__(self):
        self.release()
