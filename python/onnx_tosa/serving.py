"""onnx-tosa models behind NVIDIA Triton Inference Server.

Triton serves (HTTP and gRPC endpoints, health and readiness, Prometheus
metrics, request validation, scheduling over model instances); PyTriton
(`nvidia-pytriton`, which bundles the server) runs our Python callables as
Triton models. Each model instance is one onnx_tosa.InferenceSession on its
device; instances on one device share the model's weights (the runtime
shares equal constants between sessions on a device).

Dynamic batching: a model whose batch is a symbolic dimension, compiled
for several of its values (--dim N=1,2,4,8: one program each), is served
with Triton's dynamic batcher. Triton gathers requests (each of any batch
up to the largest) into one execution; its batch is padded with zero rows
to the smallest compiled batch that holds it, run, and cut back. That is
right for models whose rows are computed independently of each other (what
batching assumes anywhere), which the user says by asking for it
(--dynamic-batching). Other models run each request at the artifact's own
shapes, one at a time per instance (instances run concurrently).

    onnx-tosa-serve model.onnx --device vulkan:0 --instances 2

or, gathering requests into batches of a model compiled for several:

    onnx-tosa-serve model.onnx --dynamic-batching \
        --compile-option dim=N=1,2,4,8

or from Python:

    from onnx_tosa import serving
    serving.serve({"mlp": "mlp.onnx"}, devices=["cuda:0", "cuda:1"])

Needs `pip install nvidia-pytriton` (see docs/serving.md).
"""
import argparse
import dataclasses
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import numpy as np

log = logging.getLogger("onnx_tosa.serving")


def _python_library_first():
    """Triton's Python backend stub loads libpython3.X.so by name; where
    the system's is another patch release than this interpreter's standard
    library (a pyenv Python on Debian, say), the stub fails inside the
    standard library. This interpreter's own library, put first on the
    search path that tritonserver inherits, is the one it loads."""
    libdir = sysconfig.get_config_var("LIBDIR")
    soname = sysconfig.get_config_var("INSTSONAME")
    if not libdir or not soname or not (Path(libdir) / soname).is_file():
        return
    paths = os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep)
    if libdir not in paths:
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
            [libdir] + [p for p in paths if p])


def _pytriton():
    try:
        from pytriton.model_config import ModelConfig, Tensor
        from pytriton.triton import Triton, TritonConfig
    except ImportError as e:
        raise ImportError(
            "onnx_tosa.serving needs PyTriton: pip install nvidia-pytriton "
            "(see docs/serving.md)") from e
    return ModelConfig, Tensor, Triton, TritonConfig


def _tensors(args, Tensor):
    """Triton's tensor specs of the session's inputs or outputs (-1 where
    the artifact's programs differ: None in their shapes)."""
    specs = []
    for a in args:
        if a.dtype is None:
            raise ValueError(f"{a.name}: {a.type} has no numpy type, which "
                             "Triton's Python models need")
        shape = tuple(-1 if d is None else d for d in a.shape)
        specs.append(Tensor(name=a.name, dtype=a.dtype, shape=shape))
    return specs


def _infer_function(session):
    """The callable of one model instance: each request's inputs through
    the session, all of its outputs back."""
    inputs = [a.name for a in session.get_inputs()]
    outputs = [a.name for a in session.get_outputs()]

    def infer(requests):
        responses = []
        for request in requests:
            feeds = {name: np.asarray(request[name]) for name in inputs}
            responses.append(dict(zip(outputs, session.run(outputs, feeds))))
        return responses

    return infer


def batch_sizes(session):
    """The batches the session's programs were compiled for (the values of
    the first dimension of every input and output, which is the only one
    that differs between them), sorted; [] when it has no such programs."""
    variants = session.shape_variants()
    args = session.get_inputs() + session.get_outputs()
    # (get_inputs and get_outputs give None where the programs differ.)
    if len(variants) < 2 or any(
            not a.shape or a.shape[0] is not None or None in a.shape[1:]
            for a in args):
        return []
    sizes = []
    for shapes in variants:
        firsts = {shape[0] for shape in shapes.values()}
        if len(firsts) != 1:
            return []
        sizes.append(firsts.pop())
    return sorted(set(sizes))


def _batched_infer_function(session, sizes):
    """The callable of one instance under Triton's dynamic batcher: the
    requests' rows concatenated, padded with zero rows to the smallest
    compiled batch that holds them, run, cut back and split."""
    inputs = [a.name for a in session.get_inputs()]
    outputs = [a.name for a in session.get_outputs()]

    def infer(requests):
        rows = [len(np.asarray(r[inputs[0]])) for r in requests]
        total = sum(rows)
        size = next(b for b in sizes if b >= total)
        feeds = {}
        for name in inputs:
            x = np.concatenate([np.asarray(r[name]) for r in requests])
            if size > total:
                pad = np.zeros((size - total,) + x.shape[1:], x.dtype)
                x = np.concatenate([x, pad])
            feeds[name] = x
        results = session.run(outputs, feeds)
        responses, start = [], 0
        for n in rows:
            responses.append({name: y[start:start + n]
                              for name, y in zip(outputs, results)})
            start += n
        return responses

    return infer


def open_sessions(name, model, devices=("auto",), instances=1,
                  compile_options=None, progress=None):
    """`instances` sessions of `model` (an .onnx, compiled once into the
    cache, or an .otsa artifact) on each of `devices`: the instances of
    model `name`."""
    from .session import InferenceSession
    sessions = []
    for device in devices:
        for _ in range(instances):
            sessions.append(InferenceSession(
                str(model), device=device, progress=progress,
                **(compile_options or {})))
            log.info("%s: instance %d on %s", name, len(sessions),
                     sessions[-1].device.id)
    return sessions


def bind(triton, name, model, devices=("auto",), instances=1,
         compile_options=None, progress=None, dynamic_batching=False,
         max_queue_delay_us=1000, sessions=None):
    """Adds model `name` to `triton` (a pytriton Triton): `instances`
    sessions of `model` on each of `devices` (open_sessions), or the given
    `sessions`. With `dynamic_batching`, Triton's batcher gathers requests
    for up to `max_queue_delay_us` into batches the artifact was compiled
    for (batch_sizes). Returns the sessions."""
    ModelConfig, Tensor, _, _ = _pytriton()
    from pytriton.model_config import DynamicBatcher
    if sessions is None:
        sessions = open_sessions(name, model, devices, instances,
                                 compile_options, progress)
    first = sessions[0]
    inputs = _tensors(first.get_inputs(), Tensor)
    outputs = _tensors(first.get_outputs(), Tensor)
    if dynamic_batching:
        sizes = batch_sizes(first)
        if not sizes:
            raise ValueError(
                f"{name}: dynamic batching needs programs for several "
                "batches, the first dimension of every input and output "
                f"(compile with --dim, e.g. dim=N=1,2,4,8); it has "
                f"{first.shape_variants()}")
        # Triton's tensors of a batched model leave the batch out.
        inputs, outputs = ([dataclasses.replace(t, shape=t.shape[1:])
                            for t in specs] for specs in (inputs, outputs))
        config = ModelConfig(
            max_batch_size=sizes[-1],
            batcher=DynamicBatcher(
                max_queue_delay_microseconds=max_queue_delay_us,
                preferred_batch_size=sizes))
        functions = [_batched_infer_function(s, sizes) for s in sessions]
        log.info("%s: dynamic batching up to %d (compiled for %s)", name,
                 sizes[-1], sizes)
    else:
        config = ModelConfig(batching=False)
        functions = [_infer_function(s) for s in sessions]
    triton.bind(model_name=name, infer_func=functions, inputs=inputs,
                outputs=outputs, config=config, strict=True)
    return sessions


# How often serve() starts Triton when an instance lost PyTriton's start-up
# race (_lost_handshake_race).
START_ATTEMPTS = 3


def _lost_handshake_race(error):
    """Whether Triton failed to load a model because an instance lost
    PyTriton's start-up race: Triton's Python backend starts a model's
    instances in parallel, the first one serves the model's configuration
    on a Unix socket and the others read it from there; one that comes
    before the first one listens (the socket file exists from bind() on,
    or not yet after 1 s on a busy machine) fails the whole model. Seen
    once in CI with 2 instances on 2 cores."""
    text = str(error)
    return "get_config_from_handshake_server" in text or (
        "config.sock" in text and ("Connection refused" in text
                                   or "Timeout" in text))


def serve(models, *, devices=("auto",), instances=1, http_port=8000,
          grpc_port=8001, metrics_port=8002, address="0.0.0.0",
          compile_options=None, dynamic_batching=False, ready=None):
    """Serves `models` ({name: .onnx or .otsa path}) until SIGINT or
    SIGTERM, then shuts Triton down. `ready()` is called once every model
    is loaded and the endpoints answer."""
    _python_library_first()
    _, _, Triton, TritonConfig = _pytriton()
    config = TritonConfig(http_address=address, http_port=http_port,
                          grpc_address=address, grpc_port=grpc_port,
                          metrics_port=metrics_port, exit_timeout_secs=5)
    sessions = {name: open_sessions(name, model, devices, instances,
                                    compile_options)
                for name, model in models.items()}
    stop = []
    for attempt in range(1, START_ATTEMPTS + 1):
        with Triton(config=config) as triton:
            try:
                for name, model in models.items():
                    bind(triton, name, model, sessions=sessions[name],
                         dynamic_batching=dynamic_batching)
                triton.run()
            except Exception as e:
                if attempt == START_ATTEMPTS or not _lost_handshake_race(e):
                    raise
                log.warning("Triton could not start the instances (an "
                            "instance asked for the configuration before "
                            "the first one served it); starting again "
                            "(%d of %d)", attempt + 1, START_ATTEMPTS)
                continue
            log.info("serving %s: HTTP %s:%d, gRPC %s:%d, metrics :%d",
                     ", ".join(models), address, http_port, address,
                     grpc_port, metrics_port)

            def on_signal(signum, _frame):
                log.info("signal %d: shutting down", signum)
                stop.append(signum)
                triton.stop()

            signal.signal(signal.SIGTERM, on_signal)
            signal.signal(signal.SIGINT, on_signal)
            if ready:
                ready()
            # (Returns once stop() was called.)
            triton.serve()
            return


def free_port():
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(model, *args, log_path, env=None, timeout=240):
    """Starts `onnx-tosa-serve MODEL ARGS` in a subprocess on free loopback
    ports and waits until it says it is ready (for tests and benchmarks).
    Returns (process, [http, grpc, metrics ports]); the server's log goes to
    `log_path`. Raises RuntimeError with the log's end if it does not come
    up within `timeout` seconds."""
    ports = [free_port() for _ in range(3)]
    log_path = Path(log_path)
    logfile = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "onnx_tosa.serving", str(model),
         "--address", "127.0.0.1", "--http-port", str(ports[0]),
         "--grpc-port", str(ports[1]), "--metrics-port", str(ports[2]),
         *map(str, args)],
        stdout=subprocess.PIPE, stderr=logfile, text=True, env=env)
    logfile.close()  # (the child has its own descriptor)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout],
                     daemon=True).start()
    deadline = time.monotonic() + timeout
    while True:
        try:
            if "ready" in lines.get(timeout=1):
                return proc, ports
        except queue.Empty:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("onnx-tosa-serve did not come up:\n"
                               + log_path.read_text()[-4000:])


def _compile_options(pairs):
    """KEY=VALUE (the compiler's option names, '-' or '_') as keyword
    arguments for onnx_tosa.compile."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"onnx-tosa-serve: bad --compile-option "
                             f"'{pair}' (expected KEY=VALUE, e.g. "
                             "precision=fp16)")
        options[key.replace("-", "_")] = value
    return options


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="onnx-tosa-serve",
        description="Serve an ONNX model (or an onnx-tosa artifact) with "
                    "NVIDIA Triton Inference Server: HTTP, gRPC, metrics")
    p.add_argument("model", help="model.onnx or model.otsa")
    p.add_argument("--name", help="the model's name on the server "
                                  "(default: the file's stem)")
    p.add_argument("--device", action="append",
                   help="a device for instances (repeatable: cuda:0, "
                        "cuda:1, vulkan:0; default: auto)")
    p.add_argument("--instances", type=int, default=1,
                   help="model instances per device (default 1)")
    p.add_argument("--address", default="0.0.0.0",
                   help="address the endpoints listen on (default 0.0.0.0)")
    p.add_argument("--http-port", type=int, default=8000)
    p.add_argument("--grpc-port", type=int, default=8001)
    p.add_argument("--metrics-port", type=int, default=8002)
    p.add_argument("--dynamic-batching", action="store_true",
                   help="Triton's dynamic batcher gathers requests into the "
                        "batches the model was compiled for (--dim on its "
                        "batch, e.g. --compile-option dim=N=1,2,4,8); its "
                        "rows must be computed independently")
    p.add_argument("--compile-option", action="append", default=[],
                   metavar="KEY=VALUE",
                   help="an onnx-tosa-compile option for an .onnx model "
                        "(repeatable: precision=fp16)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO,
                        format="onnx-tosa-serve: %(message)s")
    if args.instances < 1:
        p.error("--instances must be at least 1")
    model = Path(args.model)
    if not model.is_file():
        p.error(f"no such model file: {model}")
    name = args.name or model.name.split(".")[0]
    try:
        serve({name: model}, devices=args.device or ["auto"],
              instances=args.instances, http_port=args.http_port,
              grpc_port=args.grpc_port, metrics_port=args.metrics_port,
              address=args.address,
              compile_options=_compile_options(args.compile_option),
              dynamic_batching=args.dynamic_batching,
              ready=lambda: print("onnx-tosa-serve: ready", flush=True))
    except Exception as e:  # the server's and the compiler's errors alike
        print(f"onnx-tosa-serve: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
