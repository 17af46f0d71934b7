#!/usr/bin/env python3
"""Two builds of onnx-tosa-compile on the same models, on one GPU machine.

Each model (ONNX files, and with --gemms one-op GEMMs or convolutions of
gemm_tilings.py's shapes, optionally followed by --epilogue ops) is
compiled by the old and the new compiler with the same flags and run with
the same random inputs; every kernel launch is timed alone
(onnx-tosa-run --profile: median of --reps by CUDA events or Vulkan
timestamps) and the table gives the sum of each, their ratio, the slowest
launch of each and how far the new outputs are from the old ones:

    python3 benchmarks/compare_compilers.py --old OLD_BIN --new NEW_BIN \\
        --runner BIN --out DIR [--target cuda] [--flags=--precision=fp16] \\
        [--gemms 1024x3072x768,32x64x56x56-64x3] [--epilogue bias_gelu] \\
        [--precision fp16] [MODEL.onnx ...]

A benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gemm_tilings  # noqa: E402

ROW_RE = re.compile(r"^\s+\d+\s+([\d.]+)\s+[\d.]+%\s+(\S+)\s+(\S+)", re.M)


def gemm_with_epilogue(path, shape, dtype, epilogue):
    """MatMul x[M, K] by W[K, N] (both inputs), plus a bias b[N], then with
    bias_gelu the erf GELU that exported BERT models have after it."""
    m, n, k = gemm_tilings.gemm_dims(shape)
    t = TensorProto.FLOAT16 if dtype == "fp16" else TensorProto.FLOAT
    np_t = np.float16 if dtype == "fp16" else np.float32
    last = "y" if epilogue == "bias" else "h"
    nodes = [helper.make_node("MatMul", ["x", "W"], ["mm"]),
             helper.make_node("Add", ["mm", "b"], [last])]
    inits = []
    if epilogue == "bias_gelu":
        for name, v in (("sqrt2", 2 ** 0.5), ("one", 1.0), ("half", 0.5)):
            inits.append(numpy_helper.from_array(np.array(v, np_t), name))
        nodes += [helper.make_node("Div", ["h", "sqrt2"], ["d"]),
                  helper.make_node("Erf", ["d"], ["e"]),
                  helper.make_node("Add", ["e", "one"], ["e1"]),
                  helper.make_node("Mul", ["h", "e1"], ["p"]),
                  helper.make_node("Mul", ["p", "half"], ["y"])]
    g = helper.make_graph(
        nodes, "gemm_epilogue",
        [helper.make_tensor_value_info("x", t, [m, k]),
         helper.make_tensor_value_info("W", t, [k, n]),
         helper.make_tensor_value_info("b", t, [n])],
        [helper.make_tensor_value_info("y", t, [m, n])], inits)
    mo = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    mo.ir_version = 8
    onnx.save(mo, path)


def run(cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, timeout=600)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the baseline compiler")
    ap.add_argument("--new", required=True, help="the compiler compared")
    ap.add_argument("--runner", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--target", choices=["cuda", "vulkan"], default="cuda")
    ap.add_argument("--flags", default="",
                    help="compiler flags of both builds (one string)")
    ap.add_argument("--gemms", default="",
                    help="gemm_tilings.py shapes: MxNxK or BxCxHxW-FxK[sS]")
    ap.add_argument("--precision", choices=["fp16", "fp32"], default="fp16",
                    help="element type of the --gemms models")
    ap.add_argument("--epilogue", choices=["none", "bias", "bias_gelu"],
                    default="none",
                    help="ops after each --gemms matmul (not convolutions)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("models", nargs="*", type=Path)
    a = ap.parse_args()
    work = a.out / "work"
    work.mkdir(parents=True, exist_ok=True)
    models = list(a.models)
    for shape in [s for s in a.gemms.split(",") if s]:
        path = work / f"{shape}_{a.precision}_{a.epilogue}.onnx"
        if a.epilogue == "none" or "-" in shape:
            gemm_tilings.model(path, shape, a.precision)
        else:
            gemm_with_epilogue(path, shape, a.precision, a.epilogue)
        models.append(path)

    rows, lines = [], ["| model | old ms | new ms | new / old | old slowest "
                       "launch (ms, grid, block) | new slowest launch | "
                       "max abs(new - old) / max abs(old) |",
                       "|---|---:|---:|---:|---|---|---:|"]
    for model in models:
        row = {"model": model.stem}
        outs = {}
        for tag, compiler in (("old", a.old), ("new", a.new)):
            art = work / f"{model.stem}.{tag}.otsa"
            p = run([compiler, model, f"--target={a.target}", "-o", art,
                     *shlex.split(a.flags)])
            if p.returncode != 0:
                row[tag] = {"error": p.stderr.strip()[-300:]}
                continue
            odir = work / f"{model.stem}.{tag}.out"
            p = run([a.runner, art, f"--device={a.target}", "--random-inputs",
                     f"--output-dir={odir}", "--quiet", f"--profile={a.reps}",
                     "--profile-rows=1"])
            m = gemm_tilings.PROFILE_RE.search(p.stdout)
            if p.returncode != 0 or not m:
                row[tag] = {"error": (p.stderr or p.stdout).strip()[-300:]}
                continue
            slowest = ROW_RE.search(p.stdout)
            row[tag] = {"launches": int(m.group(1)), "ms": float(m.group(2)),
                        "slowest": slowest.groups() if slowest else None}
            outs[tag] = {f.name: np.load(f).astype(np.float64)
                         for f in sorted(odir.glob("*.npy"))
                         if not f.name.startswith("input_")}
        if len(outs) == 2 and outs["old"].keys() == outs["new"].keys():
            diff = max(np.abs(outs["new"][k] - outs["old"][k]).max() /
                       max(np.abs(outs["old"][k]).max(), 1e-30)
                       for k in outs["old"])
            row["relative_difference"] = float(diff)
        rows.append(row)
        old, new = row.get("old", {}), row.get("new", {})
        if "ms" in old and "ms" in new:
            lines.append(
                f"| {model.stem} | {old['ms']:.4f} | {new['ms']:.4f} | "
                f"{new['ms'] / old['ms']:.3f} | {', '.join(old['slowest'])} | "
                f"{', '.join(new['slowest'])} | "
                f"{row.get('relative_difference', float('nan')):.3g} |")
        else:
            lines.append(f"| {model.stem} | {old.get('error', '')[:80]} | "
                         f"{new.get('error', '')[:80]} | | | | |")
        print(lines[-1], flush=True)
    (a.out / "compare_compilers.json").write_text(json.dumps(rows, indent=1))
    (a.out / "compare_compilers.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
