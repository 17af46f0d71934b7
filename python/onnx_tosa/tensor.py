"""DeviceTensor: a tensor in a device's memory (onnxruntime's OrtValue on a
device), for IO binding and DLPack."""
import ctypes

import numpy as np

from . import _capi, _dlpack
from ._capi import InvalidArgument, check, lib


def _dims(shape):
    return (ctypes.c_int64 * max(len(shape), 1))(*shape)


class DeviceTensor:
    """A tensor on one device. Made with `empty`, `from_numpy` or
    `from_dlpack` (a CUDA tensor of PyTorch, CuPy, JAX... on the same GPU is
    used in place, without a copy), or handed out by an IOBinding."""

    def __init__(self, handle, device, owner=None):
        self._handle = handle
        self._device = device
        self._owner = owner  # what must outlive the memory (a DLPack import)
        self._slot = False  # a session's own input buffer (IOBinding)
        info = _capi.TensorInfo()
        check(lib().ot_tensor_get_info(handle, ctypes.byref(info)))
        self.shape = tuple(info.shape[d] for d in range(info.rank))
        self.ot_dtype = info.dtype
        dtype = _capi.DTYPES.get(info.dtype)
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self.nbytes = info.byte_size

    @classmethod
    def empty(cls, shape, dtype, device):
        dtype = np.dtype(dtype)
        if dtype not in _capi.OT_DTYPE_OF:
            raise InvalidArgument(f"dtype {dtype} has no onnx-tosa "
                                  "equivalent", "INVALID_ARGUMENT")
        handle = ctypes.c_void_p()
        shape = tuple(int(d) for d in shape)
        check(lib().ot_tensor_create(device._handle, _capi.OT_DTYPE_OF[dtype],
                                     len(shape), _dims(shape),
                                     ctypes.byref(handle)))
        return cls(handle, device)

    @classmethod
    def from_numpy(cls, array, device):
        array = np.ascontiguousarray(array)
        tensor = cls.empty(array.shape, array.dtype, device)
        tensor.write(array)
        return tensor

    @classmethod
    def from_dlpack(cls, obj, device):
        """A CUDA tensor on `device`'s GPU is used in place (its memory must
        stay alive and unchanged while the model reads it: this tensor keeps
        the producer's object alive); a host tensor is copied to the
        device."""
        dev_type, dev_id = obj.__dlpack_device__()
        if dev_type == _dlpack.KDL_CPU:
            return cls.from_numpy(np.from_dlpack(obj), device)
        if dev_type != _dlpack.KDL_CUDA or device.target != "cuda":
            raise InvalidArgument(
                f"a DLPack tensor on device type {dev_type} cannot be used on "
                f"{device.id}", "INVALID_ARGUMENT")
        ordinal = int(device.id.split(":")[1])
        if dev_id != ordinal:
            raise InvalidArgument(f"the tensor is on cuda:{dev_id}, the "
                                  f"device is {device.id}",
                                  "INVALID_ARGUMENT")
        # stream=1: the producer orders its writes before work on the legacy
        # default stream, which the runtime's copies and model streams follow.
        imported = _dlpack.Imported(obj.__dlpack__(stream=1))
        if imported.dtype not in _capi.OT_DTYPE_OF:
            raise InvalidArgument(f"dtype {imported.dtype} has no onnx-tosa "
                                  "equivalent", "INVALID_ARGUMENT")
        handle = ctypes.c_void_p()
        check(lib().ot_tensor_wrap_device_address(
            device._handle, imported.address,
            _capi.OT_DTYPE_OF[imported.dtype], len(imported.shape),
            _dims(imported.shape), ctypes.byref(handle)))
        return cls(handle, device, owner=(imported, obj))

    @property
    def device(self):
        return self._device

    def data_ptr(self):
        """The CUDA device address of the memory; 0 on Vulkan."""
        return lib().ot_tensor_device_address(self._handle)

    def write(self, array):
        """Copies a host array of this tensor's dtype and shape in."""
        array = np.ascontiguousarray(array)
        if array.dtype != self.dtype or array.shape != self.shape:
            raise InvalidArgument(
                f"expected {self.dtype} {list(self.shape)}, got "
                f"{array.dtype} {list(array.shape)}", "INVALID_ARGUMENT")
        check(lib().ot_tensor_write(self._handle, array.ctypes.data,
                                    array.nbytes))

    def numpy(self):
        """The tensor's values, copied to the host."""
        out = np.empty(self.shape, self.dtype)
        check(lib().ot_tensor_read(self._handle, out.ctypes.data, out.nbytes))
        return out

    def __dlpack_device__(self):
        if self._device.target != "cuda":
            raise BufferError("only CUDA tensors can be shared through "
                              "DLPack; use .numpy() on "
                              f"{self._device.id}")
        return (_dlpack.KDL_CUDA, int(self._device.id.split(":")[1]))

    def __dlpack__(self, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """Shares the memory (CUDA only). Its contents are complete: the
        runtime has waited for the run that wrote it."""
        dev_type, dev_id = self.__dlpack_device__()
        if copy:
            raise BufferError("DLPack copies are not supported; share "
                              "without copy=True")
        return _dlpack.export(self, self.data_ptr(), self.shape, self.dtype,
                              dev_id)

    def __del__(self):
        if getattr(self, "_handle", None):
            lib().ot_tensor_release(self._handle)
            self._handle = None

    def __repr__(self):
        return (f"DeviceTensor({self.dtype} {list(self.shape)} on "
                f"{self._device.id})")
