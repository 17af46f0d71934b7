#!/usr/bin/env python3
"""Malformed models for the compiler: the e2e test models, each mutated at
the ONNX level (attribute values and types, node inputs, shapes and element
types, initializers that do not fit their dims, op types, opsets), compiled
with onnx-tosa-compile and, where that succeeds, run once on random inputs.
Every model must be compiled or refused with an error line; a signal, a
timeout or an error without a message is a failure, and the mutant is kept
under the output folder to reproduce it.

  mutate_models.py --count 150 --seed 1      # what scripts/test.sh runs
  mutate_models.py --count 5000 --seed 7     # a long run, on demand

Mutants are random but reproducible: mutant i of a seed is always the same
model.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx
from onnx import TensorProto, helper

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "test" / "models"))
import make_models  # noqa: E402

OPS = ["Add", "Relu", "Conv", "MatMul", "Gemm", "Reshape", "Transpose",
       "Concat", "Slice", "Gather", "Softmax", "ReduceSum", "MaxPool",
       "BatchNormalization", "Resize", "Pad", "Split", "NonZero", "Unique",
       "TopK", "Where", "Expand", "Tile", "Cast", "LSTM", "Loop", "If",
       "Einsum", "CumSum", "ScatterND", "Compress", "Mod", "Frobnicate"]
ELEM_TYPES = [TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32,
              TensorProto.UINT8, TensorProto.BOOL, TensorProto.FLOAT16,
              TensorProto.DOUBLE, TensorProto.STRING, TensorProto.BFLOAT16,
              TensorProto.INT4, 0, 99]
ODD_INTS = [0, 1, -1, 2, 3, -7, 255, 2**31 - 1, -2**31, 2**40, 10**12]
ODD_FLOATS = [0.0, -1.0, 1e-30, 1e30, float("nan"), float("inf"), -0.0]


def odd_int(rng):
    return rng.choice(ODD_INTS)


def mutate_attribute(rng, node):
    if not node.attribute:
        node.attribute.append(helper.make_attribute(
            rng.choice(["axis", "perm", "mode", "alpha", "bogus"]),
            rng.choice([odd_int(rng), [odd_int(rng)], "x", 0.5])))
        return "added an attribute"
    a = rng.choice(node.attribute)
    kind = rng.randrange(4)
    name = a.name
    if kind == 0:  # another type
        value = rng.choice([odd_int(rng), rng.choice(ODD_FLOATS), "nope",
                            [odd_int(rng), odd_int(rng)], [0.5, 2.0]])
        node.attribute.remove(a)
        node.attribute.append(helper.make_attribute(name, value))
        return f"attribute {name} retyped"
    if a.type == onnx.AttributeProto.INT:
        a.i = odd_int(rng)
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = rng.choice(ODD_FLOATS)
    elif a.type == onnx.AttributeProto.INTS:
        n = rng.choice([0, 1, len(a.ints), len(a.ints) + 3])
        del a.ints[:]
        a.ints.extend(odd_int(rng) for _ in range(n))
    elif a.type == onnx.AttributeProto.STRING:
        a.s = rng.choice([b"", b"nonsense", b"\xff\xfe", b"NOTSET" * 50])
    elif a.type == onnx.AttributeProto.GRAPH:
        del a.g.node[:]
    else:
        node.attribute.remove(a)
        return f"attribute {name} dropped"
    return f"attribute {name} changed"


def names_in(graph):
    names = [i.name for i in graph.input] + [i.name for i in graph.initializer]
    for n in graph.node:
        names.extend(n.output)
    return [n for n in names if n]


def mutate(rng, model):
    g = model.graph
    choice = rng.randrange(9)
    if choice <= 2 and g.node:
        return mutate_attribute(rng, rng.choice(g.node))
    if choice == 3 and g.node:
        node = rng.choice(g.node)
        if node.input and rng.random() < 0.5:
            del node.input[rng.randrange(len(node.input))]
            return f"node {node.op_type}: input dropped"
        node.input.append(rng.choice(names_in(g) + ["", "undefined_name"]))
        return f"node {node.op_type}: input added"
    if choice == 4 and g.input:
        vi = rng.choice(g.input)
        dims = vi.type.tensor_type.shape.dim
        if dims and rng.random() < 0.7:
            d = rng.choice(dims)
            value = rng.choice([0, 1, 3, -5, 2**31, 10**9])
            d.ClearField("dim_param")
            d.dim_value = value if value >= 0 else 0
            if value < 0:
                d.dim_param = "N"
            return f"input {vi.name}: dimension changed"
        vi.type.tensor_type.elem_type = rng.choice(ELEM_TYPES)
        return f"input {vi.name}: element type changed"
    if choice == 5 and g.initializer:
        t = rng.choice(g.initializer)
        if t.dims and rng.random() < 0.5:
            t.dims[rng.randrange(len(t.dims))] = rng.choice([0, 1, 7, 2**33])
            return f"initializer {t.name}: dims changed"
        if t.raw_data:
            t.raw_data = t.raw_data[:rng.randrange(len(t.raw_data) + 1)]
            return f"initializer {t.name}: data truncated"
        t.data_type = rng.choice(ELEM_TYPES)
        return f"initializer {t.name}: type changed"
    if choice == 6 and g.node:
        node = rng.choice(g.node)
        old = node.op_type
        node.op_type = rng.choice(OPS)
        return f"op {old} -> {node.op_type}"
    if choice == 7:
        model.opset_import[0].version = rng.choice([1, 6, 9, 12, 27, 28, 29,
                                                    99])
        return f"opset {model.opset_import[0].version}"
    if g.output:
        vi = rng.choice(g.output)
        vi.type.tensor_type.elem_type = rng.choice(ELEM_TYPES)
        return f"output {vi.name}: element type changed"
    return "unchanged"


def seeds():
    """(name, ModelProto) of every e2e test model."""
    out = []
    for name in sorted(make_models.MODELS):
        try:
            out.append((name, make_models.MODELS[name]()))
        except Exception:  # a generator that needs what is not here
            continue
    return out


def run(args, timeout):
    """(returncode or None on timeout, stderr)."""
    try:
        p = subprocess.run([str(a) for a in args], capture_output=True,
                           text=True, errors="replace", timeout=timeout,
                           stdin=subprocess.DEVNULL)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, ""


def judge(rc, err, tool):
    """Why a tool's exit is a failure, or None."""
    if rc is None:
        return f"{tool} timed out"
    if rc < 0:
        return f"{tool} killed by {signal.Signals(-rc).name}"
    if rc not in (0, 1):
        return f"{tool} exited {rc}"
    if rc == 1 and f"{tool}: error:" not in err:
        return f"{tool} failed without an error line"
    if "internal error" in err.lower() and "cannot" not in err.lower():
        return f"{tool} reported an internal error"
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=150)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mutations", type=int, default=2,
                   help="mutations per model, at most (default 2)")
    p.add_argument("--bin-dir", type=Path, default=REPO / "build" / "bin")
    p.add_argument("--out", type=Path, default=REPO / "build-fuzz" / "models")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--run-every", type=int, default=5,
                   help="run every N-th mutant that compiles (default 5)")
    args = p.parse_args()
    compiler = args.bin_dir / "onnx-tosa-compile"
    runner = args.bin_dir / "onnx-tosa-run"
    args.out.mkdir(parents=True, exist_ok=True)
    base = seeds()
    failures, compiled, refused, ran = [], 0, 0, 0
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # Copies of the tools: a rebuild during a long run does not touch
        # them.
        for tool in (compiler, runner):
            shutil.copy2(tool, tmp / tool.name)
        compiler, runner = tmp / compiler.name, tmp / runner.name
        for i in range(args.count):
            rng = random.Random(f"{args.seed}:{i}")
            name, proto = base[rng.randrange(len(base))]
            model = onnx.ModelProto()
            model.CopyFrom(proto)
            what = [mutate(rng, model)
                    for _ in range(rng.randint(1, args.mutations))]
            path = tmp / f"m{i}.onnx"
            path.write_bytes(model.SerializeToString())
            artifact = tmp / f"m{i}.otsa"
            rc, err = run([compiler, path, "--target=vulkan", "-o", artifact],
                          args.timeout)
            why = judge(rc, err, "onnx-tosa-compile")
            if not why and rc == 0:
                compiled += 1
                if compiled % args.run_every == 0:
                    ran += 1
                    rc2, err2 = run([runner, artifact, "--random-inputs",
                                     f"--output-dir={tmp}", "--quiet"],
                                    args.timeout)
                    why = judge(rc2, err2, "onnx-tosa-run")
                    err = err2 if why else err
            elif not why:
                refused += 1
            if why:
                keep = args.out / f"seed{args.seed}-{i}-{name}.onnx"
                keep.write_bytes(model.SerializeToString())
                failures.append((i, name, what, why, keep,
                                 err.strip().splitlines()[-3:]))
            for f in (path, artifact):
                if f.exists():
                    f.unlink()
    print(f"mutate_models: {args.count} mutants of {len(base)} models "
          f"(seed {args.seed}) in {time.time() - start:.0f} s: "
          f"{compiled} compiled ({ran} of them run), {refused} refused "
          f"with a message, {len(failures)} failures")
    for i, name, what, why, keep, tail in failures:
        print(f"  mutant {i} of {name} ({'; '.join(what)}): {why}\n"
              f"    kept as {os.path.relpath(keep)}")
        for line in tail:
            print(f"    | {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
