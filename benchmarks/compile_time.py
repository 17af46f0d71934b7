#!/usr/bin/env python3
"""How long onnx-tosa-compile takes on a BERT-base-shaped model, per stage.

Builds a 12-layer encoder of BERT-base's shapes with onnx alone (no torch:
hidden 768, 12 heads, FFN 3072, erf GELU, LayerNormalization; separate Q, K
and V projections; random weights, seed 0; batch and sequence as given),
compiles it with each compiler given (--target, --precision) and prints the
wall time and the time of each stage that --verbose reports, and whether
the compilers' artifacts are identical:

    python3 benchmarks/compile_time.py --compiler NEW_BIN [--compiler OLD_BIN]
        [--target cuda] [--precision fp16] [--batch 8] [--seq 128] [--out DIR]

A benchmark, not a test: it asserts nothing.
"""
import argparse
import filecmp
import re
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HIDDEN, HEADS, FFN, LAYERS = 768, 12, 3072, 12
STAGE_RE = re.compile(r"onnx-tosa-compile: (\S+) done in (\d+) ms")


def bert_encoder(path, batch, seq):
    rng = np.random.default_rng(0)
    d = HIDDEN // HEADS
    nodes, inits = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(name, shape):
        return const(name, (rng.standard_normal(shape) * 0.02)
                     .astype(np.float32))

    def node(op, inputs, output, **attrs):
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def linear(x, name, n_in, n_out):
        y = node("MatMul", [x, weight(name + "_w", (n_in, n_out))],
                 name + "_mm")
        return node("Add", [y, weight(name + "_b", (n_out,))], name)

    def layer_norm(x, name):
        return node("LayerNormalization",
                    [x, const(name + "_g", np.ones(HIDDEN, np.float32)),
                     const(name + "_b", np.zeros(HIDDEN, np.float32))],
                    name, axis=-1, epsilon=1e-12)

    const("heads", np.array([batch, seq, HEADS, d], np.int64))
    const("flat", np.array([batch, seq, HIDDEN], np.int64))
    const("scale", np.array(1 / np.sqrt(d), np.float32))
    const("sqrt2", np.array(np.sqrt(2), np.float32))
    const("one", np.array(1, np.float32))
    const("half", np.array(0.5, np.float32))
    x = "x"
    for i in range(LAYERS):
        p = f"l{i}_"

        def split(t, perm):
            r = node("Reshape", [t, "heads"], t + "_r")
            return node("Transpose", [r], t + "_h", perm=perm)

        q = split(linear(x, p + "q", HIDDEN, HIDDEN), [0, 2, 1, 3])
        k = split(linear(x, p + "k", HIDDEN, HIDDEN), [0, 2, 3, 1])
        v = split(linear(x, p + "v", HIDDEN, HIDDEN), [0, 2, 1, 3])
        s = node("Mul", [node("MatMul", [q, k], p + "qk"), "scale"], p + "s")
        a = node("Softmax", [s], p + "a", axis=-1)
        c = node("Transpose", [node("MatMul", [a, v], p + "av")], p + "c",
                 perm=[0, 2, 1, 3])
        c = node("Reshape", [c, "flat"], p + "ctx")
        h = layer_norm(node("Add", [linear(c, p + "o", HIDDEN, HIDDEN), x],
                            p + "r1"), p + "ln1")
        f = linear(h, p + "up", HIDDEN, FFN)
        erf = node("Erf", [node("Div", [f, "sqrt2"], p + "fd")], p + "fe")
        g = node("Mul", [node("Mul", [f, node("Add", [erf, "one"], p + "fe1")],
                              p + "fg"), "half"], p + "gelu")
        x = layer_norm(node("Add", [linear(g, p + "down", FFN, HIDDEN), h],
                            p + "r2"), p + "ln2")
    graph = helper.make_graph(
        nodes, "bert_encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [batch, seq, HIDDEN])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiler", action="append", required=True,
                    help="a compiler to time (repeatable)")
    ap.add_argument("--target", choices=["cuda", "vulkan"], default="cuda")
    ap.add_argument("--precision", default="fp16")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    out = a.out or Path(tempfile.mkdtemp(prefix="compile_time."))
    out.mkdir(parents=True, exist_ok=True)
    model = out / f"bert_encoder_b{a.batch}_s{a.seq}.onnx"
    bert_encoder(model, a.batch, a.seq)
    artifacts = []
    for i, compiler in enumerate(a.compiler):
        art = out / f"compiler{i}.otsa"
        start = time.monotonic()
        p = subprocess.run([compiler, model, f"--target={a.target}",
                            f"--precision={a.precision}", "--verbose",
                            "-o", art], capture_output=True, text=True)
        wall = time.monotonic() - start
        if p.returncode != 0:
            print(f"{compiler}: failed\n{p.stderr[-500:]}")
            continue
        stages = ", ".join(f"{s} {int(ms) / 1000:.2f} s"
                           for s, ms in STAGE_RE.findall(p.stderr))
        print(f"{compiler}: {wall:.1f} s ({stages})")
        artifacts.append(art)
    if len(artifacts) > 1:
        same = all(filecmp.cmp(artifacts[0], x, shallow=False)
                   for x in artifacts[1:])
        print("artifacts identical" if same else "artifacts differ")


if __name__ == "__main__":
    main()
