"""onnx_tosa.compile: the compiler's command line as a Python function.

The keyword arguments are the options of `onnx-tosa-compile` itself (read
from its `--list-options`), spelled with underscores: one definition of each
option serves the command line and Python. Options that take NAME=VALUE and
may be repeated (input_shape, dim, freeze_input, sequence_length) take a
dict (dim={"N": [1, 4, 8]} compiles one program per batch size into one
artifact);
absent_input takes a list of names; flags take True/False.

    onnx_tosa.compile("m.onnx", target="vulkan", precision="fp16",
                      input_shape={"x": (1, 3, 224, 224)})
"""
import functools
import hashlib
import json
import logging
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from . import _paths
from ._capi import OnnxTosaError

log = logging.getLogger("onnx_tosa")

COMPILE = "onnx-tosa-compile"


class CompileError(OnnxTosaError, ValueError):
    """The compiler refused the model; the message is the compiler's (it names
    the node, op type and opset at fault)."""


_options = None


def compiler_options():
    """{python_name: {"flag", "multiple", "help", "value", "hidden"}} for
    every option of onnx-tosa-compile."""
    global _options
    if _options is None:
        out = subprocess.run([str(_paths.tool(COMPILE)), "--list-options"],
                             capture_output=True, text=True, check=True)
        _options = {o["name"].replace("-", "_"): o
                    for o in json.loads(out.stdout) if o["name"] != "o"}
    return _options


def compiler_version():
    """The compiler's --version text (project version, commit, LLVM)."""
    return _version_of(str(_paths.tool(COMPILE)))


@functools.lru_cache(maxsize=None)
def _version_of(tool):
    out = subprocess.run([tool, "--version"], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def _npy(value, work):
    path = Path(work) / f"frozen_{len(os.listdir(work))}.npy"
    np.save(path, np.asarray(value))
    return path


def _shape(dims):
    if isinstance(dims, str):
        return dims
    return "x".join(str(int(d)) for d in dims)


def _arguments(options, work):
    """The command-line arguments for keyword `options`."""
    known = compiler_options()
    args = []
    for key, value in options.items():
        if value is None:
            continue
        spec = known.get(key)
        if spec is None:
            raise TypeError(
                f"onnx_tosa.compile: unknown option {key!r}; the options are "
                + ", ".join(sorted(known)))
        flag = "--" + spec["name"]
        if spec["multiple"]:
            if isinstance(value, dict):
                for name, v in value.items():
                    if key == "input_shape":
                        v = _shape(v)
                    elif key == "dim" and isinstance(v, (list, tuple, range)):
                        v = ",".join(str(int(d)) for d in v)
                    elif key == "freeze_input" and not isinstance(v, (str, Path)):
                        v = _npy(v, work)
                    args.append(f"{flag}={name}={v}")
            elif isinstance(value, (list, tuple, set)):
                args += [f"{flag}={v}" for v in value]
            else:
                args.append(f"{flag}={value}")
        elif spec["flag"]:
            args.append(f"{flag}={'true' if value else 'false'}")
        else:
            args.append(f"{flag}={value}")
    return args


def _model_file(model, work):
    """A path to the model: `model` itself, or a file written from bytes or
    an onnx.ModelProto."""
    if isinstance(model, (str, os.PathLike)):
        return Path(model)
    if hasattr(model, "SerializeToString"):
        model = model.SerializeToString()
    if isinstance(model, (bytes, bytearray, memoryview)):
        path = Path(work) / "model.onnx"
        path.write_bytes(model)
        return path
    raise TypeError("onnx_tosa.compile: model must be a path, bytes or an "
                    f"onnx.ModelProto, not {type(model).__name__}")


def compile(model, output=None, *, target="auto", progress=None, **options):
    """Compiles `model` (a path, bytes or onnx.ModelProto).

    Returns the artifact's bytes, or writes it to `output` and returns that
    Path. With emit="tosa" (or onnx, linalg, gpu, ptx, spirv) returns that
    stage's text instead. `progress(stage_line)` is called with each stage
    the compiler reports (also logged to the "onnx_tosa" logger at INFO).
    Raises CompileError with the compiler's message when it refuses.
    `target`: "auto" (this machine's CUDA GPU if it has one, else
    "vulkan"), "cuda" (this machine's CUDA GPU, else "cuda:sm_90a"),
    "cuda:sm_80" and the other chips of docs/targets.md, or "vulkan".
    """
    with tempfile.TemporaryDirectory(prefix="onnx-tosa-") as work:
        path = _model_file(model, work)
        emit = options.get("emit")
        dest = Path(output) if output is not None else Path(work) / "out"
        args = [str(_paths.tool(COMPILE)), str(path), f"--target={target}",
                "-o", str(dest), "--verbose", *_arguments(options, work)]
        _run(args, progress)
        if emit and emit != "artifact":
            return dest.read_text() if output is None else dest
        return dest.read_bytes() if output is None else dest


def _run(args, progress):
    """Runs the compiler, forwarding its stage lines as they come."""
    log.debug("running %s", " ".join(args))
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            errors="replace", stdin=subprocess.DEVNULL)
    errors, other = [], []
    prefix = COMPILE + ": "
    for line in proc.stderr:
        line = line.rstrip("\n")
        if line.startswith(prefix + "error: "):
            errors.append(line[len(prefix + "error: "):])
        elif line.startswith(prefix + "warning: "):
            log.warning("%s", line[len(prefix):])
        elif line.startswith(prefix):
            log.info("%s", line[len(prefix):])
            if progress:
                progress(line[len(prefix):])
        else:
            other.append(line)
    rc = proc.wait()
    if rc != 0:
        message = "\n".join(errors or other) or f"exit status {rc}"
        raise CompileError(message, "INVALID_ARGUMENT")


def _canonical(value):
    """`value` as JSON-able data that differs whenever the value does."""
    if isinstance(value, dict):
        return sorted([str(k), _canonical(v)] for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        items = [_canonical(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set) else items
    if isinstance(value, np.ndarray) or hasattr(value, "__array__"):
        a = np.ascontiguousarray(value)
        return [str(a.dtype), list(a.shape),
                hashlib.sha256(a.tobytes()).hexdigest()]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, os.PathLike):
        data = Path(value).read_bytes()
        return ["file", hashlib.sha256(data).hexdigest()]
    return repr(value)


def _external_data_files(path):
    """The files a model's external data lives in: those its tensors name
    (with the onnx package), else every file beside it but other models."""
    folder = path.resolve().parent
    try:
        import onnx
    except ImportError:
        return [f for f in sorted(folder.iterdir())
                if f.is_file() and f.suffix != ".onnx"]

    def tensors(graph):
        yield from graph.initializer
        for node in graph.node:
            for a in node.attribute:
                if a.HasField("t"):
                    yield a.t
                yield from a.tensors
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    yield from tensors(g)

    model = onnx.load(str(path), load_external_data=False)
    names = {entry.value for t in tensors(model.graph)
             if t.data_location == onnx.TensorProto.EXTERNAL
             for entry in t.external_data if entry.key == "location"}
    return [folder / name for name in sorted(names)]


def cache_key(model_path, target, options):
    """What a cached artifact depends on: the model's bytes (and the names,
    sizes and modification times of its external data files), the options
    and the compiler's version and commit."""
    h = hashlib.sha256()
    path = Path(model_path)
    h.update(path.read_bytes())
    for data in _external_data_files(path):
        if data.is_file():
            st = data.stat()
            h.update(f"{data.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    h.update(json.dumps([target, _canonical(options)]).encode())
    h.update(compiler_version().encode())
    return h.hexdigest()[:32]


def cache_dir():
    env = os.environ.get("ONNX_TOSA_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "onnx-tosa"


def compile_cached(model_path, target, options, progress=None):
    """The artifact for `model_path`, compiled once into the cache."""
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    tag = target.replace(":", "-")
    artifact = directory / f"{Path(model_path).stem}-{tag}-" \
        f"{cache_key(model_path, target, options)}.otsa"
    if artifact.is_file():
        log.info("using cached %s", artifact)
        return artifact
    tmp = artifact.with_suffix(f".{os.getpid()}.tmp")
    try:
        compile(model_path, tmp, target=target, progress=progress, **options)
        os.replace(tmp, artifact)
    finally:
        tmp.unlink(missing_ok=True)
    return artifact
