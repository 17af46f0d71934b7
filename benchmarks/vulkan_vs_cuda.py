#!/usr/bin/env python3
"""Our Vulkan path against our CUDA path (fp32), on one GPU machine, in one run.

The five models of torch_comparison.py (built and exported the same way),
each compiled for vulkan with the baseline flags (default
--vulkan-gemm-tilings=false: the cuda target's GEMM tilings) and with the
default, and for cuda; every artifact run with the same inputs (median
"execute" and device times of 50 runs; each vulkan artifact first run until
the driver has optimized its kernels: vulkan_warm_up.py), its
output compared with the first configuration's, and per-kernel profiles
(--profile=10) of the default vulkan and the cuda artifacts written to OUT,
the vulkan ones with the driver's statistics of each kernel where it
reports them (ONNX_TOSA_VULKAN_PIPELINE_STATS=1). Needs torch, torchvision
and onnx, not the LLVM toolchain:

    python3 benchmarks/vulkan_vs_cuda.py --compiler BIN --runner BIN \\
        --out DIR [--models resnet50_b1,bert_b8] [--baseline-flags=FLAGS]

A benchmark, not a test: it asserts nothing about speed.
"""
import argparse
import concurrent.futures as cf
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_comparison as tc  # noqa: E402
from vulkan_warm_up import BENCH_RE, warm_up_vulkan  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--models", default=",".join(tc.MODELS))
    ap.add_argument("--baseline-flags", default="--vulkan-gemm-tilings=false",
                    help="compiler flags of the vulkan baseline (one string)")
    args = ap.parse_args()
    out = args.out
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    models = [m for m in args.models.split(",") if m]
    configs = {  # tag: (target, extra compiler flags)
        "vk-base": ("vulkan", shlex.split(args.baseline_flags)),
        "vk-new": ("vulkan", []),
        "cuda": ("cuda", []),
    }
    inputs = {}
    for name in models:
        kind, batch = tc.MODELS[name]
        model, xs, names = tc.build(kind, batch)
        tc.export(model, xs, names, work / f"{name}.onnx")
        flags = []
        for n, t in zip(names, xs):
            f = work / f"{name}.{n}.npy"
            np.save(f, t.numpy())
            flags += ["--input", f"{n}={f}"]
        inputs[name] = flags
        print("exported", name, flush=True)

    def compile_one(job):
        name, tag = job
        target, extra = configs[tag]
        p = subprocess.run([args.compiler, work / f"{name}.onnx",
                            f"--target={target}", "-o",
                            work / f"{name}.{tag}.otsa", *extra],
                           capture_output=True, text=True)
        return job, p.returncode, p.stderr[-300:]

    jobs = [(n, t) for n in models for t in configs]
    with cf.ThreadPoolExecutor(8) as ex:
        for job, rc, err in ex.map(compile_one, jobs):
            print("compiled", job, rc, err if rc else "", flush=True)

    results = {}
    for name in models:
        ref = None
        for tag, (target, _) in configs.items():
            art = work / f"{name}.{tag}.otsa"
            odir = work / f"{name}.{tag}.out"
            run = [args.runner, art,
                   f"--device={'cuda' if target == 'cuda' else 'vulkan'}",
                   *inputs[name], f"--output-dir={odir}", "--quiet"]
            warm = warm_up_vulkan(run) if target == "vulkan" else []
            p = subprocess.run(run + ["--benchmark=50"], capture_output=True,
                               text=True)
            m = BENCH_RE.search(p.stdout)
            r = {"execute_ms": float(m.group(3)) if m else None,
                 "device_ms": float(m.group(4)) if m and m.group(4) else None,
                 "err": None if m else (p.stderr or p.stdout)[-300:],
                 "warm_up_ms": warm}
            outputs = sorted(odir.glob("*.npy"))
            y = np.load(outputs[0]) if outputs else None
            if ref is None:
                ref = y
            elif y is not None:
                r["maxdiff_vs_first"] = float(
                    np.abs(y.astype(np.float64) - ref).max())
            results[f"{name}/{tag}"] = r
            print(name, tag, r, flush=True)
            if tag in ("vk-new", "cuda"):
                env = dict(os.environ, ONNX_TOSA_VULKAN_PIPELINE_STATS="1")
                p = subprocess.run(run + ["--profile=10"], capture_output=True,
                                   text=True, env=env)
                (out / f"{name}.{tag}.profile.txt").write_text(p.stdout +
                                                               p.stderr)
    (out / "vk_ab.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
