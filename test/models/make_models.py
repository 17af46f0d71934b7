#!/usr/bin/env python3
"""Generate the ONNX models of the end-to-end tests.

    make_models.py OUTDIR [--only NAME...]

Writes OUTDIR/<name>.onnx for every model in MODELS (or only the named ones).
Every model is opset 17 in the default domain (one Softmax model imports
opset 13 on purpose), fp32, with a name on every node, static shapes on every
graph input and output, and passes onnx.checker.check_model(full_check=True).
Weights come from a numpy generator seeded from the model's name, so the files
are byte-for-byte the same on every run. Reference outputs are not written:
the tests run onnxruntime on the same inputs instead.

Built with onnx.helper only, so that no machine needs a training framework.
"""
import argparse
import os
import sys
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def name_seed(name):
    """A stable 32-bit seed derived from a name (Python's hash() is salted)."""
    return zlib.crc32(name.encode("utf-8"))


class Graph:
    """Collects the nodes, initializers and inputs of one model."""

    def __init__(self, name):
        self.name = name
        self.rng = np.random.default_rng(name_seed(name))
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self._count = {}

    def input(self, name, shape):
        self.inputs.append(
            helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        return name

    def const(self, name, array):
        """An initializer holding exactly `array`."""
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(self, name, shape, scale=None, low=-1.0, high=1.0):
        """A random fp32 initializer, scaled by 1/sqrt(fan-in) by default so
        that activations stay of order one through the deeper models."""
        if scale is None:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
            scale = 1.0 / np.sqrt(fan_in)
        data = self.rng.uniform(low, high, size=shape) * scale
        return self.const(name, data.astype(np.float32))

    def node(self, op, inputs, outputs=None, name=None, domain="", **attrs):
        """Add a node; returns its single output name (or the list of them)."""
        if name is None:
            i = self._count.get(op, 0)
            self._count[op] = i + 1
            name = f"{op.lower()}_{i}"
        if outputs is None:
            outputs = [f"{name}_out"]
        self.nodes.append(helper.make_node(op, inputs, outputs, name=name,
                                           domain=domain, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def output(self, *names):
        self.outputs.extend(names)

    def model(self, opset=OPSET, extra_opsets=(), check=True):
        """Build the ModelProto, giving each graph output its inferred type."""
        opsets = [helper.make_opsetid("", opset)]
        opsets += [helper.make_opsetid(d, v) for d, v in extra_opsets]
        graph = helper.make_graph(
            self.nodes, self.name, self.inputs,
            [helper.make_empty_tensor_value_info(n) for n in self.outputs],
            initializer=self.inits)
        model = helper.make_model(
            graph, opset_imports=opsets, producer_name="onnx-tosa-tests",
            ir_version=helper.find_min_ir_version_for(opsets,
                                                      ignore_unknown=True))
        if not check:
            return model
        inferred = onnx.shape_inference.infer_shapes(
            model, check_type=True, strict_mode=True)
        types = {vi.name: vi.type for vi in inferred.graph.output}
        for out in model.graph.output:
            out.type.CopyFrom(types[out.name])
            dims = out.type.tensor_type.shape.dim
            if not all(d.HasField("dim_value") for d in dims):
                raise ValueError(f"{self.name}: output {out.name} has no "
                                 "static shape")
        onnx.checker.check_model(model, full_check=True)
        return model


def single(name, op, inputs, attrs=None, inits=None, **kw):
    """A one-node model. `inputs` lists (name, shape) graph inputs; `inits`
    lists (name, array-or-shape) initializers that follow them as operands.
    A shape makes a random weight; an array is used as is."""
    g = Graph(name)
    operands = [g.input(n, s) for n, s in inputs]
    for n, v in inits or []:
        if isinstance(v, (tuple, list)) and all(isinstance(d, int) for d in v):
            operands.append(g.weight(n, list(v), scale=1.0))
        else:
            operands.append(g.const(n, v))
    y = g.node(op, operands, outputs=["y"], name=f"{op.lower()}_node",
               **(attrs or {}))
    g.output(y)
    return g.model(**kw)


# --------------------------------------------------------------------------
# The three small networks.

def build_mlp(name="mlp"):
    g = Graph(name)
    x = g.input("x", [4, 64])
    h = g.node("Gemm", [x, g.weight("W1", [128, 64]), g.weight("b1", [128])],
               name="fc1", transB=1)
    h = g.node("Relu", [h], name="relu1")
    # MatMul weights are [K, N]: the fan-in is the first dimension.
    w2 = g.weight("W2", [128, 32], scale=1 / np.sqrt(128))
    h = g.node("MatMul", [h, w2], name="fc2_matmul")
    h = g.node("Add", [h, g.weight("b2", [32])], name="fc2_bias")
    h = g.node("Sigmoid", [h], name="sigmoid2")
    h = g.node("Gemm", [h, g.weight("W3", [32, 10], scale=1 / np.sqrt(32)),
                        g.weight("b3", [10])],
               name="fc3", alpha=0.5, beta=2.0)
    g.output(g.node("Softmax", [h], outputs=["y"], name="softmax", axis=-1))
    return g.model()


def build_split_k_same_size(name="split_k_same_size"):
    """A 4-row matmul whose K is split over blocks: the partial products'
    buffer (4 x 128 x 16) is as large as the weight's (64 x 128). NVIDIA's
    Vulkan driver once saw none of the kernel's own accumulating stores when
    the two buffers shared a SPIR-V type (each now has its own); the same
    shapes are in `mlp`, this model has nothing else."""
    g = Graph(name)
    x = g.input("x", [4, 64])
    w = g.weight("W", [64, 128], scale=1 / np.sqrt(64))
    g.output(g.node("MatMul", [x, w], outputs=["y"], name="matmul"))
    return g.model()


def build_lenet(name="lenet"):
    g = Graph(name)
    x = g.input("x", [2, 1, 28, 28])
    h = g.node("Conv", [x, g.weight("conv1_w", [6, 1, 5, 5]),
                        g.weight("conv1_b", [6])],
               name="conv1", kernel_shape=[5, 5], pads=[2, 2, 2, 2])
    h = g.node("Relu", [h], name="relu1")
    h = g.node("MaxPool", [h], name="pool1", kernel_shape=[2, 2],
               strides=[2, 2])
    h = g.node("Conv", [h, g.weight("conv2_w", [16, 6, 5, 5]),
                        g.weight("conv2_b", [16])],
               name="conv2", kernel_shape=[5, 5])
    h = g.node("Tanh", [h], name="tanh2")
    h = g.node("AveragePool", [h], name="pool2", kernel_shape=[2, 2],
               strides=[2, 2])
    h = g.node("Flatten", [h], name="flatten", axis=1)
    for i, (n_in, n_out) in enumerate([(400, 120), (120, 84), (84, 10)]):
        h = g.node("Gemm", [h, g.weight(f"fc{i + 1}_w", [n_out, n_in]),
                            g.weight(f"fc{i + 1}_b", [n_out])],
                   outputs=["y"] if i == 2 else None,
                   name=f"fc{i + 1}", transB=1)
        if i < 2:
            h = g.node("Relu", [h], name=f"fc{i + 1}_relu")
    g.output(h)
    return g.model()


def build_cnn_misc(name="cnn_misc"):
    g = Graph(name)
    x = g.input("x", [1, 8, 16, 16])
    bn = g.node("BatchNormalization",
                [x, g.weight("bn_scale", [8], scale=1.0, low=0.5, high=1.5),
                 g.weight("bn_bias", [8], scale=1.0),
                 g.weight("bn_mean", [8], scale=0.5),
                 g.weight("bn_var", [8], scale=1.0, low=0.25, high=2.0)],
                name="bn", epsilon=1e-3)
    h = g.node("Conv", [bn, g.weight("gconv_w", [8, 4, 3, 3]),
                        g.weight("gconv_b", [8])],
               name="gconv", group=2, strides=[2, 2], dilations=[2, 2],
               pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    h = g.node("Relu", [h], name="relu")
    h = g.node("Conv", [h, g.weight("same_w", [4, 8, 3, 3]),
                        g.weight("same_b", [4])],
               name="same_conv", auto_pad="SAME_UPPER", kernel_shape=[3, 3])
    h = g.node("GlobalAveragePool", [h], name="gap")
    shape = g.const("flat_shape", np.array([1, -1], dtype=np.int64))
    g.output(g.node("Reshape", [h, shape], outputs=["y"], name="reshape"))
    t = g.node("Transpose", [bn], name="to_nhwc", perm=[0, 2, 3, 1])
    c = g.node("Concat", [t, t], name="concat", axis=3)
    g.output(g.node("Identity", [c], outputs=["z"], name="identity"))
    return g.model()


def build_conv_transpose_3d(name="conv_transpose_3d"):
    """3-D transposed convolutions (spread input, flipped kernel, conv3d):
    stride 2 with pads and output_padding and a bias; two groups with a
    dilated kernel and uneven strides."""
    g = Graph(name)
    x = g.input("x", [2, 4, 3, 4, 5])
    g.output(g.node("ConvTranspose",
                    [x, g.weight("w1", [4, 3, 3, 3, 2]), g.weight("b1", [3])],
                    outputs=["y"], name="up", strides=[2, 2, 2],
                    pads=[1, 0, 1, 0, 1, 0], output_padding=[1, 0, 1]))
    g.output(g.node("ConvTranspose", [x, g.weight("w2", [4, 2, 2, 3, 2])],
                    outputs=["z"], name="grouped", group=2,
                    dilations=[2, 1, 2], strides=[1, 3, 2]))
    return g.model()


# --------------------------------------------------------------------------
# One-op models: op_<op>_<variant>.

def _binary_models():
    """Add/Sub/Mul/Div, each with the same variants. Inputs are drawn from
    [-1, 1), so Div's divisor is near but (for the fixed seeds) never at 0;
    the relative error of a division does not grow near zero."""
    variants = {
        "same": ([("a", [2, 3, 4]), ("b", [2, 3, 4])], []),
        "bcast_1d": ([("a", [2, 3, 4]), ("b", [4])], []),
        "bcast_2way": ([("a", [2, 1, 4]), ("b", [3, 1])], []),
        "init_rhs_scalar": ([("a", [2, 3, 4])],
                            [("c", np.array(0.75, dtype=np.float32))]),
    }
    out = {}
    for op in ["Add", "Sub", "Mul", "Div"]:
        for var, (inputs, inits) in variants.items():
            name = f"op_{op.lower()}_{var}"
            out[name] = (lambda n=name, o=op, i=inputs, c=inits:
                         single(n, o, i, inits=c))
        # Operand order matters for Sub and Div: a constant on the left.
        name = f"op_{op.lower()}_init_lhs"
        out[name] = lambda n=name, o=op: _init_lhs(n, o)
    return out


def _init_lhs(name, op):
    g = Graph(name)
    c = g.const("c", np.linspace(-2.0, 2.0, 4, dtype=np.float32) + 0.1)
    g.output(g.node(op, [c, g.input("a", [2, 3, 4])], outputs=["y"],
                    name=f"{op.lower()}_node"))
    return g.model()


def _unary_models():
    return {f"op_{op.lower()}_basic":
            (lambda n=f"op_{op.lower()}_basic", o=op:
             single(n, o, [("x", [2, 3, 4])]))
            for op in ["Relu", "Sigmoid", "Tanh", "Identity"]}


def _constant_model(name, value_attr):
    g = Graph(name)
    c = g.node("Constant", [], name="const_node", **value_attr)
    g.output(g.node("Add", [g.input("x", [2, 3, 4]), c], outputs=["y"],
                    name="add_node"))
    return g.model()


def _softmax_model(name, axis, opset=OPSET):
    return single(name, "Softmax", [("x", [2, 3, 4])], {"axis": axis},
                  opset=opset)


# (name suffix, op, graph inputs, initializers, attributes). Initializers
# given as a shape are random weights; an optional input is left out by
# not listing it.
X4 = [("x", [1, 3, 8, 8])]
TABLE = [
    # MatMul
    ("matmul_2d", "MatMul", [("a", [3, 4]), ("b", [4, 5])], [], {}),
    ("matmul_weight", "MatMul", [("a", [3, 4])], [("w", (4, 5))], {}),
    ("matmul_batched_bcast", "MatMul", [("a", [2, 3, 4]), ("b", [4, 5])],
     [], {}),
    ("matmul_batched", "MatMul", [("a", [2, 3, 4]), ("b", [2, 4, 5])], [], {}),
    ("matmul_batch1_bcast", "MatMul", [("a", [1, 3, 4]), ("b", [2, 4, 5])],
     [], {}),
    # Gemm: Y = alpha * A' * B' + beta * C
    ("gemm_basic", "Gemm", [("a", [3, 4])], [("w", (4, 5)), ("c", (5,))], {}),
    ("gemm_transA", "Gemm", [("a", [4, 3])], [("w", (4, 5)), ("c", (3, 5))],
     {"transA": 1}),
    ("gemm_transB", "Gemm", [("a", [3, 4])], [("w", (5, 4)), ("c", (1, 5))],
     {"transB": 1}),
    ("gemm_transAB_alpha_beta", "Gemm", [("a", [4, 3])],
     [("w", (5, 4)), ("c", (3, 1))],
     {"transA": 1, "transB": 1, "alpha": 0.25, "beta": -1.5}),
    ("gemm_no_c", "Gemm", [("a", [3, 4])], [("w", (4, 5))], {"alpha": 2.0}),
    ("gemm_c_scalar", "Gemm", [("a", [3, 4])], [("w", (4, 5)), ("c", (1,))],
     {"beta": 0.5}),
    ("gemm_all_inputs", "Gemm", [("a", [3, 4]), ("b", [4, 5]), ("c", [3, 5])],
     [], {}),
    # Conv
    ("conv_basic", "Conv", X4, [("w", (4, 3, 3, 3)), ("b", (4,))],
     {"kernel_shape": [3, 3]}),
    ("conv_pads_strides", "Conv", X4, [("w", (4, 3, 3, 3)), ("b", (4,))],
     {"pads": [1, 2, 2, 0], "strides": [2, 1]}),
    ("conv_dilations", "Conv", X4, [("w", (2, 3, 3, 3)), ("b", (2,))],
     {"dilations": [2, 2], "pads": [2, 2, 2, 2]}),
    ("conv_groups", "Conv", [("x", [1, 4, 8, 8])],
     [("w", (6, 2, 3, 3)), ("b", (6,))], {"group": 2, "pads": [1, 1, 1, 1]}),
    ("conv_depthwise", "Conv", [("x", [2, 4, 6, 6])],
     [("w", (4, 1, 3, 3)), ("b", (4,))], {"group": 4}),
    ("conv_same_upper", "Conv", X4, [("w", (4, 3, 3, 3)), ("b", (4,))],
     {"auto_pad": "SAME_UPPER", "strides": [2, 2]}),
    ("conv_same_lower", "Conv", X4, [("w", (4, 3, 3, 3)), ("b", (4,))],
     {"auto_pad": "SAME_LOWER", "strides": [2, 2]}),
    ("conv_valid", "Conv", [("x", [1, 3, 9, 9])],
     [("w", (4, 3, 3, 3)), ("b", (4,))],
     {"auto_pad": "VALID", "strides": [2, 2]}),
    ("conv_no_bias", "Conv", [("x", [2, 3, 7, 6])], [("w", (5, 3, 2, 3))], {}),
    ("conv_1x1", "Conv", [("x", [2, 6, 5, 5])],
     [("w", (3, 6, 1, 1)), ("b", (3,))], {}),
    # MaxPool
    ("maxpool_basic", "MaxPool", [("x", [1, 2, 8, 8])], [],
     {"kernel_shape": [2, 2], "strides": [2, 2]}),
    ("maxpool_pads_strides", "MaxPool", [("x", [1, 2, 7, 7])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ("maxpool_overlap_rect", "MaxPool", [("x", [2, 2, 6, 7])], [],
     {"kernel_shape": [3, 2]}),
    ("maxpool_same_upper", "MaxPool", [("x", [1, 2, 8, 8])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}),
    ("maxpool_same_lower", "MaxPool", [("x", [1, 2, 8, 8])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    # AveragePool
    ("averagepool_basic", "AveragePool", [("x", [1, 2, 8, 8])], [],
     {"kernel_shape": [2, 2], "strides": [2, 2]}),
    ("averagepool_pads_include", "AveragePool", [("x", [1, 2, 7, 7])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
      "count_include_pad": 1}),
    ("averagepool_pads_exclude", "AveragePool", [("x", [1, 2, 7, 7])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
      "count_include_pad": 0}),
    ("averagepool_same_upper", "AveragePool", [("x", [1, 2, 8, 8])], [],
     {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}),
    ("averagepool_same_lower_include", "AveragePool", [("x", [1, 2, 8, 8])],
     [], {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER",
          "count_include_pad": 1}),
    # Normalization and pooling to a point
    ("globalaveragepool_basic", "GlobalAveragePool", [("x", [2, 3, 5, 5])],
     [], {}),
    ("batchnormalization_4d", "BatchNormalization", [("x", [2, 3, 4, 4])],
     [("scale", np.array([0.5, 1.0, 1.5], np.float32)),
      ("bias", np.array([0.1, -0.2, 0.3], np.float32)),
      ("mean", np.array([0.05, -0.1, 0.2], np.float32)),
      ("var", np.array([0.5, 1.25, 2.0], np.float32))],
     {"epsilon": 1e-3}),
    ("batchnormalization_2d", "BatchNormalization", [("x", [4, 5])],
     [("scale", np.linspace(0.5, 1.5, 5, dtype=np.float32)),
      ("bias", np.linspace(-0.5, 0.5, 5, dtype=np.float32)),
      ("mean", np.linspace(0.2, -0.2, 5, dtype=np.float32)),
      ("var", np.linspace(0.3, 1.8, 5, dtype=np.float32))], {}),
    # Shape manipulation
    ("reshape_zero_neg1", "Reshape", [("x", [2, 3, 4])],
     [("shape", np.array([0, -1], np.int64))], {}),
    ("reshape_neg1_first", "Reshape", [("x", [2, 3, 4])],
     [("shape", np.array([-1, 6], np.int64))], {}),
    ("reshape_zero_split", "Reshape", [("x", [2, 3, 4])],
     [("shape", np.array([0, 0, 2, -1], np.int64))], {}),
    ("flatten_axis0", "Flatten", [("x", [2, 3, 4])], [], {"axis": 0}),
    ("flatten_axis1", "Flatten", [("x", [2, 3, 4])], [], {"axis": 1}),
    ("flatten_axis2", "Flatten", [("x", [2, 3, 4])], [], {"axis": 2}),
    ("flatten_axis_neg1", "Flatten", [("x", [2, 3, 4])], [], {"axis": -1}),
    ("transpose_default", "Transpose", [("x", [2, 3, 4])], [], {}),
    ("transpose_3d", "Transpose", [("x", [2, 3, 4])], [], {"perm": [2, 0, 1]}),
    ("transpose_nchw_nhwc", "Transpose", [("x", [1, 2, 3, 4])], [],
     {"perm": [0, 2, 3, 1]}),
    ("concat_axis_neg1", "Concat", [("a", [2, 3, 4]), ("b", [2, 3, 2])], [],
     {"axis": -1}),
    ("concat_axis_neg3_three", "Concat", [("a", [2, 3, 4]), ("b", [1, 3, 4])],
     [("c", (3, 3, 4))], {"axis": -3}),
    ("concat_axis1", "Concat", [("a", [2, 1, 4]), ("b", [2, 3, 4])], [],
     {"axis": 1}),
]


def _table_models():
    return {f"op_{suffix}": (lambda n=f"op_{suffix}", o=op, i=inp, c=ini, a=at:
                             single(n, o, i, a, c))
            for suffix, op, inp, ini, at in TABLE}


MODELS = {
    "mlp": build_mlp,
    "split_k_same_size": build_split_k_same_size,
    "conv_transpose_3d": build_conv_transpose_3d,
    "lenet": build_lenet,
    "cnn_misc": build_cnn_misc,
    **_binary_models(),
    **_unary_models(),
    **_table_models(),
    "op_softmax_axis_neg1": lambda: _softmax_model("op_softmax_axis_neg1", -1),
    "op_softmax_axis1": lambda: _softmax_model("op_softmax_axis1", 1),
    # Softmax's per-axis meaning dates from opset 13; an older opset import.
    "op_softmax_opset13": lambda: _softmax_model("op_softmax_opset13", 1, 13),
    "op_constant_tensor": lambda: _constant_model(
        "op_constant_tensor",
        {"value": numpy_helper.from_array(
            np.arange(-6, 6, dtype=np.float32).reshape(3, 4) / 4, "k")}),
    "op_constant_value_float": lambda: _constant_model(
        "op_constant_value_float", {"value_float": -0.625}),
}


def build(name):
    """Return the (checked) ModelProto of one model in MODELS."""
    return MODELS[name]()


def make_inputs(model, seed):
    """Reference inputs for every graph input: uniform [-1, 1), float32."""
    rng = np.random.default_rng(seed)
    inits = {i.name for i in model.graph.initializer}
    feeds = {}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        if tt.elem_type != TensorProto.FLOAT:
            raise ValueError(f"input {vi.name}: only float32 inputs are made")
        shape = [d.dim_value for d in tt.shape.dim]
        feeds[vi.name] = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    return feeds


def write_models(outdir, names=None):
    """Write OUTDIR/<name>.onnx for each name; returns {name: path}."""
    os.makedirs(outdir, exist_ok=True)
    paths = {}
    for name in names or sorted(MODELS):
        path = os.path.join(outdir, f"{name}.onnx")
        onnx.save_model(build(name), path)
        paths[name] = path
    return paths


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", nargs="?")
    p.add_argument("--only", nargs="+", metavar="NAME",
                   help="write only these models")
    p.add_argument("--list", action="store_true",
                   help="print the model names and exit")
    args = p.parse_args(argv)
    if args.list:
        print("\n".join(sorted(MODELS)))
        return 0
    if args.outdir is None:
        p.error("the output directory is required")
    unknown = sorted(set(args.only or []) - set(MODELS))
    if unknown:
        p.error(f"unknown model(s): {', '.join(unknown)}")
    for name, path in write_models(args.outdir, args.only).items():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
