#!/usr/bin/env python3
"""Tiling sweep for the tiled GEMM kernels, on the GPU machine.

For each GEMM shape (the matmuls of BERT-base at batch 1 and 8, and a
square one; with --convs also convolutions, as implicit GEMMs, whose
times include the NCHW/NHWC transposes around them, the same in every
configuration) and precision, compiles a one-op model with the compiler's
own tiling and with each tiling the kernel accepts
(onnx-tosa-compile --gemm-tiling=UMxUNxPMxPN[sS]), each as the compiler
would build it, with one copy of the tiles in workgroup memory
(--gemm-stages=1, loads one K step ahead), and, where two copies fit, with
two and the loads 1 to 4 K steps ahead (--gemm-prefetch; both through
registers: --gemm-async-copies=none), and with --async-copies also on
tensor cores with the tiles copied by cp.async into 2 to 4 copies
(--gemm-async-copies=all --gemm-stages=S), and with --warpgroup the
warpgroup-MMA kernel's tilings (--gemm-tiling=wgMxN[sS], 3 or 4 copies of
the tiles; the WMMA configurations then with --warpgroup-mma=false, so
that they are what they say; with --warpgroup-prefetch also fewer steps
ahead than the copies allow, products left running); and times the
kernels of each (onnx-tosa-run --profile: every launch alone, median, by
CUDA events or Vulkan timestamps; a split K is two launches; on Vulkan
after warm-up runs: vulkan_warm_up.py). It prints,
per shape, the compiler's choice, the fastest configuration and their
times: the data the choices in pipelines/tosa-to-gpu/TensorCores.cpp are
set from.

    python3 benchmarks/gemm_tilings.py --compiler BIN --runner BIN --out DIR
        [--shapes 1024x768x768,...] [--convs resnet50_b32|BxCxHxW-FxK[sS],...]
        [--precisions fp32,fp16]
        [--tilings all|default|UMxUNxPMxPN[sS],...] [--target cuda|vulkan]
        [--async-copies]
        [--warpgroup [--warpgroup-tilings 128x256,...] [--warpgroup-prefetch]]

This is a benchmark, not a test: it asserts nothing.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from vulkan_warm_up import warm_up_vulkan

# M x N x K: BERT-base s128 b8 (QKV, attention output, FFN up, FFN down),
# the same at b1, and a square one.
SHAPES = ["1024x2304x768", "1024x768x768", "1024x3072x768", "1024x768x3072",
          "128x2304x768", "128x768x768", "128x3072x768", "128x768x3072",
          "4096x4096x4096"]
# Units (threads on CUDA cores, warps on tensor cores) and units' 4x4
# groups or 16x16 fragments, as in TensorCores.cpp.
SIMT = ["16x16x2x2", "8x16x2x2", "16x8x2x2", "8x8x2x2", "16x16x1x1",
        "8x16x1x1", "8x8x1x1", "4x8x1x1"]
WMMA = ["4x2x2x4", "4x2x2x2", "2x2x2x2", "2x2x1x2", "2x2x1x1", "2x2x2x4",
        "2x4x2x2"]
SLICES = [1, 2, 3, 4]
# Warpgroup MMA (sm_90a, fp16): rows x columns of the tile (a warpgroup
# per 64 rows; up to 256 columns, wgmma's widest).
WARPGROUP = ["256x128", "128x256", "128x192", "128x128", "64x256", "64x192",
             "64x128", "128x64", "64x64"]
PROFILE_RE = re.compile(r"profile: (\d+) launches, each alone \(median of "
                        r"\d+\), sum ([\d.]+) ms")
GRID_RE = re.compile(r"^\s+\d+\s+[\d.]+\s+[\d.]+%\s+(\S+)\s+(\S+)", re.M)


# Convolutions, as BxCxHxW-FxK[sS] (batch, channels, height, width; F
# filters of KxK, padding K // 2, stride S): ResNet-50's at batch 32, one
# of each kind per stage (the 7x7 stem, 1x1 reductions, 3x3s, 1x1
# expansions, strided 1x1 downsamplings).
RESNET50_B32 = [
    "32x3x224x224-64x7s2",
    "32x64x56x56-64x1", "32x64x56x56-64x3", "32x64x56x56-256x1",
    "32x256x56x56-64x1",
    "32x256x56x56-128x1", "32x128x56x56-128x3s2", "32x128x28x28-512x1",
    "32x256x56x56-512x1s2",
    "32x512x28x28-256x1", "32x256x28x28-256x3s2", "32x256x14x14-1024x1",
    "32x512x28x28-1024x1s2",
    "32x1024x14x14-512x1", "32x512x14x14-512x3s2", "32x512x7x7-2048x1",
    "32x1024x14x14-2048x1s2",
]


def conv_spec(shape):
    """(B, C, H, W, F, K, S) of a convolution shape."""
    x, _, f = shape.partition("-")
    b, c, h, w = map(int, x.split("x"))
    f, _, kernel = f.partition("x")
    kernel, _, stride = kernel.partition("s")
    return b, c, h, w, int(f), int(kernel), int(stride or 1)


def gemm_dims(shape):
    """M, N, K of a shape: MxNxK, or the implicit GEMM of a convolution
    (rows = output pixels, K = filter height x width x channels)."""
    if "-" not in shape:
        return tuple(map(int, shape.split("x")))
    b, c, h, w, f, kernel, stride = conv_spec(shape)
    pad = kernel // 2
    oh = (h + 2 * pad - kernel) // stride + 1
    ow = (w + 2 * pad - kernel) // stride + 1
    return b * oh * ow, f, c * kernel * kernel


def model(path, shape, dtype):
    """A one-op model of `shape`: MatMul, or Conv with a constant filter
    (weights are constants in real models, and the compiler lays them out
    at compile time)."""
    t = TensorProto.FLOAT16 if dtype == "fp16" else TensorProto.FLOAT
    if "-" not in shape:
        m, n, k = gemm_dims(shape)
        g = helper.make_graph(
            [helper.make_node("MatMul", ["a", "b"], ["c"])], "gemm",
            [helper.make_tensor_value_info("a", t, [m, k]),
             helper.make_tensor_value_info("b", t, [k, n])],
            [helper.make_tensor_value_info("c", t, [m, n])])
    else:
        b, c, h, w, f, kernel, stride = conv_spec(shape)
        rng = np.random.default_rng(0)
        weight = (rng.standard_normal((f, c, kernel, kernel)) /
                  np.sqrt(c * kernel * kernel))
        weight = weight.astype(np.float16 if dtype == "fp16" else np.float32)
        pad = kernel // 2
        m, _, _ = gemm_dims(shape)
        g = helper.make_graph(
            [helper.make_node("Conv", ["x", "w"], ["y"],
                              kernel_shape=[kernel, kernel],
                              pads=[pad] * 4, strides=[stride] * 2)], "conv",
            [helper.make_tensor_value_info("x", t, [b, c, h, w])],
            [helper.make_tensor_value_info("y", t, None)],
            [onnx.numpy_helper.from_array(weight, "w")])
    mo = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    mo.ir_version = 8
    onnx.save(mo, path)


def valid(tiling, m, n, k, dtype):
    """Mirrors parseTiling's checks, so that only tilings the compiler
    applies are timed."""
    shape, _, s = tiling.partition("s")
    um, un, pm, pn = map(int, shape.split("x"))
    slices = int(s or 1)
    simt = dtype == "fp32"
    unit = 4 if simt else 16
    threads = um * un * (1 if simt else 32)
    vec = 4 if simt else 8
    steps = -(-k // 32)
    tm, tn = um * pm * unit, un * pn * unit
    return (threads <= 1024 and threads % 32 == 0 and steps % slices == 0
            and (slices == 1 or steps // slices >= 8)
            and (tm * 32 // vec) % threads == 0
            and (tn * 32 // vec) % threads == 0
            and tm <= 2 * m and tn <= 2 * n)


def fits(tiling, dtype, stages):
    """Whether the kernel's workgroup memory with `stages` copies of the
    tiles fits in 48 KiB, C staged as for an epilogue (TensorCores.cpp's
    workgroupBytes and stagedRows; the compiler checks the same before it
    takes a forced tiling)."""
    um, un, pm, pn = map(int, tiling.partition("s")[0].split("x"))
    simt = dtype == "fp32"
    unit, vec, size = (4, 4, 4) if simt else (16, 8, 2)
    tm, tn = um * pm * unit, un * pn * unit
    a = 32 * (tm + vec) if simt else tm * (32 + vec)
    total = stages * (a + 32 * (tn + vec)) * size
    if not simt:
        rows = tm if tm <= 64 and tn <= 64 else 16 if stages > 1 else pm * 16
        total += rows * (tn + 4) * 4
    return total <= 48 * 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--compiler", required=True)
    p.add_argument("--runner", required=True)
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--shapes", default=",".join(SHAPES))
    p.add_argument("--convs", default="",
                   help="also these convolutions, BxCxHxW-FxK[sS] (see "
                   "RESNET50_B32), or resnet50_b32 for that list; "
                   "--shapes= leaves the matmuls out")
    p.add_argument("--precisions", default="fp32,fp16")
    p.add_argument("--target", choices=["cuda", "vulkan"], default="cuda",
                   help="vulkan: the CUDA-core kernel as SPIR-V (fp32 only; "
                   "fp16 GEMMs are not tiled there)")
    p.add_argument("--tilings", default="all",
                   help="all (every tiling of the kernel; only the "
                   "compiler's own for shapes over 2^32 multiply-adds), "
                   "default (only the compiler's own) or a list")
    p.add_argument("--async-copies", action="store_true",
                   help="also each fp16 configuration with two stages, its "
                   "tiles copied asynchronously into 2, 3 and 4 copies")
    p.add_argument("--warpgroup", action="store_true",
                   help="also each fp16 shape on the warpgroup-MMA kernel "
                   "with each of its tilings, K split into 1 to 4 slices, "
                   "3 or 4 copies of the tiles")
    p.add_argument("--warpgroup-tilings", default=",".join(WARPGROUP),
                   help="with --warpgroup, the tiles (rows x columns) swept")
    p.add_argument("--warpgroup-prefetch", action="store_true",
                   help="with --warpgroup, also each unsplit warpgroup "
                   "tiling with its tiles copied fewer steps ahead "
                   "(--gemm-prefetch) than the copies allow, the others "
                   "holding the tiles of products left running")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    a = p.parse_args()
    convs = RESNET50_B32 if a.convs == "resnet50_b32" else [
        c for c in a.convs.split(",") if c]
    shapes = [x for x in a.shapes.split(",") if x] + convs
    warpgroup = [t for t in a.warpgroup_tilings.split(",") if t]
    device = "cuda" if a.target == "cuda" else "vulkan"
    if a.target == "vulkan" and "fp16" in a.precisions.split(","):
        p.error("--target=vulkan sweeps fp32 only (--precisions fp32)")
    a.out.mkdir(parents=True, exist_ok=True)
    work = a.out / "work"
    work.mkdir(exist_ok=True)

    # (shape, dtype, tiling or "" for the default, stages, prefetch, async)
    configs = []
    # (stages, prefetch); prefetch 0: the compiler's own.
    variants = [(2, 0), (1, 1), (2, 1), (2, 2), (2, 3), (2, 4)]
    for shape in shapes:
        m, n, k = gemm_dims(shape)
        for dtype in a.precisions.split(","):
            configs += [(shape, dtype, "", s, p, False) for s, p in variants]
            if a.async_copies and dtype == "fp16":
                configs += [(shape, dtype, "", s, 0, True) for s in (2, 3, 4)]
            if a.warpgroup and dtype == "fp16":
                steps = -(-k // 64)
                configs += [(shape, dtype, f"wg{t}" + (f"s{s}" if s > 1 else ""),
                             stages, 0, False)
                            for t in warpgroup for s in SLICES
                            if steps % s == 0 and steps // s >= 2
                            for stages in (3, 4)]
                if a.warpgroup_prefetch:
                    # Fewer steps ahead than the default stages - 1: the
                    # other copies for products left running.
                    configs += [(shape, dtype, f"wg{t}", stages, p, False)
                                for t in warpgroup for stages in (3, 4)
                                for p in range(1, stages - 1)]
            if a.tilings == "default":
                continue
            if a.tilings == "all":
                if m * n * k > 1 << 32:  # large: only the compiler's choice
                    continue
                tilings = [base + (f"s{s}" if s > 1 else "")
                           for base in (SIMT if dtype == "fp32" else WMMA)
                           for s in SLICES]
            else:
                tilings = a.tilings.split(",")
            for t in tilings:
                if not valid(t, m, n, k, dtype) or not (
                        fits(t, dtype, 1) or fits(t, dtype, 2)):
                    continue
                configs.append((shape, dtype, t, 2, 0, False))
                if fits(t, dtype, 1):
                    configs.append((shape, dtype, t, 1, 1, False))
                if "s" not in t and fits(t, dtype, 2):
                    configs += [(shape, dtype, t, 2, p, False)
                                for p in (1, 2, 3)]
                if a.async_copies and dtype == "fp16":
                    configs += [(shape, dtype, t, s, 0, True)
                                for s in (2, 3, 4)]

    def compile_one(cfg):
        shape, dtype, tiling, stages, prefetch, async_ = cfg
        onnx_path = work / f"gemm_{shape}_{dtype}.onnx"
        art = (work / f"gemm_{shape}_{dtype}_{tiling or 'default'}_{stages}"
               f"_{prefetch}{'_async' if async_ else ''}.otsa")
        cmd = [a.compiler, str(onnx_path), f"--target={a.target}", "-o",
               str(art)]
        if tiling.startswith("wg"):
            cmd += [f"--gemm-tiling={tiling}", f"--gemm-stages={stages}"]
            if prefetch:
                cmd.append(f"--gemm-prefetch={prefetch}")
        elif stages != 2 or prefetch or tiling or async_:
            # The compiler's choice (two stages, its own prefetch) alone is
            # left to the compiler; the others say how tiles are loaded, on
            # the WMMA kernel.
            cmd += [f"--gemm-stages={stages}", "--warpgroup-mma=false",
                    "--gemm-async-copies=" + ("all" if async_ else "none")]
            if prefetch:
                cmd.append(f"--gemm-prefetch={prefetch}")
            if tiling:
                cmd.append(f"--gemm-tiling={tiling}")
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        return art if r.returncode == 0 else r.stderr.strip()[-200:]

    # Models first, one thread (several writers of one file would race).
    for shape in shapes:
        for dtype in a.precisions.split(","):
            model(work / f"gemm_{shape}_{dtype}.onnx", shape, dtype)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        arts = list(pool.map(compile_one, configs))

    results = []
    partial = (a.out / "gemm_tilings.jsonl").open("w")
    for (shape, dtype, tiling, stages, prefetch, async_), art in zip(configs,
                                                                     arts):
        row = {"shape": shape, "precision": dtype,
               "tiling": tiling or "default", "stages": stages,
               "prefetch": prefetch, "async": async_}
        if isinstance(art, str):
            row["error"] = art
        else:
            run = [a.runner, str(art), f"--device={device}",
                   "--random-inputs", f"--output-dir={work}", "--quiet"]
            if device == "vulkan":
                row["warm_up_ms"] = warm_up_vulkan(run, runs=50, most=4)
            r = subprocess.run(run + ["--profile=5"],
                               capture_output=True, text=True, timeout=300)
            pm = PROFILE_RE.search(r.stdout)
            if r.returncode != 0 or not pm:
                row["error"] = (r.stderr or r.stdout).strip()[-200:]
            else:
                row["launches"] = int(pm.group(1))
                row["ms"] = float(pm.group(2))
                row["grids"] = [g for g, _ in GRID_RE.findall(r.stdout)]
                row["blocks"] = [b for _, b in GRID_RE.findall(r.stdout)]
        results.append(row)
        print(json.dumps(row), file=partial, flush=True)

    (a.out / "gemm_tilings.json").write_text(json.dumps(results, indent=1))
    lines = ["| shape MxNxK | precision | compiler's choice ms | its grid | "
             "1 stage ms | 2 stages, prefetch 1 / 2 / 3 / 4 ms | async "
             "copies, at most 2 / 3 / 4 stages ms | best tiling "
             "(stages, prefetch or async) | best ms | choice / best |",
             "|---|---|---:|---|---:|---:|---:|---|---:|---:|"]
    for shape in shapes:
        for dtype in a.precisions.split(","):
            rows = [r for r in results if r["shape"] == shape and
                    r["precision"] == dtype and "ms" in r]
            def pick(stages, prefetch, async_=False):
                return next((r for r in rows if r["tiling"] == "default" and
                             r["stages"] == stages and
                             r.get("async", False) == async_ and
                             r.get("prefetch", 1) == prefetch), None)
            default = pick(2, 0)
            if not rows or not default:
                continue
            best = min(rows, key=lambda r: r["ms"])
            one = pick(1, 1)
            ahead = " / ".join(f"{r['ms']:.4f}" if r else "-" for r in
                               (pick(2, 1), pick(2, 2), pick(2, 3),
                                pick(2, 4)))
            copies = " / ".join(f"{r['ms']:.4f}" if r else "-" for r in
                                (pick(s, 0, True) for s in (2, 3, 4)))
            lines.append(
                f"| {shape} | {dtype} | {default['ms']:.4f} | "
                f"{' + '.join(default['grids'])} | "
                f"{one['ms'] if one else float('nan'):.4f} | "
                f"{ahead} | {copies} | "
                f"{best['tiling']} ({best['stages']}, "
                f"{'async' if best.get('async') else best.get('prefetch', 1)})"
                f" | {best['ms']:.4f} | "
                f"{default['ms'] / best['ms']:.2f}x |")
    if a.warpgroup:
        lines += ["", "| shape MxNxK | compiler's choice ms | its grid | "
                  "best warpgroup tiling (copies, steps ahead) | its grid "
                  "| ms | "
                  "choice / best |", "|---|---:|---|---|---|---:|---:|"]
        for shape in shapes:
            rows = [r for r in results if r["shape"] == shape and
                    r["precision"] == "fp16" and "ms" in r]
            default = next((r for r in rows if r["tiling"] == "default" and
                            r["stages"] == 2 and r["prefetch"] == 0 and
                            not r["async"]), None)
            wg = [r for r in rows if r["tiling"].startswith("wg")]
            if not default or not wg:
                continue
            best = min(wg, key=lambda r: r["ms"])
            lines.append(
                f"| {shape} | {default['ms']:.4f} | "
                f"{' + '.join(default['grids'])} | {best['tiling']} "
                f"({best['stages']}, "
                f"{best['prefetch'] or best['stages'] - 1}) | "
                f"{' + '.join(best['grids'])} | "
                f"{best['ms']:.4f} | {default['ms'] / best['ms']:.2f}x |")
    table = "\n".join(lines) + "\n"
    (a.out / "gemm_tilings.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
