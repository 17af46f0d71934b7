#!/usr/bin/env python3
"""Launches that overlap the kernel before them, or not: an A/B on one GPU.

onnx-tosa's CUDA kernels for sm_90 and later wait for the kernels before
them themselves, and the runtime launches them as programmatic dependent
launches in its CUDA graph (ONNX_TOSA_CUDA_OVERLAP=0: plain launches). This
runs each CUDA artifact that torch_comparison.py left in its work directory
(OUT/work: MODEL.TAG.otsa and the model's MODEL.INPUT.npy) both ways,
alternating, and prints the median "execute" time of each and the ratio.

    python3 benchmarks/launch_overlap.py --runner BIN --work OUT/work \
        [--rounds 3] [--runs 200] [--tag cuda_fp16]

A benchmark, not a test: it asserts nothing about speed.
"""
import argparse
import os
import statistics
import subprocess
from pathlib import Path

from vulkan_warm_up import BENCH_RE


def execute_ms(runner, artifact, inputs, runs, overlap, out_dir):
    env = dict(os.environ, ONNX_TOSA_CUDA_OVERLAP="1" if overlap else "0")
    p = subprocess.run([runner, str(artifact), "--device=cuda", *inputs,
                        f"--output-dir={out_dir}", "--quiet",
                        f"--benchmark={runs}"],
                       capture_output=True, text=True, env=env)
    m = BENCH_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        raise SystemExit(f"{artifact.name}: {(p.stderr or p.stdout)[-300:]}")
    return float(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--tag", default="cuda_fp16")
    args = ap.parse_args()
    out_dir = args.work / "launch_overlap.out"
    print("| model | serial ms | overlapped ms | overlapped / serial |")
    print("|---|---:|---:|---:|")
    for artifact in sorted(args.work.glob(f"*.{args.tag}.otsa")):
        model = artifact.name.split(".")[0]
        inputs = []
        for f in sorted(args.work.glob(f"{model}.*.npy")):
            inputs += ["--input", f"{f.name[len(model) + 1:-4]}={f}"]
        times = {False: [], True: []}
        for _ in range(args.rounds):
            for overlap in (False, True):
                times[overlap].append(execute_ms(
                    args.runner, artifact, inputs, args.runs, overlap,
                    out_dir))
        serial = statistics.median(times[False])
        overlapped = statistics.median(times[True])
        print(f"| {model} | {serial:.3f} | {overlapped:.3f} | "
              f"{overlapped / serial:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
