#!/usr/bin/env python3
"""Writes models the shape of the benchmark models' layers, for checking
that a change leaves the compiler's output alone (scripts/same-artifacts.sh):
a BERT-base encoder layer (attention, LayerNorm, GELU FFN; 768 wide, 12
heads, sequence 128) and a ResNet-50-like block (7x7 stride-2 stem, max pool,
3x3 and 1x1 convolutions, a residual add, global pool, a 1000-way matmul), at
batch 1 and 8, random weights from a fixed seed.

    make_layer_models.py OUTDIR   # OUTDIR/{bert,resnet}_b{1,8}.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

rng = np.random.default_rng(0)


def init(name, shape):
    values = rng.standard_normal(shape) * 0.05
    return nh.from_array(values.astype(np.float32), name)


def node(op, inputs, outputs, **attrs):
    return h.make_node(op, inputs, outputs, **attrs)


def bert(batch, seq=128, hid=768, heads=12, ffn=3072):
    d = hid // heads
    shapes = [("wq", (hid, hid)), ("wk", (hid, hid)), ("wv", (hid, hid)),
              ("wo", (hid, hid)), ("w1", (hid, ffn)), ("w2", (ffn, hid)),
              ("bq", (hid,)), ("b1", (ffn,)), ("g", (hid,)), ("be", (hid,))]
    inits = [init(n, s) for n, s in shapes]
    inits += [nh.from_array(np.array([batch, seq, heads, d], np.int64), "sh"),
              nh.from_array(np.array([batch, seq, hid], np.int64), "sh2"),
              nh.from_array(np.array(1 / np.sqrt(d), np.float32), "sc")]
    n = []
    for p, w in (("q", "wq"), ("k", "wk"), ("v", "wv")):
        perm = [0, 2, 3, 1] if p == "k" else [0, 2, 1, 3]
        n += [node("MatMul", ["x", w], [p + "0"]),
              node("Add", [p + "0", "bq"], [p + "1"]),
              node("Reshape", [p + "1", "sh"], [p + "2"]),
              node("Transpose", [p + "2"], [p + "3"], perm=perm)]
    n += [node("MatMul", ["q3", "k3"], ["s0"]),
          node("Mul", ["s0", "sc"], ["s1"]),
          node("Softmax", ["s1"], ["p"], axis=-1),
          node("MatMul", ["p", "v3"], ["c0"]),
          node("Transpose", ["c0"], ["c1"], perm=[0, 2, 1, 3]),
          node("Reshape", ["c1", "sh2"], ["c2"]),
          node("MatMul", ["c2", "wo"], ["o0"]),
          node("Add", ["o0", "x"], ["o1"]),
          node("LayerNormalization", ["o1", "g", "be"], ["o2"], axis=-1),
          node("MatMul", ["o2", "w1"], ["f0"]),
          node("Add", ["f0", "b1"], ["f1"]),
          node("Gelu", ["f1"], ["f2"]),
          node("MatMul", ["f2", "w2"], ["f3"]),
          node("Add", ["f3", "o2"], ["f4"]),
          node("LayerNormalization", ["f4", "g", "be"], ["y"], axis=-1)]
    g = h.make_graph(
        n, f"bert_b{batch}",
        [h.make_tensor_value_info("x", T.FLOAT, [batch, seq, hid])],
        [h.make_tensor_value_info("y", T.FLOAT, [batch, seq, hid])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 20)])


def resnet(batch):
    inits = [init("w0", (64, 3, 7, 7)), init("w1", (64, 64, 3, 3)),
             init("w2", (256, 64, 1, 1)), init("w3", (256, 64, 1, 1)),
             init("b", (64,)), init("b2", (256,)), init("fc", (256, 1000))]
    n = [node("Conv", ["x", "w0", "b"], ["a0"], strides=[2, 2],
              pads=[3, 3, 3, 3]),
         node("Relu", ["a0"], ["a1"]),
         node("MaxPool", ["a1"], ["a2"], kernel_shape=[3, 3],
              strides=[2, 2], pads=[1, 1, 1, 1]),
         node("Conv", ["a2", "w1", "b"], ["a3"], pads=[1, 1, 1, 1]),
         node("Relu", ["a3"], ["a4"]),
         node("Conv", ["a4", "w2", "b2"], ["a5"]),
         node("Conv", ["a2", "w3", "b2"], ["a6"]),
         node("Add", ["a5", "a6"], ["a7"]),
         node("Relu", ["a7"], ["a8"]),
         node("GlobalAveragePool", ["a8"], ["a9"]),
         node("Flatten", ["a9"], ["a10"]),
         node("MatMul", ["a10", "fc"], ["y"])]
    g = h.make_graph(
        n, f"resnet_b{batch}",
        [h.make_tensor_value_info("x", T.FLOAT, [batch, 3, 224, 224])],
        [h.make_tensor_value_info("y", T.FLOAT, [batch, 1000])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 20)])


def main(argv):
    out = argv[1] if len(argv) > 1 else "."
    for b in (1, 8):
        onnx.save(bert(b), f"{out}/bert_b{b}.onnx")
        onnx.save(resnet(b), f"{out}/resnet_b{b}.onnx")


if __name__ == "__main__":
    main(sys.argv)
