#!/usr/bin/env python3
"""Serving throughput and latency: onnx-tosa behind Triton Inference Server
against PyTorch behind the same server, on one GPU, in one run.

For each model it exports the ONNX model with PyTorch (the builders of
torch_comparison.py), starts `onnx-tosa-serve` (PyTriton; the model compiled
with --precision=fp16, `--instances` instances on the GPU), drives it with
Triton's gRPC client at each concurrency level (each client sends its next
request when its previous one is answered), stops it, then does the same
with the PyTorch model (fp16, eager, one instance per `--instances`) bound
to PyTriton in this process. Every response is checked against the first
one of its input (the same input every time per client), and requests are
counted: completed, failed.

Prints a table and writes JSON: throughput (requests/s), p50 and p99
latency (ms) per concurrency level and server. A benchmark, not a test: it
asserts nothing about speed.

    python3 benchmarks/serving.py --out DIR [--models resnet50_b1,bert_b1] \\
        [--concurrency 1,4,16,64] [--seconds 10] [--instances 2] \\
        [--device cuda:0] [--no-torch]

On a machine without PyTorch (--no-torch) `--models mlp` serves the e2e
tests' MLP from test/models, which is how this script is checked on a
machine without a GPU (--device vulkan). Needs nvidia-pytriton and
tritonclient[grpc] (scripts/requirements-serve.txt).
"""
import argparse
import json
import os
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "python"))
from onnx_tosa import serving  # noqa: E402


def model_and_inputs(name, work):
    """(onnx path, {input name: array}, torch module or None)."""
    if name == "mlp":
        sys.path.insert(0, str(REPO / "test" / "models"))
        import make_models
        import onnx
        path = make_models.write_models(work, ["mlp"])["mlp"]
        feeds = make_models.make_inputs(onnx.load(path),
                                        make_models.name_seed("mlp"))
        return path, feeds, None
    sys.path.insert(0, str(HERE))
    import torch_comparison as T
    kind, batch = T.MODELS[name]
    model, inputs, names = T.build(kind, batch)
    path = Path(work) / f"{name}.onnx"
    T.export(model, inputs, names, path)
    feeds = {n: t.numpy() for n, t in zip(names, inputs)}
    return path, feeds, model


def drive(port, model_name, feeds, concurrency, seconds):
    """`concurrency` gRPC clients for `seconds`; (latencies in ms, failed,
    wrong) where `wrong` counts responses that differ from the client's
    first one."""
    import tritonclient.grpc as grpc
    latencies, failed, wrong = [], [0], [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client():
        c = grpc.InferenceServerClient(f"127.0.0.1:{port}")
        inputs = []
        for name, x in feeds.items():
            i = grpc.InferInput(name, list(x.shape),
                                {np.dtype(np.float32): "FP32",
                                 np.dtype(np.int64): "INT64",
                                 np.dtype(np.float16): "FP16"}[x.dtype])
            i.set_data_from_numpy(x)
            inputs.append(i)
        first = None
        mine = []
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                r = c.infer(model_name, inputs)
            except Exception:  # counted, the load goes on
                with lock:
                    failed[0] += 1
                continue
            mine.append((time.perf_counter() - t0) * 1e3)
            out = r.as_numpy(r.get_response().outputs[0].name)
            if first is None:
                first = out
            elif not np.array_equal(out, first):
                with lock:
                    wrong[0] += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    return latencies, failed[0], wrong[0], elapsed


def summary(latencies, failed, wrong, elapsed):
    lat = sorted(latencies)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] if lat else None
    return {"requests": len(lat), "failed": failed, "wrong": wrong,
            "throughput": len(lat) / elapsed, "p50_ms": p(0.50),
            "p99_ms": p(0.99),
            "mean_ms": statistics.fmean(lat) if lat else None}


def serve_ours(path, device, instances, work):
    """onnx-tosa-serve in a subprocess, once ready; (process, grpc port)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO / "python")] + [p for p in [env.get("PYTHONPATH")] if p])
    args = ["--name", "model", "--device", device, "--instances",
            str(instances)]
    if device.startswith("cuda"):
        args += ["--compile-option", "precision=fp16"]
    proc, ports = serving.spawn(path, *args, env=env, timeout=900,
                                log_path=Path(work) / "onnx-tosa-serve.log")
    return proc, ports[1]


def serve_torch(model, feeds, device, instances):
    """The PyTorch model (fp16, eager) bound to PyTriton in this process;
    (triton, grpc port)."""
    import torch
    from pytriton.model_config import ModelConfig, Tensor
    from pytriton.triton import Triton, TritonConfig
    serving._python_library_first()
    module = model.to(device).half().eval()
    names = list(feeds)

    def infer(requests):
        out = []
        with torch.inference_mode():
            for r in requests:
                args = []
                for n in names:
                    t = torch.from_numpy(np.asarray(r[n])).to(device)
                    args.append(t.half() if t.is_floating_point() else t)
                y = module(*args)
                y = y[0] if isinstance(y, (tuple, list)) else y
                out.append({"output": y.float().cpu().numpy()})
        return out

    with torch.inference_mode():
        args = [torch.from_numpy(x).to(device) for x in feeds.values()]
        args = [a.half() if a.is_floating_point() else a for a in args]
        y = module(*args)
        y = y[0] if isinstance(y, (tuple, list)) else y
    port = serving.free_port()
    triton = Triton(config=TritonConfig(
        http_address="127.0.0.1", http_port=serving.free_port(),
        grpc_address="127.0.0.1", grpc_port=port,
        metrics_port=serving.free_port()))
    triton.bind(model_name="model", infer_func=[infer] * instances,
                inputs=[Tensor(name=n, dtype=x.dtype, shape=x.shape)
                        for n, x in feeds.items()],
                outputs=[Tensor(name="output", dtype=np.float32,
                                shape=tuple(y.shape))],
                config=ModelConfig(batching=False))
    triton.run()
    return triton, port


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--models", default="resnet50_b1,bert_b1")
    ap.add_argument("--concurrency", default="1,4,16,64")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--instances", type=int, default=2)
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--no-torch", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    levels = [int(c) for c in args.concurrency.split(",")]
    results = {"device": args.device, "instances": args.instances,
               "seconds": args.seconds, "models": {}}
    for name in args.models.split(","):
        work = out / name
        work.mkdir(exist_ok=True)
        path, feeds, model = model_and_inputs(name, work)
        r = results["models"][name] = {}
        proc, port = serve_ours(path, args.device, args.instances, work)
        try:
            drive(port, "model", feeds, 1, 2)  # warm-up
            r["onnx-tosa"] = {c: summary(*drive(port, "model", feeds, c,
                                               args.seconds))
                              for c in levels}
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
        if model is not None and not args.no_torch:
            triton, port = serve_torch(model, feeds, args.device,
                                       args.instances)
            try:
                drive(port, "model", feeds, 1, 2)
                r["pytorch-fp16"] = {c: summary(*drive(port, "model", feeds,
                                                       c, args.seconds))
                                     for c in levels}
            finally:
                triton.stop()
        for server, per in r.items():
            for c, s in per.items():
                print(f"{name:14} {server:13} c={c:3}  "
                      f"{s['throughput']:9.1f} req/s  p50 {s['p50_ms']:8.3f} "
                      f"ms  p99 {s['p99_ms']:8.3f} ms  failed {s['failed']} "
                      f"wrong {s['wrong']}", flush=True)
    (out / "serving.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
