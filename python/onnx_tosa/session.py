"""InferenceSession: a compiled model loaded on one device, shaped like
onnxruntime's InferenceSession.

Thread safety: `run` may be called from several threads; the calls on one
session are serialized (the runtime's C API lets only one thread use a
session at a time). Sessions on one device run concurrently, and share
their weights: sessions of one process opened with the same device name
use one device, on which equal weights are uploaded once.
"""
import copy
import ctypes
import os
import tempfile
import threading
import weakref
from pathlib import Path

import numpy as np

from . import _capi
from ._capi import InvalidArgument, check, lib
from .tensor import DeviceTensor


class NodeArg:
    """A model input or output: name, shape, onnxruntime's type string
    ("tensor(float)") and the numpy dtype (None for types numpy lacks)."""

    def __init__(self, info):
        self.name = info.name.decode()
        self.shape = [int(info.shape[d]) for d in range(info.rank)]
        self.type = f"tensor({_capi.ONNX_TYPE_NAMES.get(info.dtype, '?')})"
        dtype = _capi.DTYPES.get(info.dtype)
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self.ot_dtype = info.dtype
        self.byte_size = info.byte_size

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, " \
               f"shape={self.shape})"


class Device:
    """An open device ("auto", "cuda:0", "vulkan:0", "vulkan:lavapipe")."""

    def __init__(self, name="auto"):
        handle = ctypes.c_void_p()
        check(lib().ot_device_open(name.encode(), ctypes.byref(handle)))
        self._handle = handle

    @property
    def id(self):
        return lib().ot_device_id(self._handle).decode()

    @property
    def name(self):
        return lib().ot_device_name(self._handle).decode()

    @property
    def target(self):
        backend = lib().ot_device_backend(self._handle)
        return "cuda" if backend == _capi.OT_BACKEND_CUDA else "vulkan"

    @property
    def architecture(self):
        """The CUDA architecture the device runs ("sm_86", "sm_90a"); ""
        for a Vulkan device."""
        return lib().ot_device_architecture(self._handle).decode()

    @property
    def compile_target(self):
        """The compiler's --target for code that runs best here:
        "cuda:sm_90a" (this GPU's architecture) or "vulkan"."""
        arch = self.architecture
        return f"cuda:{arch}" if self.target == "cuda" and arch else \
            self.target

    def __del__(self):
        if getattr(self, "_handle", None):
            lib().ot_device_release(self._handle)
            self._handle = None

    def __repr__(self):
        return f"Device({self.id!r}, {self.name!r})"


_open_devices = weakref.WeakValueDictionary()
_open_lock = threading.Lock()


def _device(name):
    """One Device per name in a process, so that the sessions on it share
    their weights (the runtime uploads equal weights once per device)."""
    with _open_lock:
        device = _open_devices.get(name)
        if device is None:
            device = _open_devices[name] = Device(name)
        return device


def available_devices():
    """The ids of the devices that open here, CUDA first."""
    found = []
    for name in ("cuda", "vulkan"):
        try:
            found.append(Device(name).id)
        except _capi.OnnxTosaError:
            pass
    return found


class InferenceSession:
    """Loads a model and runs it.

    `model`: a compiled artifact (a .otsa path or its bytes) or an ONNX model
    (an .onnx path, or an onnx.ModelProto), which is compiled for the device
    on first use into a cache (ONNX_TOSA_CACHE_DIR, default
    ~/.cache/onnx-tosa) keyed by the model, the options and the compiler's
    version. `device`: "auto" (a CUDA GPU if there is one, else Vulkan),
    "cuda:N", "vulkan:N", "vulkan:lavapipe". Other keyword arguments are
    compile options (see onnx_tosa.compile); `progress` is the compile's
    progress callback.
    """

    def __init__(self, model, device="auto", *, progress=None,
                 **compile_options):
        self._handle = None
        self._lock = threading.Lock()
        self._device = device if isinstance(device, Device) else _device(device)
        handle = ctypes.c_void_p()
        data = _artifact_bytes(model)
        if data is not None:
            buf = ctypes.create_string_buffer(bytes(data), len(data))
            check(lib().ot_session_load_from_memory(
                self._device._handle, buf, len(data), ctypes.byref(handle)))
        else:
            path = _artifact_path(model, self._device.compile_target,
                                  compile_options, progress)
            check(lib().ot_session_load(self._device._handle,
                                        os.fsencode(path),
                                        ctypes.byref(handle)))
        self._handle = handle
        L = lib()
        # One (inputs, outputs) per shape variant (--dim); one without.
        self._variants = [
            (self._infos(v, L.ot_session_input_count(handle),
                         L.ot_session_variant_input_info),
             self._infos(v, L.ot_session_output_count(handle),
                         L.ot_session_variant_output_info))
            for v in range(L.ot_session_variant_count(handle))]
        # Outputs whose size depends on the data (NonZero, Unique, ...):
        # the dimension that varies; the infos hold its largest extent.
        self._bounded = [L.ot_session_output_bounded_dim(handle, i)
                         for i in range(L.ot_session_output_count(handle))]
        self._inputs = _merged(a for a, _ in self._variants)
        self._outputs = _merged(b for _, b in self._variants)
        for arg, dim in zip(self._outputs, self._bounded):
            if dim >= 0:  # shown as onnxruntime shows a symbolic dimension
                arg.shape = [None if d == dim else e
                             for d, e in enumerate(arg.shape)]
        self._input_index = {a.name: i for i, a in enumerate(self._inputs)}
        self._output_index = {a.name: i for i, a in enumerate(self._outputs)}

    def _infos(self, variant, count, get):
        infos = []
        for i in range(count):
            info = _capi.TensorInfo()
            check(get(self._handle, variant, i, ctypes.byref(info)))
            infos.append(NodeArg(info))
        return infos

    def shape_variants(self):
        """The input shapes of each program the artifact holds (--dim), as
        [{name: shape}]; one entry for an artifact without variants."""
        return [{a.name: a.shape for a in inputs}
                for inputs, _ in self._variants]


    # onnxruntime's interface ---------------------------------------------
    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_providers(self):
        return [self._device.id]

    @property
    def device(self):
        return self._device

    @property
    def model_name(self):
        return lib().ot_session_model_name(self._handle).decode()

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model on `input_feed` ({name: array}) and returns the
        outputs named in `output_names` (None: all) as numpy arrays, in that
        order. A wrong input name, shape or dtype raises InvalidArgument
        (a ValueError) naming the input and what was expected."""
        keep = []  # arrays and shapes the C structs point into
        inputs = (_capi.HostTensor * len(input_feed))()
        for slot, (name, value) in zip(inputs, input_feed.items()):
            array = _as_array(name, value)
            keep.append(array)
            _fill(slot, name, array, keep)
        variant = 0
        if len(self._variants) > 1:  # the outputs' shapes depend on it
            chosen = ctypes.c_size_t()
            check(lib().ot_session_select_variant(
                self._handle, inputs, len(inputs), ctypes.byref(chosen)))
            variant = chosen.value
        outputs_of_variant = self._variants[variant][1]
        if output_names is None:
            indices = list(range(len(outputs_of_variant)))
        else:
            indices = []
            for name in output_names:
                if name not in self._output_index:
                    raise InvalidArgument(
                        f"unknown output {name!r}; the model's outputs are "
                        + ", ".join(a.name for a in self._outputs),
                        "INVALID_ARGUMENT")
                indices.append(self._output_index[name])
        wanted = [outputs_of_variant[i] for i in indices]
        results = [np.empty(a.shape, a.dtype) if a.dtype is not None
                   else np.empty(a.byte_size, np.uint8) for a in wanted]
        outputs = (_capi.HostTensor * len(wanted))()
        for slot, arg, array in zip(outputs, wanted, results):
            _fill(slot, arg.name, array, keep, arg.ot_dtype, arg.shape)
        with self._lock:
            if self._handle is None:
                raise _capi.OnnxTosaError("the session is closed",
                                          "FAILED_PRECONDITION")
            check(lib().ot_session_run(self._handle, inputs, len(inputs),
                                       outputs, len(outputs)))
            # A data-dependent size: the run wrote the real array first.
            for k, i in enumerate(indices):
                if self._bounded[i] < 0:
                    continue
                info = _capi.TensorInfo()
                check(lib().ot_session_last_output_info(
                    self._handle, i, ctypes.byref(info)))
                shape = [int(info.shape[d]) for d in range(info.rank)]
                if wanted[k].dtype is None:  # raw bytes
                    results[k] = results[k][:info.byte_size]
                else:
                    results[k] = results[k].reshape(-1)[
                        :int(np.prod(shape))].reshape(shape)
        return results

    def io_binding(self):
        """An IOBinding: inputs and outputs kept on the device between
        runs (see IOBinding)."""
        return IOBinding(self)

    def run_with_iobinding(self, binding, run_options=None):
        """Runs on the binding's device tensors; nothing goes through the
        host. The outputs are in binding.get_outputs()."""
        inputs, outputs = binding._prepared()
        with self._lock:
            if self._handle is None:
                raise _capi.OnnxTosaError("the session is closed",
                                          "FAILED_PRECONDITION")
            check(lib().ot_session_run_tensors(self._handle, inputs,
                                               len(inputs), outputs,
                                               len(outputs)))

    def _slot_tensor(self, is_input, index):
        handle = ctypes.c_void_p()
        get = lib().ot_session_input_tensor if is_input \
            else lib().ot_session_output_tensor
        check(get(self._handle, index, ctypes.byref(handle)))
        return DeviceTensor(handle, self._device)

    def memory(self):
        """Device bytes: {'weight_bytes' (uploaded by this session),
        'shared_weight_bytes' (the same weights another session on the
        device holds), 'input_bytes', 'intermediate_bytes'}."""
        m = _capi.SessionMemory()
        check(lib().ot_session_memory(self._handle, ctypes.byref(m)))
        return {name: getattr(m, name) for name, _ in m._fields_}

    def last_run_timing(self):
        """{'upload_ms', 'execute_ms', 'download_ms', 'device_ms'} of the
        last run (device_ms < 0 where the device has no timer)."""
        t = _capi.RunTiming()
        check(lib().ot_session_last_run_timing(self._handle, ctypes.byref(t)))
        return {name: getattr(t, name) for name, _ in t._fields_}

    def close(self):
        with self._lock:
            if self._handle:
                lib().ot_session_release(self._handle)
                self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None):
            lib().ot_session_release(self._handle)
            self._handle = None


def _merged(variants):
    """NodeArgs that hold for every variant: a dimension that differs
    between them is None (as onnxruntime shows a symbolic one)."""
    variants = list(variants)
    merged = [copy.copy(a) for a in variants[0]]
    for other in variants[1:]:
        for a, b in zip(merged, other):
            a.shape = [d if d == e else None for d, e in zip(a.shape, b.shape)]
    return merged


class IOBinding:
    """Device-resident inputs and outputs, as onnxruntime's IOBinding:

        b = sess.io_binding()
        b.bind_input("x", x)          # numpy: copied once to the device
        b.bind_output("y")            # the session's own output buffer
        sess.run_with_iobinding(b)    # no host copies
        y = b.get_outputs()[0]        # a DeviceTensor (DLPack on CUDA)

    bind_input takes a DeviceTensor, a DLPack tensor (a CUDA tensor on the
    same GPU is used in place) or a host array, which is written into the
    session's own input buffer (no copy at run time; binding it again
    writes the new values). bind_output without a tensor uses the session's
    own output buffer (no copy; the next run overwrites it).
    """

    def __init__(self, session):
        self._session = session
        self._inputs, self._outputs = {}, {}
        self._cache = None

    def bind_input(self, name, value):
        session = self._session
        index = session._input_index.get(name)
        if index is None:
            raise InvalidArgument(
                f"unknown input {name!r}; the model's inputs are "
                + ", ".join(a.name for a in session._inputs),
                "INVALID_ARGUMENT")
        if isinstance(value, DeviceTensor):
            tensor = value
        elif hasattr(value, "__dlpack_device__") and \
                not isinstance(value, np.ndarray) and \
                value.__dlpack_device__()[0] != 1:
            tensor = DeviceTensor.from_dlpack(value, session.device)
        else:
            array = _as_array(name, value)
            current = self._inputs.get(name)
            tensor = current if current is not None and current._slot \
                else session._slot_tensor(True, index)
            tensor._slot = True
            try:
                tensor.write(array)
            except InvalidArgument as e:
                raise InvalidArgument(f"input {name!r}: {e}", e.code) from None
        self._inputs[name] = tensor
        self._cache = None

    def bind_output(self, name, tensor=None):
        session = self._session
        index = session._output_index.get(name)
        if index is None:
            raise InvalidArgument(
                f"unknown output {name!r}; the model's outputs are "
                + ", ".join(a.name for a in session._outputs),
                "INVALID_ARGUMENT")
        if tensor is None:
            tensor = session._slot_tensor(False, index)
        elif not isinstance(tensor, DeviceTensor):
            tensor = DeviceTensor.from_dlpack(tensor, session.device)
        self._outputs[name] = tensor
        self._cache = None

    def get_outputs(self):
        return list(self._outputs.values())

    def copy_outputs_to_cpu(self):
        return [t.numpy() for t in self._outputs.values()]

    def clear_binding_inputs(self):
        self._inputs.clear()
        self._cache = None

    def clear_binding_outputs(self):
        self._outputs.clear()
        self._cache = None

    def _prepared(self):
        """The C binding arrays, built once per set of bindings."""
        if self._cache is None:
            def array(bound):
                out = (_capi.TensorBinding * len(bound))()
                names = []
                for slot, (name, tensor) in zip(out, bound.items()):
                    names.append(name.encode())
                    slot.name, slot.tensor = names[-1], tensor._handle
                return out, names
            self._cache = (array(self._inputs), array(self._outputs))
        (inputs, _), (outputs, _) = self._cache
        return inputs, outputs


def _as_array(name, value):
    if isinstance(value, np.ndarray):
        array = value
    elif hasattr(value, "__dlpack__"):
        array = np.from_dlpack(value)  # host tensors of other libraries
    else:
        array = np.asarray(value)
    if array.dtype not in _capi.OT_DTYPE_OF:
        raise InvalidArgument(f"input {name!r}: dtype {array.dtype} has no "
                              "onnx-tosa equivalent", "INVALID_ARGUMENT")
    return np.ascontiguousarray(array)


def _fill(slot, name, array, keep, dtype=None, shape=None):
    encoded = name.encode()
    dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape) \
        if shape is None else (ctypes.c_int64 * max(len(shape), 1))(*shape)
    keep += [encoded, dims]
    slot.name = encoded
    slot.dtype = _capi.OT_DTYPE_OF[array.dtype] if dtype is None else dtype
    slot.rank = array.ndim if shape is None else len(shape)
    slot.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
    slot.data = array.ctypes.data
    slot.byte_size = array.nbytes


def _artifact_bytes(model):
    """The artifact's bytes when `model` is an artifact given in memory."""
    if isinstance(model, (bytes, bytearray, memoryview)) and \
            bytes(model[:8]) == b"OTSAART\0":
        return model
    return None


def _artifact_path(model, target, options, progress):
    from . import compiler
    if isinstance(model, (str, os.PathLike)):
        path = Path(model)
        if not path.is_file():
            raise _capi.NotFound(f"no such model file: {path}", "NOT_FOUND")
        with open(path, "rb") as f:
            is_artifact = f.read(8) == b"OTSAART\0"
        if is_artifact:
            if options:
                raise TypeError("compile options given for an artifact that "
                                f"is already compiled: {sorted(options)}")
            return path
        return compiler.compile_cached(path, target, options, progress)
    with tempfile.TemporaryDirectory(prefix="onnx-tosa-") as work:
        path = compiler._model_file(model, work)
        cached = compiler.compile_cached(path, target, options, progress)
    return cached
