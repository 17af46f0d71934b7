#!/usr/bin/env python3
"""What the Python API adds to each run, against onnx-tosa-run's C++ loop.

For one artifact on one device, in one process: N runs of
`InferenceSession.run` (numpy in, numpy out) and N of `run_with_iobinding`
(the session's own device buffers: nothing through the host), each call's
wall time taken apart from the runtime's own measure of it
(`last_run_timing`: copies and kernels), so that the difference is what
Python, ctypes and the C API entry add. Then `onnx-tosa-run --benchmark=N`
on the same artifact for the C++ figures.

    python3 benchmarks/python_overhead.py ARTIFACT --device cuda:0 \\
        [--runs 2000] [--runner build/bin/onnx-tosa-run] [--json OUT.json]

A benchmark, not a test: it asserts nothing about speed. The goal of the SDK
issue is under 10 us added per call with IO binding, on the GPU machine.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
import onnx_tosa  # noqa: E402
from vulkan_warm_up import BENCH_RE  # noqa: E402


def timed(call, session, runs):
    """(median wall us, median runtime us, median wall - runtime us)."""
    wall, inside = [], []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        wall.append((time.perf_counter() - start) * 1e6)
        t = session.last_run_timing()
        inside.append((t["upload_ms"] + t["execute_ms"] + t["download_ms"])
                      * 1e3)
    added = [w - i for w, i in zip(wall, inside)]
    return (statistics.median(wall), statistics.median(inside),
            statistics.median(added))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("artifact", type=Path)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--runner", type=Path,
                    default=REPO / "build" / "bin" / "onnx-tosa-run")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    sess = onnx_tosa.InferenceSession(args.artifact, device=args.device)
    rng = np.random.default_rng(0)
    feeds = {a.name: rng.uniform(-1, 1, a.shape).astype(a.dtype)
             for a in sess.get_inputs()}
    binding = sess.io_binding()
    for name, value in feeds.items():
        binding.bind_input(name, value)
    for out in sess.get_outputs():
        binding.bind_output(out.name)
    for _ in range(20):  # warm-up
        sess.run(None, feeds)
        sess.run_with_iobinding(binding)

    # The C call alone, as run_with_iobinding makes it: what is left of
    # "added" is the C API's own bookkeeping, not Python's.
    inputs, outputs = binding._prepared()
    lib, handle = onnx_tosa._capi.lib(), sess._handle

    def raw():
        status = lib.ot_session_run_tensors(handle, inputs, len(inputs),
                                            outputs, len(outputs))
        onnx_tosa._capi.check(status)

    rows = {
        "run (numpy in and out)": timed(lambda: sess.run(None, feeds), sess,
                                        args.runs),
        "run_with_iobinding": timed(lambda: sess.run_with_iobinding(binding),
                                    sess, args.runs),
        "ot_session_run_tensors through ctypes": timed(raw, sess, args.runs),
    }
    with tempfile.TemporaryDirectory() as out_dir:
        proc = subprocess.run(
            [str(args.runner), str(args.artifact), f"--device={args.device}",
             "--random-inputs", "--quiet", f"--benchmark={args.runs}",
             f"--output-dir={out_dir}"], capture_output=True, text=True)
    m = BENCH_RE.search(proc.stdout)
    cpp = (float(m.group(1)) * 1e3, float(m.group(3)) * 1e3) if m else None

    print(f"device: {sess.device.id} ({sess.device.name}); "
          f"{args.runs} runs each; {onnx_tosa.runtime_version()}")
    print("| call | median us | runtime's own us | added us |")
    print("|---|---:|---:|---:|")
    for name, (wall, inside, added) in rows.items():
        print(f"| {name} | {wall:.1f} | {inside:.1f} | {added:.1f} |")
    if cpp:
        print(f"| onnx-tosa-run --benchmark (C++) | {cpp[0]:.1f} | "
              f"{cpp[1]:.1f} (execute) | |")
    else:
        print(f"onnx-tosa-run --benchmark failed: {proc.stderr[-300:]}")
    if args.json:
        args.json.write_text(json.dumps({
            "device": sess.device.id, "device_name": sess.device.name,
            "runs": args.runs, "version": onnx_tosa.runtime_version(),
            "python": {k: dict(zip(("median_us", "runtime_us", "added_us"),
                                   v)) for k, v in rows.items()},
            "cpp": cpp and {"median_us": cpp[0], "execute_us": cpp[1]}},
            indent=2))


if __name__ == "__main__":
    main()
